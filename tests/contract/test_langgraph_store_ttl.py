"""``UserloreStore`` TTL: LangGraph's ``TTLConfig`` mapped onto the record's validity window.

Sync and async, SQLite and PostgreSQL, on a fake clock. Expired items leave every read (get,
search, list, the planner's block) at once; the sweep tombstones them; the worker runs it.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph.store.base import PutOp

from tests.conftest import FakeClock
from userlore import InvalidInputError, RecordState, Userlore
from userlore.integrations.langgraph_store import TTLSweeper, UserloreStore

USER_FIRST = ("{user_id}",)


class Api:
    """The store's sync methods, or their async twins run to completion."""

    def __init__(self, store: UserloreStore, mode: str) -> None:
        self.store = store
        self.mode = mode

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if self.mode == "sync":
            return getattr(self.store, name)  # type: ignore[no-any-return]
        method = getattr(self.store, "a" + name)
        return lambda *a, **k: asyncio.run(method(*a, **k))


_SCOPES = itertools.count(1)


@pytest.fixture(params=["sync", "async"])
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def shared(request: pytest.FixtureRequest) -> Iterator[tuple[Userlore, FakeClock]]:
    url = "sqlite://"
    if request.param == "postgres":
        url = request.getfixturevalue("postgres_databases").fresh()
    clock = FakeClock()
    lore = Userlore.open(url, config={"memory": {"mode": "auto"}}, clock=clock)
    yield lore, clock
    lore.close()


@pytest.fixture
def lore(shared: tuple[Userlore, FakeClock]) -> Userlore:
    return shared[0]


@pytest.fixture
def shared_clock(shared: tuple[Userlore, FakeClock]) -> FakeClock:
    return shared[1]


@pytest.fixture
def u() -> str:
    return f"ttl{next(_SCOPES)}"


@pytest.fixture
def v() -> str:
    return f"ttl{next(_SCOPES)}"


def make(lore: Userlore, mode: str, **ttl: Any) -> Api:
    return Api(UserloreStore(lore, namespace_template=USER_FIRST, ttl=ttl or None), mode)


def test_supports_ttl_and_expired_items_leave_every_read(
    lore: Userlore, shared_clock: FakeClock, mode: str, u: str
) -> None:
    api = make(lore, mode)
    assert api.store.supports_ttl is True
    api.put((u, "prefs"), "short", {"content": "Prefers window seats on trains"}, ttl=5)
    api.put((u, "prefs"), "forever", {"content": "Prefers aisle seats on planes"})
    shared_clock.advance(minutes=4)
    assert api.get((u, "prefs"), "short", refresh_ttl=False) is not None
    shared_clock.advance(minutes=2)  # 6 minutes after the put: expired
    assert api.get((u, "prefs"), "short") is None
    assert [i.key for i in api.search((u,), query="seats")] == ["forever"]
    assert [i.key for i in api.search((u,))] == ["forever"]
    api.put((u, "trips"), "gone", {"content": "Train to Lyon"}, ttl=1)
    shared_clock.advance(minutes=2)
    assert api.list_namespaces(prefix=(u,)) == [(u, "prefs")]
    block = lore.plan_context(u, "which seats do I like").text
    assert "aisle" in block and "window" not in block


def test_reads_refresh_the_window_unless_told_not_to(
    lore: Userlore, shared_clock: FakeClock, mode: str, u: str
) -> None:
    api = make(lore, mode)
    api.put((u,), "a", {"content": "Alpha reminder"}, ttl=10)
    api.put((u,), "b", {"content": "Bravo reminder"}, ttl=10)
    shared_clock.advance(minutes=8)
    assert api.get((u,), "a") is not None  # refresh_on_read defaults to True
    assert [i.key for i in api.search((u,), query="bravo", limit=1)] == ["b"]  # refreshes b too
    shared_clock.advance(minutes=8)  # 16 minutes after the puts, 8 after the refresh
    assert api.get((u,), "a", refresh_ttl=False) is not None
    assert {i.key for i in api.search((u,), refresh_ttl=False)} == {"a", "b"}
    shared_clock.advance(minutes=3)  # 11 minutes after the refresh: the 10-minute window has closed
    assert api.get((u,), "a") is None and api.search((u,)) == []


def test_ttl_config_default_ttl_and_refresh_on_read(
    lore: Userlore, shared_clock: FakeClock, mode: str, u: str
) -> None:
    api = make(lore, mode, default_ttl=5, refresh_on_read=False)
    api.put((u,), "k", {"content": "Default TTL item"})  # default_ttl applies
    api.put((u,), "kept", {"content": "No TTL item"}, ttl=None)  # explicit None: no expiry
    shared_clock.advance(minutes=4)
    assert api.get((u,), "k") is not None  # does not refresh (refresh_on_read=False)
    shared_clock.advance(minutes=2)
    assert api.get((u,), "k") is None
    assert [i.key for i in api.search((u,))] == ["kept"]


