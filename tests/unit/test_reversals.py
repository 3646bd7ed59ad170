"""Reversals and cessations as a class (issue 23 item 4), English and Chinese.

Each case of ``tests/data/reversals_set*.jsonl`` states something, then takes it back ("I'm not
vegetarian anymore", "I switched from npm to pnpm", "我搬离了北京", "我戒了咖啡"), or says a
benign near-miss ("I'm not sure anymore", "no longer than an hour", "我妹妹搬离了北京"). A
reversal leaves the old value live nowhere and records the user's new state; a near-miss leaves
the old record alone. "I use pnpm, not npm" also records the rejected option as a veto.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from langchain.agents import create_agent
from langgraph.checkpoint.memory import InMemorySaver

from tests.support.chat_models import ScriptedChatModel
from userlore import RecordState, Userlore
from userlore.extract.explicit import extract_statements
from userlore.extract.reversal import find_reversals, naming
from userlore.graph import build_understanding_graph
from userlore.integrations import UserloreMiddleware
from userlore.store.text import normalize_value

DATA = Path(__file__).resolve().parents[1] / "data"
SCOPE = "u1"
CASES = [
    json.loads(line)
    for name in (
        "reversals_set1.jsonl",
        "reversals_set2.jsonl",
        "reversals_set3.jsonl",
        "reversals_set4.jsonl",
        "reversals_set5.jsonl",
    )
    if (DATA / name).exists()
    for line in (DATA / name).read_text(encoding="utf-8").splitlines()
    if line.strip()
]


def _case_id(case: dict[str, Any]) -> str:
    return f"{case['lang']}-{case['form']}-{case['turn'][:30]}"


def _holds(lore: Userlore, key: str, value: str, states: tuple[RecordState, ...]) -> bool:
    want = normalize_value(value)
    return any(
        r.canonical_key == key and r.value is not None and normalize_value(r.value) == want
        for r in lore.records.list(SCOPE, state=list(states))
    )


def _say(lore: Userlore, text: str, *, approve: bool) -> list[str]:
    made = lore.observe(SCOPE, "user", text, session_key="chat").candidates
    if approve:
        for r in made:
            if r.state is RecordState.CANDIDATE:
                lore.records.approve(SCOPE, r.id)
    return [r.id for r in made]


def understood(lore: Userlore, case: dict[str, Any], *, approve: bool) -> bool:
    """Whether ``lore`` handles one case (``approve``: the reviewer approves each candidate)."""
    if case["before"]:
        _say(lore, case["before"], approve=True)
        if case["old"] and not _holds(lore, *case["old"], (RecordState.ACTIVE,)):
            raise AssertionError(f"the premise was not learned: {case['before']!r}")
    made = _say(lore, case["turn"], approve=approve)
    live = (RecordState.ACTIVE,)
    if case["form"] == "near_miss":
        return _holds(lore, *case["old"], live) and not made
    if case["old"] and _holds(lore, *case["old"], live):
        return False
    if not made:
        return False  # the new state is a record, not only the old one's absence
    if case.get("new") and not _holds(lore, *case["new"], (*live, RecordState.CANDIDATE)):
        return False
    if case.get("veto"):
        vetoes = lore.records.list(SCOPE, state=[RecordState.ACTIVE, RecordState.CANDIDATE])
        return any(r.canonical_key == case["veto"] for r in vetoes)
    return True


# A case the rules still miss carries ``known_miss`` (why): it must keep failing until fixed.
PARAMS = [
    pytest.param(
        c,
        id=_case_id(c),
        marks=[pytest.mark.xfail(strict=True, reason=c["known_miss"])] if "known_miss" in c else [],
    )
    for c in CASES
]


@pytest.mark.parametrize("mode", ["auto", "confirmWrite"])
@pytest.mark.parametrize("case", PARAMS)
def test_a_reversal_ends_the_old_value_and_a_near_miss_does_not(
    make_lore: Callable[..., Userlore], case: dict[str, Any], mode: str
) -> None:
    # In confirmWrite the reversal's own candidate waits for approval; the old value must
    # still stop being live at once (it is paused, never shown as current).
    assert understood(make_lore(mode), case, approve=False)


def test_the_understanding_graph_ends_a_reversed_fact_too(
    make_lore: Callable[..., Userlore],
) -> None:
    lore = make_lore("auto")
    graph = build_understanding_graph(lore, checkpointer=InMemorySaver())
    thread = {"configurable": {"thread_id": "t1"}}

    def say(text: str) -> dict[str, Any]:
        return {
            "scope": SCOPE,
            "session_key": "t1",
            "messages": [{"role": "user", "content": text}],
        }

    graph.invoke(say("Please remember I'm vegetarian."), thread)
    assert _holds(lore, "preference/meat", "avoid", (RecordState.ACTIVE,))
    graph.invoke(say("I'm not vegetarian anymore, I eat fish now."), thread)
    assert not _holds(lore, "preference/meat", "avoid", (RecordState.ACTIVE,))
    [now] = lore.records.list(SCOPE, state=RecordState.ACTIVE)
    assert now.content == "I'm not vegetarian anymore, I eat fish now."
    graph.invoke(say("We switched from MySQL to Postgres, and I use pnpm, not npm."), thread)
    assert _holds(lore, "tooling/database", "postgres", (RecordState.ACTIVE,))
    assert "veto/npm" in {r.canonical_key for r in lore.records.list(SCOPE, state="active")}
    graph.invoke(say("We've gone back to MySQL."), thread)  # a resumption, in other words
    assert _holds(lore, "tooling/database", "mysql", (RecordState.ACTIVE,))
    assert not _holds(lore, "tooling/database", "postgres", (RecordState.ACTIVE,))


def test_a_reversal_ends_only_the_record_it_names_closest(
    make_lore: Callable[..., Userlore],
) -> None:
    lore = make_lore("auto")
    _say(lore, "I work at Google.", approve=True)
    _say(lore, "My goal is to get promoted at Google.", approve=True)
    _say(lore, "I no longer work at Google.", approve=False)
    assert not _holds(lore, "identity/employer", "Google", (RecordState.ACTIVE,))
    assert _holds(
        lore, "goal/get_promoted_at_google", "get promoted at Google", (RecordState.ACTIVE,)
    )


def _live(lore: Userlore) -> list[tuple[str | None, str | None]]:
    rows = lore.records.list(SCOPE, state=RecordState.ACTIVE)
    return sorted((r.canonical_key, r.value) for r in rows)


@pytest.mark.parametrize("mode", ["auto", "confirmWrite"])
def test_a_resumption_through_the_middleware_ends_the_avoidance(
    make_lore: Callable[..., Userlore], mode: str
) -> None:
    # The middleware's observe job, not Userlore.observe called by hand: the same end.
    lore = make_lore(mode)
    middleware = UserloreMiddleware(lore, default_scope=SCOPE)
    agent = create_agent(
        ScriptedChatModel(replies=["noted", "noted"]),
        tools=[],
        system_prompt="You are a helpful assistant.",
        middleware=[middleware],
        checkpointer=InMemorySaver(),
    )
    thread = {"configurable": {"thread_id": "t"}}
    agent.invoke({"messages": [{"role": "user", "content": "I'm vegan."}]}, thread)
    assert middleware.wait_idle(30)
    for r in lore.records.list(SCOPE, state=RecordState.CANDIDATE):
        lore.records.approve(SCOPE, r.id)
    assert _live(lore) == [("preference/animal_products", "avoid")]
    agent.invoke({"messages": [{"role": "user", "content": "I eat cheese again."}]}, thread)
    assert middleware.wait_idle(30)
    if mode == "auto":
        assert _live(lore) == [("preference/animal_products", "no longer avoid")]
    else:  # the new state waits for approval; the avoidance is paused, never planned
        assert _live(lore) == []
        [paused] = lore.records.list(SCOPE, state=RecordState.NEEDS_REVIEW)
        assert paused.value == "avoid"


def test_the_trace_names_the_form_and_the_rule(make_lore: Callable[..., Userlore]) -> None:
    lore = make_lore("auto")
    _say(lore, "Please remember I'm vegetarian.", approve=True)
    _say(lore, "I use Emacs.", approve=True)
    _say(lore, "I'm a carnivore these days.", approve=False)
    _say(lore, "I've gone back to vim.", approve=False)
    _say(lore, "我又开始喝咖啡了", approve=False)  # names nothing held: no trace
    ends = [
        (t["payload"]["form"], t["payload"]["rule"])
        for t in lore.traces.list(SCOPE, event_type="governance")
        if t["reason_code"] == "reversal"
    ]
    assert sorted(ends) == [("back_to", "same_key"), ("these_days", "class:diet_meat")]


def test_restating_the_avoided_state_again_is_not_a_resumption_of_it(
    make_lore: Callable[..., Userlore],
) -> None:
    lore = make_lore("auto")
    _say(lore, "Please remember I'm vegetarian.", approve=True)
    _say(lore, "I eat meat again now.", approve=False)
    assert _live(lore) == [("preference/meat", "no longer avoid")]
    _say(lore, "I'm vegetarian again.", approve=False)
    assert _live(lore) == [("preference/meat", "avoid")]
    _say(lore, "I'm vegetarian again.", approve=False)  # said twice: still one live record
    assert _live(lore) == [("preference/meat", "avoid")]


def test_no_near_miss_of_any_set_names_a_premise_of_any_set() -> None:
    # Each near-miss is checked against its own premise above; here against every premise.
    premises = {c["before"] for c in CASES if c["before"]}
    held = [st for p in premises for st in extract_statements(p)]
    named = [
        (c["turn"], st.content)
        for c in CASES
        if c["form"] == "near_miss"
        for rev in find_reversals(c["turn"])
        for st in held
        if naming(rev, st.canonical_key, st.value, st.content) > 0
    ]
    assert len(held) > 100
    assert named == []


@pytest.mark.parametrize(
    ("avoided", "resumed", "ends"),
    [
        ("我不吃肉", "我又吃牛肉了", True),  # beef is meat
        ("我不吃牛肉", "我又吃肉了", False),  # meat need not be beef
        ("I don't eat fish.", "I eat chicken now.", False),  # chicken is not fish
        ("I don't eat meat.", "I eat salmon now.", True),  # "meat" holds pescatarian too
        ("I hate being late.", "I'm late again.", False),  # a taste, not an avoidance
    ],
)
def test_a_resumption_ends_only_what_it_contradicts(avoided: str, resumed: str, ends: bool) -> None:
    [st] = extract_statements(avoided)
    [rev] = find_reversals(resumed)
    assert rev.resumes
    assert (naming(rev, st.canonical_key, st.value, st.content) > 0) is ends
