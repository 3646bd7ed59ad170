"""``UserloreStore``'s LangGraph surface: ``index_config``/``embeddings``, every ``TTLConfig``
key, async sweeper twins, dotted filter paths, any label LangGraph accepts, and ``status`` to
tell "awaiting approval" from "lost" under ``confirmWrite`` (issues 26 and 30)."""

from __future__ import annotations

import asyncio
import gc
import time
import warnings
from collections.abc import Callable
from typing import Any

import pytest
from langgraph.store.base import InvalidNamespaceError

from tests.conftest import FakeClock
from userlore import ConfigError, Userlore
from userlore.errors import InvalidInputError, ScopeError
from userlore.integrations.langgraph_store import UserloreStore
from userlore.integrations.scope import ScopeResolver
from userlore.testing.embeddings import HashingEmbeddings

USER_FIRST = ("{user_id}",)


def test_index_config_is_langgraphs_mapping_and_embeddings_is_exposed(
    make_lore: Callable[..., Userlore],
) -> None:
    embed = HashingEmbeddings()
    dims = len(embed.embed_query("probe"))
    store = UserloreStore(
        make_lore("auto"),
        namespace_template=USER_FIRST,
        index={"dims": dims, "embed": embed, "fields": ["text"]},
    )
    assert store.index_config is not None
    assert store.index_config["dims"] == dims
    assert store.index_config["fields"] == ["text"]
    assert store.embeddings is embed
    plain = UserloreStore(make_lore("auto"), namespace_template=USER_FIRST)
    assert plain.index_config is None and plain.embeddings is None


def test_index_embed_local_uses_the_same_resolver_as_open(
    make_lore: Callable[..., Userlore],
) -> None:
    from userlore.embeddings.local import LocalMiniLM

    store = UserloreStore(make_lore("auto"), index={"dims": 384, "embed": "local"})
    assert isinstance(store.embeddings, LocalMiniLM)
    assert store.index_config is not None and store.index_config["embed"] == "local"


@pytest.mark.parametrize("embed", ["nonsense", "nope-provider:model", "none", 42, ["local"]])
def test_a_bad_index_embed_spec_is_a_config_error(
    make_lore: Callable[..., Userlore], embed: Any
) -> None:
    lore = make_lore("auto")
    with pytest.raises(ConfigError):
        UserloreStore(lore, index={"dims": 8, "embed": embed})
    assert lore.memory.store.vectors is None  # nothing half-attached


def test_every_ttlconfig_key_langgraph_declares_is_accepted(
    make_lore: Callable[..., Userlore],
) -> None:
    from langgraph.store.base import TTLConfig

    config: dict[str, Any] = {
        "default_ttl": 60,
        "refresh_on_read": False,
        "omit_expired": True,
        "sweep_interval_minutes": 0.5,
    }
    assert set(config) == set(TTLConfig.__annotations__)  # a new key shows up here
    store = UserloreStore(make_lore("auto"), ttl=config)  # type: ignore[arg-type]
    assert store.ttl_config == config


@pytest.mark.parametrize(
    "config", [{"omit_expired": "yes"}, {"sweep_interval_minutes": -0.5}, {"omit": True}]
)
def test_a_bad_ttlconfig_value_is_refused(
    make_lore: Callable[..., Userlore], config: dict[str, Any]
) -> None:
    with pytest.raises(InvalidInputError):
        UserloreStore(make_lore("auto"), ttl=config)  # type: ignore[arg-type]


def test_async_sweeper_twins_sweep_until_stopped(
    make_lore: Callable[..., Userlore], clock: FakeClock
) -> None:
    lore = make_lore("auto")
    store = UserloreStore(lore, namespace_template=USER_FIRST, ttl={"default_ttl": 1})
    store.put(("u1",), "a", {"content": "Swept by the task"})
    store.put(("u1",), "b", {"content": "Lives long"}, ttl=600)
    clock.advance(minutes=2)

    async def run() -> tuple[bool, bool]:
        task = await store.astart_ttl_sweeper(sweep_interval_minutes=0.0005)
        assert await store.astart_ttl_sweeper() is task  # idempotent
        deadline = time.monotonic() + 10
        while not lore.records.trash("u1") and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        stopped = await store.astop_ttl_sweeper(timeout=10)
        return stopped, task.done()

    assert asyncio.run(run()) == (True, True)
    assert [r.content for r in lore.records.trash("u1")] == ["Swept by the task"]
    assert asyncio.run(store.asweep_ttl()) == 0
    assert asyncio.run(store.astop_ttl_sweeper()) is True  # not running: nothing to stop


