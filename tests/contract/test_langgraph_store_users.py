"""``UserloreStore`` cannot pool users: the run names the user, or the layout does, or it refuses.

Sync and async (``api`` fixture), SQLite and PostgreSQL. ``as_run`` sets the run's config the way
LangGraph does inside a node (``get_config()`` reads it), so these tests exercise the same scope
rule a compiled graph does; ``test_store_interop.py`` runs real graphs.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from langchain_core.runnables.config import var_child_runnable_config
from langgraph.store.base import InvalidNamespaceError

from userlore import InvalidInputError, ScopeError, Userlore
from userlore.integrations.langgraph_store import UserloreStore
from userlore.integrations.scope import ScopeResolver


class Api:
    """The store's sync methods, or their async twins run to completion (context kept)."""

    def __init__(self, store: UserloreStore, mode: str) -> None:
        self.store = store
        self.mode = mode

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if self.mode == "sync":
            return getattr(self.store, name)  # type: ignore[no-any-return]
        method = getattr(self.store, "a" + name)
        return lambda *a, **k: asyncio.run(method(*a, **k))


@contextmanager
def as_run(**configurable: Any) -> Iterator[None]:
    """Inside this block the store sees a run configured with ``configurable``."""
    token = var_child_runnable_config.set({"configurable": configurable})
    try:
        yield
    finally:
        var_child_runnable_config.reset(token)


_SCOPES = itertools.count(1)


@pytest.fixture(params=["sync", "async"])
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def lore(request: pytest.FixtureRequest) -> Iterator[Userlore]:
    url = "sqlite://"
    if request.param == "postgres":
        url = request.getfixturevalue("postgres_databases").fresh()
    lore = Userlore.open(url, config={"memory": {"mode": "auto"}})
    yield lore
    lore.close()


@pytest.fixture
def u() -> str:
    return f"alice{next(_SCOPES)}"


@pytest.fixture
def v() -> str:
    return f"bob{next(_SCOPES)}"


def test_a_store_that_would_have_to_guess_refuses(lore: Userlore, mode: str, u: str) -> None:
    api = Api(UserloreStore(lore), mode)
    for call in (
        lambda: api.put(("memories", u), "k", {"content": "Likes tea"}),
        lambda: api.get((u, "memories"), "k"),
        lambda: api.search(("memories",)),
        lambda: api.search(()),
        lambda: api.list_namespaces(),
    ):
        with pytest.raises(ScopeError, match="cannot tell whose"):
            call()
    assert lore.records.list(u) == [] and lore.records.list("memories") == []


def test_the_run_names_the_user_and_every_layout_is_a_path(
    lore: Userlore, mode: str, u: str, v: str
) -> None:
    api = Api(UserloreStore(lore), mode)
    with as_run(user_id=u):
        api.put(("memories", u), "m1", {"content": "Likes spicy ramen"})  # LangMem
        api.put((u, "memories"), "m2", {"content": "Works in Berlin"})  # user first
        api.put(("filesystem",), "/notes.md", {"content": "Call mom"})  # Deep Agents
        assert api.get(("memories", u), "m1").namespace == ("memories", u)  # type: ignore[union-attr]
        assert api.get((u, "memories"), "m2").namespace == (u, "memories")  # type: ignore[union-attr]
        assert api.get(("filesystem",), "/notes.md").value == {"content": "Call mom"}  # type: ignore[union-attr]
        # Distinct namespaces stay distinct: the layouts do not alias each other.
        assert api.get(("memories",), "m1") is None and api.get((u, "memories"), "m1") is None
        assert api.list_namespaces() == sorted([("filesystem",), ("memories", u), (u, "memories")])
        assert {i.key for i in api.search(())} == {"m1", "m2", "/notes.md"}
        assert [i.key for i in api.search(("memories",))] == ["m1"]
        assert [i.key for i in api.search((u,))] == ["m2"]
        assert [i.key for i in api.search(("memories", u), query="ramen")] == ["m1"]
        assert api.list_namespaces(prefix=("memories",)) == [("memories", u)]
    stored = {(r.scope, r.path) for r in lore.records.list(u)}
    assert stored == {(u, "memories"), (u, "filesystem")}  # the user label is not in the path

    with as_run(user_id=v):
        # Another user's run sees nothing of u's, whatever namespace it names.
        assert api.search(()) == [] and api.list_namespaces() == []
        assert api.get(("memories", u), "m1") is None
        assert api.get((u, "memories"), "m2") is None
        assert api.get(("filesystem",), "/notes.md") is None
        # A label naming u is only a path label of v's own namespace.
        api.put(("memories", u), "m1", {"content": "Bob's note"})
        assert api.list_namespaces() == [("memories", u)]
        api.delete(("memories", u), "m1")
    [tomb] = lore.records.trash(v)
    assert tomb.content == "Bob's note" and tomb.path == f"memories/{u}"
    with as_run(user_id=u):
        assert api.get(("memories", u), "m1").value == {"content": "Likes spicy ramen"}  # type: ignore[union-attr]


