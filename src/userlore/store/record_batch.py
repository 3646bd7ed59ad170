"""The batched governed write: many records for keys nothing held, in three statements.

The per-item path (``store/records.py``) and this one share :meth:`BatchInserts.record_values`,
the one definition of a new record's columns.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from types import SimpleNamespace
from typing import Any, cast

from sqlalchemy import Table, select
from sqlalchemy.orm import Session

from userlore.models import (
    CandidateInput,
    Disclosure,
    Pipeline,
    RecordState,
    Sensitivity,
    UserState,
)
from userlore.policy.govern import POLICY_REV, Assessment
from userlore.policy.sensitivity import redact
from userlore.store.admission import CandidateGate
from userlore.store.bulk_rows import insert_rows
from userlore.store.episodic_index import index_rows
from userlore.store.ids import derived_id, scoped_digest
from userlore.store.planner_stats import count_on_commit
from userlore.store.schema import (
    KnowledgeSourceItem,
    MemoryEvidence,
    MemoryRecord,
    MemoryRecordVersion,
    MemoryRelation,
)
from userlore.store.text import content_key, search_text
from userlore.store.vectors import VectorIndex, VectorKind
from userlore.store.views import word_diff

__all__ = ["BatchInserts", "EvidenceText", "FreshRecord"]

_RECORDS = cast(Table, MemoryRecord.__table__)
_VERSIONS = cast(Table, MemoryRecordVersion.__table__)
_EVIDENCE = cast(Table, MemoryEvidence.__table__)
_ITEMS = cast(Table, KnowledgeSourceItem.__table__)
_RELATIONS = cast(Table, MemoryRelation.__table__)


@dataclass(frozen=True, slots=True)
class EvidenceText:
    """A candidate's quote to store as a content-addressed evidence item (``evidence_text``).

    ``redacted`` is the text after :func:`redact`, when the caller already has it (a batch
    that classified the same text for the floor); otherwise it is redacted here.
    """

    text: str
    producer: str
    pipeline: Pipeline
    redacted: str | None = None


@dataclass(frozen=True, slots=True)
class FreshRecord:
    """An admitted candidate for a new record, with its (item id, relation) links.

    ``replaces``: the key's one live record, active, which this record supersedes as its next
    version (an edit of a held key); ``None`` for a key nothing held yet. ``record_id``: an id
    the caller made (in the per-item path's order); by default one is made here.
    """

    candidate: CandidateInput
    verdict: Assessment
    evidence: tuple[tuple[str, str], ...] = ()
    replaces: MemoryRecord | None = None
    record_id: str | None = None


class BatchInserts(CandidateGate):
    """New records' column values, and the bulk insert of fresh records."""

    vectors: VectorIndex | None = None
    """Embeds every record version and evidence item at commit, when embeddings are on."""

    def _stage_vector(
        self,
        session: Session,
        kind: VectorKind,
        scope: str,
        item_id: str,
        content: str,
        version: int = 0,
        *,
        fresh: bool = False,
    ) -> None:
        if self.vectors is not None:
            self.vectors.stage(
                session, kind, scope, item_id, content, self.clock(), version=version, fresh=fresh
            )

    def record_values(
        self,
        scope: str,
        c: CandidateInput,
        sensitivity: Sensitivity,
        category: str | None,
        disclosure: Disclosure,
        now: datetime,
        *,
        supersedes: str | None,
        version: int,
        record_id: str | None = None,
    ) -> dict[str, Any]:
        """The column values of a new candidate record: one definition for the ORM insert of
        :meth:`_insert` and the bulk insert of :meth:`insert_fresh`."""
        return {
            "id": self.new_id("mem") if record_id is None else record_id,
            "scope": scope,
            "path": c.path,
            "memory_type": c.memory_type.value,
            "kind": c.kind,
            "canonical_key": c.canonical_key,
            "content_key": content_key(c.content),
            "content": c.content.strip(),
            "value": c.value,
            "search_text": search_text(scope, c.content, c.value, c.canonical_key, c.path),
            "explicitness": c.explicitness.value,
            "durability": c.durability,
            "importance": c.importance,
            "confidence": c.confidence,
            "disclosure": disclosure.value,
            "sensitivity": sensitivity.value,
            "sensitivity_category": category,
            "valid_from": c.valid_from,
            "valid_until": c.valid_until,
            "review_after": None,
            "conflict_group": c.conflict_group,
            "pipeline": c.pipeline.value,
            "producer": c.producer.value,
            "state": RecordState.CANDIDATE.value,
            "state_before_delete": None,
            "user_state": UserState.AUTO.value,
            "version": version,
            "supersedes_record_id": supersedes,
            "stability": 0.0,
            "policy_rev": POLICY_REV,
            "evidence_count": 0,
            "author_agent_id": c.author_agent_id,
            "author_client": c.author_client,
            "author_device": c.author_device,
            "author_instance": c.author_instance,
            "thread_id": c.thread_id,
            "run_id": c.run_id,
            "created_at": now,
            "updated_at": now,
        }

    @staticmethod
    def quote_item(scope: str, quote: EvidenceText) -> tuple[tuple[str, str], str]:
        """The (source instance, external id) of ``quote``'s content-addressed item in
        ``scope``, and its text as stored (redacted)."""
        clean = quote.redacted if quote.redacted is not None else redact(quote.text)
        return (derived_id(quote.producer, scope), scoped_digest(scope, clean)), clean

    def evidence_items(
        self,
        session: Session,
        scope: str,
        quotes: Sequence[EvidenceText],
        ids: Sequence[str] | None = None,
    ) -> list[str]:
        """The batch form of :meth:`RecordWriter._evidence_item` for quotes: one item id each.

        Each quote is redacted and content-addressed exactly as the per-item path does it
        (same source instance, same external id), so either path finds the other's items.
        Items already stored are reused; the others are written by one multi-row insert (an
        insert-or-nothing, as the per-item path's), indexed and queued for embedding. The
        caller holds the scope's write lock.

        Args:
            ids: One id per quote, made by the caller in the per-item path's order (a new
                item takes its first quote's); by default one is made per distinct new quote.
        """
        now = self.clock()
        wanted: dict[tuple[str, str], dict[str, Any]] = {}
        keys: list[tuple[str, str]] = []
        sources: dict[str, str] = {}  # producer -> its source instance here (quote_item's)
        for at, q in enumerate(quotes):
            clean = q.redacted if q.redacted is not None else redact(q.text)
            source = sources.get(q.producer)
            if source is None:
                source = sources[q.producer] = derived_id(q.producer, scope)
            key = (source, scoped_digest(scope, clean))  # what quote_item gives, one id a batch
            keys.append(key)
            if key in wanted:
                continue
            wanted[key] = {
                "id": self.new_id("src") if ids is None else ids[at],
                "scope": scope,
                "source_instance_id": key[0],
                "external_id": key[1],
                "content_hash": hashlib.sha256(clean.encode("utf-8")).hexdigest(),
                "title": None,
                "text": clean,
                "meta": {},
                "occurred_at": now,
                "pipeline": q.pipeline.value,
                "blocked": clean != q.text,
                "synthesis_state": "done",
                "synthesis_attempts": 0,
                "created_at": now,
                "updated_at": now,
            }
        found = self._item_ids(session, scope, list(wanted))
        new = [row for key, row in wanted.items() if key not in found]
        if new:
            session.flush()
            inserted = insert_rows(
                session,
                _ITEMS,
                new,
                on_conflict="nothing",
                index_elements=("scope", "source_instance_id", "external_id"),
            )
            if inserted == len(new):  # every row landed: no other writer's item to read back
                written = new
                found.update({(r["source_instance_id"], r["external_id"]): r["id"] for r in new})
            else:
                found.update(self._item_ids(session, scope, [k for k in wanted if k not in found]))
                written = [
                    row
                    for row in new
                    if found[(row["source_instance_id"], row["external_id"])] == row["id"]
                ]
            index_rows(session, written, fresh_items=True)  # ids made above: no rows yet
            count_on_commit(session, "knowledge_source_items", len(written))
            for row in written:
                self._stage_vector(session, "evidence", scope, row["id"], row["text"], fresh=True)
        return [found[key] for key in keys]

    @staticmethod
    def _item_ids(
        session: Session, scope: str, keys: Sequence[tuple[str, str]]
    ) -> dict[tuple[str, str], str]:
        """The ids of the items of ``scope`` with these (source instance, external id) keys."""
        out: dict[tuple[str, str], str] = {}
        by_source: dict[str, list[str]] = {}
        for source, external in keys:
            by_source.setdefault(source, []).append(external)
        for source, externals in by_source.items():
            for at in range(0, len(externals), 500):
                part = externals[at : at + 500]
                for item_id, external in session.execute(
                    select(KnowledgeSourceItem.id, KnowledgeSourceItem.external_id).where(
                        KnowledgeSourceItem.scope == scope,
                        KnowledgeSourceItem.source_instance_id == source,
                        KnowledgeSourceItem.external_id.in_(part),
                    )
                ):
                    out[(source, external)] = item_id
        return out

    def insert_fresh(
        self, session: Session, scope: str, fresh: Sequence[FreshRecord], now: datetime
    ) -> list[MemoryRecord]:
        """Bulk-write new records in a few statements: first versions, and next versions.

        The batch form of :meth:`_insert` for a key nothing in ``scope`` ever held (version 1)
        and for an edit of a held key whose one live record is active (``replaces``: version
        n+1, its ``supersedes`` relation and word diff, the old record archived first), each
        with its snapshot and its evidence links (each evidence id must already be known to be
        in ``scope``), and activated at once when :meth:`_promotes` allows, as
        :meth:`_maybe_activate` does after a per-item write. Core inserts of plain rows, no ORM
        unit of work: the rows are returned as read-only attribute views (what
        :func:`record_view` reads), not session objects.
        """
        rows: list[dict[str, Any]] = []
        links: list[dict[str, Any]] = []
        archived = False
        for f in fresh:
            old = f.replaces
            values = self.record_values(
                scope,
                f.candidate,
                f.verdict.sensitivity,
                f.verdict.category,
                f.verdict.disclosure,
                now,
                supersedes=None if old is None else old.id,
                version=1 if old is None else old.version + 1,
                record_id=f.record_id,
            )
            links.extend(
                {
                    "scope": scope,
                    "record_id": values["id"],
                    "source_item_id": item_id,
                    "relation": relation,
                    "created_at": now,
                }
                for item_id, relation in f.evidence
            )
            values["evidence_count"] = len(f.evidence)
            if self.promotes(values["pipeline"], values["producer"]):
                values["state"] = RecordState.ACTIVE.value
                values["valid_from"] = values["valid_from"] or now
                if old is not None:  # the one active record of the key: archived before
                    self.transition(old, RecordState.ARCHIVED, now)
                    old.valid_until = now
                    archived = True
            rows.append(values)
        if not rows:
            return []
        if archived:  # one active record per key: the old ones leave before the new arrive
            session.flush()
        # A plain executemany, no RETURNING: psycopg 3 sends it as one pipeline of one prepared
        # statement, 3x faster here than the multi-row VALUES ("insertmanyvalues") RETURNING
        # asks for (200 records: 51-75 ms against 144-412 ms, benchmarks/ingest.py row).
        insert_rows(session, _RECORDS, rows)
        # Every caller of the batched write (puts, synthesis, the pipeline) is watched here.
        count_on_commit(session, "memory_records", len(rows))
        olds = [f.replaces for f in fresh]
        insert_rows(
            session,
            _VERSIONS,
            [
                {
                    "record_id": r["id"],
                    "scope": scope,
                    "version": r["version"],
                    "parent_version": None if old is None else old.version,
                    "content": r["content"],
                    "value": r["value"],
                    "diff": None if old is None else word_diff(old.content, r["content"]),
                    "author_agent_id": r["author_agent_id"],
                    "author_client": r["author_client"],
                    "author_device": r["author_device"],
                    "author_instance": r["author_instance"],
                    "created_at": now,
                }
                for r, old in zip(rows, olds, strict=True)
            ],
        )
        relations = [
            {
                "scope": scope,
                "from_record_id": r["id"],
                "to_record_id": old.id,
                "relation_type": "supersedes",
                "created_at": now,
            }
            for r, old in zip(rows, olds, strict=True)
            if old is not None
        ]
        if relations:  # new record ids: nothing to conflict with (the per-item path's
            insert_rows(session, _RELATIONS, relations)  # insert-or-nothing inserts these)
        if links:
            insert_rows(session, _EVIDENCE, links)
        for r in rows:  # embedded with the rest of the transaction's texts, in one call
            self._stage_vector(
                session, "record", scope, r["id"], r["content"], version=r["version"]
            )
        # The attribute view record_view needs; not a session object (nothing to flush).
        return [cast(MemoryRecord, SimpleNamespace(**r)) for r in rows]
