"""``UserloreStore`` contract suite, modelled on LangGraph's own store tests.

Runs on every backend and through both the sync and the async API (``api`` fixture). One
database per backend serves the module; every test works in its own fresh scopes, which is
itself the isolation the store promises. Tests that need another memory mode use ``make_lore``
(parametrized in ``tests/contract/conftest.py``).

These tests call the store outside any run, so the store is told which label is the user
(``namespace_template=("{user_id}",)``); ``test_langgraph_store_users.py`` covers runs that
name the user, and ``test_langgraph_store_ttl.py`` the TTL.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from langgraph.store.base import (
    GetOp,
    InvalidNamespaceError,
    ListNamespacesOp,
    MatchCondition,
    PutOp,
    SearchOp,
)

from tests.conftest import FakeClock, sequential_ids
from userlore import (
    CandidateInput,
    MemoryDisabledError,
    PolicyViolationError,
    RecordState,
    ScopeError,
    Userlore,
)
from userlore.integrations.langgraph_store import UserloreStore

GH_TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


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


@pytest.fixture(params=["sync", "async"])
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


_SCOPES = itertools.count(1)


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def shared(request: pytest.FixtureRequest) -> Iterator[tuple[Userlore, FakeClock]]:
    url = "sqlite://"
    if request.param == "postgres":
        url = request.getfixturevalue("postgres_databases").fresh()
    clock = FakeClock()
    lore = Userlore.open(
        url, config={"memory": {"mode": "auto"}}, clock=clock, ids=sequential_ids()
    )
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
    """A scope no other test uses."""
    return f"user{next(_SCOPES)}"


@pytest.fixture
def v() -> str:
    return f"user{next(_SCOPES)}"


USER_FIRST = ("{user_id}",)


@pytest.fixture
def api(lore: Userlore, mode: str) -> Api:
    return Api(UserloreStore(lore, namespace_template=USER_FIRST), mode)


def test_put_get_and_missing(api: Api, shared_clock: FakeClock, u: str, v: str) -> None:
    api.put((u, "prefs"), "food", {"content": "Likes spicy ramen", "rating": 5})
    item = api.get((u, "prefs"), "food")
    assert item is not None
    assert item.value == {"content": "Likes spicy ramen", "rating": 5}
    assert item.key == "food" and item.namespace == (u, "prefs")
    assert item.created_at == shared_clock.now and item.updated_at == shared_clock.now
    assert api.get((u, "prefs"), "drink") is None
    assert api.get((u, "other"), "food") is None
    assert api.get((v, "prefs"), "food") is None


def test_put_again_is_a_new_version_not_an_overwrite(api: Api, lore: Userlore, u: str) -> None:
    api.put((u, "prefs"), "food", {"content": "Likes spicy ramen"})
    api.put((u, "prefs"), "food", {"content": "Likes mild udon"})
    item = api.get((u, "prefs"), "food")
    assert item is not None and item.value == {"content": "Likes mild udon"}
    [live] = lore.records.list(u, state=RecordState.ACTIVE)
    history = [snap.content for snap in lore.records.history(u, live.id)]
    assert history == ["Likes spicy ramen", "Likes mild udon"]
    api.put((u, "prefs"), "food", {"content": "Likes mild udon"})  # same value: reinforced
    assert len(lore.records.history(u, live.id)) == 2


def test_delete_is_a_restorable_tombstone(api: Api, lore: Userlore, u: str) -> None:
    api.put((u, "prefs"), "food", {"content": "Likes spicy ramen"})
    api.delete((u, "prefs"), "food")
    assert api.get((u, "prefs"), "food") is None
    assert api.search((u,)) == []
    [tomb] = lore.records.trash(u)
    assert tomb.state is RecordState.DELETED and tomb.content == "Likes spicy ramen"
    lore.records.restore(u, tomb.id)
    assert api.get((u, "prefs"), "food") is not None
    api.delete((u, "prefs"), "never-existed")  # deleting nothing is fine


def test_search_lists_by_namespace_prefix_with_limit_and_offset(
    api: Api, shared_clock: FakeClock, u: str, v: str
) -> None:
    for i in range(5):
        shared_clock.advance(seconds=1)
        api.put((u, "notes", f"n{i % 2}"), f"k{i}", {"content": f"note number {i}"})
    api.put((u, "other"), "x", {"content": "elsewhere"})
    found = api.search((u, "notes"))
    assert [i.key for i in found] == ["k4", "k3", "k2", "k1", "k0"]  # newest first
    assert [i.key for i in api.search((u, "notes"), limit=2, offset=1)] == ["k3", "k2"]
    assert [i.key for i in api.search((u, "notes", "n1"))] == ["k3", "k1"]
    assert len(api.search((u,), limit=10)) == 6
    assert api.search((v,)) == []


def test_search_with_a_query_ranks_by_full_text(api: Api, u: str) -> None:
    api.put((u, "docs"), "a", {"content": "The deploy pipeline runs on Fridays"})
    api.put((u, "docs"), "b", {"content": "Lunch is at noon"})
    api.put((u, "docs"), "c", {"content": "Deploy the pipeline with the release script"})
    found = api.search((u,), query="release pipeline")
    # As LangGraph's stores: every item under the prefix, ranked (here by BM25, best 1.0), the
    # items that match no word after them, newest first, without a score.
    assert [i.key for i in found] == ["c", "a", "b"]
    assert found[0].score == 1.0 and found[1].score is not None and 0 < found[1].score < 1
    assert found[2].score is None
    unmatched = api.search((u,), query="zebra")
    assert [(i.key, i.score) for i in unmatched] == [("c", None), ("b", None), ("a", None)]
    assert [i.key for i in api.search((u,), query="zebra", limit=1, offset=1)] == ["b"]


def test_search_filters(api: Api, u: str) -> None:
    api.put((u, "items"), "a", {"content": "alpha", "color": "red", "n": 1, "m": {"x": 1}})
    api.put((u, "items"), "b", {"content": "beta", "color": "blue", "n": 5, "m": {"x": 2}})
    api.put((u, "items"), "c", {"content": "gamma", "color": "red", "n": 9, "m": {"x": 2}})

    def keys(flt: dict[str, Any]) -> set[str]:
        return {i.key for i in api.search((u, "items"), filter=flt)}

    assert keys({"color": "red"}) == {"a", "c"}
    assert keys({"color": {"$ne": "red"}}) == {"b"}
    assert keys({"n": {"$gt": 1, "$lte": 9}}) == {"b", "c"}
    assert keys({"n": {"$gte": 5}, "color": {"$eq": "red"}}) == {"c"}
    assert keys({"n": {"$lt": 5}}) == {"a"}
    assert keys({"m": {"x": 2}}) == {"b", "c"}
    assert keys({"missing": "x"}) == set()
    ranked = api.search((u,), query="gamma", filter={"color": "red"})
    assert [i.key for i in ranked] == ["c", "a"]  # every item that passes the filter, ranked


def test_list_namespaces(api: Api, u: str, v: str) -> None:
    for ns in [(u, "a", "b"), (u, "a", "c"), (u, "d"), (u,), (v, "a")]:
        api.put(ns, "k", {"content": f"in {'/'.join(ns)}"})
    assert api.list_namespaces(prefix=(u,)) == [
        (u,),
        (u, "a", "b"),
        (u, "a", "c"),
        (u, "d"),
    ]
    assert api.list_namespaces(prefix=(u, "a")) == [(u, "a", "b"), (u, "a", "c")]
    assert api.list_namespaces(prefix=(u,), suffix=("c",)) == [(u, "a", "c")]
    assert api.list_namespaces(prefix=(u, "*", "b")) == [(u, "a", "b")]
    assert api.list_namespaces(prefix=(u,), max_depth=2) == [(u,), (u, "a"), (u, "d")]
    assert api.list_namespaces(prefix=(u,), limit=2, offset=1) == [
        (u, "a", "b"),
        (u, "a", "c"),
    ]


def test_batch_runs_in_order_and_returns_one_result_per_op(api: Api, u: str) -> None:
    results = api.batch(
        [
            PutOp((u, "b"), "k", {"content": "batched value"}),
            GetOp((u, "b"), "k"),
            SearchOp((u,), query="batched"),
            ListNamespacesOp(match_conditions=(MatchCondition("prefix", (u,)),)),
            PutOp((u, "b"), "k", None),
            GetOp((u, "b"), "k"),
        ]
    )
    assert results[0] is None and results[1].value == {"content": "batched value"}
    assert [i.key for i in results[2]] == ["k"] and results[3] == [(u, "b")]
    assert results[4] is None and results[5] is None


@pytest.mark.parametrize(
    "make_op",
    [
        lambda u: GetOp((u, "a.b"), "k"),
        lambda u: SearchOp((u, "a.b")),
        lambda u: PutOp((u, ""), "k", {"content": "x"}),
        lambda u: PutOp((u, "a.b"), "k", {"content": "x"}),
        lambda u: ListNamespacesOp(match_conditions=(MatchCondition("prefix", (u, "a.b")),)),
        lambda u: PutOp(("langgraph", u), "k", {"content": "x"}),
    ],
    ids=["get", "search", "put-empty", "put-dot", "list", "put-langgraph-root"],
)
def test_validate_op_namespace_is_honoured(
    api: Api, lore: Userlore, make_op: Callable[[str], Any], u: str
) -> None:
    with pytest.raises(InvalidNamespaceError):
        api.batch([PutOp((u,), "first", {"content": "valid op before the bad one"}), make_op(u)])
    assert lore.records.list(u) == []


def test_secret_put_refuses_the_whole_batch(api: Api, lore: Userlore, u: str) -> None:
    with pytest.raises(PolicyViolationError, match="secret"):
        api.batch(
            [
                PutOp((u, "x"), "ok", {"content": "Likes green tea"}),
                PutOp((u, "x"), "bad", {"content": "deploy", "token": GH_TOKEN}),
            ]
        )
    assert lore.records.list(u) == []
    [trace] = lore.traces.list(u, event_type="governance")
    assert trace["reason_code"] == "secret" and GH_TOKEN not in str(trace)


def test_scope_is_required_for_reads(api: Api, u: str) -> None:
    with pytest.raises(ScopeError):
        api.search(())
    with pytest.raises(ScopeError):
        api.list_namespaces()
    with pytest.raises(InvalidNamespaceError):
        api.list_namespaces(prefix=("*",))
    with pytest.raises(ScopeError):
        api.put(("bad scope!",), "k", {"content": "x"})


def test_confirm_write_puts_wait_for_approval(make_lore: Callable[..., Userlore]) -> None:
    lore = make_lore("confirmWrite")
    store = UserloreStore(lore, namespace_template=USER_FIRST)
    store.put(("u1", "prefs"), "food", {"content": "Likes spicy ramen"})
    assert store.get(("u1", "prefs"), "food") is None
    [pending] = lore.records.list("u1", state=RecordState.CANDIDATE)
    lore.records.approve("u1", pending.id)
    item = store.get(("u1", "prefs"), "food")
    assert item is not None and item.value == {"content": "Likes spicy ramen"}


def test_read_only_refuses_puts_but_reads(make_lore: Callable[..., Userlore]) -> None:
    lore = make_lore("readOnly")
    store = UserloreStore(lore, namespace_template=USER_FIRST)
    with pytest.raises(MemoryDisabledError):
        store.put(("u1",), "k", {"content": "x"})
    assert store.search(("u1",)) == []


def test_special_category_needs_consent(api: Api, lore: Userlore, u: str) -> None:
    api.put((u, "health"), "h", {"content": "I have diabetes"})
    assert api.get((u, "health"), "h") is None and api.search((u,)) == []
    lore.consent.grant(u, "health")
    assert api.get((u, "health"), "h") is not None


def test_other_producers_records_are_visible_by_id(api: Api, lore: Userlore, u: str) -> None:
    out = lore.write(
        u, CandidateInput(kind="preference", content="Prefers tea", path="food/drinks")
    )
    assert out.record is not None
    [item] = api.search((u, "food"))
    assert item.key == out.record.id and item.namespace == (u, "food", "drinks")
    assert item.value["content"] == "Prefers tea" and item.value["kind"] == "preference"
    got = api.get((u, "food", "drinks"), out.record.id)
    assert got is not None and got.value["record_id"] == out.record.id
    api.delete((u, "food", "drinks"), out.record.id)
    assert lore.records.get(u, out.record.id).state is RecordState.DELETED


def test_deprecated_namespace_prefix_layout(lore: Userlore, mode: str, u: str) -> None:
    with pytest.warns(DeprecationWarning, match="namespace_template"):
        store = UserloreStore(lore, namespace_prefix=("memories",))
    api = Api(store, mode)
    api.put(("memories", u), "k", {"content": "Likes spicy ramen"})
    item = api.get(("memories", u), "k")
    assert item is not None and item.namespace == ("memories", u)
    assert [r.scope for r in lore.records.list(u)] == [u]
    assert api.list_namespaces(prefix=("memories", u)) == [("memories", u)]
    with pytest.raises(InvalidNamespaceError):
        api.put((u,), "k", {"content": "x"})
