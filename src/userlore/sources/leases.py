"""Leases on source items: how a :class:`~userlore.sources.pipeline.ConnectedKnowledgePipeline`
worker claims, keeps and hands back work.

A claim is one conditional ``UPDATE ... RETURNING`` (with ``FOR UPDATE SKIP LOCKED`` on
PostgreSQL), so two workers never hold the same item; it stamps the item with a fresh lease token
and counts the attempt. The token names the holding process (see :mod:`userlore.sources.holder`):
a holder that is gone holds nothing, so a worker on the same host takes its items over at once,
otherwise when the lease expires. Releasing hands items still held back to pending without
counting the attempt.
"""

from __future__ import annotations

import logging
import os
import socket
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import ColumnElement, Table, and_, case, or_, select, update

from userlore.models import Pipeline
from userlore.sources.holder import holder_gone
from userlore.store.governed import GovernedStore
from userlore.store.schema import KnowledgeSourceItem

__all__ = ["TOKEN_CHARS", "ClaimedItem", "LeaseHolder", "default_worker_id", "token_holder"]

log = logging.getLogger(__name__)

TOKEN_CHARS = 200
"""Width of the ``lease_owner`` column a lease token must fit."""
_ITEMS = cast(Table, KnowledgeSourceItem.__table__)


def token_holder(token: str | None) -> str | None:
    """The holder process named by a lease token (``None`` for tokens without one)."""
    if not token or "#" not in token:
        return None
    _, _, rest = token.rpartition("#")
    return rest.partition("@")[2] or None


@dataclass(frozen=True, slots=True)
class ClaimedItem:
    """One leased item, as the worker that holds the lease sees it."""

    id: str
    scope: str
    source_instance_id: str
    external_id: str
    title: str | None
    text: str
    meta: dict[str, Any]
    occurred_at: datetime | None
    pipeline: Pipeline
    blocked: bool
    deleted: bool
    attempts: int
    lease_token: str


def default_worker_id() -> str:
    """A worker name unique enough for lease tokens: host, pid and a random suffix."""
    return f"{socket.gethostname()[:80]}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


class LeaseHolder:
    """Claiming, heartbeats and release of source items, for a worker that sets these
    attributes (:class:`~userlore.sources.pipeline.ConnectedKnowledgePipeline` does)."""

    store: GovernedStore
    holder: str
    worker_id: str
    lease: timedelta
    batch_size: int

    def new_token(self) -> str:
        """A fresh lease token: ``<worker id>#<nonce>@<holder>`` (the worker id cut to fit)."""
        tail = f"#{uuid.uuid4().hex[:12]}@{self.holder}"
        return f"{self.worker_id[: TOKEN_CHARS - len(tail)]}{tail}"

    def _gone_tokens(
        self, now: datetime, scope: str | None, source_instance_id: str | None
    ) -> list[str]:
        """Unexpired lease tokens whose holder process is certainly gone (same host)."""
        t = _ITEMS.c
        stmt = (
            select(t.lease_owner)
            .where(t.synthesis_state == "running", t.lease_expires_at > now)
            .distinct()
        )
        if scope is not None:
            stmt = stmt.where(t.scope == scope)
        if source_instance_id is not None:
            stmt = stmt.where(t.source_instance_id == source_instance_id)
        with self.store.connection() as conn:
            owners = [o for o in conn.scalars(stmt) if o]
        gone = [o for o in owners if holder_gone(token_holder(o))]
        if gone:
            log.info("reclaiming the leases of %d holder(s) that are gone", len(gone))
        return gone

    def claim(
        self,
        limit: int | None = None,
        *,
        scope: str | None = None,
        source_instance_id: str | None = None,
    ) -> list[ClaimedItem]:
        """Lease up to ``limit`` due items: pending and due, or running with an expired lease
        or a holder that is gone (a process of this host that has ended)."""
        store = self.store
        now = store.clock()
        token = self.new_token()
        t = _ITEMS.c
        taken_over: ColumnElement[bool] = t.lease_expires_at <= now
        gone = self._gone_tokens(now, scope, source_instance_id)
        if gone:
            taken_over = or_(taken_over, t.lease_owner.in_(gone))
        due = or_(
            and_(
                t.synthesis_state == "pending",
                or_(t.next_attempt_at.is_(None), t.next_attempt_at <= now),
            ),
            and_(t.synthesis_state == "running", taken_over),
        )
        pick = select(t.id).where(due)
        if scope is not None:
            pick = pick.where(t.scope == scope)
        if source_instance_id is not None:
            pick = pick.where(t.source_instance_id == source_instance_id)
        pick = pick.limit(limit or self.batch_size)
        if store.engine.dialect.name == "postgresql":
            pick = pick.with_for_update(skip_locked=True)
        stmt = (
            update(_ITEMS)
            .where(t.id.in_(pick))
            .values(
                synthesis_state="running",
                lease_owner=token,
                lease_expires_at=now + self.lease,
                synthesis_attempts=t.synthesis_attempts + 1,
            )
            .returning(
                t.id,
                t.scope,
                t.source_instance_id,
                t.external_id,
                t.title,
                t.text,
                t.meta,
                t.occurred_at,
                t.pipeline,
                t.blocked,
                t.deleted_at,
                t.synthesis_attempts,
            )
        )
        with store.connection() as conn:
            rows = conn.execute(stmt).all()
        claimed = [
            ClaimedItem(
                id=r.id,
                scope=r.scope,
                source_instance_id=r.source_instance_id,
                external_id=r.external_id,
                title=r.title,
                text=r.text,
                meta=dict(r.meta or {}),
                occurred_at=r.occurred_at,
                pipeline=Pipeline(r.pipeline),
                blocked=bool(r.blocked),
                deleted=r.deleted_at is not None,
                attempts=int(r.synthesis_attempts),
                lease_token=token,
            )
            for r in rows
        ]
        claimed.sort(key=lambda c: (c.occurred_at or now, c.id))
        return claimed

    def heartbeat(self, claimed: Sequence[ClaimedItem]) -> int:
        """Extend the leases this worker still holds; returns how many it still holds."""
        if not claimed:
            return 0
        t = _ITEMS.c
        now = self.store.clock()
        tokens = {c.lease_token for c in claimed}
        with self.store.connection() as conn:
            result = conn.execute(
                update(_ITEMS)
                .where(t.id.in_([c.id for c in claimed]), t.lease_owner.in_(tokens))
                .values(lease_expires_at=now + self.lease)
            )
        return int(getattr(result, "rowcount", 0) or 0)

    def release(self, claimed: Sequence[ClaimedItem]) -> int:
        """Hand items this worker still holds back to pending now; returns how many.

        The attempt is not counted (nothing was tried) and no backoff applies. Items already
        finished, or taken over by another worker, are left alone (fenced by the lease token).
        """
        if not claimed:
            return 0
        t = _ITEMS.c
        with self.store.connection() as conn:
            result = conn.execute(
                update(_ITEMS)
                .where(
                    t.id.in_([c.id for c in claimed]),
                    t.lease_owner.in_({c.lease_token for c in claimed}),
                    t.synthesis_state == "running",
                )
                .values(
                    synthesis_state="pending",
                    lease_owner=None,
                    lease_expires_at=None,
                    synthesis_attempts=case(
                        (t.synthesis_attempts > 0, t.synthesis_attempts - 1), else_=0
                    ),
                )
            )
        return int(getattr(result, "rowcount", 0) or 0)
