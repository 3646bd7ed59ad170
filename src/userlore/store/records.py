"""Writing records: candidate validation, evidence links, inserts, versions and snapshots."""

# Over 400 lines: one governed write's steps (admit, evidence, insert, version) change together.

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from types import SimpleNamespace
from typing import Any, cast

from sqlalchemy import Table, insert, select
from sqlalchemy.orm import Session

from userlore.config import MemoryMode
from userlore.errors import InvalidInputError, PolicyViolationError, RecordNotFoundError
from userlore.models import (
    CandidateInput,
    Disclosure,
    Explicitness,
    MemoryType,
    Pipeline,
    Producer,
    RecordKind,
    RecordState,
    Sensitivity,
    UserState,
    WriteAction,
    WriteOutcome,
)
from userlore.policy.govern import POLICY_REV, Assessment, assess
from userlore.policy.sensitivity import redact
from userlore.policy.session_keys import checked_session_key
from userlore.store.episodic_index import index_item
from userlore.store.ids import derived_id, scoped_digest
from userlore.store.schema import (
    KnowledgeSourceItem,
    MemoryEvidence,
    MemoryRecord,
    MemoryRecordVersion,
    MemoryRelation,
)
from userlore.store.text import content_key, search_text
from userlore.store.transitions import Transitions
from userlore.store.vectors import VectorIndex, VectorKind
from userlore.store.views import record_view, word_diff
from userlore.validation import (
    bounded,
    enum_field,
    identifier,
    optional_identifier,
    optional_instant,
    optional_text,
    text_field,
    unit_interval,
    validate_path,
)

__all__ = ["PRODUCER_SOURCE", "FreshRecord", "RecordWriter"]

_RECORDS = cast(Table, MemoryRecord.__table__)
_VERSIONS = cast(Table, MemoryRecordVersion.__table__)
_EVIDENCE = cast(Table, MemoryEvidence.__table__)

PRODUCER_SOURCE = {
    Producer.EXPLICIT: "session",
    Producer.REVIEWER: "session",
    Producer.FACET: "session",
    Producer.TOOL: "curated",
    Producer.USER: "curated",
    Producer.SOURCE: "connected",
}


_ENUM_FIELDS: tuple[tuple[type[StrEnum], str], ...] = (
    (MemoryType, "memory_type"),
    (Explicitness, "explicitness"),
    (Producer, "producer"),
    (Pipeline, "pipeline"),
    (Disclosure, "disclosure"),
)


_BOUNDED_FIELDS = (
    "author_agent_id",
    "author_client",
    "author_device",
    "author_instance",
    "thread_id",
    "run_id",
)


@dataclass(frozen=True, slots=True)
class FreshRecord:
    """An admitted candidate for a key nothing held yet, with its (item id, relation) links."""

    candidate: CandidateInput
    verdict: Assessment
    evidence: tuple[tuple[str, str], ...] = ()


