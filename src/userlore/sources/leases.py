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
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import (
    ColumnElement,
    Connection,
    Engine,
    Table,
    and_,
    case,
    func,
    or_,
    select,
    update,
)
from sqlalchemy import text as sql_text
from sqlalchemy.orm import Session

from userlore.models import Pipeline
from userlore.sources.holder import holder_gone
from userlore.store.governed import GovernedStore
from userlore.store.schema import KnowledgeSourceItem

__all__ = [
    "TOKEN_CHARS",
    "WORK_CHANNEL",
    "ClaimedItem",
    "LeaseHolder",
    "Wait",
    "announce_work",
    "default_worker_id",
    "token_holder",
    "work_wakeups",
]

log = logging.getLogger(__name__)

TOKEN_CHARS = 200
"""Width of the ``lease_owner`` column a lease token must fit."""
_ITEMS = cast(Table, KnowledgeSourceItem.__table__)
WORK_CHANNEL = "userlore_work"
"""The PostgreSQL ``LISTEN``/``NOTIFY`` channel that tells waiting workers work may be due."""
_NOTIFY = sql_text(f"SELECT pg_notify('{WORK_CHANNEL}', '')")
_SLICE_SECONDS = 0.5
"""How often a waiting worker looks at its stop flag."""

Wait = Callable[[float, threading.Event], bool]
"""Waits up to ``timeout`` seconds (or until the event is set); ``True`` when woken by work."""


def announce_work(executor: Session | Connection) -> None:
    """Tell waiting workers that items became pending (PostgreSQL ``NOTIFY``, delivered at
    commit, so a rolled-back write wakes no one); a no-op on SQLite, whose workers poll."""
    bind = executor if isinstance(executor, Connection) else executor.get_bind()
    if bind.dialect.name == "postgresql":
        executor.execute(_NOTIFY)


def _poll(timeout: float, stop: threading.Event) -> bool:
    """The SQLite wait: the polling interval (or a stop request) ends it, never work."""
    stop.wait(timeout)
    return False


@contextmanager
def work_wakeups(engine: Engine) -> Iterator[Wait]:
    """A wait that ends early when work is announced (see :func:`announce_work`).

    On PostgreSQL it ``LISTEN``s on a connection of its own, opened before the caller's first
    drain so no announcement in between is lost; elsewhere it sleeps for the timeout. Needs a
    direct (or session-pooled) connection: behind PgBouncer in transaction pooling ``LISTEN``
    is not delivered, and the timeout (the polling interval) is what wakes the worker.
    """
    if engine.dialect.name != "postgresql":
        yield _poll
        return
    raw = engine.raw_connection()
    try:
        conn: Any = raw.driver_connection
        conn.autocommit = True
        conn.execute(f"LISTEN {WORK_CHANNEL}")

        def wait(timeout: float, stop: threading.Event) -> bool:
            deadline = time.monotonic() + timeout
            while not stop.is_set():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                got = list(conn.notifies(timeout=min(left, _SLICE_SECONDS), stop_after=1))
                if got:
                    list(conn.notifies(timeout=0))  # one wake-up for a burst of commits
                    return True
            return False

        yield wait
    finally:
        raw.invalidate()  # a LISTENing session never goes back to the pool


def token_holder(token: str | None) -> str | None:
    """The holder process named by a lease token (``None`` for tokens without one)."""
    if not token or "#" not in token:
        return None
    _, _, rest = token.rpartition("#")
    return rest.partition("@")[2] or None


def claimable(
    state: ColumnElement[str],
    next_attempt_at: ColumnElement[datetime | None],
    lease_expires_at: ColumnElement[datetime | None],
    lease_owner: ColumnElement[str | None],
    now: datetime,
    gone: Sequence[str],
) -> ColumnElement[bool]:
    """The rows a worker may lease: pending and due, or running on an expired lease or on a
    holder that is gone. One rule for source items and work items alike."""
    taken_over: ColumnElement[bool] = lease_expires_at <= now
    if gone:
        taken_over = or_(taken_over, lease_owner.in_(gone))
    return or_(
        and_(state == "pending", or_(next_attempt_at.is_(None), next_attempt_at <= now)),
        and_(state == "running", taken_over),
    )


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

    @classmethod
    def from_row(cls, row: Any, lease_token: str) -> ClaimedItem:
        """The claimed view of a source-item row (a result row or an ORM object)."""
        return cls(
            id=row.id,
            scope=row.scope,
            source_instance_id=row.source_instance_id,
            external_id=row.external_id,
            title=row.title,
            text=row.text,
            meta=dict(row.meta or {}),
            occurred_at=row.occurred_at,
            pipeline=Pipeline(row.pipeline),
            blocked=bool(row.blocked),
            deleted=row.deleted_at is not None,
            attempts=int(row.synthesis_attempts),
            lease_token=lease_token,
        )


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

    def waiting(self) -> int:
        """How many items wait for synthesis (pending, or running on an expired lease), in any
        scope: what a worker that may not process them should tell its operator about."""
        t = _ITEMS.c
        now = self.store.clock()
        due = or_(
            t.synthesis_state == "pending",
            and_(t.synthesis_state == "running", t.lease_expires_at <= now),
        )
        with self.store.connection() as conn:
            return int(
                conn.execute(select(func.count()).select_from(_ITEMS).where(due)).scalar_one()
            )

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
        gone = self._gone_tokens(now, scope, source_instance_id)
        due = claimable(
            t.synthesis_state, t.next_attempt_at, t.lease_expires_at, t.lease_owner, now, gone
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
        claimed = [ClaimedItem.from_row(r, token) for r in rows]
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
            announce_work(conn)
        return int(getattr(result, "rowcount", 0) or 0)
