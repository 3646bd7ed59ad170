"""Corrections in ordinary speech (issue 14 item 1): detection, the new truth, the seed 000 flow."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from tests.conftest import FakeClock
from userlore import RecordState, RecordView, Userlore
from userlore.extract.explicit import extract_statements
from userlore.feedback.corrections import detect_correction
from userlore.graph import build_understanding_graph

SCOPE = "u1"
SESSION = "chat-1"


def learned(lore: Userlore, text: str) -> RecordView:
    [record] = lore.observe(SCOPE, "user", text, session_key=SESSION).candidates
    if record.state is RecordState.CANDIDATE:
        record = lore.records.approve(SCOPE, record.id)
    return record


def respond(lore: Userlore, clock: FakeClock, query: str) -> datetime:
    clock.advance(seconds=55)
    lore.plan_context(SCOPE, query, session_key=SESSION)
    return clock.advance(seconds=5)


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("Actually, not bullet points, use numbered lists.", "style/format", "numbered"),
        ("nope, I meant a table", "style/format", "tables"),
        ("Strike that - answers in plain prose, please.", "style/format", "prose"),
        ("Oh wait, scratch that: keep it short.", "style/verbosity", "terse"),
        ("It's wrong, I use pnpm, not npm.", "tooling/package_manager", "pnpm"),
        ("You got my format wrong: I want a checklist.", "style/format", "checklist"),
        ("Not Java, Kotlin.", "tooling/lang", "kotlin"),
        ("I misspoke, my name is Tomás.", "identity/name", "Tomás"),
        ("不是列表，是表格", "style/format", "tables"),
        ("我刚才说错了，我用的是pnpm", "tooling/package_manager", "pnpm"),
        ("更正：我是产品经理", "identity/role", "产品经理"),
        ("口误，我喜欢详细的回答", "style/verbosity", "detailed"),
    ],
)
def test_self_corrections_name_their_new_truth(text: str, key: str, value: str) -> None:
    found = detect_correction(text)
    assert found is not None and found.form == "concrete"
    assert (key, value) in {(s.canonical_key, s.value) for s in found.statements}
    for st in found.statements:
        assert text[st.span[0] : st.span[1]] == st.content  # the receipt is the user's words


@pytest.mark.parametrize(
    "text",
    [
        "Actually, the build is green now.",
        "No, I meant the other endpoint.",
        "Scratch that, rename the variable instead.",
        "That's wrong: the index starts at zero.",
        "Not that branch, the release one.",
        "Actually, not Monday, Tuesday works for the call.",
        "不是这个接口，是那个",
        "我说错了，错误在第十行",
        "更正一下：发布推迟到下周",
        "不对，应该返回列表",
        "I use yarn, not npm.",  # a contrast, not a correction of anything
        "Actually, I prefer tabs over spaces.",  # "actually" alone opens no correction
    ],
)
def test_markers_without_a_statement_about_the_user_are_not_corrections(text: str) -> None:
    assert detect_correction(text) is None


def test_the_rejected_alternative_is_never_read_as_the_preference() -> None:
    stated = {
        (s.canonical_key, s.value)
        for s in extract_statements("No, I meant shorter answers, not detailed ones.")
    }
    assert stated == {("style/verbosity", "terse")}
    assert {(s.canonical_key, s.value) for s in extract_statements("不是表格，是段落。")} == {
        ("style/format", "prose")
    }


def test_a_format_nobody_listed_keeps_its_own_value() -> None:
    found = detect_correction("Actually, no - answer in FAQ format.")
    assert found is not None
    assert [(s.canonical_key, s.value) for s in found.statements] == [("style/format", "faq")]


def test_numbered_lists_replace_bullets_through_the_correction_flow(
    lore: Userlore, clock: FakeClock
) -> None:
    old = learned(lore, "Always use bullet points.")
    assert (old.canonical_key, old.value) == ("style/format", "bullets")
    respond(lore, clock, "explain decorators")
    result = lore.feedback.handle_correction(
        SCOPE, "Actually, not bullet points, use numbered lists.", SESSION
    )
    assert result.detected and result.form == "concrete"
    assert [p.record_id for p in result.paused] == [old.id]
    [new] = result.replacements
    assert (new.canonical_key, new.value) == ("style/format", "numbered")
    assert new.supersedes_record_id == old.id and new.state is RecordState.CANDIDATE
    assert lore.records.get(SCOPE, old.id).state is RecordState.NEEDS_REVIEW
    # paused: bullets are no longer injected
    plan = lore.plan_context(SCOPE, "explain generators", session_key=SESSION)
    assert old.id not in plan.selected_ids


def test_you_got_my_preference_wrong_writes_the_replacement(
    lore: Userlore, clock: FakeClock
) -> None:
    old = learned(lore, "Always use bullet points.")
    respond(lore, clock, "explain decorators")
    result = lore.feedback.handle_correction(
        SCOPE, "You got my preference wrong: I want prose", SESSION
    )
    [new] = result.replacements
    assert (new.canonical_key, new.value, new.content) == ("style/format", "prose", "I want prose")
    assert new.supersedes_record_id == old.id


def test_a_self_correction_pauses_only_the_key_it_restates(
    lore: Userlore, clock: FakeClock
) -> None:
    fmt = learned(lore, "Always use bullet points.")
    tool = learned(lore, "I use npm.")
    respond(lore, clock, "how do I use npm to format bullet points")
    result = lore.feedback.handle_correction(SCOPE, "我说错了，我用的是pnpm", SESSION)
    assert [p.record_id for p in result.paused] == [tool.id]
    [new] = result.replacements
    assert (new.canonical_key, new.value) == ("tooling/package_manager", "pnpm")
    assert lore.records.get(SCOPE, fmt.id).state is RecordState.ACTIVE


def test_a_chinese_contrast_correction_replaces_the_value(lore: Userlore, clock: FakeClock) -> None:
    old = learned(lore, "请用表格回答")
    respond(lore, clock, "比较一下这两个库")
    result = lore.feedback.handle_correction(SCOPE, "不是表格，是编号列表。", SESSION)
    [new] = result.replacements
    assert (new.canonical_key, new.value, new.content) == ("style/format", "numbered", "编号列表")
    assert new.supersedes_record_id == old.id


def test_the_graph_swaps_bullets_for_numbered_lists_in_the_same_turn(
    lore: Userlore, clock: FakeClock
) -> None:
    graph = build_understanding_graph(lore, checkpointer=InMemorySaver())
    thread = {"configurable": {"thread_id": "t1"}}

    def say(text: str) -> dict[str, Any]:
        return {
            "scope": SCOPE,
            "session_key": "t1",
            "messages": [{"role": "user", "content": text}],
        }

    [old_id] = [
        o["record_id"] for o in graph.invoke(say("Always use bullet points."), thread)["outcomes"]
    ]
    lore.records.approve(SCOPE, old_id)
    clock.advance(minutes=1)
    assert old_id in graph.invoke(say("explain decorators"), thread)["context"]
    clock.advance(minutes=1)

    third = graph.invoke(say("Actually, not bullet points, use numbered lists."), thread)
    correction = third["correction"]
    assert correction["paused"] == [old_id]
    [replacement] = correction["replacements"]
    assert replacement["supersedes_record_id"] == old_id
    # extract read the same turn the same way: it reinforced the replacement, no prose, no veto
    assert [o["record_id"] for o in third["outcomes"]] == [replacement["record_id"]]
    assert old_id not in third["context"]
    new = lore.records.get(SCOPE, replacement["record_id"])
    assert (new.canonical_key, new.value) == ("style/format", "numbered")
