"""The one policy-filtered read: every reader goes through ``planner.search.search``, and every
reason a trace can hold is a :class:`RejectionReason`."""

from __future__ import annotations

import sys
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FakeClock
from userlore import CandidateInput, Userlore, UserState
from userlore.integrations import UserloreRetriever
from userlore.integrations.langgraph_store import UserloreStore
from userlore.planner import search as search_module
from userlore.planner.planner import CLASS_BUDGETS, OVERFLOW_POOL, PLAN_COLUMNS
from userlore.planner.search import RECORD_COLUMNS, Found
from userlore.policy.filter import REASONS, RejectionReason, rejection_reason
from userlore.policy.govern import assess_text

SRC = Path(__file__).resolve().parents[2] / "src" / "userlore"


def note(content: str, **kw: Any) -> CandidateInput:
    return CandidateInput(kind=kw.pop("kind", "note"), content=content, **kw)


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any]]:
    """Replace ``search`` wherever a module imported it with a spy recording (caller, read)."""
    original = search_module.search
    seen: list[tuple[str, Any]] = []

    def spy(*args: Any, **kwargs: Any) -> Found:
        seen.append((sys._getframe(1).f_code.co_name, kwargs["read"]))
        return original(*args, **kwargs)

    holders = [
        m
        for m in list(sys.modules.values())
        if getattr(m, "__name__", "").startswith("userlore.")
        and getattr(m, "search", None) is original
    ]
    assert holders, "no module reads through planner.search.search"
    for module in holders:
        monkeypatch.setattr(module, "search", spy)
    return seen


def test_every_reader_goes_through_the_one_search(
    auto_lore: Userlore, calls: list[tuple[str, Any]]
) -> None:
    rec = auto_lore.write("u1", note("The staging database runs on port 5433")).record
    assert rec is not None

    plan = auto_lore.plan_context(scope="u1", query="staging port")
    assert calls == [("plan", PLAN_COLUMNS)] and plan.selected_ids == (rec.id,)
    calls.clear()

    recalled = auto_lore.memory.recall("u1", "staging port")
    assert calls == [("recall", RECORD_COLUMNS)] and recalled.memories[0].id == rec.id
    calls.clear()

    [doc] = UserloreRetriever(lore=auto_lore, scope="u1", k=1).invoke("staging port")
    assert calls == [("search_visible", RECORD_COLUMNS)] and doc.id == rec.id
    calls.clear()

    store = UserloreStore(auto_lore, namespace_template=("{user_id}",))
    ns = store.namespace_of(rec)
    [item] = store.search(ns, query="staging port")
    assert calls == [("search_visible", RECORD_COLUMNS)] and item.key == rec.id
    calls.clear()
    assert store.get(ns, rec.id) is not None
    assert calls and all(c == ("search_visible", RECORD_COLUMNS) for c in calls)


def test_the_policy_filter_is_called_only_by_the_search() -> None:
    """A reader that filtered on its own would bypass the one search (and its reasons).

    Records are read through ``search``; episodic snippets (source items, not records) through
    ``planner/episodic.py``, whose ``planner/snippet_policy.py`` runs the same filter on each
    snippet.
    """
    users = sorted(
        str(p.relative_to(SRC))
        for p in SRC.rglob("*.py")
        if "rejection_reason(" in p.read_text(encoding="utf-8")
    )
    assert users == ["planner/search.py", "planner/snippet_policy.py", "policy/filter.py"]


def test_every_reason_a_trace_holds_is_an_enum_member(
    make_lore: Callable[..., Userlore], clock: FakeClock
) -> None:
    lore = make_lore("auto")
    now, w = clock.now, lore.write
    expired = w("u1", note("kayak rental until Friday", valid_until=now + timedelta(hours=1)))
    w("u1", note("kayak lesson next month", valid_from=now + timedelta(days=30)))
    deleted, forgotten = w("u1", note("kayak club")), w("u1", note("kayak paddle brand"))
    w("u1", note("I have asthma so kayak trips need an inhaler"))
    for i in range(12):
        w("u1", note(f"kayak trip log {i}: " + "paddling notes " * 10))
    for i in range(CLASS_BUDGETS["veto"] + OVERFLOW_POOL + 1):
        w(
            "u2",
            CandidateInput(
                kind="veto",
                content=f"never suggest tool{i}",
                value="banned",
                canonical_key=f"veto/tool{i}",
            ),
        )
    assert expired.record and deleted.record and forgotten.record
    lore.records.forget("u1", deleted.record.id)
    lore.memory.store.set_user_state("u1", forgotten.record.id, UserState.FORGOTTEN)
    pending = make_lore("confirmWrite")
    pending.write("u1", note("kayak at dawn"))
    clock.advance(hours=2)

    lore.plan_context(scope="u1", query="kayak", budget=900)
    lore.plan_context(scope="u2", query="anything")
    lore.memory.recall("u1", "kayak", k=1)
    UserloreRetriever(lore=lore, scope="u1", k=1).invoke("kayak")
    pending.plan_context(scope="u1", query="kayak")

    stored = [
        r["reason"]
        for db, scope in ((lore, "u1"), (lore, "u2"), (pending, "u1"))
        for t in db.traces.list(scope)
        for r in (t["payload"] or {}).get("rejected", [])
    ]
    assert {type(r) for r in stored} == {str}  # read back as plain text
    assert set(stored) <= REASONS
    expected = {"expired", "not_yet_valid", "deleted", "forgotten", "consent_required"}
    assert expected | {"budget", "class_budget", "not_active"} <= set(stored)


def test_the_filter_returns_enum_members_for_refused_content(clock: FakeClock) -> None:
    """Content stored under older rules is checked again; its refusal is a member too."""

    class Old:
        scope, state, user_state = "u1", "active", "auto"
        valid_from = valid_until = sensitivity_category = value = None
        disclosure, sensitivity, policy_rev = "normal", "none", 0

        def __init__(self, content: str) -> None:
            self.content = content

    args: dict[str, Any] = {"scope": "u1", "now": clock.now, "consented": frozenset()}
    for text in ("password: hunter2-Xy9!", "card 4111 1111 1111 1111"):
        refused = assess_text(text).refused
        assert refused is not None
        assert rejection_reason(Old(text), **args) is RejectionReason(refused)
    assert rejection_reason(Old("plain words"), **args) is None
