"""PostgreSQL at scale: per-scope ledger locks, a migration lock without session state,
``Userlore.open(engine=...)``, and workers woken by ``LISTEN``/``NOTIFY``."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import create_engine, event, text

from userlore import Userlore
from userlore.errors import ConfigError
from userlore.sources import ConnectedKnowledgePipeline, ItemListSource, SourceItem
from userlore.sources.coordinator import SourceCoordinator
from userlore.sources.leases import work_wakeups
from userlore.sources.ledger import ChangeLedger
from userlore.store.engine import create_store_engine, head_revision, setup

CONNECTED = {"memory": {"mode": "auto", "sources": ["session", "curated", "connected"]}}


def _items(n: int, prefix: str = "e") -> list[SourceItem]:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    return [
        SourceItem(
            external_id=f"{prefix}{i}",
            text=f"Entry {i}: the nightly job {i} finished.",
            occurred_at=start + timedelta(minutes=i),
        )
        for i in range(n)
    ]


def _in_thread(fn: Callable[[], object]) -> tuple[threading.Thread, list[float]]:
    done: list[float] = []

    def run() -> None:
        fn()
        done.append(time.monotonic())

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, done


def test_ledger_locks_are_per_scope(postgres_url: str) -> None:
    lore = Userlore.open(postgres_url, config=CONNECTED)
    store = lore.memory.store
    try:
        with store.transaction() as holder:
            ChangeLedger(store).lock(holder, "scope-a")  # an ingest of scope-a in flight
            other, other_done = _in_thread(
                lambda: lore.sources.ingest(
                    "scope-b", ItemListSource("s", _items(5)), synthesize=False
                ),
            )
            same, same_done = _in_thread(
                lambda: lore.sources.ingest(
                    "scope-a", ItemListSource("s", _items(5)), synthesize=False
                ),
            )
            other.join(30)
            assert other_done, "an ingest of another scope waited for scope-a's ledger lock"
            time.sleep(0.5)
            assert not same_done, "an ingest of the same scope did not wait for its lock"
            released = time.monotonic()
        same.join(30)
        assert same_done and same_done[0] >= released
        assert len(ChangeLedger(store).changes("scope-a")) == 5
        assert len(ChangeLedger(store).changes("scope-b")) == 5
    finally:
        lore.close()


def test_concurrent_first_opens_migrate_once_and_hold_no_session_lock(
    postgres_databases: object,
) -> None:
    url = postgres_databases.fresh(migrated=False)  # type: ignore[attr-defined]
    barrier = threading.Barrier(4)
    errors: list[BaseException] = []
    engines = [create_store_engine(url) for _ in range(4)]
    statements: list[str] = []
    for engine in engines:
        event.listen(engine, "before_cursor_execute", lambda *a: statements.append(a[2]))

    def start(engine: object) -> None:
        try:
            barrier.wait()
            setup(engine)  # type: ignore[arg-type]
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=start, args=(e,)) for e in engines]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert errors == []
    with engines[0].connect() as conn:
        assert conn.scalar(text("SELECT version_num FROM alembic_version")) == head_revision()
        # Every pooled connection is still open, and none holds an advisory lock: nothing is
        # left on a server session that a transaction-pooling bouncer would hand to others.
        held = conn.scalar(text("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"))
    assert held == 0
    # Behind a transaction-pooling bouncer a session lock could be taken on one server
    # connection and released on another: only the transaction-scoped lock is used.
    locks = [s for s in statements if "pg_advisory" in s]
    assert locks and all("pg_advisory_xact_lock" in s for s in locks)
    for engine in engines:
        engine.dispose()
    lore = Userlore.open(url)  # the schema is current: opening again migrates nothing
    lore.close()


def test_open_with_an_existing_engine(
    backend: str, request: pytest.FixtureRequest, tmp_path: object
) -> None:
    if backend == "sqlite":
        url = f"sqlite:///{tmp_path}/engine.db"
    else:
        url = request.getfixturevalue("postgres_databases").fresh()
    engine = create_engine(url, pool_size=2, max_overflow=0)
    lore = Userlore.open(engine=engine, config=CONNECTED)
    try:
        assert lore.memory.store.engine is engine
        lore.observe(scope="u1", role="user", content="I use pnpm.")
        assert [r.content for r in lore.records.list("u1")]
    finally:
        lore.close()
    with engine.connect() as conn:  # still the caller's: close() left it alone
        assert conn.scalar(text("SELECT count(*) FROM memory_records")) >= 1
    again = Userlore.open(engine=engine)  # a second facade on the same pool
    assert again.records.list("u1")
    again.close()
    engine.dispose()
    with pytest.raises(ConfigError):
        Userlore.open(url, engine=engine)
    with pytest.raises(ConfigError):
        Userlore.open(engine="not an engine")  # type: ignore[arg-type]
    sized = Userlore.open(url, engine_options={"pool_size": 3, "pool_pre_ping": True})
    try:
        if backend == "postgres":
            assert sized.memory.store.engine.pool.size() == 3  # type: ignore[attr-defined]
    finally:
        sized.close()
    with pytest.raises(ConfigError):
        Userlore.open(url, engine_options={"no_such_option": 1})


def test_notify_wakes_a_waiting_worker_quickly(postgres_url: str) -> None:
    lore = Userlore.open(postgres_url, config=CONNECTED)
    stop = threading.Event()
    try:
        with work_wakeups(lore.memory.store.engine) as wait:
            woken: list[tuple[bool, float]] = []

            def waiter() -> None:
                t0 = time.monotonic()
                woken.append((wait(60.0, stop), time.monotonic() - t0))

            thread = threading.Thread(target=waiter, daemon=True)
            thread.start()
            time.sleep(0.3)
            lore.sources.ingest("u1", ItemListSource("s", _items(3)), synthesize=False)
            thread.join(10)
            assert woken and woken[0][0] is True
            assert woken[0][1] < 5.0  # not the 60 s interval
            # A stop request ends a wait with nothing announced, promptly.
            stop.set()
            t0 = time.monotonic()
            assert wait(60.0, stop) is False
            assert time.monotonic() - t0 < 2.0
    finally:
        lore.close()


def test_a_coordinator_drains_on_notify_not_on_its_interval(postgres_url: str) -> None:
    lore = Userlore.open(postgres_url, config=CONNECTED)
    pipeline = ConnectedKnowledgePipeline(lore.memory.store, worker_id="notified")
    coordinator = SourceCoordinator(pipeline, interval_seconds=120.0)
    coordinator.start()
    try:
        time.sleep(1.0)  # the startup drain found nothing; the next poll is 2 minutes away
        lore.sources.ingest("u1", ItemListSource("s", _items(20)), synthesize=False)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if len(lore.records.list("u1", kind="workspace_fact", limit=50)) == 20:
                break
            time.sleep(0.2)
        assert len(lore.records.list("u1", kind="workspace_fact", limit=50)) == 20
    finally:
        coordinator.stop()
        lore.close()
