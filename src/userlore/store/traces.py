"""Trace events: ids, versions and reason codes of what the store did (never user text).

A plan's trace is bookkeeping and must never make the read wait for a writer (issue 18), nor
spend the read's time (issue 23 item 5: one INSERT and its commit were ~0.6 ms of a ~4.8 ms plan
at 100k records). :meth:`TraceLog.trace_soon` therefore only queues the row (bounded, in
process); a background thread writes what is queued in one transaction a moment later
(:data:`LINGER_SECONDS`, so the traces of a burst of plans share a commit), waiting for the
writer if it must. Every unit of work opened with :meth:`TraceLog.transaction` first flushes
the queue if it can without waiting, listing traces (:meth:`TraceLog.traces`) and
:meth:`TraceLog.flush_traces` flush it waiting, ``Userlore.close()`` flushes it
(:meth:`TraceLog.close_background`), and so does interpreter exit, so reads of traces see them.
A full queue makes the next plan write its trace itself: nothing is dropped.
Durability: a crash may lose at most the queued traces, never a record.
"""

from __future__ import annotations

import atexit
import functools
import logging
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypedDict, Unpack

from sqlalchemy import Connection, Executable, Row, insert, select
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from userlore.errors import StorageError
from userlore.store.core import StoreCore
from userlore.store.schema import MemoryTraceEvent
from userlore.validation import validate_scope

__all__ = ["MAX_QUEUED_TRACES", "TraceFields", "TraceLog", "TraceQueue"]

log = logging.getLogger(__name__)

MAX_QUEUED_TRACES = 512
"""Traces waiting for the writer; a full queue makes the next read write its trace itself."""
LINGER_SECONDS = 0.05
"""How long the flusher lets traces gather after the first before writing them together."""
_BATCH = 64  # a batch this large is written without lingering further
_IDLE_SECONDS = 2.0  # the flusher ends after this long idle (while alive it holds the store)


class TraceFields(TypedDict, total=False):
    """The optional fields of a trace event (see :meth:`TraceLog.trace`)."""

    reason_code: str | None
    session_key: str | None
    payload: dict[str, Any] | None
    chars: int
    parent: str | None


class TraceQueue:
    """Trace rows waiting for the database writer, flushed by a short-lived daemon thread.

    The thread starts when a row is queued and ends once the queue stays empty for
    ``_IDLE_SECONDS``, so a store that is never closed leaves no thread behind. It writes
    ``linger`` seconds after the first queued row (or at once past :data:`_BATCH` rows), so the
    rows of a burst go in one transaction.
    """

    def __init__(
        self,
        write: Callable[[list[dict[str, Any]]], None],
        maxsize: int = MAX_QUEUED_TRACES,
        *,
        background: bool = True,
        linger: float = LINGER_SECONDS,
    ) -> None:
        self._write = write  # waits for the writer
        self.maxsize = maxsize
        self.background = background  # False: only explicit flushes write (tests)
        self.linger = linger
        self._rows: deque[dict[str, Any]] = deque()
        self._cond = threading.Condition()
        self._flush_lock = threading.Lock()  # one flush at a time keeps rows in order
        self._thread: threading.Thread | None = None
        self._closed = False

    def __len__(self) -> int:
        return len(self._rows)

    def put(self, row: dict[str, Any]) -> bool:
        """Queue ``row``; ``False`` (nothing queued) when the queue is full or closed."""
        with self._cond:
            if self._closed or len(self._rows) >= self.maxsize:
                return False
            self._rows.append(row)
            if self._thread is None and self.background:
                self._thread = threading.Thread(
                    target=self._run, name="userlore-trace-flush", daemon=True
                )
                self._thread.start()
            if len(self._rows) in (1, _BATCH):  # the flusher waits for the first, or a batch
                self._cond.notify()
            return True

    def flush(self, write: Callable[[list[dict[str, Any]]], bool] | None = None) -> int:
        """Write every queued row now (waiting for the writer); returns how many were written.

        ``write`` (returning ``False`` when it could not write) replaces the waiting writer; a
        flush already running elsewhere is then not waited for either. Rows stay queued if the
        write fails, so a later flush retries them.
        """
        if not self._flush_lock.acquire(blocking=write is None):
            return 0
        try:
            with self._cond:
                rows = list(self._rows)
            if not rows:
                return 0
            if write is None:
                self._write(rows)
            elif not write(rows):
                return 0
            with self._cond:
                for _ in rows:
                    self._rows.popleft()
            return len(rows)
        finally:
            self._flush_lock.release()

    def close(self) -> None:
        """Flush what is queued and stop the thread; later rows are written by their caller."""
        with self._cond:
            self._closed = True
            self._cond.notify()
            thread = self._thread
        if thread is not None:
            thread.join()
        self.flush()

    def _run(self) -> None:
        while True:
            with self._cond:
                idle_since = time.monotonic()
                # Woken with nothing queued (a unit of work flushed it first): wait on, and end
                # only after an idle spell (starting a thread costs a plan ~0.1-1 ms).
                while not self._rows and not self._closed:
                    left = idle_since + _IDLE_SECONDS - time.monotonic()
                    if left <= 0:
                        break
                    self._cond.wait(left)
                if self._closed or not self._rows:
                    self._thread = None
                    return
                # Let the traces of a burst gather: one transaction writes them all.
                deadline = time.monotonic() + self.linger
                while not self._closed and 0 < len(self._rows) < _BATCH:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        break
                    self._cond.wait(left)
            try:
                self.flush()
            except Exception:  # the database is gone: keep the rows, retry after a pause
                log.warning("could not flush %d queued trace(s); retrying", len(self._rows))
                with self._cond:
                    self._cond.wait(_IDLE_SECONDS / 4)


