"""TTL for store items: LangGraph's ``TTLConfig`` mapped onto a record's validity window.

A put with a TTL of ``m`` minutes sets the record's window to ``[now, now + m)``
(``valid_from``/``valid_until``); a put without one clears ``valid_until``. The policy filter
already drops a record whose ``valid_until`` has passed, so an expired item leaves every read
(get, search, the planner's blocks) the moment it expires, sweep or not. A read that refreshes
slides the window to ``[now, now + m)`` (``m`` is the window's own length, so a per-put TTL
survives refreshes). The sweep tombstones expired store items (restorable from the trash until
the trash is purged), which is what ``userlore worker`` runs every interval.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Mapping
from concurrent.futures import Future
from datetime import timedelta
from numbers import Real
from typing import TYPE_CHECKING, Any

from langgraph.store.base import TTLConfig
from sqlalchemy import DateTime, literal, select, update
from sqlalchemy.orm import Session

from userlore.config import MemoryMode
from userlore.errors import InvalidInputError, MemoryDisabledError, UserloreError
from userlore.store.governed import LIVE_STATES
from userlore.store.schema import MemoryRecord

from .namespaces import STORE_KEY_PREFIX

if TYPE_CHECKING:
    from userlore.facade import Userlore

__all__ = ["TTLSweeper", "check_ttl", "check_ttl_config", "refresh_ttl", "set_ttl", "sweep_ttl"]

log = logging.getLogger(__name__)

DEFAULT_SWEEP_MINUTES = 60.0


def check_ttl(ttl: object) -> float | None:
    """A TTL in minutes: ``None`` or a positive number.

    Raises:
        InvalidInputError: anything else (a bool, zero, a negative or non-finite number).
    """
    if ttl is None:
        return None
    if isinstance(ttl, bool) or not isinstance(ttl, Real) or not 0 < float(ttl) < 1e9:
        raise InvalidInputError(f"ttl must be a positive number of minutes, got {ttl!r}")
    return float(ttl)


def check_ttl_config(config: Mapping[str, Any] | None) -> TTLConfig | None:
    """Validate a ``TTLConfig``: every key LangGraph declares (``TTLConfig.__annotations__``).

    ``omit_expired`` is accepted and always holds here: an expired item leaves every read at
    once (the policy filter checks the validity window), sweep or not.
    ``sweep_interval_minutes`` may be fractional, as SqliteStore accepts.

    Raises:
        InvalidInputError: an unknown key or a value of the wrong kind.
    """
    if config is None:
        return None
    if not isinstance(config, Mapping):
        raise InvalidInputError("ttl must be a TTLConfig mapping")
    unknown = set(config) - set(TTLConfig.__annotations__)
    if unknown:
        raise InvalidInputError(f"unknown TTLConfig keys: {sorted(unknown)}")
    out = TTLConfig()
    if "default_ttl" in config:
        out["default_ttl"] = check_ttl(config["default_ttl"])
    for flag in ("refresh_on_read", "omit_expired"):
        if flag in config:
            if not isinstance(config[flag], bool):
                raise InvalidInputError(f"{flag} must be a bool")
            out[flag] = config[flag]
    if "sweep_interval_minutes" in config:
        minutes = check_ttl(config["sweep_interval_minutes"])
        out["sweep_interval_minutes"] = minutes  # type: ignore[typeddict-item]
    return out


def set_ttl(
    lore: Userlore, scope: str, record_id: str, ttl: float | None, *, session: Session | None = None
) -> None:
    """Open the record's window for ``ttl`` minutes from now, or clear its expiry."""
    store = lore.memory.store
    if session is None:
        with store.transaction(scope) as own:
            set_ttl(lore, scope, record_id, ttl, session=own)
        return
    now = store.clock()
    values: dict[str, Any] = {"valid_until": None}
    if ttl is not None:
        values = {"valid_from": now, "valid_until": now + timedelta(minutes=ttl)}
    session.execute(
        update(MemoryRecord)
        .where(MemoryRecord.scope == scope, MemoryRecord.id == record_id)
        .values(**values)
    )


