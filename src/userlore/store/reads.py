"""Reads of single records and their history, evidence and counts (no policy filter: owner view)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, select

from userlore.models import RecordState, RecordView
from userlore.store.core import StoreCore
from userlore.store.schema import (
    KnowledgeSourceItem,
    MemoryEvidence,
    MemoryRecord,
    MemoryRecordVersion,
)
from userlore.store.views import VersionView, path_clause, record_view
from userlore.validation import validate_scope

__all__ = ["RecordReads"]


class RecordReads(StoreCore):
    """The owner's view of records: what is stored, not what the planner may show."""

    def get(self, scope: str | None, record_id: str) -> RecordView:
        with self.transaction(scope) as session:
            return record_view(self.get_row(session, scope, record_id))

    def list_records(
        self,
        scope: str,
        *,
        state: RecordState | Sequence[RecordState] | None = None,
        kind: str | None = None,
        path_prefix: str | None = None,
        limit: int = 1000,
    ) -> list[RecordView]:
        """Records of a scope, newest first; ``state=None`` lists every non-deleted record."""
        validate_scope(scope)
        stmt = select(MemoryRecord).where(MemoryRecord.scope == scope)
        if state is None:
            stmt = stmt.where(MemoryRecord.state != RecordState.DELETED.value)
        else:
            states = [state] if isinstance(state, RecordState) else list(state)
            stmt = stmt.where(MemoryRecord.state.in_([s.value for s in states]))
        if kind is not None:
            stmt = stmt.where(MemoryRecord.kind == kind)
        stmt = stmt.where(*path_clause(path_prefix))
        stmt = stmt.order_by(MemoryRecord.seq.desc()).limit(limit)
        with self.transaction(scope) as session:
            return [record_view(r) for r in session.scalars(stmt)]

    def history(self, scope: str | None, record_id: str) -> list[VersionView]:
        """Every version of a record, oldest first, following the records it superseded."""
        with self.transaction(scope) as session:
            row = self.get_row(session, scope, record_id)
            chain = [row]
            while chain[-1].supersedes_record_id and len(chain) < 1000:
                older = session.scalars(
                    select(MemoryRecord).where(
                        MemoryRecord.id == chain[-1].supersedes_record_id,
                        MemoryRecord.scope == row.scope,
                    )
                ).one_or_none()
                if older is None or older in chain:
                    break
                chain.append(older)
            snaps = session.scalars(
                select(MemoryRecordVersion)
                .where(
                    MemoryRecordVersion.scope == row.scope,
                    MemoryRecordVersion.record_id.in_([r.id for r in chain]),
                )
                .order_by(MemoryRecordVersion.version, MemoryRecordVersion.id)
            )
            return [
                VersionView(
                    s.record_id,
                    s.version,
                    s.parent_version,
                    s.content,
                    s.value,
                    s.diff,
                    s.record_id == row.id and s.version == row.version,
                    s.created_at,
                    s.author_agent_id,
                    s.author_client,
                    s.author_device,
                    s.author_instance,
                )
                for s in snaps
            ]

    def evidence(self, scope: str | None, record_id: str) -> list[dict[str, Any]]:
        """Redacted evidence items linked to a record (the receipts)."""
        with self.transaction(scope) as session:
            row = self.get_row(session, scope, record_id)
            rows = session.execute(
                select(MemoryEvidence.relation, KnowledgeSourceItem)
                .join(
                    KnowledgeSourceItem,
                    (KnowledgeSourceItem.scope == MemoryEvidence.scope)
                    & (KnowledgeSourceItem.id == MemoryEvidence.source_item_id),
                )
                .where(MemoryEvidence.record_id == row.id, MemoryEvidence.scope == row.scope)
                .order_by(MemoryEvidence.id)
            )
            return [
                {
                    "source_item_id": item.id,
                    "relation": rel,
                    "text": item.text,
                    "source": item.source_instance_id,
                    "external_id": item.external_id,
                    "occurred_at": item.occurred_at,
                }
                for rel, item in rows
            ]

    def count(self, scope: str) -> int:
        with self.transaction(scope) as session:
            return int(
                session.scalar(
                    select(func.count())
                    .select_from(MemoryRecord)
                    .where(MemoryRecord.scope == scope)
                )
                or 0
            )
