"""``KnowledgeSources``: the read-only operational views of connected sources, per scope.

Source items (normalized, redacted), the change ledger after a sequence, sync runs, and the
sources of a scope with their item counts and latest run, plus the ledger's consumer watermarks.
Every query is filtered by scope; nothing here writes records.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import case, func, select

from userlore.errors import InvalidInputError, RecordNotFoundError
from userlore.sources.ledger import ChangeLedger
from userlore.sources.views import (
    SYNTHESIS_STATES,
    SourceChangeView,
    SourceItemView,
    SourceStateView,
    SyncRunView,
)
from userlore.store.governed import GovernedStore, validate_scope
from userlore.store.schema import KnowledgeSourceItem, KnowledgeSourceState, KnowledgeSyncRun

__all__ = ["KnowledgeSources"]


def _item_view(row: KnowledgeSourceItem) -> SourceItemView:
    return SourceItemView(
        id=row.id,
        scope=row.scope,
        source_instance_id=row.source_instance_id,
        external_id=row.external_id,
        title=row.title,
        text=row.text,
        meta=dict(row.meta or {}),
        occurred_at=row.occurred_at,
        pipeline=row.pipeline,
        blocked=row.blocked,
        synthesis_state=row.synthesis_state,
        synthesis_attempts=row.synthesis_attempts,
        next_attempt_at=row.next_attempt_at,
        lease_owner=row.lease_owner,
        lease_expires_at=row.lease_expires_at,
        last_error=row.last_error,
        deleted_at=row.deleted_at,
        content_hash=row.content_hash,
        created_at=row.created_at,
        updated_at=row.updated_at,
    )


def _run_view(row: KnowledgeSyncRun) -> SyncRunView:
    warnings = row.warnings or {}
    messages = warnings.get("messages", []) if isinstance(warnings, dict) else []
    return SyncRunView(
        id=row.id,
        scope=row.scope,
        source_instance_id=row.source_instance_id,
        status=row.status,
        counts={k: int(v) for k, v in (row.counts or {}).items()},
        warnings=tuple(str(m) for m in messages),
        error=row.error,
        started_at=row.started_at,
        finished_at=row.finished_at,
    )


def _limit(limit: int, offset: int = 0) -> None:
    if not 1 <= limit <= 10_000 or offset < 0:
        raise InvalidInputError("limit must be within 1-10000 and offset >= 0")


class KnowledgeSources:
    """Read-only listings of connected-source state for one store."""

    def __init__(self, store: GovernedStore) -> None:
        self.store = store
        self.ledger = ChangeLedger(store)

    def items(
        self,
        scope: str,
        *,
        source_instance_id: str | None = None,
        synthesis_state: str | Sequence[str] | None = None,
        include_deleted: bool = False,
        limit: int = 100,
        offset: int = 0,
    ) -> list[SourceItemView]:
        """Source items of ``scope``, newest first (by time of the upstream object)."""
        validate_scope(scope)
        _limit(limit, offset)
        t = KnowledgeSourceItem
        stmt = select(t).where(t.scope == scope)
        if source_instance_id is not None:
            stmt = stmt.where(t.source_instance_id == source_instance_id)
        if synthesis_state is not None:
            states = (
                [synthesis_state] if isinstance(synthesis_state, str) else list(synthesis_state)
            )
            unknown = set(states) - set(SYNTHESIS_STATES)
            if unknown:
                raise InvalidInputError(f"unknown synthesis state(s) {sorted(unknown)}")
            stmt = stmt.where(t.synthesis_state.in_(states))
        if not include_deleted:
            stmt = stmt.where(t.deleted_at.is_(None))
        # NULLS LAST on both backends (PostgreSQL puts NULLs first when descending)
        stmt = stmt.order_by(t.occurred_at.desc().nulls_last(), t.id.desc())
        stmt = stmt.limit(limit).offset(offset)
        with self.store.transaction(scope) as session:
            return [_item_view(r) for r in session.scalars(stmt)]

    def item(self, scope: str, item_id: str) -> SourceItemView:
        """One source item of ``scope``.

        Raises:
            RecordNotFoundError: no such item in this scope.
        """
        validate_scope(scope)
        with self.store.transaction(scope) as session:
            row = session.scalars(
                select(KnowledgeSourceItem).where(
                    KnowledgeSourceItem.id == item_id, KnowledgeSourceItem.scope == scope
                )
            ).one_or_none()
            if row is None:
                raise RecordNotFoundError(f"no source item {item_id!r} in scope {scope!r}")
            return _item_view(row)

    def changes(
        self,
        scope: str,
        *,
        after_sequence: int = 0,
        limit: int = 1000,
        source_instance_id: str | None = None,
    ) -> list[SourceChangeView]:
        """Ledger entries of ``scope`` after ``after_sequence``, oldest first."""
        return self.ledger.changes(
            scope,
            after_sequence=after_sequence,
            limit=limit,
            source_instance_id=source_instance_id,
        )

    def sync_runs(
        self, scope: str, *, source_instance_id: str | None = None, limit: int = 50
    ) -> list[SyncRunView]:
        """Recorded sync runs of ``scope``, newest first."""
        validate_scope(scope)
        _limit(limit)
        stmt = select(KnowledgeSyncRun).where(KnowledgeSyncRun.scope == scope)
        if source_instance_id is not None:
            stmt = stmt.where(KnowledgeSyncRun.source_instance_id == source_instance_id)
        stmt = stmt.order_by(KnowledgeSyncRun.started_at.desc(), KnowledgeSyncRun.id.desc())
        with self.store.transaction(scope) as session:
            return [_run_view(r) for r in session.scalars(stmt.limit(limit))]

    def sources(self, scope: str) -> list[SourceStateView]:
        """The connected sources of ``scope``: indexed, pending and refused items, latest run."""
        validate_scope(scope)
        t = KnowledgeSourceItem
        counts = (
            select(
                t.source_instance_id,
                func.sum(case((t.deleted_at.is_(None), 1), else_=0)),
                func.sum(case((t.synthesis_state.in_(("pending", "running")), 1), else_=0)),
                func.sum(case((t.synthesis_state == "refused", 1), else_=0)),
            )
            .where(t.scope == scope)
            .group_by(t.source_instance_id)
        )
        with self.store.transaction(scope) as session:
            tally = {
                src: (int(n or 0), int(p or 0), int(r or 0))
                for src, n, p, r in session.execute(counts)
            }
            out: list[SourceStateView] = []
            states = session.scalars(
                select(KnowledgeSourceState)
                .where(KnowledgeSourceState.scope == scope)
                .order_by(KnowledgeSourceState.source_instance_id)
            )
            for state in states:
                latest = session.scalars(
                    select(KnowledgeSyncRun)
                    .where(
                        KnowledgeSyncRun.scope == scope,
                        KnowledgeSyncRun.source_instance_id == state.source_instance_id,
                    )
                    .order_by(KnowledgeSyncRun.started_at.desc(), KnowledgeSyncRun.id.desc())
                    .limit(1)
                ).one_or_none()
                items, pending, refused = tally.get(state.source_instance_id, (0, 0, 0))
                meta = dict(state.meta or {})
                out.append(
                    SourceStateView(
                        source_instance_id=state.source_instance_id,
                        scope=state.scope,
                        kind=state.kind,
                        label=str(meta.get("label") or state.source_instance_id),
                        items=items,
                        pending=pending,
                        updated_at=state.updated_at,
                        latest_run=_run_view(latest) if latest is not None else None,
                        meta=meta,
                        refused=refused,
                    )
                )
            return out

    # -- watermarks ---------------------------------------------------------------------------

    def watermark(self, scope: str, consumer: str) -> int:
        """The last ledger sequence ``consumer`` processed in ``scope``."""
        return self.ledger.watermark(scope, consumer)

    def advance_watermark(self, scope: str, consumer: str, sequence: int) -> int:
        """Move ``consumer``'s watermark forward (never back); returns the stored value."""
        return self.ledger.advance(scope, consumer, sequence)

    def pending_changes(
        self, scope: str, consumer: str, *, limit: int = 1000
    ) -> list[SourceChangeView]:
        """Changes after ``consumer``'s watermark, oldest first."""
        return self.ledger.pending(scope, consumer, limit=limit)

    def get(self, scope: str, source_instance_id: str) -> SourceStateView:
        """One connected source of ``scope``.

        Raises:
            RecordNotFoundError: the scope has no such source.
        """
        for state in self.sources(scope):
            if state.source_instance_id == source_instance_id:
                return state
        raise RecordNotFoundError(f"no source {source_instance_id!r} in scope {scope!r}")
