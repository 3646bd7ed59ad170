"""The change ledger: an ordered added/modified/deleted log with per-consumer watermarks.

Downstream consumers (an index, a synthesis step, a sync to another system) read only what
changed since their own watermark instead of rescanning source payloads. Sequences are assigned
in commit order within a scope: SQLite serializes writers, and on PostgreSQL every appending
transaction first takes its scope's transaction-scoped advisory lock, so a consumer (who reads
one scope) never sees sequence n+1 committed before n and can never skip a change by advancing
past it; two scopes append at the same time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from sqlalchemy import Table, func, insert, select, update
from sqlalchemy import text as sql_text
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from userlore.errors import InvalidInputError
from userlore.sources.leases import announce_work
from userlore.sources.views import SourceChangeView
from userlore.store.governed import GovernedStore, validate_scope
from userlore.store.schema import KnowledgeConsumerWatermark, KnowledgeSourceChange

__all__ = ["CHANGE_TYPES", "ChangeLedger"]

CHANGE_TYPES = ("added", "modified", "deleted")
_LEDGER_LOCK = sql_text("SELECT pg_advisory_xact_lock(hashtextextended(:k, 0))")
_MAX_CONSUMER = 200


def _view(row: KnowledgeSourceChange) -> SourceChangeView:
    return SourceChangeView(
        sequence=row.sequence,
        scope=row.scope,
        source_instance_id=row.source_instance_id,
        source_item_id=row.source_item_id,
        external_id=row.external_id,
        change_type=row.change_type,
        content_hash=row.content_hash,
        created_at=row.created_at,
    )


def _consumer(consumer: str) -> str:
    if not isinstance(consumer, str) or not consumer.strip() or len(consumer) > _MAX_CONSUMER:
        raise InvalidInputError(f"consumer id must be 1-{_MAX_CONSUMER} characters")
    return consumer


class ChangeLedger:
    """Append to and read the change ledger; keep consumers' monotonic watermarks."""

    def __init__(self, store: GovernedStore) -> None:
        self.store = store

    # -- writing (used by the ingestion service) ----------------------------------------------

    def lock(self, session: Session, scope: str) -> None:
        """Serialize one scope's ledger appends so its sequence order is commit order
        (PostgreSQL only; other scopes' appends do not wait)."""
        if session.get_bind().dialect.name == "postgresql":
            session.execute(_LEDGER_LOCK, {"k": f"userlore.ledger:{scope}"})

    def append(self, session: Session, entries: Sequence[dict[str, Any]]) -> None:
        """Append entries (``scope``, ``source_instance_id``, ``source_item_id``,
        ``external_id``, ``change_type``, ``content_hash``) in the given order."""
        if not entries:
            return
        now = self.store.clock()
        session.execute(
            insert(KnowledgeSourceChange), [{**entry, "created_at": now} for entry in entries]
        )
        announce_work(session)  # every change leaves an item pending: wake waiting workers

    # -- reading ------------------------------------------------------------------------------

    def changes(
        self,
        scope: str,
        *,
        after_sequence: int = 0,
        limit: int = 1000,
        source_instance_id: str | None = None,
    ) -> list[SourceChangeView]:
        """Changes of ``scope`` with a sequence greater than ``after_sequence``, oldest first."""
        validate_scope(scope)
        if after_sequence < 0 or not 1 <= limit <= 10_000:
            raise InvalidInputError("after_sequence must be >= 0 and limit within 1-10000")
        stmt = select(KnowledgeSourceChange).where(
            KnowledgeSourceChange.scope == scope,
            KnowledgeSourceChange.sequence > after_sequence,
        )
        if source_instance_id is not None:
            stmt = stmt.where(KnowledgeSourceChange.source_instance_id == source_instance_id)
        stmt = stmt.order_by(KnowledgeSourceChange.sequence).limit(limit)
        with self.store.transaction(scope) as session:
            return [_view(r) for r in session.scalars(stmt)]

    def head(self, scope: str) -> int:
        """The latest sequence of ``scope`` (0 when it has no changes)."""
        validate_scope(scope)
        with self.store.transaction(scope) as session:
            return int(
                session.scalar(
                    select(func.max(KnowledgeSourceChange.sequence)).where(
                        KnowledgeSourceChange.scope == scope
                    )
                )
                or 0
            )

    # -- watermarks ---------------------------------------------------------------------------

    def watermark(self, scope: str, consumer: str) -> int:
        """The last sequence ``consumer`` has processed in ``scope`` (0 at first)."""
        validate_scope(scope)
        _consumer(consumer)
        with self.store.transaction(scope) as session:
            return int(
                session.scalar(
                    select(KnowledgeConsumerWatermark.sequence).where(
                        KnowledgeConsumerWatermark.scope == scope,
                        KnowledgeConsumerWatermark.consumer_id == consumer,
                    )
                )
                or 0
            )

    def advance(self, scope: str, consumer: str, sequence: int) -> int:
        """Move ``consumer``'s watermark forward to ``sequence``; never backwards.

        Returns the watermark now stored (the larger of the old and the new value).

        Raises:
            InvalidInputError: ``sequence`` is negative or beyond the scope's latest change.
        """
        validate_scope(scope)
        _consumer(consumer)
        if sequence < 0 or sequence > self.head(scope):
            raise InvalidInputError(f"sequence {sequence} is outside this scope's ledger")
        now = self.store.clock()
        table = cast(Table, KnowledgeConsumerWatermark.__table__)
        with self.store.transaction(scope) as session:
            dialect = session.get_bind().dialect.name
            values = {"consumer_id": consumer, "scope": scope, "sequence": sequence}
            if dialect in ("sqlite", "postgresql"):
                ins = (sqlite_insert if dialect == "sqlite" else pg_insert)(table)
                greatest = func.max if dialect == "sqlite" else func.greatest
                stmt = ins.values(**values, updated_at=now).on_conflict_do_update(
                    index_elements=["consumer_id", "scope"],
                    set_={
                        "sequence": greatest(table.c.sequence, ins.excluded.sequence),
                        "updated_at": now,
                    },
                )
                session.execute(stmt)
            else:  # pragma: no cover - other dialects: compare-and-set
                done = session.execute(
                    update(KnowledgeConsumerWatermark)
                    .where(
                        KnowledgeConsumerWatermark.scope == scope,
                        KnowledgeConsumerWatermark.consumer_id == consumer,
                    )
                    .values(
                        sequence=func.greatest(KnowledgeConsumerWatermark.sequence, sequence),
                        updated_at=now,
                    )
                )
                if getattr(done, "rowcount", 0) == 0:
                    session.execute(
                        insert(KnowledgeConsumerWatermark), {**values, "updated_at": now}
                    )
            return int(
                session.scalar(
                    select(KnowledgeConsumerWatermark.sequence).where(
                        KnowledgeConsumerWatermark.scope == scope,
                        KnowledgeConsumerWatermark.consumer_id == consumer,
                    )
                )
                or 0
            )

    def pending(self, scope: str, consumer: str, *, limit: int = 1000) -> list[SourceChangeView]:
        """Changes ``consumer`` has not processed yet (after its watermark), oldest first."""
        return self.changes(scope, after_sequence=self.watermark(scope, consumer), limit=limit)