def test_template_names_the_user_outside_a_run(lore: Userlore, mode: str, u: str, v: str) -> None:
    api = Api(UserloreStore(lore, namespace_template=("memories", "{langgraph_user_id}")), mode)
    api.put(("memories", u), "k", {"content": "Likes green tea"})
    api.put(("memories", v), "k", {"content": "Likes black coffee"})
    assert [i.value["content"] for i in api.search(("memories", u))] == ["Likes green tea"]
    assert api.list_namespaces(prefix=("memories", v)) == [("memories", v)]
    with pytest.raises(ScopeError):
        api.put(("other", u), "k", {"content": "x"})  # does not fit the template
    with pytest.raises(ScopeError):
        api.search(("memories",))  # a prefix that does not reach the user label
    with pytest.raises(InvalidNamespaceError):
        api.search(("memories", "*"))
    # The same item read inside u's run: both ways store the same record.
    with as_run(user_id=u):
        item = api.get(("memories", u), "k")
        assert item is not None and item.value == {"content": "Likes green tea"}
        assert [i.namespace for i in api.search(())] == [("memories", u)]
    assert [r.scope for r in lore.records.list(u)] == [u]


@pytest.mark.parametrize(
    ("resolver", "configurable"),
    [
        (ScopeResolver(), lambda u: {"user_id": u}),
        (ScopeResolver(key="langgraph_user_id"), lambda u: {"langgraph_user_id": u}),
        (ScopeResolver(), lambda u: {"langgraph_auth_user": {"identity": u}}),
    ],
    ids=["user_id", "configured-key", "server-identity"],
)
def test_every_way_a_run_names_its_user(
    lore: Userlore,
    mode: str,
    u: str,
    v: str,
    resolver: ScopeResolver,
    configurable: Callable[[str], dict[str, Any]],
) -> None:
    api = Api(UserloreStore(lore, scope=resolver), mode)
    with as_run(**configurable(u)):
        api.put(("prefs",), "food", {"content": "Likes spicy ramen"})
    with as_run(**configurable(v)):
        assert api.get(("prefs",), "food") is None
    with as_run(**configurable(u)):
        assert api.get(("prefs",), "food") is not None
    assert [r.scope for r in lore.records.list(u)] == [u]


def test_explicit_default_is_used_only_when_the_run_names_nobody(
    lore: Userlore, u: str, v: str
) -> None:
    store = UserloreStore(lore, scope=ScopeResolver(default=u))
    store.put(("prefs",), "k", {"content": "Default user's note"})
    with as_run(user_id=v):
        assert store.search(()) == []
    assert [r.scope for r in lore.records.list(u)] == [u]


def test_malformed_template_and_user_are_refused(lore: Userlore) -> None:
    for bad in [("memories",), ("{a}", "{b}"), "memories/{user_id}", ("m.x", "{user_id}")]:
        with pytest.raises(InvalidInputError):
            UserloreStore(lore, namespace_template=bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError):
        UserloreStore(lore, namespace_template=("{user_id}",), namespace_prefix=())
    with as_run(user_id="bad user!"), pytest.raises(ScopeError):
        UserloreStore(lore).search(())


def test_legacy_layout_refuses_a_run_for_another_user(lore: Userlore, u: str, v: str) -> None:
    with pytest.warns(DeprecationWarning):
        store = UserloreStore(lore, namespace_prefix=())
    store.put((u, "prefs"), "k", {"content": "Likes tea"})  # 0.x: label 0 is the user
    with as_run(user_id=v), pytest.raises(ScopeError):
        store.get((u, "prefs"), "k")
    with as_run(user_id=u):
        assert store.list_namespaces() == [(u, "prefs")]
    # Data written by the 0.x default layout reads back unchanged in the new default.
    with as_run(user_id=u):
        item = UserloreStore(lore).get((u, "prefs"), "k")
        assert item is not None and item.namespace == (u, "prefs")
