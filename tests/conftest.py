"""Shared fixtures: a fixed clock, deterministic ids and fresh in-memory databases."""

from __future__ import annotations

import itertools
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url

from userlore import Userlore
from userlore.policy.langid_model import cache_root as langid_cache_root
from userlore.store import engine as engine_module
from userlore.store.engine import create_store_engine, setup
from userlore.testing.postgres import HOW_TO, PostgresUnavailable, ThrowawayPostgres

# The servers the suite starts (`userlore serve`, `userlore mcp`) skip loading the floor's tables
# in the background at start (~4 s of CPU each on a machine the suite keeps busy);
# tests/unit/test_warm.py covers the warm start.
os.environ.setdefault("USERLORE_WARM", "0")
# Nor does a large batch start the floor's worker process (a second interpreter building the
# tables, ~4 s of CPU); tests/unit/test_floor_worker.py runs it.
os.environ.setdefault("USERLORE_FLOOR_WORKER", "0")  # opt-in; an environment that set it

# Subprocesses that get a HOME of their own (the CLI tests, the cookbook recipes) still read
# py3langid's model from the one cache of its decompressed arrays instead of each writing its
# own (policy/langid_model.py); USERLORE_LANGID_CACHE=off in the environment still switches it off.
_langid_cache = langid_cache_root()
if _langid_cache is not None:
    os.environ.setdefault("USERLORE_LANGID_CACHE", str(_langid_cache))


# The test command runs pytest in two sessions (``tests/langgraph_suites/run.py --shard``): the
# main one, and beside it, at the lowest priority, on the core LangGraph's store suites leave
# idle while they wait on round trips, the files below. They are the floor's and the extractors'
# data-set tests: in-process, on in-memory databases, with no server, subprocess, deadline or
# PostgreSQL, so a starved core only slows them. ``USERLORE_TEST_SHARD`` (``main`` or
# ``beside``) picks a session's share; unset, pytest runs every test. The shard ended the command
# (a quiet newcomer run: main share done at ~700 s, suites 725 s, shard 786 s), so two such
# files of ~35 s of CPU, the one-pass comparison and the floor's cost test, run in the main one;
# it ended it again (805 s, 789 s, 870 s), so three more of ~41 s (the batch floor, the cue
# alternations and the layering check) moved there too.
BESIDE_SHARD: tuple[str, ...] = (
    "unit/test_*classes*.py",
    "unit/test_blind*.py",
    "unit/test_special*.py",
    "unit/test_key_shapes.py",
    "unit/test_sensitivity*.py",
    "unit/test_said*.py",
    "unit/test_value_parts.py",
)
SHARDS = ("main", "beside")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Keep only this session's share (:data:`BESIDE_SHARD`) when ``USERLORE_TEST_SHARD`` is set."""
    shard = os.environ.get("USERLORE_TEST_SHARD")
    if not shard:
        return
    if shard not in SHARDS:
        raise pytest.UsageError(f"USERLORE_TEST_SHARD={shard!r}: expected one of {SHARDS}")
    tests = Path(__file__).resolve().parent
    beside = {path for pattern in BESIDE_SHARD for path in tests.glob(pattern)}
    keep: list[pytest.Item] = []
    drop: list[pytest.Item] = []
    for item in items:
        (keep if (Path(item.path) in beside) == (shard == "beside") else drop).append(item)
    config.hook.pytest_deselected(items=drop)
    items[:] = keep


class MigratedTemplate:
    """Gives an empty in-memory SQLite database the migrated schema by copying a template.

    Running the Alembic migrations costs ~0.3 s per database and the suite opens thousands of
    in-memory databases; the template is migrated once per process by the real ``_upgrade`` and
    copied page by page (``sqlite3`` backup, ~1 ms). Files, PostgreSQL, databases that are not
    empty (a test that stamped an older revision) and tests marked ``real_migrations`` always
    run the migrations themselves.
    """

    def __init__(self, upgrade: Callable[[Engine], None]) -> None:
        self._upgrade = upgrade
        self._lock = threading.Lock()
        self._template: sqlite3.Connection | None = None
        self._engine: Engine | None = None  # keeps the template's one connection open
        # USERLORE_TEST_MIGRATE_EACH=1: every database migrates (to measure what the copy saves).
        self.enabled = os.environ.get("USERLORE_TEST_MIGRATE_EACH") != "1"
        self.copies = 0

    def _source(self) -> sqlite3.Connection:
        if self._template is None:
            engine = create_store_engine("sqlite://")
            self._upgrade(engine)
            self._engine = engine
            raw = engine.raw_connection().driver_connection
            assert isinstance(raw, sqlite3.Connection)
            self._template = raw
        return self._template

    def __call__(self, engine: Engine) -> None:
        memory = engine.dialect.name == "sqlite" and engine.url.database in (None, "", ":memory:")
        if self.enabled and memory:
            with engine.connect() as conn:
                raw = conn.connection.driver_connection
                assert isinstance(raw, sqlite3.Connection)
                if raw.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0:
                    with self._lock:
                        self._source().backup(raw)
                        self.copies += 1
                    return
        self._upgrade(engine)


_TEMPLATE = MigratedTemplate(engine_module._upgrade)
engine_module._upgrade = _TEMPLATE  # type: ignore[assignment]  # module-level hook, tests only


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """How many databases the template copy served (each would have run every migration)."""
    if _TEMPLATE.copies:
        terminalreporter.write_line(
            f"in-memory SQLite databases copied from the migrated template: {_TEMPLATE.copies}"
        )