class RecordWriter(Transitions):
    """The building blocks of a governed write, shared by govern, govern_upsert and edits."""

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
    ) -> None:
        if self.vectors is not None:
            self.vectors.stage(
                session, kind, scope, item_id, content, self.clock(), version=version
            )

    def add_source_item(
        self,
        session: Session,
        *,
        scope: str,
        source_instance_id: str,
        external_id: str,
        text: str,
        pipeline: Pipeline = Pipeline.USER_UNDERSTANDING,
        title: str | None = None,
        meta: dict[str, Any] | None = None,
        occurred_at: datetime | None = None,
        synthesis_state: str = "done",
    ) -> KnowledgeSourceItem:
        """Store (or find) one redacted, content-addressed evidence item."""
        bounded("source_instance_id", source_instance_id, 300)
        bounded("external_id", external_id, 500)
        now = self.clock()
        clean = redact(text)
        blocked = clean != text
        digest = hashlib.sha256(clean.encode("utf-8")).hexdigest()
        existing = session.scalars(
            select(KnowledgeSourceItem).where(
                KnowledgeSourceItem.scope == scope,
                KnowledgeSourceItem.source_instance_id == source_instance_id,
                KnowledgeSourceItem.external_id == external_id,
            )
        ).one_or_none()
        if existing is not None:
            if existing.content_hash != digest:
                existing.text, existing.content_hash, existing.updated_at = clean, digest, now
                index_item(session, existing)
                self._stage_vector(session, "evidence", scope, existing.id, clean)
            return existing
        item = KnowledgeSourceItem(
            id=self.new_id("src"),
            scope=scope,
            source_instance_id=source_instance_id,
            external_id=external_id,
            content_hash=digest,
            title=redact(title)[:500] if title else None,
            text=clean,
            meta=meta or {},
            occurred_at=occurred_at or now,
            pipeline=pipeline.value,
            blocked=blocked,
            synthesis_state=synthesis_state,
            synthesis_attempts=0,
            created_at=now,
            updated_at=now,
        )
        session.add(item)
        session.flush()
        index_item(session, item)
        self._stage_vector(session, "evidence", scope, item.id, clean)
        return item

    def validate_candidate(self, c: CandidateInput) -> None:
        """Every field of a candidate, typed, before anything is written (``validation``)."""
        limit = self.config.max_content_chars
        text_field(c.content, "content", max_chars=limit)
        optional_text(c.value, "value", max_chars=limit)
        enum_field(RecordKind, c.kind, "kind")
        for enum_type, name in _ENUM_FIELDS:
            enum_field(enum_type, getattr(c, name), name)
        validate_path(c.path)
        optional_identifier(c.canonical_key, "canonical_key", max_chars=300)
        unit_interval(c.confidence, "confidence")
        unit_interval(c.importance, "importance")
        valid_from = optional_instant(c.valid_from, "valid_from")
        valid_until = optional_instant(c.valid_until, "valid_until")
        if valid_from and valid_until and valid_until <= valid_from:
            raise InvalidInputError("valid_until must be after valid_from")
        for name in _BOUNDED_FIELDS:
            bounded(name, getattr(c, name), 200)
        checked_session_key(c.session_key)
        bounded("conflict_group", c.conflict_group, 300)
        bounded("sensitivity_claim", c.sensitivity_claim, 40)
        identifier(c.durability, "durability", max_chars=20)
        optional_identifier(c.supersedes_record_id, "supersedes_record_id")
        optional_identifier(c.source_item_id, "source_item_id")
        optional_text(c.evidence_text, "evidence_text", max_chars=None)

    def source_enabled(self, producer: Producer) -> bool:
        """Whether ``memory.sources`` lets this producer's source (session, curated...) write."""
        return PRODUCER_SOURCE[producer] in self.config.memory.sources

    def admit(
        self, session: Session, scope: str, candidate: CandidateInput
    ) -> Assessment | WriteOutcome:
        """The gate of every governed write: fields, memory mode, enabled source, safety floor.

        Returns the :class:`Assessment` (what the candidate may become), or the
        :class:`WriteOutcome` that ends the write here: skipped, or refused with a traced
        reason code.

        Raises:
            InvalidInputError: a field of the candidate is malformed.
        """
        self.validate_candidate(candidate)
        mode = self.config.memory.mode
        if mode is MemoryMode.OFF:
            return WriteOutcome(WriteAction.SKIPPED, reason="memory_off")
        if mode is MemoryMode.READ_ONLY:
            return WriteOutcome(WriteAction.SKIPPED, reason="read_only")
        if not self.source_enabled(candidate.producer):
            return WriteOutcome(WriteAction.SKIPPED, reason="source_disabled")
        verdict = assess(candidate)
        if verdict.refused is not None:
            self.trace(
                session,
                scope,
                "governance",
                reason_code=verdict.refused,
                session_key=candidate.session_key,
                payload={"producer": candidate.producer.value, "kind": candidate.kind},
            )
            return WriteOutcome(WriteAction.REFUSED, reason=verdict.refused)
        return verdict

    @staticmethod
    def _own_record_id(session: Session, scope: str, record_id: str) -> str:
        """``record_id`` if it names a record of ``scope``; the error is the same whether the id
        exists in another scope or nowhere, so it reveals nothing outside the caller's scope."""
        found = session.scalar(
            select(MemoryRecord.id).where(MemoryRecord.scope == scope, MemoryRecord.id == record_id)
        )
        if found is None:
            raise RecordNotFoundError(
                f"supersedes_record_id {record_id!r} names no record in this scope"
            )
        return found

    def _evidence_item(self, session: Session, scope: str, c: CandidateInput) -> str | None:
        if c.source_item_id is not None:
            found = session.scalar(
                select(KnowledgeSourceItem.id).where(
                    KnowledgeSourceItem.scope == scope,
                    KnowledgeSourceItem.id == c.source_item_id,
                )
            )
            if found is None:
                raise RecordNotFoundError(
                    f"source_item_id {c.source_item_id!r} names no source item in this scope"
                )
            return found
        if not c.evidence_text:
            return None
        digest = scoped_digest(scope, redact(c.evidence_text))
        item = self.add_source_item(
            session,
            scope=scope,
            source_instance_id=derived_id(c.producer.value, scope),
            external_id=digest,
            text=c.evidence_text,
            pipeline=c.pipeline,
        )
        return item.id

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
    ) -> dict[str, Any]:
        """The column values of a new candidate record: one definition for the ORM insert of
        :meth:`_insert` and the bulk insert of :meth:`insert_fresh`."""
        return {
            "id": self.new_id("mem"),
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

    def _insert(
        self,
        session: Session,
        scope: str,
        c: CandidateInput,
        sensitivity: Sensitivity,
        category: str | None,
        disclosure: Disclosure,
        now: datetime,
        *,
        supersedes: str | None,
        version: int,
        parent: MemoryRecord | None,
    ) -> MemoryRecord:
        row = MemoryRecord(
            **self.record_values(
                scope,
                c,
                sensitivity,
                category,
                disclosure,
                now,
                supersedes=supersedes,
                version=version,
            )
        )
        session.add(row)
        session.flush()
        self._stage_vector(session, "record", scope, row.id, row.content, version=version)
        diff = word_diff(parent.content, row.content) if parent is not None else None
        self._snapshot(session, row, parent.version if parent else None, diff, now)
        if supersedes:
            self._relate(session, scope, row.id, supersedes, "supersedes", now)
        return row

    def insert_fresh(
        self, session: Session, scope: str, fresh: Sequence[FreshRecord], now: datetime
    ) -> list[MemoryRecord]:
        """Bulk-write records for keys nothing in ``scope`` ever held, in three statements.

        The batch form of a first :meth:`_insert`: every record at version 1 with its snapshot,
        its evidence links (each evidence id must already be known to be in ``scope``), and
        activated at once when :meth:`_promotes` allows, since no live record holds its key.
        Core inserts of plain rows, no ORM unit of work: the rows are returned as read-only
        attribute views (what :func:`record_view` reads), not session objects.
        """
        rows: list[dict[str, Any]] = []
        links: list[dict[str, Any]] = []
        for f in fresh:
            values = self.record_values(
                scope,
                f.candidate,
                f.verdict.sensitivity,
                f.verdict.category,
                f.verdict.disclosure,
                now,
                supersedes=None,
                version=1,
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
            rows.append(values)
        if not rows:
            return []
        # RETURNING makes SQLAlchemy send multi-row VALUES ("insertmanyvalues"), a statement
        # per thousand rows, where a plain executemany is a round trip per row on psycopg.
        session.execute(insert(_RECORDS).returning(_RECORDS.c.seq), rows)
        session.execute(
            insert(_VERSIONS).returning(_VERSIONS.c.id),
            [
                {
                    "record_id": r["id"],
                    "scope": scope,
                    "version": 1,
                    "parent_version": None,
                    "content": r["content"],
                    "value": r["value"],
                    "diff": None,
                    "author_agent_id": r["author_agent_id"],
                    "author_client": r["author_client"],
                    "author_device": r["author_device"],
                    "author_instance": r["author_instance"],
                    "created_at": now,
                }
                for r in rows
            ],
        )
        if links:
            session.execute(insert(_EVIDENCE).returning(_EVIDENCE.c.id), links)
        # The attribute view record_view needs; not a session object (nothing to flush).
        return [cast(MemoryRecord, SimpleNamespace(**r)) for r in rows]

    def _snapshot(
        self,
        session: Session,
        row: MemoryRecord,
        parent: int | None,
        diff: str | None,
        now: datetime,
    ) -> None:
        session.add(
            MemoryRecordVersion(
                record_id=row.id,
                scope=row.scope,
                version=row.version,
                parent_version=parent,
                content=row.content,
                value=row.value,
                diff=diff,
                author_agent_id=row.author_agent_id,
                author_client=row.author_client,
                author_device=row.author_device,
                author_instance=row.author_instance,
                created_at=now,
            )
        )

    def _relate(
        self, session: Session, scope: str, src: str, dst: str, kind: str, now: datetime
    ) -> None:
        exists = session.scalar(
            select(MemoryRelation.id).where(
                MemoryRelation.scope == scope,
                MemoryRelation.from_record_id == src,
                MemoryRelation.to_record_id == dst,
                MemoryRelation.relation_type == kind,
            )
        )
        if exists is None:
            session.add(
                MemoryRelation(
                    scope=scope,
                    from_record_id=src,
                    to_record_id=dst,
                    relation_type=kind,
                    created_at=now,
                )
            )

    def link_evidence(
        self,
        session: Session,
        row: MemoryRecord,
        item_id: str | None,
        now: datetime,
        relation: str = "stated_in",
    ) -> bool:
        if item_id is None:
            return False
        exists = session.scalar(
            select(MemoryEvidence.id).where(
                MemoryEvidence.scope == row.scope,
                MemoryEvidence.record_id == row.id,
                MemoryEvidence.source_item_id == item_id,
                MemoryEvidence.relation == relation,
            )
        )
        if exists is not None:
            return False
        session.add(
            MemoryEvidence(
                scope=row.scope,
                record_id=row.id,
                source_item_id=item_id,
                relation=relation,
                created_at=now,
            )
        )
        row.evidence_count += 1
        return True

    def _reinforce(
        self,
        session: Session,
        row: MemoryRecord,
        c: CandidateInput,
        item_id: str | None,
        now: datetime,
    ) -> WriteOutcome:
        added = self.link_evidence(session, row, item_id, now)
        if added or item_id is None:
            bump = 0.05 if c.explicitness is Explicitness.EXPLICIT else 0.02
            row.confidence = round(min(0.99, max(row.confidence, c.confidence) + bump), 4)
            row.importance = max(row.importance, c.importance)
            if c.explicitness is Explicitness.EXPLICIT:
                row.explicitness = Explicitness.EXPLICIT.value
            row.updated_at = now
        self._maybe_activate(session, row, now)
        return WriteOutcome(WriteAction.REINFORCED, record_view(row))

    def _checked_edit(
        self,
        session: Session,
        row: MemoryRecord,
        content: str,
        value: str | None,
        now: datetime,
        author: CandidateInput | None = None,
    ) -> None:
        probe = CandidateInput(
            kind=row.kind,
            content=content,
            value=value,
            canonical_key=row.canonical_key,
            path=row.path,
        )
        self.validate_candidate(probe)
        verdict = assess(probe)
        if verdict.refused is not None:
            self.trace(
                session,
                row.scope,
                "governance",
                reason_code=verdict.refused,
                payload={"record_id": row.id, "operation": "update"},
            )
            raise PolicyViolationError(f"update refused: content is {verdict.refused}")
        source = author or CandidateInput(kind=row.kind, content=content)
        self._new_version(session, row, content, value, source, now)
        row.sensitivity = verdict.sensitivity.value
        row.sensitivity_category = verdict.category
        if verdict.disclosure is not Disclosure.NORMAL:
            row.disclosure = verdict.disclosure.value

    def _new_version(
        self,
        session: Session,
        row: MemoryRecord,
        content: str,
        value: str | None,
        author: CandidateInput,
        now: datetime,
    ) -> None:
        old = row.content
        parent = row.version
        row.content = content.strip()
        row.value = value if value is not None else (row.value if not row.canonical_key else value)
        row.content_key = content_key(row.content)
        row.search_text = search_text(
            row.scope, row.content, row.value, row.canonical_key, row.path
        )
        row.version = parent + 1
        row.policy_rev = POLICY_REV
        row.updated_at = now
        who = (
            author.author_agent_id,
            author.author_client,
            author.author_device,
            author.author_instance,
        )
        # A named author owns the whole attribution of the new version; an anonymous edit
        # (an approval with edits) keeps the previous one rather than inventing fields.
        if any(who):
            (row.author_agent_id, row.author_client, row.author_device, row.author_instance) = who
        session.flush()
        self._stage_vector(session, "record", row.scope, row.id, row.content, version=row.version)
        self._snapshot(session, row, parent, word_diff(old, row.content), now)
