"""Schema versions are recorded; setup is idempotent; a newer database is refused."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import Engine, inspect, text

from userlore import StorageError, Userlore
from userlore.store.engine import (
    _use_wal,
    create_store_engine,
    current_revision,
    head_revision,
    setup,
)


def test_setup_records_head_and_is_idempotent(tmp_path: Path) -> None:
    engine = create_store_engine(f"sqlite:///{tmp_path / 'a.db'}")
    assert current_revision(engine) is None
    assert setup(engine) == head_revision()
    assert setup(engine) == head_revision()
    assert current_revision(engine) == head_revision()
    tables = set(inspect(engine).get_table_names())
    assert {
        "memory_records",
        "memory_record_versions",
        "memory_evidence",
        "memory_relations",
        "knowledge_source_items",
        "knowledge_source_changes",
        "knowledge_consumer_watermarks",
        "knowledge_sync_runs",
        "knowledge_source_state",
        "memory_trace_events",
        "review_decisions",
        "facet_observations",
        "consent_grants",
        "memory_records_fts",
    } <= tables
    engine.dispose()


def test_wal_mode_on_files(tmp_path: Path) -> None:
    lore = Userlore.open(f"sqlite:///{tmp_path / 'wal.db'}")
    with lore.store.engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
    lore.close()


def test_data_survives_reopen(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'keep.db'}"
    lore = Userlore.open(url, config={"memory": {"mode": "auto"}})
    lore.observe(scope="u1", role="user", content="Always answer in bullet points.")
    lore.close()
    again = Userlore.open(url, config={"memory": {"mode": "auto"}})
    assert len(again.records.list("u1")) == 1
    assert again.plan_context(scope="u1", query="answer").selected
    again.close()


def test_database_from_a_newer_version_is_refused(tmp_path: Path) -> None:
    engine = create_store_engine(f"sqlite:///{tmp_path / 'new.db'}")
    setup(engine)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999_future'"))
    with pytest.raises(StorageError, match="newer"):
        setup(engine)
    engine.dispose()


def _open_and_count(url: str) -> int:
    lore = Userlore.open(url)
    try:
        return len(lore.records.list("u1"))
    finally:
        lore.close()


def test_concurrent_first_open_migrates_once(tmp_path: Path) -> None:
    """Four processes open a new file at once, five times over (CI once lost this race when
    two of them switched the new file to WAL at the same moment)."""
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(4) as pool:
        for attempt in range(5):
            url = f"sqlite:///{tmp_path / f'race{attempt}.db'}"
            assert pool.map(_open_and_count, [url] * 4) == [0, 0, 0, 0]
            engine = create_store_engine(url)
            assert current_revision(engine) == head_revision()
            engine.dispose()


class _LockedFile:
    """A connection whose switch to WAL finds the file locked ``locked`` times first."""

    def __init__(self, mode: str, locked: int) -> None:
        self.mode, self.locked, self.switches = mode, locked, 0
        self.now, self.slept = 0.0, 0.0

    def execute(self, sql: str) -> _Row:
        if sql == "PRAGMA journal_mode=WAL":
            self.switches += 1
            if self.locked:
                self.locked -= 1
                raise sqlite3.OperationalError("database is locked")
            self.mode = "wal"
        return _Row(self.mode)

    def sleep(self, seconds: float) -> None:
        self.slept += seconds
        self.now += seconds


class _Row:
    def __init__(self, value: str) -> None:
        self.value = value

    def fetchone(self) -> tuple[str]:
        return (self.value,)


def test_switch_to_wal_waits_out_a_lock() -> None:
    conn = _LockedFile("delete", locked=3)
    _use_wal(conn.execute, timeout=30, sleep=conn.sleep, clock=lambda: conn.now)
    assert (conn.mode, conn.switches) == ("wal", 4)
    assert 0 < conn.slept < 1


def test_switch_to_wal_gives_up_after_the_timeout() -> None:
    conn = _LockedFile("delete", locked=10_000)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        _use_wal(conn.execute, timeout=2, sleep=conn.sleep, clock=lambda: conn.now)
    assert conn.mode == "delete"
    assert 2 <= conn.now < 3


def test_a_file_already_in_wal_is_not_switched_again() -> None:
    conn = _LockedFile("wal", locked=10_000)
    _use_wal(conn.execute, sleep=conn.sleep, clock=lambda: conn.now)
    assert conn.switches == 0


def test_other_errors_are_not_retried() -> None:
    def execute(sql: str) -> _Row:
        if sql == "PRAGMA journal_mode":
            return _Row("delete")
        raise sqlite3.OperationalError("disk I/O error")

    with pytest.raises(sqlite3.OperationalError, match="disk I/O"):
        _use_wal(execute, sleep=lambda _s: pytest.fail("retried a non-lock error"))


def _schema_of(engine: Engine) -> list[tuple[str, str, str | None]]:
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT type, name, sql FROM sqlite_master ORDER BY type, name"))
        return [(row[0], row[1], row[2]) for row in rows]


@pytest.mark.real_migrations
def test_in_memory_migrations_run_for_real_when_marked() -> None:
    engine = create_store_engine("sqlite://")
    assert current_revision(engine) is None
    assert setup(engine) == head_revision()
    assert current_revision(engine) == head_revision()
    engine.dispose()


def test_suite_template_copy_matches_a_real_migration() -> None:
    """tests/conftest.py copies a migrated template into in-memory databases: the same schema."""
    from tests.conftest import _TEMPLATE
    from userlore.store import engine as engine_module

    assert engine_module._upgrade is _TEMPLATE  # the hook is live in this process
    copied = create_store_engine("sqlite://")
    setup(copied)  # the suite's template copy (this test is not marked real_migrations)
    real = create_store_engine("sqlite://")
    before = _TEMPLATE.enabled
    _TEMPLATE.enabled = False  # what @pytest.mark.real_migrations does, for this one database
    try:
        setup(real)
    finally:
        _TEMPLATE.enabled = before
    assert _schema_of(copied) == _schema_of(real)
    assert len(_schema_of(real)) > 20
    assert current_revision(copied) == current_revision(real) == head_revision()
    copied.dispose()
    real.dispose()


def test_the_typed_schema_matches_what_the_migrations_create() -> None:
    """An autogenerate comparison of ``Base.metadata`` with a migrated database finds nothing
    but the tables the migrations create in SQL on purpose: the full-text index tables, the
    SQLite posting index's trigger-kept record generations (0013) and the per-scope full-text
    statistics (0014)."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from userlore.store.schema import Base

    engine = create_store_engine("sqlite://")
    setup(engine)
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        found = compare_metadata(context, Base.metadata)
    engine.dispose()
    sql_only = {"memory_record_generations", "memory_record_changes", "fulltext_scope_stats"}

    def sql_only_table(d: object) -> bool:
        if not isinstance(d, tuple):
            return False
        if d[0] == "remove_table":
            return "_fts" in d[1].name or d[1].name in sql_only
        return d[0] == "remove_index" and d[1].table.name in sql_only

    differences = [d for d in found if not sql_only_table(d)]
    assert differences == []
    # the FTS5 tables and their shadow tables (two indexes' worth), the two generation tables,
    # the change log's index and the per-scope statistics
    assert len(found) == 14
