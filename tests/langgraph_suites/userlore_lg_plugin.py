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
the run, as does an entry that matches no test), and any other failure fails the run. Its
``timed`` list names wall-clock tests that must pass but are retried (``flaky(retries=2)``, as
LangGraph marks its own sleep-timed TTL tests); an entry that matches no test fails the run too.
"""

from __future__ import annotations

import fnmatch
import os
import resource
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
REUSE_BELOW = 16 * 1024 * 1024
"""A database this much larger than the template is dropped, not emptied (a large-batch test's
rows and dead tuples are slower to delete than a fresh copy is to make)."""

# What makes two databases of this schema the same: every relation, column, constraint, policy
# and trigger of the public schema, and whether each sequence was ever used.
_SIGNATURE = """
SELECT md5(string_agg(x, ',' ORDER BY x)) FROM (
  SELECT c.relname || ':' || c.relkind::text || ':' || c.relrowsecurity::text
         || c.relforcerowsecurity::text
         || coalesce(':' || a.attname || ':' || format_type(a.atttypid, a.atttypmod)
                     || ':' || a.attnotnull::text, '') AS x
    FROM pg_class c
    LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
   WHERE c.relnamespace = 'public'::regnamespace
  UNION ALL SELECT conrelid::regclass || ':' || conname || ':' || pg_get_constraintdef(oid)
    FROM pg_constraint WHERE connamespace = 'public'::regnamespace
  UNION ALL SELECT tablename || ':' || policyname || ':' || coalesce(qual, '')
    FROM pg_policies WHERE schemaname = 'public'
  UNION ALL SELECT c.relname || ':' || g.tgname
    FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid
   WHERE NOT g.tgisinternal AND c.relnamespace = 'public'::regnamespace
  UNION ALL SELECT sequencename || ':' || coalesce(last_value::text, 'unused')
    FROM pg_sequences WHERE schemaname = 'public'
  UNION ALL SELECT 'version:' || version_num FROM alembic_version
) s
"""


def _libpq(url: str) -> str:
    """A SQLAlchemy URL as the libpq URI LangGraph's tests connect with."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class _Databases:
    """Migrated databases for the stores of one pytest session, emptied and reused per test.

    A test's fixture creates an empty database and opens the store on it (once or twice: the
    ``store`` fixture opens it to set up, then again for the test). The store opens instead on
    a database of this pool that is exactly the migrated template: a copy made with ``CREATE
    DATABASE ... TEMPLATE`` the first time, afterwards the one the previous test used, emptied
    in one round trip (its rows deleted, its sequences reset, the ``vector`` columns an index
    config added dropped) and then compared with the template's catalog signature
    (:data:`_SIGNATURE`); any difference, or a database grown past :data:`REUSE_BELOW`, and it
    is dropped and a fresh copy made. Every name a test opens maps to one pooled database
    until the next test starts.
    """

    def __init__(self) -> None:
        if not PG_ADMIN:
            raise pytest.UsageError(
                "the PostgreSQL suites run through run.py (USERLORE_LG_PG_ADMIN)"
            )
        self.admin = create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
        self._held: dict[str, str] = {}  # the test's database name -> ours
        self._free: list[str] = []
        self._all: list[str] = []
        self._count = iter(range(1_000_000))
        self._template_sig = ""
        self._template_size = 0
        self._empty = ""  # the statements that empty a used database
        self.copies = self.reuses = 0

    def url(self, name: str) -> str:
        return make_url(PG_ADMIN).set(database=name).render_as_string(hide_password=False)

    def _learn_template(self) -> None:
        """The template's signature and size, and the one script that empties a database."""
        with psycopg.connect(_libpq(self.url(PG_TEMPLATE)), autocommit=True) as conn:
            self._template_sig = conn.execute(_SIGNATURE).fetchone()[0]  # type: ignore[index]
            self._template_size = conn.execute(  # type: ignore[index]
                "SELECT pg_database_size(current_database())"
            ).fetchone()[0]
            # Children before parents (foreign keys), alembic_version kept.
            tables = [r[0] for r in conn.execute(_TABLES_CHILDREN_FIRST)]
            sequences = [
                r[0]
                for r in conn.execute(
                    "SELECT schemaname || '.' || sequencename FROM pg_sequences "
                    "WHERE schemaname = 'public'"
                )
            ]
        script = [
            f"ALTER TABLE {t} DROP COLUMN IF EXISTS embedding"
            for t in ("memory_record_vectors", "memory_evidence_vectors")
        ]
        script += [f'DELETE FROM "{t}"' for t in tables if t != "alembic_version"]
        script += [f"SELECT setval('{s}', 1, false)" for s in sequences]
        self._empty = ";\n".join(script)

    def acquire(self, test_db: str) -> str:
        """The pooled database standing for the test's ``test_db`` (the same one all test)."""
        if test_db in self._held:
            return self._held[test_db]
        if not self._empty:
            self._learn_template()
        name = None
        while self._free and name is None:
            candidate = self._free.pop()
            if self._reset(candidate):
                name = candidate
                self.reuses += 1
            else:
                self._drop(candidate)
        if name is None:
            name = f"userlore_lg_{os.getpid()}_{next(self._count)}"
            with self.admin.connect() as conn:
                conn.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{PG_TEMPLATE}"'))
            self._all.append(name)
            self.copies += 1
        self._held[test_db] = name
        return name

    def release(self) -> None:
        """A new test starts: every database the last one used may be emptied and reused."""
        self._free.extend(self._held.values())
        self._held.clear()

    def end_sessions(self, name: str) -> None:
        """End every session still connected to ``name`` (see :func:`_end_sessions`)."""
        with self.admin.connect() as conn:
            conn.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = :name AND pid <> pg_backend_pid()"
                ),
                {"name": name},
            )

    def _reset(self, name: str) -> bool:
        """Empty ``name``; true if it is now the template's twin (else it is to be dropped)."""
        self.end_sessions(name)
        with psycopg.connect(_libpq(self.url(name)), autocommit=True) as conn:
            size = conn.execute("SELECT pg_database_size(current_database())").fetchone()
            if size is None or size[0] > self._template_size + REUSE_BELOW:
                return False
            conn.execute(self._empty.encode())  # one round trip (simple query protocol)
            sig = conn.execute(_SIGNATURE).fetchone()
        return sig is not None and sig[0] == self._template_sig

    def _drop(self, name: str) -> None:
        with self.admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        self._all.remove(name)

    def close(self) -> None:
        """Drop every database of the pool (the server may be the user's own)."""
        for name in list(self._all):
            self._drop(name)
        self.admin.dispose()


