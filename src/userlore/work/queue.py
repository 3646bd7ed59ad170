"""The durable work queue: ``work_items`` rows claimed with leases, run once.

Claims follow the source items' lease rules (:mod:`userlore.sources.leases`): one conditional
``UPDATE ... RETURNING`` (``FOR UPDATE SKIP LOCKED`` on PostgreSQL) stamps a fresh token naming
the holding process, so two workers never hold the same job; a job whose lease expired, or whose
holder process is gone (same host), is taken over. Completion is fenced by the token, so a job
is marked done once. Jobs themselves are idempotent (an observation per turn id, a review's
governed writes dedupe), so a worker killed between the job's write and its ``done`` mark
re-runs it without a second effect.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, cast

from sqlalchemy import Table, func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from userlore.sources.holder import holder_gone, this_holder
from userlore.sources.leases import TOKEN_CHARS, claimable, default_worker_id, token_holder
from userlore.store.governed import GovernedStore
from userlore.store.schema import WorkItem
from userlore.work.jobs import Job

__all__ = ["MAX_ATTEMPTS", "ClaimedJob", "WorkQueue"]

_WORK = cast(Table, WorkItem.__table__)
MAX_ATTEMPTS = 5
"""Tries before a job that keeps failing on a transient error is marked ``failed``."""
_BACKOFF = timedelta(seconds=30)


@dataclass(frozen=True, slots=True)
class ClaimedJob:
    """One leased job, as the worker holding it sees it."""

    id: str
    job: Job
    attempts: int
    lease_token: str


class WorkQueue:
    """Enqueue, claim, complete and fail ``work_items`` rows."""

    def __init__(
        self,
        store: GovernedStore,
        *,
        worker_id: str | None = None,
        lease_seconds: float = 300.0,
        max_attempts: int = MAX_ATTEMPTS,
    ) -> None:
        self.store = store
        self.worker_id = worker_id or default_worker_id()
        self.holder = this_holder()
        self.lease = timedelta(seconds=lease_seconds)
        self.max_attempts = max_attempts

    def enqueue(self, job: Job, *, wait: bool = True) -> bool | None:
        """Store ``job`` durably; ``False`` when the same job (scope, kind, key) is known.

        ``wait=False`` (the user's turn): ``None`` instead of waiting when another connection
        holds SQLite's write lock.
        """
        now = self.store.clock()
        values = {
            "id": self.store.new_id("wrk"),
            "scope": job.scope,
            "kind": job.kind,
            "dedupe_key": job.dedupe_key,
            "payload": job.durable_payload(),
            "state": "pending",
            "attempts": 0,
            "created_at": now,
            "updated_at": now,
        }
        make = pg_insert if self.store.engine.dialect.name == "postgresql" else sqlite_insert
        stmt = make(_WORK).values(values).on_conflict_do_nothing().returning(_WORK.c.id)
        if not wait:
            rows = self.store.execute_without_waiting(job.scope, stmt)
            return None if rows is None else bool(rows)
        with self.store.connection(job.scope) as conn:
            return conn.execute(stmt).first() is not None

    def _new_token(self) -> str:
        tail = f"#{uuid.uuid4().hex[:12]}@{self.holder}"
        return f"{self.worker_id[: TOKEN_CHARS - len(tail)]}{tail}"

    def claim(self, limit: int = 10, *, kinds: Iterable[str] | None = None) -> list[ClaimedJob]:
        """Lease up to ``limit`` due jobs (of ``kinds``): pending and due, or running with an
        expired lease or a holder that is gone."""
        now = self.store.clock()
        t = _WORK.c
        kinds = tuple(kinds) if kinds is not None else None
        running = select(t.lease_owner).where(t.state == "running", t.lease_expires_at > now)
        with self.store.connection() as conn:
            owners = {o for o in conn.scalars(running.distinct()) if o}
        gone = [o for o in owners if holder_gone(token_holder(o))]
        due = claimable(t.state, t.next_attempt_at, t.lease_expires_at, t.lease_owner, now, gone)
        pick = select(t.id).where(due).order_by(t.created_at, t.id).limit(limit)
        if kinds is not None:
            pick = pick.where(t.kind.in_(kinds))
        if self.store.engine.dialect.name == "postgresql":
            pick = pick.with_for_update(skip_locked=True)
        token = self._new_token()
        stmt = (
            update(_WORK)
            .where(t.id.in_(pick))
            .values(
                state="running",
                lease_owner=token,
                lease_expires_at=now + self.lease,
                attempts=t.attempts + 1,
                updated_at=now,
            )
            .returning(t.id, t.scope, t.kind, t.dedupe_key, t.payload, t.attempts, t.created_at)
        )
        with self.store.connection() as conn:
            rows = sorted(conn.execute(stmt).all(), key=lambda r: (r.created_at, r.id))
        return [
            ClaimedJob(
                r.id, Job(r.kind, r.scope, r.dedupe_key, dict(r.payload or {})), r.attempts, token
            )
            for r in rows
        ]

    def complete(self, claimed: ClaimedJob) -> bool:
        """Mark a held job done and clear its payload; ``False`` if the lease was lost."""
        return self._finish(claimed, state="done", payload={}, last_error=None)

    def fail(self, claimed: ClaimedJob, reason: str, *, retry: bool) -> bool:
        """Record a failed try: back to pending after a backoff (``retry`` and attempts left),
        else ``failed`` with its payload cleared. ``reason`` is a fixed code, never user text."""
        if retry and claimed.attempts < self.max_attempts:
            return self._finish(
                claimed,
                state="pending",
                last_error=reason[:200],
                next_attempt_at=self.store.clock() + _BACKOFF * claimed.attempts,
            )
        return self._finish(claimed, state="failed", payload={}, last_error=reason[:200])

    def release(self, claimed: Sequence[ClaimedJob]) -> int:
        """Hand held jobs back to pending now without counting the attempt."""
        n = 0
        for c in claimed:
            n += self._finish(c, state="pending", attempts=max(c.attempts - 1, 0))
        return n

    def _finish(self, claimed: ClaimedJob, **values: Any) -> bool:
        t = _WORK.c
        stmt = (
            update(_WORK)
            .where(
                t.id == claimed.id,
                t.lease_owner == claimed.lease_token,
                t.state == "running",
            )
            .values(
                lease_owner=None, lease_expires_at=None, updated_at=self.store.clock(), **values
            )
        )
        with self.store.connection(claimed.job.scope) as conn:
            result = conn.execute(stmt)
        return bool(getattr(result, "rowcount", 0))

    def counts(self, scope: str | None = None) -> dict[str, int]:
        """Jobs per state (of ``scope`` when given)."""
        t = _WORK.c
        stmt = select(t.state, func.count()).group_by(t.state)
        if scope is not None:
            stmt = stmt.where(t.scope == scope)
        out = dict.fromkeys(("pending", "running", "done", "failed"), 0)
        with self.store.connection(scope) as conn:
            for state, n in conn.execute(stmt):
                out[str(state)] = int(n)
        return out