class _AwaitableSweepStore(UserloreStore):
    """Names its awaitable sweeper methods like the sync ones, as LangGraph's async stores
    (and the suites' plugin) do."""

    sweep_ttl = UserloreStore.asweep_ttl  # type: ignore[assignment]


def test_an_awaitable_sweep_ttl_sweeps_and_leaves_no_coroutine_unawaited(
    make_lore: Callable[..., Userlore], clock: FakeClock
) -> None:
    lore = make_lore("auto")
    store = _AwaitableSweepStore(lore, namespace_template=USER_FIRST, ttl={"default_ttl": 1})
    store.put(("u1",), "a", {"content": "Swept by the awaited sweep"})
    clock.advance(minutes=2)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        swept = asyncio.run(store.sweep_ttl())
        gc.collect()  # a dropped coroutine warns when it is collected
    assert swept == 1
    assert [r.content for r in lore.records.trash("u1")] == ["Swept by the awaited sweep"]


def test_dotted_filter_keys_reach_nested_values(make_lore: Callable[..., Userlore]) -> None:
    store = UserloreStore(make_lore("auto"), namespace_template=USER_FIRST)
    store.put(("u1", "docs"), "nested", {"user": {"access-level": "nested"}, "n": 1})
    store.put(("u1", "docs"), "other", {"user": {"access-level": "other"}, "n": 2})
    store.put(("u1", "docs"), "flat", {"user.access-level": "nested", "n": 3})
    store.put(("u1", "docs"), "deeper", {"a": {"b": {"c": 5}}})
    found = store.search(("u1", "docs"), filter={"user.access-level": "nested"}, limit=10)
    assert {item.key for item in found} == {"nested", "flat"}
    found = store.search(("u1", "docs"), filter={"a.b.c": {"$gte": 5}}, limit=10)
    assert [item.key for item in found] == ["deeper"]
    assert store.search(("u1", "docs"), filter={"user.missing": "nested"}) == []


LABELS = [
    "a%b",
    "star*",
    "line\n",
    "with space",
    "tab\tand/slash",
    "-x y",
    " leading",
    "日本 語",
    "emoji🙂",
    "%2A",
    "-",
    "plain-label_1",
]


@pytest.mark.parametrize("template", [USER_FIRST, None])
def test_every_label_langgraph_accepts_round_trips(
    make_lore: Callable[..., Userlore], template: tuple[str, ...] | None
) -> None:
    lore = make_lore("auto")
    if template is None:  # the run names the user (here: the resolver's default)
        store = UserloreStore(lore, scope=ScopeResolver(default="u1"))
    else:
        store = UserloreStore(lore, namespace_template=template)
    for i, label in enumerate(LABELS):
        store.put(("u1", label), "k", {"content": f"item {i}"})
        store.put(("u1", label, "*"), "k", {"content": f"deep item {i}"})
    for i, label in enumerate(LABELS):
        item = store.get(("u1", label), "k")
        assert item is not None and item.namespace == ("u1", label)
        assert item.value == {"content": f"item {i}"}
        found = store.search(("u1", label), limit=10)
        assert sorted(x.value["content"] for x in found) == [f"deep item {i}", f"item {i}"]
    listed = store.list_namespaces(prefix=("u1",), limit=100)
    assert set(listed) == {("u1", x) for x in LABELS} | {("u1", x, "*") for x in LABELS}
    # A listing condition's "*" is a wildcard; a stored "*" label matches as itself too.
    assert store.list_namespaces(prefix=("u1", "star*"), limit=100) == [
        ("u1", "star*"),
        ("u1", "star*", "*"),
    ]
    store.delete(("u1", "a%b"), "k")
    assert store.get(("u1", "a%b"), "k") is None
    assert store.get(("u1", "star*"), "k") is not None


@pytest.mark.parametrize("user", ["bad user", "a%b", "line\n", "*x"])
def test_the_user_label_stays_a_validated_scope(
    make_lore: Callable[..., Userlore], user: str
) -> None:
    lore = make_lore("auto")
    store = UserloreStore(lore, namespace_template=USER_FIRST)
    with pytest.raises(ScopeError):
        store.put((user, "notes"), "k", {"content": "never stored"})
    with pytest.raises(ScopeError):
        store.search((user,))


@pytest.mark.parametrize("label", ["a.b", "", "nul\x00"])
def test_labels_langgraph_refuses_stay_refused(
    make_lore: Callable[..., Userlore], label: str
) -> None:
    store = UserloreStore(make_lore("auto"), namespace_template=USER_FIRST)
    with pytest.raises(InvalidNamespaceError):
        store.put(("u1", label), "k", {"content": "never stored"})


