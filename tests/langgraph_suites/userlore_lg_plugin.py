"""Pytest plugin: LangGraph's own store tests, run against ``UserloreStore``.

Loaded by ``run.py`` (``-p userlore_lg_plugin``) into a pytest session over the ``tests/`` of
an unpacked LangGraph source distribution. Wherever those tests build their store
(``InMemoryStore(...)``, ``SqliteStore.from_conn_string(...)``,
``AsyncSqliteStore.from_conn_string(...)``), the test module's name is rebound here to a class
that builds a ``UserloreStore`` on a fresh SQLite file instead (``auto`` mode, so a put is
live at once, as in LangGraph's stores). No upstream file is copied or edited.

The ``langgraph-checkpoint-postgres`` suites build their store on a database they create on
the server their ``tests.conftest.DEFAULT_URI`` names: that name is pointed at the server
``run.py`` started (``USERLORE_LG_PG_ADMIN``), and ``PostgresStore`` / ``AsyncPostgresStore``
become classes that replace the test's empty database, the first time it is opened, with a copy
of the migrated template (``USERLORE_LG_PG_TEMPLATE``) and open a ``UserloreStore`` on it; the
test's own fixture drops it. ``_cursor()`` hands the tests a psycopg cursor on that database (so
their setup statements run; their statements on PostgresStore's ``store`` table fail, listed).

``USERLORE_LG_USER`` picks whose items they are: ``fixed`` (one user for every call, the
resolver's default, as a run that names its user) or ``first-label`` (the first namespace
label is the user, ``namespace_template=("{user_id}",)``, as LangGraph Server's convention).

The known, by-design differences are listed once in ``exceptions.toml``; each listed test is
marked ``xfail(strict=True)`` so it must still fail (a listed test that starts passing fails
the run, as does an entry that matches no test), and any other failure fails the run.
"""

from __future__ import annotations

import fnmatch
import os
import shutil
import tempfile
import tomllib
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg.rows import dict_row
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from userlore import Userlore
from userlore.integrations.langgraph_store import UserloreStore
from userlore.integrations.scope import ScopeResolver

MODE = os.environ.get("USERLORE_LG_USER", "fixed")
PACKAGE = os.environ.get("USERLORE_LG_PACKAGE", "")
FIXED_USER = "lg-suite-user"
EXCEPTIONS = Path(__file__).with_name("exceptions.toml")
_DIR = tempfile.TemporaryDirectory(prefix="userlore-lg-suites-")
_COUNT = iter(range(1_000_000))
_CONFIG = {"memory": {"mode": "auto"}}

if MODE not in ("fixed", "first-label"):
    raise pytest.UsageError(f"USERLORE_LG_USER must be fixed or first-label, not {MODE!r}")


def _open() -> Userlore:
    """A ``Userlore`` on a fresh SQLite file, copied from one migrated once (opening is fast)."""
    template = Path(_DIR.name) / "template.db"
    if not template.exists():
        Userlore.open(f"sqlite:///{template}", config=_CONFIG).close()
    path = Path(_DIR.name) / f"store-{next(_COUNT)}.db"
    shutil.copyfile(template, path)
    return Userlore.open(f"sqlite:///{path}", config=_CONFIG)


def _options(index: Any, ttl: Any) -> dict[str, Any]:
    if MODE == "fixed":
        return {"scope": ScopeResolver(default=FIXED_USER), "index": index, "ttl": ttl}
    return {"namespace_template": ("{user_id}",), "index": index, "ttl": ttl}


class LoreInMemoryStore(UserloreStore):
    """Stands where the tests call ``InMemoryStore(index=..., ttl=...)``."""

    def __init__(self, *, index: Any = None, ttl: Any = None) -> None:
        super().__init__(_open(), **_options(index, ttl))


class LoreSqliteStore(UserloreStore):
    """Stands where the tests call ``SqliteStore.from_conn_string(conn, index=, ttl=)``."""

    @classmethod
    @contextmanager
    def from_conn_string(
        cls, conn_string: str, *, index: Any = None, ttl: Any = None, **_: Any
    ) -> Iterator[LoreSqliteStore]:
        lore = _open()  # a fresh file whatever the string (":memory:" too)
        store = cls(lore, **_options(index, ttl))
        try:
            yield store
        finally:
            store.stop_ttl_sweeper(timeout=5)
            lore.close()

    def setup(self) -> None:
        """Migrations run when the ``Userlore`` opens."""


