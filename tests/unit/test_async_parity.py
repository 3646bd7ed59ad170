"""Every sync method of ``Userlore`` and its namespaces has an async twin that behaves the same.

Signature parity is checked for all of them; behaviour parity by driving the same script through
the sync methods of one database and the async twins of another (same clock, same id sequence)
and comparing every result.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest

from userlore import CandidateInput, Userlore
from userlore.api.consent import Consent
from userlore.api.facets import Facets
from userlore.api.feedback import Feedback
from userlore.api.memory import Memory
from userlore.api.records import Records
from userlore.api.scopes import Scopes
from userlore.api.sources import Sources
from userlore.api.traces import Traces

NAMESPACES = [Records, Consent, Memory, Facets, Feedback, Sources, Traces, Scopes]
NOT_ASYNC = {"open", "close"}  # construction and teardown, not operations


def sync_methods(cls: type) -> list[str]:
    """Public, non-deprecated sync methods (properties and coroutines excluded)."""
    names = []
    for name in dir(cls):
        if name.startswith("_") or name in NOT_ASYNC:
            continue
        attr = inspect.getattr_static(cls, name)
        fn = getattr(attr, "__func__", attr)
        if not inspect.isfunction(fn) or hasattr(fn, "__deprecated__"):
            continue
        if inspect.iscoroutinefunction(fn):
            continue
        names.append(name)
    return names


@pytest.mark.parametrize("cls", [Userlore, *NAMESPACES], ids=lambda c: c.__name__)
def test_every_sync_method_has_an_async_twin_with_its_signature(cls: type) -> None:
    names = sync_methods(cls)
    assert names, f"{cls.__name__} has no public methods?"
    for name in names:
        twin = getattr(cls, "a" + name, None)
        assert twin is not None, f"{cls.__name__}.{name} has no async twin a{name}"
        assert inspect.iscoroutinefunction(twin), f"{cls.__name__}.a{name} is not async"
        assert inspect.signature(twin) == inspect.signature(getattr(cls, name))
        # made by the one helper: the twin wraps the very sync body
        assert inspect.unwrap(twin) is inspect.unwrap(getattr(cls, name))


def test_the_root_twins_are_the_three_operations() -> None:
    assert sorted(sync_methods(Userlore)) == ["observe", "plan_context", "write"]


Step = tuple[str, Callable[[dict[str, Any]], tuple[Any, ...]], dict[str, Any]]

NOTE = CandidateInput(kind="note", content="Deploys run on Fridays.", canonical_key="note/deploy")

# (dotted method, positional args from the results so far, keyword args)
SCRIPT: list[Step] = [
    ("observe", lambda r: ("u1", "user", "Always answer in bullet points."), {}),
    ("write", lambda r: ("u1", NOTE), {}),
    ("plan_context", lambda r: ("u1", "how do I deploy?"), {"session_key": "s1"}),
    ("records.list", lambda r: ("u1",), {"state": "active"}),
    ("records.get", lambda r: ("u1", r["write"].record.id), {}),
    ("records.update", lambda r: ("u1", r["write"].record.id, "Deploys run on Mondays."), {}),
    ("records.history", lambda r: ("u1", r["write"].record.id), {}),
    ("records.evidence", lambda r: ("u1", r["observe"].outcomes[0].record.id), {}),
    ("records.pin", lambda r: ("u1", r["write"].record.id), {}),
    ("records.unpin", lambda r: ("u1", r["write"].record.id), {}),
    ("records.forget", lambda r: ("u1", r["write"].record.id), {}),
    ("records.trash", lambda r: ("u1",), {}),
    ("records.restore", lambda r: ("u1", r["write"].record.id), {}),
    ("consent.grant", lambda r: ("u1", "health"), {}),
    ("consent.list", lambda r: ("u1",), {}),
    ("consent.revoke", lambda r: ("u1", "health"), {}),
    (
        "memory.remember",
        lambda r: ("u1", "Weekly sync is in Room Orion."),
        {"path": "team/meetings", "memory_type": "semantic"},
    ),
    ("memory.recall", lambda r: ("u1", "weekly sync"), {}),
    ("memory.history", lambda r: ("u1", r["memory.remember"].id), {}),
    ("facets.list", lambda r: ("u1",), {}),
    ("facets.stats", lambda r: ("u1",), {}),
    ("feedback.quality", lambda r: ("u1",), {}),
    ("traces.list", lambda r: ("u1",), {"limit": 50}),
    ("sources.items", lambda r: ("u1",), {}),
    ("scopes.export", lambda r: ("u1",), {}),
    ("scopes.purge", lambda r: ("u1",), {}),
]


def resolve(lore: Userlore, dotted: str, twin: bool) -> Callable[..., Any]:
    *path, name = dotted.split(".")
    target: Any = lore
    for part in path:
        target = getattr(target, part)
    return getattr(target, ("a" + name) if twin else name)


async def test_async_twins_return_what_the_sync_methods_return(
    make_lore: Callable[..., Userlore],
) -> None:
    sync_lore, async_lore = make_lore("auto"), make_lore("auto")
    sync_results: dict[str, Any] = {}
    async_results: dict[str, Any] = {}
    for dotted, args, kwargs in SCRIPT:
        sync_results[dotted] = resolve(sync_lore, dotted, False)(*args(sync_results), **kwargs)
        call = resolve(async_lore, dotted, True)(*args(async_results), **kwargs)
        assert inspect.iscoroutine(call), dotted
        async_results[dotted] = await call
        assert async_results[dotted] == sync_results[dotted], dotted
    assert len(SCRIPT) >= 15
    assert sync_results["records.list"], "the script exercised real data"
    assert sync_results["consent.list"] == frozenset({"health"})
    assert sync_results["scopes.purge"].residual_rows == 0