def test_status_tells_awaiting_approval_from_lost(make_lore: Callable[..., Userlore]) -> None:
    lore = make_lore("confirmWrite")
    store = UserloreStore(lore, namespace_template=USER_FIRST)
    store.put(("u1", "prefs"), "tone", {"content": "Prefers short answers"})
    assert store.get(("u1", "prefs"), "tone") is None
    assert store.status(("u1", "prefs"), "tone") == "awaiting_approval"
    assert asyncio.run(store.astatus(("u1", "prefs"), "tone")) == "awaiting_approval"
    assert store.status(("u1", "prefs"), "never-put") == "absent"
    assert store.status(("u1", "other"), "tone") == "absent"  # same key, other namespace
    (candidate,) = lore.records.list("u1")
    lore.records.approve("u1", candidate.id)
    assert store.status(("u1", "prefs"), "tone") == "active"
    store.delete(("u1", "prefs"), "tone")
    assert store.status(("u1", "prefs"), "tone") == "absent"
    store.put(("u1", "prefs"), "lang", {"content": "Writes in French"})
    (waiting,) = [r for r in lore.records.list("u1") if r.state.value == "candidate"]
    lore.records.reject("u1", waiting.id)
    assert store.status(("u1", "prefs"), "lang") == "absent"


def test_a_batch_of_puts_is_one_transaction_per_chunk(
    make_lore: Callable[..., Userlore], monkeypatch: pytest.MonkeyPatch
) -> None:
    from langgraph.store.base import GetOp, PutOp
    from sqlalchemy import event

    import userlore.integrations.langgraph_store as module

    lore = make_lore("auto")
    store = UserloreStore(lore, namespace_template=USER_FIRST)
    monkeypatch.setattr(module, "PUT_CHUNK", 4)
    commits: list[int] = []
    event.listen(lore.memory.store.engine, "commit", lambda conn: commits.append(1))
    ops: list[Any] = [
        PutOp(("u1", "bulk"), f"k{i}", {"content": f"Bulk item {i}"}) for i in range(9)
    ]
    store.batch(ops)
    assert len(commits) == 3  # 4 + 4 + 1 puts
    # A read between puts splits the run, and sees the puts before it.
    fresh = PutOp(("u1", "bulk"), "new", {"content": "Put before the read"})
    got = store.batch([fresh, GetOp(("u1", "bulk"), "new"), ops[1]])
    assert got[1] is not None and got[1].value == {"content": "Put before the read"}
    assert len(store.search(("u1", "bulk"), limit=20)) == 10


def test_a_failed_chunk_writes_nothing_of_it(
    make_lore: Callable[..., Userlore], monkeypatch: pytest.MonkeyPatch
) -> None:
    from langgraph.store.base import PutOp

    from userlore.errors import StorageError

    lore = make_lore("auto")
    store = UserloreStore(lore, namespace_template=USER_FIRST)
    governed = lore.memory.store
    store.put(("u1", "bulk"), "k0", {"content": "Item 0, first value"})
    before = [(r.id, r.version, r.content) for r in lore.records.list("u1")]
    real_fresh, real_govern = governed.insert_fresh, governed.govern

    def fresh_then_fail(*args: Any, **kwargs: Any) -> Any:
        real_fresh(*args, **kwargs)  # the bulk insert ran: its rows must not survive
        raise StorageError("the disk is full")

    monkeypatch.setattr(governed, "insert_fresh", fresh_then_fail)
    with pytest.raises(StorageError):
        store.batch([PutOp(("u1", "bulk"), f"k{i}", {"content": f"Item {i}"}) for i in range(4)])
    assert [(r.id, r.version, r.content) for r in lore.records.list("u1")] == before
    monkeypatch.setattr(governed, "insert_fresh", real_fresh)
    calls = iter(range(100))

    def govern_then_fail(*args: Any, **kwargs: Any) -> Any:
        out = real_govern(*args, **kwargs)
        if next(calls) == 1:  # the second held key of the chunk, after the fresh ones
            raise StorageError("the disk is full")
        return out

    monkeypatch.setattr(governed, "govern", govern_then_fail)
    ops = [PutOp(("u1", "bulk"), f"k{i}", {"content": f"Item {i} again"}) for i in range(4)]
    with pytest.raises(StorageError):
        store.batch([*ops, ops[0]])  # k1..k3 fresh (bulk), k0 and its repeat held (per item)
    assert [(r.id, r.version, r.content) for r in lore.records.list("u1")] == before
