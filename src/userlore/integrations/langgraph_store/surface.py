"""The rest of the surface: ``status`` under ``confirmWrite`` and the TTL sweepers."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Future
from typing import TYPE_CHECKING, Literal

from sqlalchemy import select

from userlore.models import RecordState
from userlore.store.schema import MemoryRecord

from .ttl import (
    DEFAULT_SWEEP_MINUTES,
    TTLSweeper,
    check_ttl,
    sweep_ttl,
)

if TYPE_CHECKING:
    pass

from .reads import ReadOps

ItemStatus = Literal["active", "awaiting_approval", "absent"]
"""What :meth:`UserloreStore.status` says of a key."""

log = logging.getLogger("userlore.integrations.langgraph_store")


class SurfaceOps(ReadOps):
    """``status``/``astatus`` and the sync and async TTL sweepers."""

    def status(self, namespace: tuple[str, ...], key: str) -> ItemStatus:
        """Why ``get`` returns what it does: ``"active"``, ``"awaiting_approval"`` or ``"absent"``.

        In ``confirmWrite`` a put creates a candidate that ``get`` does not return until it is
        approved; this tells that apart from an item that was never stored, was deleted,
        rejected or has expired (all ``"absent"``).
        """
        if self.get(namespace, key, refresh_ttl=False) is not None:
            return "active"
        where = self._locate(namespace)
        store = self.lore.memory.store
        with store.connection(where.scope) as conn:
            waiting = conn.execute(
                select(MemoryRecord.id)
                .where(
                    MemoryRecord.scope == where.scope,
                    MemoryRecord.path == where.path,
                    MemoryRecord.canonical_key == where.store_key(key),
                    MemoryRecord.state == RecordState.CANDIDATE.value,
                )
                .limit(1)
            ).first()
        return "awaiting_approval" if waiting is not None else "absent"

    async def astatus(self, namespace: tuple[str, ...], key: str) -> ItemStatus:
        """Async twin of :meth:`status`."""
        return await asyncio.to_thread(self.status, namespace, key)

    # -- TTL ----------------------------------------------------------------------------------

    def sweep_ttl(self) -> int:
        """Tombstone expired store items (every user's: the sweep is an operator job)."""
        return sweep_ttl(self.lore)

    async def asweep_ttl(self) -> int:
        """Async twin of :meth:`sweep_ttl` (LangGraph's async stores await their sweep).

        Calls the sweep function, not ``self.sweep_ttl``: a subclass that names its awaitable
        sweep ``sweep_ttl``, as LangGraph's async stores do, would make the thread return a
        coroutine nobody awaits (nothing swept, a RuntimeWarning when the loop closes).
        """
        return await asyncio.to_thread(sweep_ttl, self.lore)

    def _sweep_minutes(self, sweep_interval_minutes: float | None) -> float:
        minutes = check_ttl(sweep_interval_minutes) or (self.ttl_config or {}).get(
            "sweep_interval_minutes"
        )
        return float(minutes or DEFAULT_SWEEP_MINUTES)

    def start_ttl_sweeper(self, sweep_interval_minutes: float | None = None) -> Future[None]:
        """Sweep every interval (argument, else ``ttl_config``, else 60 min) in a thread."""
        if self._sweeper is None:
            minutes = self._sweep_minutes(sweep_interval_minutes)
            self._sweeper = TTLSweeper(self.lore, interval_minutes=minutes)
        return self._sweeper.start()

    def stop_ttl_sweeper(self, timeout: float | None = None) -> bool:
        """Stop the sweeper; True when it stopped within ``timeout``."""
        return True if self._sweeper is None else self._sweeper.stop(timeout)

    async def astart_ttl_sweeper(
        self, sweep_interval_minutes: float | None = None
    ) -> asyncio.Task[None]:
        """Async twin of :meth:`start_ttl_sweeper`: a task on the running loop (idempotent)."""
        if self._async_sweeper is not None and not self._async_sweeper.done():
            return self._async_sweeper
        seconds = self._sweep_minutes(sweep_interval_minutes) * 60.0

        async def loop() -> None:
            while True:
                try:
                    await self.asweep_ttl()
                except Exception:  # one failed sweep must not end the loop
                    log.exception("ttl sweep failed")
                await asyncio.sleep(seconds)

        self._async_sweeper = asyncio.create_task(loop(), name="userlore-ttl-sweeper")
        return self._async_sweeper

    async def astop_ttl_sweeper(self, timeout: float | None = None) -> bool:
        """Async twin of :meth:`stop_ttl_sweeper`: cancel the task; True once it has ended."""
        task = self._async_sweeper
        if task is None or task.done():
            self._async_sweeper = None
            return True
        task.cancel()
        done, _ = await asyncio.wait({task}, timeout=timeout)
        if done:
            self._async_sweeper = None
        return bool(done)