def refresh_ttl(lore: Userlore, scope: str, record_ids: Iterable[str]) -> None:
    """Slide the window of each TTL'd store item in ``record_ids`` to start now."""
    ids = list(dict.fromkeys(record_ids))
    store = lore.memory.store
    if not ids or store.config.memory.mode in (MemoryMode.OFF, MemoryMode.READ_ONLY):
        return  # a read never writes where the mode forbids writes; expiry still applies
    now = store.clock()
    windowed = (
        MemoryRecord.scope == scope,
        MemoryRecord.id.in_(ids),
        MemoryRecord.canonical_key.startswith(STORE_KEY_PREFIX, autoescape=True),
        MemoryRecord.valid_until.is_not(None),
        MemoryRecord.valid_from.is_not(None),
    )
    with store.transaction(scope) as session:
        if store.engine.dialect.name == "postgresql":
            # One statement, the window's length worked out by the server (a read that
            # refreshes costs one round trip more, not a select and an update per item).
            start = literal(now, DateTime(timezone=True))
            session.execute(
                update(MemoryRecord)
                .where(*windowed)
                .values(
                    valid_from=start,
                    valid_until=start + (MemoryRecord.valid_until - MemoryRecord.valid_from),
                )
                .execution_options(synchronize_session=False)
            )
            return
        rows = session.scalars(select(MemoryRecord).where(*windowed))
        for row in rows:
            assert row.valid_until is not None and row.valid_from is not None
            length = row.valid_until - row.valid_from
            row.valid_from, row.valid_until = now, now + length


def sweep_ttl(lore: Userlore) -> int:
    """Tombstone every live store item whose TTL has passed, in every scope; the count.

    A no-op (0) when the memory mode forbids writes: expired items stay out of reads anyway.
    """
    store = lore.memory.store
    try:
        store.require_writable()
    except MemoryDisabledError:
        return 0
    now = store.clock()
    with store.transaction() as session:
        expired = list(
            session.execute(
                select(MemoryRecord.scope, MemoryRecord.id).where(
                    MemoryRecord.canonical_key.startswith(STORE_KEY_PREFIX, autoescape=True),
                    MemoryRecord.state.in_([s.value for s in LIVE_STATES]),
                    MemoryRecord.valid_until.is_not(None),
                    MemoryRecord.valid_until <= now,
                )
            )
        )
    swept = 0
    for scope, record_id in expired:
        try:
            lore.records.forget(scope, record_id)
        except UserloreError:  # changed state since the select (another sweeper, a user)
            continue
        swept += 1
    return swept


class TTLSweeper:
    """Runs :func:`sweep_ttl` every interval in a daemon thread until stopped."""

    def __init__(self, lore: Userlore, *, interval_minutes: float = DEFAULT_SWEEP_MINUTES) -> None:
        minutes = check_ttl(interval_minutes)
        self.lore = lore
        self.interval_seconds = (minutes or DEFAULT_SWEEP_MINUTES) * 60.0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._done: Future[None] = Future()

    def start(self) -> Future[None]:
        """Start sweeping (idempotent); the future completes when the sweeper stops."""
        if self._thread is not None and self._thread.is_alive():
            return self._done
        self._stop.clear()
        self._done = Future()
        self._thread = threading.Thread(target=self._run, name="userlore-ttl-sweeper", daemon=True)
        self._thread.start()
        return self._done

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                try:
                    swept = sweep_ttl(self.lore)
                    if swept:
                        log.info("ttl sweep: %d expired store items tombstoned", swept)
                except Exception:  # one failed sweep must not end the loop
                    log.exception("ttl sweep failed")
                self._stop.wait(self.interval_seconds)
        finally:
            self._done.set_result(None)

    def stop(self, timeout: float | None = None) -> bool:
        """Ask the loop to stop; True when it has stopped within ``timeout``."""
        self._stop.set()
        thread = self._thread
        if thread is None:
            return True
        thread.join(timeout)
        stopped = not thread.is_alive()
        if stopped:
            self._thread = None
        return stopped
