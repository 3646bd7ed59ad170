"""Writing one record: evidence items and links, inserts, versions, snapshots, edits.

A governed write's steps, per item. Its gate (``admit``) is ``store/admission.py``; the batched
write of many fresh records, and the one definition of a new record's columns, is
``store/record_batch.py``.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, select
from sqlalchemy.orm import Session

from userlore.errors import PolicyViolationError, RecordNotFoundError
from userlore.models import (
    CandidateInput,
    Disclosure,
    Explicitness,
    Pipeline,
    Sensitivity,
    WriteAction,
    WriteOutcome,
)
from userlore.policy.govern import POLICY_REV, FloorVerdict, assess
from userlore.policy.sensitivity import SensitivityReport, redact
from userlore.store.concurrency import dialect_insert
from userlore.store.episodic_index import index_item
from userlore.store.ids import derived_id, scoped_digest
from userlore.store.record_batch import BatchInserts
from userlore.store.schema import (
    KnowledgeSourceItem,
    MemoryEvidence,
    MemoryRecord,
    MemoryRecordVersion,
    MemoryRelation,
)
from userlore.store.text import content_key, search_text
from userlore.store.views import record_view, word_diff
from userlore.validation import bounded

__all__ = ["RecordWriter"]

_EVIDENCE = cast(Table, MemoryEvidence.__table__)
_ITEMS = cast(Table, KnowledgeSourceItem.__table__)
_RELATIONS = cast(Table, MemoryRelation.__table__)


class RecordWriter(BatchInserts):
    """The building blocks of a governed write, shared by govern, govern_upsert and edits."""

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
        report: SensitivityReport | None = None,
    ) -> KnowledgeSourceItem:
        """Store (or find) one redacted, content-addressed evidence item.

        ``report``: the floor's :func:`classify` of ``text`` when the caller has read it already
        (a turn is read once for its evidence and its statements).
        """
        return self._source_item(
            session,
            scope=scope,
            source_instance_id=source_instance_id,
            external_id=external_id,
            text=text,
            clean=redact(text, report),
            pipeline=pipeline,
            title=title,
            meta=meta,
            occurred_at=occurred_at,
            synthesis_state=synthesis_state,
        )

    def _source_item(
        self,
        session: Session,
        *,
        scope: str,
        source_instance_id: str,
        external_id: str,
        text: str,
        clean: str,
        pipeline: Pipeline,
        title: str | None = None,
        meta: dict[str, Any] | None = None,
        occurred_at: datetime | None = None,
        synthesis_state: str = "done",
    ) -> KnowledgeSourceItem:
        """:meth:`add_source_item` of ``text`` already redacted to ``clean``."""
        bounded("source_instance_id", source_instance_id, 300)
        bounded("external_id", external_id, 500)
        now = self.clock()
        blocked = clean != text
        digest = hashlib.sha256(clean.encode("utf-8")).hexdigest()
        values = {
            "id": self.new_id("src"),
            "scope": scope,
            "source_instance_id": source_instance_id,
            "external_id": external_id,
            "content_hash": digest,
            "title": redact(title)[:500] if title else None,
            "text": clean,
            "meta": meta or {},
            "occurred_at": occurred_at or now,
            "pipeline": pipeline.value,
            "blocked": blocked,
            "synthesis_state": synthesis_state,
            "synthesis_attempts": 0,
            "created_at": now,
            "updated_at": now,
        }
        # Insert-or-get in one statement: a concurrent writer of the same item gets its row.
        session.flush()
        inserted = session.execute(
            dialect_insert(session, _ITEMS)
            .values(values)
            .on_conflict_do_nothing(index_elements=["scope", "source_instance_id", "external_id"])
            .returning(_ITEMS.c.id)
        ).first()
        item = session.scalars(
            select(KnowledgeSourceItem).where(
                KnowledgeSourceItem.scope == scope,
                KnowledgeSourceItem.source_instance_id == source_instance_id,
                KnowledgeSourceItem.external_id == external_id,
            )
        ).one()
        if inserted is None and item.content_hash == digest:
            return item
        if inserted is None:
            item.text, item.content_hash, item.updated_at = clean, digest, now
            session.flush()
        index_item(session, item)
        self._stage_vector(session, "evidence", scope, item.id, clean, fresh=inserted is not None)
        return item

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

    def _evidence_item(
        self,
        session: Session,
        scope: str,
        c: CandidateInput,
        judged: FloorVerdict | None = None,
    ) -> str | None:
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
        # The floor's verdict on this very candidate can show the quote needs no redaction.
        clean = None if judged is None else judged.clean_quote(c)
        if clean is None:
            clean = redact(c.evidence_text)
        item = self._source_item(
            session,
            scope=scope,
            source_instance_id=derived_id(c.producer.value, scope),
            external_id=scoped_digest(scope, clean),
            text=c.evidence_text,
            clean=clean,
            pipeline=c.pipeline,
        )
        return item.id

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
        session.flush()
        session.execute(
            dialect_insert(session, _RELATIONS)
            .values(
                scope=scope,
                from_record_id=src,
                to_record_id=dst,
                relation_type=kind,
                created_at=now,
            )
            .on_conflict_do_nothing(
                index_elements=["from_record_id", "to_record_id", "relation_type"]
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
        """Link ``row`` to evidence ``item_id`` once; ``True`` when this call added the link.

        One statement (insert, or nothing when the link exists), so two writers reinforcing
        one record with one item never collide on the unique link.
        """
        if item_id is None:
            return False
        session.flush()
        added = session.execute(
            dialect_insert(session, _EVIDENCE)
            .values(
                scope=row.scope,
                record_id=row.id,
                source_item_id=item_id,
                relation=relation,
                created_at=now,
            )
            .on_conflict_do_nothing(index_elements=["record_id", "source_item_id", "relation"])
            .returning(_EVIDENCE.c.id)
        ).first()
        if added is None:
            return False
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
        *,
        flush: bool = True,
    ) -> None:
        """Make ``content`` version n+1 of ``row`` and snapshot it; ``flush=False`` leaves the
        update to the caller's next flush (a batch writes many in one)."""
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
        if flush:
            session.flush()
        self._stage_vector(session, "record", row.scope, row.id, row.content, version=row.version)
        self._snapshot(session, row, parent, word_diff(old, row.content), now)