class TraceLog(StoreCore):
    """Writes and lists ``memory_trace_events``."""

    _flushing = threading.local()

    def trace(
        self,
        executor: Session | Connection,
        scope: str,
        event_type: str,
        *,
        reason_code: str | None = None,
        session_key: str | None = None,
        payload: dict[str, Any] | None = None,
        chars: int = 0,
        parent: str | None = None,
    ) -> str:
        """Write one trace event inside ``executor``'s unit of work; returns its id.

        Traces hold ids, versions, counts and fixed reason codes, never user text.
        """
        row = self._trace_row(
            scope,
            event_type,
            reason_code=reason_code,
            session_key=session_key,
            payload=payload,
            chars=chars,
            parent=parent,
        )
        executor.execute(insert(MemoryTraceEvent), row)
        return str(row["id"])

    def _trace_row(
        self, scope: str, event_type: str, **fields: Unpack[TraceFields]
    ) -> dict[str, Any]:
        return {
            "id": self.new_id("trc"),
            "scope": scope,
            "event_type": event_type,
            "session_key": fields.get("session_key"),
            "parent_trace_id": fields.get("parent"),
            "reason_code": fields.get("reason_code"),
            "feedback": None,
            "payload": fields.get("payload") or {},
            "chars": fields.get("chars", 0),
            "created_at": self.clock(),
        }

    def record_trace(self, scope: str, event_type: str, **fields: Unpack[TraceFields]) -> str:
        """:meth:`trace` in its own transaction."""
        with self.transaction(scope) as session:
            return self.trace(session, scope, event_type, **fields)

    def trace_soon(self, scope: str, event_type: str, **fields: Unpack[TraceFields]) -> str:
        """Queue a trace for the background writer; returns its id at once.

        For the read path: the trace is written off it, a moment later (see the module
        docstring for when it is visible). A full queue is flushed here, so nothing is dropped.
        An in-memory SQLite store (one connection for every thread) writes it at once.
        """
        validate_scope(scope)
        row = self._trace_row(scope, event_type, **fields)
        if self._lock is not None:
            # One in-memory connection shared by every thread: a flusher thread on it would
            # end transactions other users of the engine hold, so the trace is written here.
            self._write_rows([row])
            return str(row["id"])
        if not self._trace_queue.put(row):
            self.flush_traces()
            self._write_rows([row])
        return str(row["id"])

    def flush_traces(self, *, wait: bool = True) -> int:
        """Write the queued traces now; returns how many. ``wait=False`` writes nothing rather
        than wait for another writer."""
        if "_trace_queue" not in self.__dict__:
            return 0
        if wait:
            return self._trace_queue.flush()
        return self._trace_queue.flush(self._write_rows_now)

    def on_close(self, closer: Callable[[], object]) -> None:
        """Run ``closer`` when the store closes, before its connections go (a background
        runner stops there, so no thread touches a disposed engine)."""
        self._closers.append(closer)

    def close_background(self) -> None:
        """Stop background work on this store: registered closers, then the trace flusher
        (after flushing). ``Userlore.close()`` calls it before disposing the engine."""
        while self._closers:
            closer = self._closers.pop()
            try:
                closer()
            except Exception:  # closing must go on: the engine is disposed next either way
                log.warning("a background closer failed", exc_info=True)
        if "_trace_queue" in self.__dict__:
            self._trace_queue.close()

    @functools.cached_property
    def _closers(self) -> list[Callable[[], object]]:
        return []

    @contextmanager
    def transaction(
        self, scope: str | None = None, *, write_lock: bool = False
    ) -> Iterator[Session]:
        """:meth:`StoreCore.transaction`, after flushing queued traces so reads see them."""
        self._flush_before_work()
        with super().transaction(scope, write_lock=write_lock) as session:
            depth = getattr(self._flushing, "depth", 0)
            self._flushing.depth = depth + 1
            try:
                yield session
            finally:
                self._flushing.depth = depth

    @functools.cached_property
    def _trace_queue(self) -> TraceQueue:
        queue = TraceQueue(self._write_rows)
        # Queued traces are written at interpreter exit too (the flusher is a daemon thread);
        # the hook holds the store weakly, so it keeps no store alive.
        atexit.register(_flush_at_exit, weakref.ref(self))
        return queue

    def _flush_before_work(self) -> None:
        """Queued traces go in before a unit of work, unless that means waiting for a writer
        (a read never waits; the flusher thread writes them as soon as it can)."""
        # Not inside another unit of work of this thread: its write lock would deadlock us.
        if getattr(self._flushing, "depth", 0) or not len(self.__dict__.get("_trace_queue", ())):
            return
        try:
            self.flush_traces(wait=False)
        except StorageError:
            log.warning("queued traces not flushed; the flusher retries")

    def _write_rows_now(self, rows: list[dict[str, Any]]) -> bool:
        return self.execute_without_waiting(None, insert(MemoryTraceEvent), rows) is not None

    def _write_rows(self, rows: list[dict[str, Any]]) -> None:
        with super().transaction() as session:
            session.execute(insert(MemoryTraceEvent), rows)

    def execute_without_waiting(
        self, scope: str | None, stmt: Executable, params: Any = None
    ) -> list[Row[Any]] | None:
        """Run one write in its own transaction unless it would wait for another writer.

        On SQLite (one writer at a time) the statement is tried with a zero busy timeout and
        ``None`` means another connection holds the write lock; elsewhere it just runs
        (PostgreSQL inserts do not queue behind other writers). Returns the rows it returned.
        """
        url = self.engine.url
        if self.engine.dialect.name != "sqlite" or url.database in (None, "", ":memory:"):
            with self.connection(scope) as conn:
                result = conn.execute(stmt, params)
                return list(result.all()) if result.returns_rows else []
        with self._guarded(), self.engine.connect() as conn:
            # The busy timeout is set on the driver's connection itself: no statement of
            # SQLAlchemy's and no commit around it, so the write costs one INSERT and its
            # commit (issue 23: part of the plan's fixed cost).
            raw = conn.connection.dbapi_connection
            assert raw is not None
            timeout = int(raw.execute("PRAGMA busy_timeout").fetchone()[0] or 0)
            raw.execute("PRAGMA busy_timeout=0")
            try:
                result = conn.execute(stmt, params)
                rows = list(result.all()) if result.returns_rows else []
                conn.commit()
            except OperationalError:
                conn.rollback()
                return None  # the write lock is held
            finally:
                raw.execute(f"PRAGMA busy_timeout={timeout}")
        return rows

    def traces(
        self,
        scope: str,
        *,
        event_type: str | None = None,
        limit: int = 100,
        trace_id: str | None = None,
    ) -> list[dict[str, Any]]:
        validate_scope(scope)
        self.flush_traces()  # reading traces: wait for the queued ones (never on a turn)
        stmt = select(MemoryTraceEvent).where(MemoryTraceEvent.scope == scope)
        if trace_id is not None:
            stmt = stmt.where(MemoryTraceEvent.id == trace_id)
        if event_type:
            stmt = stmt.where(MemoryTraceEvent.event_type == event_type)
        stmt = stmt.order_by(MemoryTraceEvent.created_at.desc(), MemoryTraceEvent.id.desc()).limit(
            limit
        )
        with self.transaction(scope) as session:
            return [
                {
                    "id": t.id,
                    "event_type": t.event_type,
                    "session_key": t.session_key,
                    "reason_code": t.reason_code,
                    "feedback": t.feedback,
                    "payload": t.payload,
                    "chars": t.chars,
                    "created_at": t.created_at,
                    "parent_trace_id": t.parent_trace_id,
                }
                for t in session.scalars(stmt)
            ]


def _flush_at_exit(ref: weakref.ReferenceType[TraceLog]) -> None:
    store = ref()
    if store is None or "_trace_queue" not in store.__dict__ or not len(store._trace_queue):
        return
    try:
        store.flush_traces()
    except Exception:  # the engine may be gone at exit: the traces are lost, not the records
        log.warning("%d queued trace(s) not written at exit", len(store._trace_queue))