class _AsyncSweeperNames(UserloreStore):
    """LangGraph's async stores name their awaitable sweeper methods like the sync ones; ours
    are the ``a``-prefixed twins, bound here under the async stores' names."""

    sweep_ttl = UserloreStore.asweep_ttl  # type: ignore[assignment]
    start_ttl_sweeper = UserloreStore.astart_ttl_sweeper  # type: ignore[assignment]
    stop_ttl_sweeper = UserloreStore.astop_ttl_sweeper  # type: ignore[assignment]


class LoreAsyncSqliteStore(_AsyncSweeperNames):
    """Stands where the tests call ``AsyncSqliteStore.from_conn_string(...)``.

    LangGraph's async stores name their awaitable sweeper methods like the sync ones (see
    :class:`_AsyncSweeperNames`).
    """

    @classmethod
    @asynccontextmanager
    async def from_conn_string(
        cls, conn_string: str, *, index: Any = None, ttl: Any = None, **_: Any
    ) -> AsyncIterator[LoreAsyncSqliteStore]:
        lore = _open()
        store = cls(lore, **_options(index, ttl))
        try:
            yield store
        finally:
            await store.astop_ttl_sweeper(timeout=5)
            lore.close()

    async def setup(self) -> None:
        """Migrations run when the ``Userlore`` opens."""


PG_ADMIN = os.environ.get("USERLORE_LG_PG_ADMIN", "")
PG_TEMPLATE = os.environ.get("USERLORE_LG_PG_TEMPLATE", "")
_PREPARED: set[str] = set()


def _libpq(url: str) -> str:
    """A SQLAlchemy URL as the libpq URI LangGraph's tests connect with."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def _open_pg(conn_string: str) -> tuple[Userlore, str]:
    """A ``Userlore`` on the test's database, made a copy of the migrated template once."""
    if not PG_ADMIN:
        raise pytest.UsageError("the PostgreSQL suites run through run.py (USERLORE_LG_PG_ADMIN)")
    url = make_url(conn_string).set(drivername="postgresql+psycopg")
    name = url.database or ""
    if name not in _PREPARED:
        # The test created it empty; it becomes a file copy of the template (faster than
        # migrating, and the schema is exactly the one `Userlore.open` would make).
        admin = create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            conn.execute(
                text(f'CREATE DATABASE "{name}" TEMPLATE "{PG_TEMPLATE}" STRATEGY FILE_COPY')
            )
        admin.dispose()
        _PREPARED.add(name)
    rendered = url.render_as_string(hide_password=False)
    return Userlore.open(rendered, config=_CONFIG), _libpq(rendered)


def _end_sessions(conn_string: str) -> None:
    """End the sessions a failed test's still-running calls hold on its database.

    The test's fixture drops the database after the store closes; a call a failed ``gather``
    left running in a worker thread would otherwise hold a connection and turn the test's
    failure into a second error at teardown.
    """
    name = make_url(conn_string).database
    admin = create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(
            text(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = :name AND pid <> pg_backend_pid()"
            ),
            {"name": name},
        )
    admin.dispose()


class _NoClassMigrations:
    """``MIGRATIONS`` on an instance (the tests' fixture rewrites it), none on the class.

    UserloreStore has no list of SQL statements: its schema's migrations run when the
    ``Userlore`` opens. Reading ``PostgresStore.MIGRATIONS`` on the class raises, so a test of
    that list fails (listed) instead of passing over an empty one.
    """

    def __get__(self, obj: Any, owner: type) -> list[str]:
        if obj is None:
            raise AttributeError("UserloreStore has no SQL migration list")
        return list(obj.__dict__.get("_lg_migrations", []))

    def __set__(self, obj: Any, value: list[str]) -> None:
        obj.__dict__["_lg_migrations"] = list(value)


class LorePostgresStore(UserloreStore):
    """Stands where the tests call ``PostgresStore.from_conn_string(conn, index=, ttl=)``."""

    MIGRATIONS = _NoClassMigrations()
    _libpq_url = ""

    @classmethod
    @contextmanager
    def from_conn_string(
        cls, conn_string: str, *, index: Any = None, ttl: Any = None, **_: Any
    ) -> Iterator[LorePostgresStore]:
        lore, libpq = _open_pg(conn_string)  # pipeline= / pool_config= have no counterpart
        store = cls(lore, **_options(index, ttl))
        store._libpq_url = libpq
        try:
            yield store
        finally:
            store.stop_ttl_sweeper(timeout=5)
            lore.close()
            _end_sessions(conn_string)

    def setup(self) -> None:
        """Migrations run when the ``Userlore`` opens."""

    @contextmanager
    def _cursor(self) -> Iterator[Any]:
        """A psycopg cursor (rows as dicts) on this store's database, autocommit."""
        connect = psycopg.connect(self._libpq_url, autocommit=True, row_factory=dict_row)
        with connect as conn, conn.cursor() as cur:
            yield cur


