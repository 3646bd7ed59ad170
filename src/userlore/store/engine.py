"""Engine creation and schema migrations.

The embedded default is one SQLite file in WAL mode under the user's data directory. ``setup``
applies the versioned Alembic migrations shipped in the package, recording the schema version in
``alembic_version``; a database written by an older version upgrades in place.
"""

from __future__ import annotations

import fcntl
import functools
import random
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from platformdirs import user_data_dir
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, OperationalError
from sqlalchemy.pool import StaticPool

from userlore.errors import ConfigError, StorageError

__all__ = [
    "create_store_engine",
    "current_revision",
    "default_database_url",
    "head_revision",
    "prepare_engine",
    "setup",
]

_MIGRATIONS = Path(__file__).parent / "migrations"


def default_database_url() -> str:
    """The embedded default: ``<user data dir>/userlore/userlore.db``."""
    folder = Path(user_data_dir("userlore", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'userlore.db'}"


def create_store_engine(url: str, options: Mapping[str, Any] | None = None) -> Engine:
    """Create an engine with the pragmas the store relies on.

    ``options`` go to :func:`sqlalchemy.create_engine` (``pool_size``, ``max_overflow``,
    ``pool_pre_ping``...) and win over the defaults chosen here.

    Raises:
        ConfigError: the URL cannot be parsed, names an unknown dialect, or an option is unknown.
    """
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise ConfigError(f"invalid database URL: {exc}") from None
    kwargs: dict[str, Any] = {}
    if parsed.get_backend_name() == "sqlite":
        memory = parsed.database in (None, "", ":memory:")
        # One shared connection keeps an in-memory database alive across sessions.
        if memory:
            kwargs["poolclass"] = StaticPool
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
    kwargs.update(options or {})
    try:
        engine = create_engine(parsed, **kwargs)
    except (ArgumentError, ImportError, TypeError) as exc:
        raise ConfigError(f"cannot use database URL {parsed!r}: {exc}") from None
    return prepare_engine(engine)


def prepare_engine(engine: Engine) -> Engine:
    """Give an engine (ours, or one the application passes in) the SQLite pragmas the store
    relies on; connections already open keep theirs, so pass an engine before first use."""
    if engine.dialect.name == "sqlite" and not event.contains(engine, "connect", _sqlite_pragmas):
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


_BUSY_TIMEOUT_S = 30.0


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout={int(_BUSY_TIMEOUT_S * 1000)}")
        _use_wal(cursor.execute)
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
    finally:
        cursor.close()


def _use_wal(
    execute: Callable[[str], Any],
    *,
    timeout: float = _BUSY_TIMEOUT_S,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> None:
    """Switch a SQLite connection to WAL, waiting out other processes doing the same.

    Several processes opening a new file at once all ask for WAL; the switch needs the file to
    itself, and SQLite answers "database is locked" at once instead of calling the busy
    handler. A file already in WAL (every open after the first) is only read, never switched.

    Raises:
        sqlite3.OperationalError: still locked after ``timeout`` seconds, or any other error.
    """
    if str(execute("PRAGMA journal_mode").fetchone()[0]).lower() in ("wal", "memory"):
        return
    deadline = clock() + timeout
    pause = 0.005
    while True:
        try:
            execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or clock() >= deadline:
                raise
        sleep(pause * (0.5 + random.random()))  # jitter: the racers do not retry in step
        pause = min(pause * 2, 0.2)


def alembic_config(connection: Any) -> Config:
    """Alembic configuration bound to ``connection`` (the packaged migrations, no ini file)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(_MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


@functools.cache
def _revisions() -> tuple[str, frozenset[str]]:
    """The packaged migrations' head and every revision, read once per process.

    Reading the scripts costs tens of milliseconds and every open asks; they are package data
    and never change while the process runs.
    """
    scripts = ScriptDirectory(str(_MIGRATIONS))
    head = scripts.get_current_head()
    assert head is not None
    return head, frozenset(s.revision for s in scripts.walk_revisions())


def head_revision() -> str:
    """The schema version this code writes."""
    return _revisions()[0]


def current_revision(engine: Engine) -> str | None:
    """The schema version recorded in the database, ``None`` when it is empty."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


@contextmanager
def _migration_lock(engine: Engine) -> Iterator[None]:
    """Serialize migrations across processes opening the same SQLite file at the same moment.

    SQLite files: an advisory ``flock`` on a sibling lock file. PostgreSQL takes its lock inside
    the migration transaction instead (see :func:`_upgrade`), so nothing is held across
    statements and it works behind PgBouncer in transaction pooling. In-memory SQLite is
    private to one process and needs none.
    """
    database = engine.url.database
    if engine.dialect.name == "sqlite" and database not in (None, "", ":memory:"):
        lock_path = Path(f"{database}.migrate-lock")
        with lock_path.open("a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)
    else:
        yield


_PG_LOCK_KEY = 0x75736572_6C6F7265 % (2**63)  # "userlore"


def _upgrade(engine: Engine) -> None:
    """Run the migrations; on SQLite with foreign keys off, checked before the commit.

    SQLite adds a constraint only by rebuilding the table, and dropping a table that others
    reference would fail (or cascade) with enforcement on; ``PRAGMA foreign_keys`` cannot change
    inside a transaction, so it is switched around it, and ``foreign_key_check`` must find no
    violation before the migrated schema is committed.
    """
    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as conn:
        if sqlite:
            conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
            conn.commit()
        try:
            with conn.begin():
                if engine.dialect.name == "postgresql":
                    # Transaction-scoped: released by the commit, never left on a pooled
                    # server connection. A process that waited finds the schema current.
                    conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_LOCK_KEY})
                    if MigrationContext.configure(conn).get_current_revision() == head_revision():
                        return
                command.upgrade(alembic_config(conn), "head")
                if sqlite:
                    broken = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                    if broken:
                        raise StorageError(
                            f"migration left {len(broken)} broken reference(s); nothing committed"
                        )
        finally:
            if sqlite:
                conn.exec_driver_sql("PRAGMA foreign_keys=ON")
                conn.commit()


def setup(engine: Engine) -> str:
    """Apply pending migrations; return the schema version now recorded.

    Safe to call from several processes at once: the first migrates, the others wait and find
    the schema current.

    Raises:
        StorageError: the database is unreachable or was written by a newer userlore.
    """
    head = head_revision()
    try:
        if current_revision(engine) == head:
            return head
        with _migration_lock(engine):
            current = current_revision(engine)
            if current == head:
                return head
            if current is not None and current not in _revisions()[1]:
                raise StorageError(
                    f"database schema {current!r} is newer than this userlore "
                    f"(knows up to {head!r})"
                )
            _upgrade(engine)
    except OperationalError as exc:
        raise StorageError(f"cannot migrate database: {exc.orig}") from None
    return head