_TABLES_CHILDREN_FIRST = """
WITH RECURSIVE t AS (
  SELECT c.oid, c.relname FROM pg_class c
   WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')
), depth(oid, d) AS (
  SELECT oid, 0 FROM t
  UNION ALL
  SELECT con.conrelid, depth.d + 1 FROM pg_constraint con JOIN depth ON con.confrelid = depth.oid
   WHERE con.contype = 'f' AND con.conrelid <> con.confrelid AND depth.d < 50
)
SELECT t.relname FROM t JOIN depth USING (oid) GROUP BY t.relname ORDER BY max(d) DESC, 1
"""

_POOL: _Databases | None = None


def _pool() -> _Databases:
    global _POOL
    if _POOL is None:
        _POOL = _Databases()
    return _POOL


def _open_pg(conn_string: str) -> tuple[Userlore, str]:
    """A ``Userlore`` on the pooled database standing for the test's, and its libpq URI."""
    pool = _pool()
    name = pool.acquire(make_url(conn_string).database or "")
    url = make_url(pool.url(name)).set(drivername="postgresql+psycopg")
    rendered = url.render_as_string(hide_password=False)
    return Userlore.open(rendered, config=_CONFIG), _libpq(rendered)


def _end_sessions(conn_string: str) -> None:
    """End the sessions a failed test's still-running calls hold on its database.

    A call a failed ``gather`` left running in a worker thread would otherwise hold a
    connection to the database the next test is to reuse.
    """
    pool = _pool()
    name = pool.acquire(make_url(conn_string).database or "")
    pool.end_sessions(name)


def pytest_sessionstart(session: pytest.Session) -> None:
    """Load the floor's tables before the first test.

    The suites time their TTL tests in seconds (PostgreSQL's: items put, then searched, within
    a 6 s TTL); the first put whose text opens a lazily loaded table (the language identifier's
    model, CLDR's currency symbols) paid seconds inside such a window, and on a loaded machine
    an item expired before the search (``test_search_namespace_like_metacharacters``).
    """
    from userlore.policy.warm import warm

    warm()


def pytest_runtest_setup(item: pytest.Item) -> None:
    """A new test: the databases the last one used go back to the pool."""
    if _POOL is not None:
        _POOL.release()


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


def _exceptions(table: str = "exception") -> list[dict[str, Any]]:
    """This package's and mode's entries of ``table`` (``exception`` or ``timed``)."""
    data = tomllib.loads(EXCEPTIONS.read_text("utf-8"))
    return [
        e
        for e in data.get(table, [])
        if e["package"] == PACKAGE and MODE in e.get("modes", ["fixed", "first-label"])
    ]


@pytest.hookimpl(tryfirst=True)  # before ``--deselect``: the stale check sees every test
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
    entries, timed = _exceptions(), _exceptions("timed")
    used: set[int] = set()
    timed_used: set[int] = set()
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
        for i, entry in enumerate(timed):
            if fnmatch.fnmatchcase(item.nodeid, entry["test"]):
                timed_used.add(i)
                if item.get_closest_marker("flaky") is None:
                    item.add_marker(pytest.mark.flaky(retries=2))
                break
    # A session run.py split off (one part of a package's tests) leaves the stale check to
    # the part that collects them all (USERLORE_LG_STALE_CHECK=0).
    if os.environ.get("USERLORE_LG_STALE_CHECK", "1") == "1":
        config.stash[_UNUSED] = [e["test"] for i, e in enumerate(entries) if i not in used] + [
            e["test"] for i, e in enumerate(timed) if i not in timed_used
        ]


_UNUSED = pytest.StashKey[list[str]]()


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """Name the store and the user mode, and any exception entry that matched no test."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    terminalreporter.write_line(
        f"userlore: LangGraph suite of {PACKAGE} against UserloreStore, user mode {MODE!r} "
        f"(this session's CPU: {used.ru_utime + used.ru_stime:.0f} s)"
    )
    if _POOL is not None:
        terminalreporter.write_line(
            f"userlore: PostgreSQL databases: {_POOL.copies} copied from the template, "
            f"{_POOL.reuses} reused (emptied, catalog identical to the template's)"
        )
    for pattern in config.stash.get(_UNUSED, []):
        terminalreporter.write_line(f"userlore: stale exception (matches no test): {pattern}")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """A stale exception entry fails the run: the list must stay short and true."""
    if _POOL is not None:
        _POOL.close()
    if session.config.stash.get(_UNUSED, []) and exitstatus == 0:
        session.exitstatus = 1