class LoreAsyncPostgresStore(_AsyncSweeperNames):
    """Stands where the tests call ``AsyncPostgresStore.from_conn_string(...)``."""

    MIGRATIONS = _NoClassMigrations()
    _libpq_url = ""

    @classmethod
    @asynccontextmanager
    async def from_conn_string(
        cls, conn_string: str, *, index: Any = None, ttl: Any = None, **_: Any
    ) -> AsyncIterator[LoreAsyncPostgresStore]:
        lore, libpq = _open_pg(conn_string)
        store = cls(lore, **_options(index, ttl))
        store._libpq_url = libpq
        try:
            yield store
        finally:
            await store.astop_ttl_sweeper(timeout=5)
            lore.close()
            _end_sessions(conn_string)

    async def setup(self) -> None:
        """Migrations run when the ``Userlore`` opens."""

    @asynccontextmanager
    async def _cursor(self) -> AsyncIterator[Any]:
        """An async psycopg cursor (rows as dicts) on this store's database, autocommit."""
        conn = await psycopg.AsyncConnection.connect(
            self._libpq_url, autocommit=True, row_factory=dict_row
        )
        async with conn, conn.cursor() as cur:
            yield cur


_SHIMS: dict[str, type[UserloreStore]] = {
    "InMemoryStore": LoreInMemoryStore,
    "SqliteStore": LoreSqliteStore,
    "AsyncSqliteStore": LoreAsyncSqliteStore,
    "PostgresStore": LorePostgresStore,
    "AsyncPostgresStore": LoreAsyncPostgresStore,
}


def pytest_plugin_registered(plugin: object, manager: object) -> None:
    """Point the PostgreSQL suites' ``DEFAULT_URI`` at our server before any test imports it."""
    if not PG_ADMIN or not getattr(plugin, "__name__", "").endswith("conftest"):
        return
    if hasattr(plugin, "DEFAULT_URI"):
        admin = _libpq(PG_ADMIN)
        plugin.DEFAULT_URI = admin  # type: ignore[attr-defined]
        plugin.DEFAULT_POSTGRES_URI = admin.rsplit("/", 1)[0] + "/"  # type: ignore[attr-defined]


def _exceptions() -> list[dict[str, Any]]:
    data = tomllib.loads(EXCEPTIONS.read_text("utf-8"))
    return [
        e
        for e in data.get("exception", [])
        if e["package"] == PACKAGE and MODE in e.get("modes", ["fixed", "first-label"])
    ]


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    """Rebind the store names in each test module and mark the listed exceptions.

    The PostgreSQL suites run each ``store`` test over three connection modes of PostgresStore
    (``default``, ``pipe``: a psycopg pipeline, ``pool``: a connection pool). UserloreStore has
    no such modes (``from_conn_string`` ignores ``pipeline=`` and ``pool_config=``; every call
    goes through its engine), so ``pipe`` and ``pool`` would run the same test twice more: they
    are deselected, and reported as such.
    """
    if PG_ADMIN:
        kept, dropped = [], []
        for item in items:
            params = getattr(getattr(item, "callspec", None), "params", {})
            (dropped if params.get("store") in ("pipe", "pool") else kept).append(item)
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = kept
    patched: set[int] = set()
    for item in items:
        module = getattr(item, "module", None)
        if module is not None and id(module) not in patched:
            patched.add(id(module))
            for name, shim in _SHIMS.items():
                if name in vars(module):
                    setattr(module, name, shim)
    entries = _exceptions()
    used: set[int] = set()
    for item in items:
        for i, entry in enumerate(entries):
            if fnmatch.fnmatchcase(item.nodeid, entry["test"]):
                used.add(i)
                item.add_marker(
                    pytest.mark.xfail(
                        strict=True, reason=f"[{entry['rule']}] {entry['reason']}", run=True
                    )
                )
                break
    config.stash[_UNUSED] = [e["test"] for i, e in enumerate(entries) if i not in used]


_UNUSED = pytest.StashKey[list[str]]()


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """Name the store and the user mode, and any exception entry that matched no test."""
    terminalreporter.write_line(
        f"userlore: LangGraph suite of {PACKAGE} against UserloreStore, user mode {MODE!r}"
    )
    for pattern in config.stash.get(_UNUSED, []):
        terminalreporter.write_line(f"userlore: stale exception (matches no test): {pattern}")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """A stale exception entry fails the run: the list must stay short and true."""
    if session.config.stash.get(_UNUSED, []) and exitstatus == 0:
        session.exitstatus = 1
