"""The store's ground floor: one engine, scoped transactions and connections, row loading.

Every other part of the governed store (traces, consent, transitions, writes, reads) builds on
:class:`StoreCore`, so a unit of work always binds its scope the same way.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from sqlalchemy import Connection, Engine, select
from sqlalchemy import text as sql_text
from sqlalchemy.exc import DataError, DBAPIError, IntegrityError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from userlore.config import MemoryMode, UserContextConfig
from userlore.errors import (
    InvalidInputError,
    MemoryDisabledError,
    RecordNotFoundError,
    StorageError,
)
from userlore.store.concurrency import bind_scope_and_lock
from userlore.store.schema import MemoryRecord
from userlore.validation import validate_scope

__all__ = ["Clock", "IdFactory", "StoreCore"]

Clock = Callable[[], datetime]
IdFactory = Callable[[str], str]


def _utcnow() -> datetime:
    return datetime.now(UTC)


def _new_id(prefix: str) -> str:
    """``<prefix>_`` and 24 hex digits: the millisecond it was made (12), then 48 random bits.

    Time first, so ids made together sort together: each unique index on an id (records, their
    versions, evidence links, items, vectors) takes new rows at its end instead of at random
    pages, and a bulk load's commits stop rewriting more pages as the tables grow (issue 30:
    the write went from 0.22 to 0.34 ms a put between 6k and 30k records with random ids).
    """
    return f"{prefix}_{time.time_ns() // 1_000_000:012x}{secrets.token_hex(6)}"


_BIND_SCOPE = sql_text("SELECT set_config('userlore.scope', :scope, true)")
_REFUSED_WRITE = (
    "the database refused the write: it refers to a row that is not in this scope, or "
    "duplicates one that is"
)


class StoreCore:
    """An engine, its configuration, a clock and an id factory; scoped units of work."""

    def __init__(
        self,
        engine: Engine,
        config: UserContextConfig,
        *,
        clock: Clock | None = None,
        ids: IdFactory | None = None,
    ) -> None:
        self.engine = engine
        self.config = config
        self.clock: Clock = clock or _utcnow
        self.new_id: IdFactory = ids or _new_id
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        # An in-memory SQLite database is one shared connection: serialize access to it.
        self._lock: threading.RLock | None = (
            threading.RLock()
            if engine.dialect.name == "sqlite" and engine.url.database in (None, "", ":memory:")
            else None
        )

    @contextmanager
    def transaction(
        self, scope: str | None = None, *, write_lock: bool = False
    ) -> Iterator[Session]:
        """One unit of work: committed on success, rolled back entirely on any error.

        Args:
            scope: The one scope this unit of work touches. On PostgreSQL it is bound to the
                transaction (``userlore.scope``), so row-level security hides and refuses every
                other scope's rows even if a query forgot its scope filter. Leave it out for
                work that spans scopes (workers claiming across scopes, migrations).
            write_lock: The unit will take the scope's write lock (a governed write): on
                PostgreSQL it is taken now, with the scope's binding, in one round trip.

        Raises:
            StorageError: the database failed.
            InvalidInputError: the database refused the write (a reference outside the scope, a
                duplicate); the message never names the rows involved.
        """
        with self._guarded(), self._sessions() as session, session.begin():
            if scope is not None and write_lock and self.engine.dialect.name == "postgresql":
                bind_scope_and_lock(session, validate_scope(scope))
            elif scope is not None:
                self._bind_scope(session, scope)
            yield session

    @contextmanager
    def connection(self, scope: str | None = None) -> Iterator[Connection]:
        """A Core connection in one transaction, for the read path's hot loop (no ORM).

        ``scope`` binds row-level security as in :meth:`transaction`.
        """
        with self._guarded(), self.engine.begin() as conn:
            if scope is not None:
                self._bind_scope(conn, scope)
            yield conn

    @contextmanager
    def _guarded(self) -> Iterator[None]:
        """Serialize a shared in-memory SQLite connection; map driver errors to typed ones."""
        if self._lock is not None:
            self._lock.acquire()
        try:
            yield
        except OperationalError as exc:
            raise StorageError(f"database error: {exc.orig}") from None
        except IntegrityError:
            raise InvalidInputError(_REFUSED_WRITE) from None
        except DataError:
            # A value the column cannot hold; the driver's text may quote it, so it is dropped.
            raise InvalidInputError("the database refused a value it cannot store") from None
        except DBAPIError as exc:  # e.g. "database disk image is malformed"
            raise StorageError(f"database error: {type(exc.orig).__name__}") from None
        finally:
            if self._lock is not None:
                self._lock.release()

    def _bind_scope(self, executor: Session | Connection, scope: str) -> None:
        """``SET LOCAL userlore.scope`` on PostgreSQL (the row-level security key); no-op else."""
        validate_scope(scope)
        if self.engine.dialect.name == "postgresql":
            executor.execute(_BIND_SCOPE, {"scope": scope})

    def get_row(self, session: Session, scope: str | None, record_id: str) -> MemoryRecord:
        """Load a record (of ``scope`` when given) or raise :class:`RecordNotFoundError`.

        ``scope=None`` is for the trusted in-process facade only; every service surface passes
        the caller's scope so nothing outside it can be found.
        """
        stmt = select(MemoryRecord).where(MemoryRecord.id == record_id)
        if scope is not None:
            stmt = stmt.where(MemoryRecord.scope == validate_scope(scope))
        row = session.scalars(stmt).one_or_none()
        if row is None:
            where = f" in scope {scope!r}" if scope is not None else ""
            raise RecordNotFoundError(f"no record {record_id!r}{where}")
        return row

    def require_writable(self) -> None:
        if self.config.memory.mode in (MemoryMode.OFF, MemoryMode.READ_ONLY):
            raise MemoryDisabledError(
                f"memory mode {self.config.memory.mode.value!r} forbids writes"
            )