@pytest.fixture(autouse=True)
def _migrations_for_real(request: pytest.FixtureRequest) -> Iterator[None]:
    """``@pytest.mark.real_migrations``: in-memory databases run the Alembic migrations too."""
    default = _TEMPLATE.enabled
    _TEMPLATE.enabled = default and request.node.get_closest_marker("real_migrations") is None
    yield
    _TEMPLATE.enabled = default


class FakeClock:
    """A clock tests move by hand."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2026, 1, 5, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kwargs: float) -> datetime:
        self.now += timedelta(**kwargs)
        return self.now


def sequential_ids() -> Callable[[str], str]:
    counter = itertools.count(1)
    return lambda prefix: f"{prefix}_{next(counter):06d}"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def make_lore(clock: FakeClock) -> Iterator[Callable[..., Userlore]]:
    opened: list[Userlore] = []

    def factory(mode: str = "confirmWrite", url: str = "sqlite://", **config: object) -> Userlore:
        cfg: dict[str, object] = {"memory": {"mode": mode}, **config}
        lore = Userlore.open(url, config=cfg, clock=clock, ids=sequential_ids())
        opened.append(lore)
        return lore

    yield factory
    for lore in opened:
        lore.close()


@pytest.fixture
def lore(make_lore: Callable[..., Userlore]) -> Userlore:
    """confirmWrite: candidates wait for approval."""
    return make_lore("confirmWrite")


@pytest.fixture
def auto_lore(make_lore: Callable[..., Userlore]) -> Userlore:
    """auto: policy-passing candidates activate at once."""
    return make_lore("auto")


class PostgresDatabases:
    """Hands out fresh, migrated databases on one server (copies of a migrated template)."""

    def __init__(self, admin_url: str) -> None:
        self.admin_url = admin_url
        self.admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
        self.counter = itertools.count(1)
        self._numpy_template = False
        with self.admin.connect() as conn:
            version = int(conn.execute(text("SHOW server_version_num")).scalar_one())
        self._file_copy = version >= 150000
        self._create("userlore_template", template=None)
        engine = create_store_engine(self.url("userlore_template"))
        setup(engine)
        engine.dispose()

    def url(self, database: str) -> str:
        return make_url(self.admin_url).set(database=database).render_as_string(hide_password=False)

    def _create(self, name: str, template: str | None) -> None:
        with self.admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
            suffix = f' TEMPLATE "{template}"' if template else ""
            if template and self._file_copy:
                # Copies the template's files instead of writing them all to the WAL: about 3x
                # faster per database, and the session creates hundreds (PostgreSQL 15+).
                suffix += " STRATEGY FILE_COPY"
            conn.execute(text(f'CREATE DATABASE "{name}"{suffix}'))

    def drop(self, url: str) -> None:
        """Drops a database handed out by :meth:`fresh`, so the session's disk stays small."""
        name = make_url(url).database
        with self.admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))

    def fresh(self, migrated: bool = True, pgvector: bool = True) -> str:
        """A new database; ``pgvector=False``: migrated on a server without the extension."""
        name = f"userlore_t{os.getpid()}_{next(self.counter)}"
        template = "userlore_template" if pgvector else self._without_pgvector()
        self._create(name, template if migrated else None)
        return self.url(name)

    def _without_pgvector(self) -> str:
        """A migrated template with no ``vector`` extension: what a server without it leaves."""
        name = "userlore_template_numpy"
        if not self._numpy_template:
            self._create(name, "userlore_template")
            engine = create_engine(self.url(name))
            with engine.begin() as conn:
                conn.execute(text("DROP EXTENSION IF EXISTS vector"))
            engine.dispose()
            self._numpy_template = True
        return name

    def has_pgvector(self) -> bool:
        """Whether the migrated template has the ``vector`` extension (the server ships it)."""
        engine = create_engine(self.url("userlore_template"))
        with engine.connect() as conn:
            found = conn.execute(text("SELECT 1 FROM pg_extension WHERE extname = 'vector'"))
            present = found.first() is not None
        engine.dispose()
        return present


@pytest.fixture(scope="session")
def postgres_databases() -> Iterator[PostgresDatabases]:
    """A PostgreSQL server for the session: started here, or the one the environment names."""
    if os.environ.get("USERLORE_SKIP_POSTGRES") == "1":
        pytest.skip("PostgreSQL tests skipped: USERLORE_SKIP_POSTGRES=1")
    external = os.environ.get("USERLORE_TEST_DATABASE_URL")
    if external:
        dbs = PostgresDatabases(external)
        yield dbs
        dbs.admin.dispose()
        return
    try:
        server = ThrowawayPostgres().start()
    except PostgresUnavailable as exc:
        pytest.fail(f"cannot start PostgreSQL: {exc}\n{HOW_TO}", pytrace=False)
    try:
        dbs = PostgresDatabases(server.admin_url)
        yield dbs
        dbs.admin.dispose()
    finally:
        server.stop()


@pytest.fixture
def postgres_url(postgres_databases: PostgresDatabases) -> Iterator[str]:
    """A fresh, migrated PostgreSQL database for one test, dropped after it."""
    url = postgres_databases.fresh()
    yield url
    postgres_databases.drop(url)