def test_a_put_without_ttl_clears_the_expiry_and_a_put_after_expiry_revives(
    lore: Userlore, shared_clock: FakeClock, mode: str, u: str
) -> None:
    api = make(lore, mode)
    api.put((u,), "k", {"content": "First value"}, ttl=1)
    api.put((u,), "k", {"content": "Second value"})
    shared_clock.advance(minutes=5)
    assert api.get((u,), "k").value == {"content": "Second value"}  # type: ignore[union-attr]
    api.put((u,), "j", {"content": "Short lived"}, ttl=1)
    shared_clock.advance(minutes=2)
    assert api.get((u,), "j") is None
    api.put((u,), "j", {"content": "Short lived"}, ttl=1)  # same value again: back for 1 min
    assert api.get((u,), "j") is not None


@pytest.mark.parametrize("ttl", [0, -1, "5", True, float("inf")])
def test_bad_ttl_is_refused_and_nothing_in_the_batch_is_written(
    lore: Userlore, ttl: Any, u: str
) -> None:
    store = UserloreStore(lore, namespace_template=USER_FIRST)
    with pytest.raises(InvalidInputError):
        store.batch([PutOp((u,), "ok", {"content": "fine"}), PutOp((u,), "bad", {"c": 1}, ttl=ttl)])
    assert lore.records.list(u) == []


@pytest.mark.parametrize(
    "config",
    [{"default_ttl": -1}, {"refresh_on_read": "yes"}, {"sweep_interval_minutes": 0}, {"x": 1}],
)
def test_bad_ttl_config_is_refused(lore: Userlore, config: dict[str, Any]) -> None:
    with pytest.raises(InvalidInputError):
        UserloreStore(lore, ttl=config)  # type: ignore[arg-type]


def test_sweep_tombstones_expired_items_of_every_user(
    lore: Userlore, shared_clock: FakeClock, u: str, v: str
) -> None:
    store = UserloreStore(lore, namespace_template=USER_FIRST)
    store.sweep_ttl()  # whatever earlier tests left behind
    store.put((u,), "a", {"content": "Expires soon for u"}, ttl=1)
    store.put((v,), "b", {"content": "Expires soon for v"}, ttl=1)
    store.put((v,), "c", {"content": "Lives long for v"}, ttl=60)
    assert store.sweep_ttl() == 0
    shared_clock.advance(minutes=2)
    assert store.sweep_ttl() >= 2  # the module's database also holds other tests' items
    assert [r.content for r in lore.records.trash(u)] == ["Expires soon for u"]
    assert [r.content for r in lore.records.trash(v)] == ["Expires soon for v"]
    assert [r.content for r in lore.records.list(v, state=RecordState.ACTIVE)] == [
        "Lives long for v"
    ]
    assert store.sweep_ttl() == 0


def test_ttl_sweeper_thread_sweeps_until_stopped(
    lore: Userlore, shared_clock: FakeClock, u: str
) -> None:
    store = UserloreStore(lore, namespace_template=USER_FIRST)
    store.put((u,), "a", {"content": "Swept by the thread"}, ttl=1)
    shared_clock.advance(minutes=2)
    sweeper = TTLSweeper(lore, interval_minutes=0.001)
    done = sweeper.start()
    deadline = time.monotonic() + 10
    while not lore.records.trash(u) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert sweeper.stop(timeout=10) and done.done()
    assert [r.content for r in lore.records.trash(u)] == ["Swept by the thread"]
    assert store.stop_ttl_sweeper() is True  # never started: nothing to stop


def test_the_worker_runs_the_sweep(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ttl.db'}"
    lore = Userlore.open(url, config={"memory": {"mode": "auto"}})
    try:
        store = UserloreStore(lore, namespace_template=USER_FIRST)
        store.put(("w1",), "k", {"content": "Expires before the worker runs"}, ttl=0.001)
        store.put(("w1",), "kept", {"content": "Outlives the worker"}, ttl=600)
    finally:
        lore.close()
    time.sleep(0.2)  # the real clock: 0.001 minutes is 60 ms
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"userContext": {"memory": {"mode": "auto"}}}))
    command = [sys.executable, "-m", "userlore.cli", "worker", "--db", url]
    out = subprocess.run(
        [*command, "--config", str(config), "--once"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert "ttl_swept=1" in out.stdout, out
    lore = Userlore.open(url)
    try:
        assert [r.content for r in lore.records.trash("w1")] == ["Expires before the worker runs"]
    finally:
        lore.close()


def test_reads_in_read_only_mode_do_not_refresh(
    make_lore: Callable[..., Userlore], clock: FakeClock, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'ro.db'}"
    writer = UserloreStore(make_lore("auto", url=url), namespace_template=USER_FIRST)
    writer.put(("ro1",), "k", {"content": "Written before the switch"}, ttl=10)
    reader = UserloreStore(make_lore("readOnly", url=url), namespace_template=USER_FIRST)
    clock.advance(minutes=8)
    assert reader.get(("ro1",), "k") is not None  # a read, but no write in readOnly
    clock.advance(minutes=3)
    assert reader.get(("ro1",), "k") is None and writer.get(("ro1",), "k") is None
