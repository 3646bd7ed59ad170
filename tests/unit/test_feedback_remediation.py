"""Seed 000 remediation lifecycle, step by step, with the fixed clock of ``tests/conftest.py``."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timedelta

import pytest

from tests.conftest import FakeClock
from userlore import RecordState, RecordView, Userlore
from userlore.feedback.remediation import CONFIDENCE_PENALTY

SCOPE = "u1"
SESSION = "chat-1"


def learned(lore: Userlore, text: str = "I prefer terse answers.") -> RecordView:
    """A record the user stated and a reviewer approved (or auto mode activated)."""
    [record] = lore.observe(SCOPE, "user", text, session_key=SESSION).candidates
    if record.state is RecordState.CANDIDATE:
        record = lore.records.approve(SCOPE, record.id)
    assert record.state is RecordState.ACTIVE
    return record


def respond(lore: Userlore, clock: FakeClock, query: str = "explain decorators") -> datetime:
    """Plan one turn, let the assistant answer five seconds later; returns the response time."""
    clock.advance(seconds=55)
    lore.plan_context(SCOPE, query, session_key=SESSION)
    return clock.advance(seconds=5)


def events(lore: Userlore, event_type: str) -> list[dict[str, object]]:
    return lore.traces.list(SCOPE, event_type=event_type, limit=1000)


# -- step 1 -----------------------------------------------------------------------------------


def test_step1_one_negative_rating_changes_no_record(lore: Userlore, clock: FakeClock) -> None:
    record = learned(lore)
    at = respond(lore, clock)
    result = lore.feedback.set_response_feedback(SCOPE, SESSION, at, "not_helpful")
    assert result.changed and result.selected == (record.id,)
    assert result.remediation.evaluated and result.remediation.paused == ()
    assert not result.queued_for_review
    after = lore.records.get(SCOPE, record.id)
    assert after.state is RecordState.ACTIVE and after.confidence == record.confidence
    assert events(lore, "remediation") == []
    # ...but it is retained as a quality signal
    assert lore.feedback.quality(SCOPE).helpfulness.not_helpful == 1


# -- step 2 -----------------------------------------------------------------------------------


def test_step2_two_independent_negatives_pause_the_record(lore: Userlore, clock: FakeClock) -> None:
    record = learned(lore)
    lore.feedback.set_response_feedback(SCOPE, SESSION, respond(lore, clock), "not_helpful")
    result = lore.feedback.set_response_feedback(
        SCOPE, SESSION, respond(lore, clock), "not_helpful"
    )
    [paused] = result.remediation.paused
    assert paused.record_id == record.id and paused.reason == "negative_feedback"
    assert (paused.not_helpful, paused.helpful) == (2, 0)
    assert result.queued_for_review and result.remediation.in_review == (record.id,)
    assert lore.records.get(SCOPE, record.id).state is RecordState.NEEDS_REVIEW


def test_step2_helpful_ratings_prevent_the_transition(lore: Userlore, clock: FakeClock) -> None:
    record = learned(lore)
    for rating in ("helpful", "helpful", "not_helpful", "not_helpful"):
        result = lore.feedback.set_response_feedback(SCOPE, SESSION, respond(lore, clock), rating)
    # two negatives, but they do not outnumber two helpfuls
    assert result.remediation.paused == () and not result.queued_for_review
    assert lore.records.get(SCOPE, record.id).state is RecordState.ACTIVE
    third = lore.feedback.set_response_feedback(SCOPE, SESSION, respond(lore, clock), "not_helpful")
    assert [p.record_id for p in third.remediation.paused] == [record.id]


def test_step2_ratings_of_one_trace_are_not_independent(lore: Userlore, clock: FakeClock) -> None:
    record = learned(lore)
    at = respond(lore, clock)
    for rating in ("not_helpful", "not_helpful", "helpful", "not_helpful"):
        lore.feedback.set_response_feedback(SCOPE, SESSION, at, rating)
    assert lore.records.get(SCOPE, record.id).state is RecordState.ACTIVE
    assert [t["reason_code"] for t in events(lore, "feedback")] == ["response_rating"] * 3


def test_step2_explicit_correction_pauses_at_once(lore: Userlore, clock: FakeClock) -> None:
    record = learned(lore)
    respond(lore, clock)
    clock.advance(seconds=30)
    result = lore.feedback.handle_correction(SCOPE, "I never said that about me", SESSION)
    assert result.detected and result.form == "denial" and result.reason == "recorded"
    [paused] = result.paused
    assert paused.record_id == record.id and paused.reason == "explicit_correction"
    assert lore.records.get(SCOPE, record.id).state is RecordState.NEEDS_REVIEW
    [plan] = events(lore, "plan")
    assert plan["feedback"] == "not_helpful" and result.target_trace_id == plan["id"]


# -- step 3 -----------------------------------------------------------------------------------


def test_step3_transition_lowers_confidence_sets_review_after_and_is_audited(
    lore: Userlore, clock: FakeClock
) -> None:
    record = learned(lore)
    lore.feedback.set_response_feedback(SCOPE, SESSION, respond(lore, clock), "not_helpful")
    at = respond(lore, clock)
    result = lore.feedback.set_response_feedback(SCOPE, SESSION, at, "not_helpful")
    after = lore.records.get(SCOPE, record.id)
    assert after.confidence == pytest.approx(record.confidence - CONFIDENCE_PENALTY)
    assert after.review_after == clock.now
    # out of active-only retrieval at once
    assert after.id not in [r.id for r in lore.records.list(SCOPE, state=RecordState.ACTIVE)]
    clock.advance(seconds=10)
    plan = lore.plan_context(SCOPE, "explain terse answers", session_key=SESSION)
    assert record.id not in plan.selected_ids
    assert (record.id, "not_active") in [(r.id, r.reason) for r in plan.rejected]
    [audit] = events(lore, "remediation")
    assert audit["reason_code"] == "negative_feedback"
    assert audit["parent_trace_id"] == result.trace_id
    assert audit["payload"] == {
        "record_id": record.id,
        "v": record.version,
        "from": "active",
        "to": "needs_review",
        "confidence_before": record.confidence,
        "confidence_after": after.confidence,
        "not_helpful": 2,
        "helpful": 0,
    }


def test_step3_replaying_or_replacing_feedback_is_idempotent(
    lore: Userlore, clock: FakeClock
) -> None:
    record = learned(lore)
    first = respond(lore, clock)
    lore.feedback.set_response_feedback(SCOPE, SESSION, first, "not_helpful")
    second = respond(lore, clock)
    lore.feedback.set_response_feedback(SCOPE, SESSION, second, "not_helpful")
    paused = lore.records.get(SCOPE, record.id)
    feedback_events = len(events(lore, "feedback"))
    clock.advance(minutes=5)
    replay = lore.feedback.set_response_feedback(SCOPE, SESSION, second, "not_helpful")
    assert not replay.changed and replay.remediation.paused == ()
    assert replay.queued_for_review  # a replay still tells the UI it is queued
    assert len(events(lore, "feedback")) == feedback_events  # nothing written
    lore.feedback.set_response_feedback(SCOPE, SESSION, first, "helpful")
    lore.feedback.set_response_feedback(SCOPE, SESSION, first, "not_helpful")
    assert len(events(lore, "remediation")) == 1
    again = lore.records.get(SCOPE, record.id)
    assert again.confidence == paused.confidence and again.review_after == paused.review_after
    assert again.state is RecordState.NEEDS_REVIEW  # a later helpful does not un-pause either


def test_reapproval_starts_a_clean_slate(lore: Userlore, clock: FakeClock) -> None:
    record = learned(lore)
    lore.feedback.set_response_feedback(SCOPE, SESSION, respond(lore, clock), "not_helpful")
    lore.feedback.set_response_feedback(SCOPE, SESSION, respond(lore, clock), "not_helpful")
    clock.advance(minutes=1)
    assert (
        lore.records.approve(SCOPE, record.id).state is RecordState.ACTIVE
    )  # a reviewer confirms it
    result = lore.feedback.set_response_feedback(
        SCOPE, SESSION, respond(lore, clock), "not_helpful"
    )
    assert result.remediation.paused == ()
    assert lore.records.get(SCOPE, record.id).state is RecordState.ACTIVE


def test_pinned_records_yield_only_to_an_explicit_correction(
    lore: Userlore, clock: FakeClock
) -> None:
    record = learned(lore)
    lore.records.pin(SCOPE, record.id)
    for _ in range(3):
        lore.feedback.set_response_feedback(SCOPE, SESSION, respond(lore, clock), "not_helpful")
    assert lore.records.get(SCOPE, record.id).state is RecordState.ACTIVE
    lore.feedback.handle_correction(SCOPE, "你记错了我的偏好", SESSION, at=clock.advance(seconds=1))
    assert lore.records.get(SCOPE, record.id).state is RecordState.NEEDS_REVIEW


def test_read_only_keeps_ratings_but_changes_no_record(
    make_lore: Callable[..., Userlore], clock: FakeClock, tmp_path: object
) -> None:
    url = f"sqlite:///{tmp_path}/ro.db"
    writer = make_lore("confirmWrite", url=url)
    record = learned(writer)
    reader = make_lore("readOnly", url=url)
    for _ in range(2):
        result = reader.feedback.set_response_feedback(
            SCOPE, SESSION, respond(reader, clock), "not_helpful"
        )
    assert result.remediation.reason == "read_only" and result.remediation.paused == ()
    assert reader.records.get(SCOPE, record.id).state is RecordState.ACTIVE
    assert reader.feedback.quality(SCOPE).helpfulness.not_helpful == 2


# -- step 4 -----------------------------------------------------------------------------------


def test_step4_concrete_chinese_correction_proposes_a_linked_replacement(
    lore: Userlore, clock: FakeClock
) -> None:
    old = learned(lore, "我喜欢简短的回答")
    respond(lore, clock, "解释一下装饰器")
    result = lore.feedback.handle_correction(
        SCOPE, "你记错了我的偏好，我更喜欢详细解释", SESSION, at=clock.advance(seconds=20)
    )
    assert result.form == "concrete" and [p.record_id for p in result.paused] == [old.id]
    [new] = result.replacements
    assert new.state is RecordState.CANDIDATE and new.supersedes_record_id == old.id
    assert (new.canonical_key, new.value) == ("style/verbosity", "detailed")
    assert new.content == "我更喜欢详细解释"  # the user's own clause is the receipt
    assert [e["text"] for e in lore.records.evidence(SCOPE, new.id)] == [
        "你记错了我的偏好，我更喜欢详细解释"
    ]


def test_step4_concrete_english_timezone_correction(lore: Userlore, clock: FakeClock) -> None:
    old = learned(lore, "My timezone is PST")
    respond(lore, clock, "when is standup for me?")
    result = lore.feedback.handle_correction(
        SCOPE, "that's not my timezone any more, I'm in Berlin now", SESSION
    )
    [new] = result.replacements
    assert new.supersedes_record_id == old.id and new.content == "I'm in Berlin now"
    assert (new.canonical_key, new.value) == ("identity/timezone", "Europe/Berlin")
    assert lore.records.get(SCOPE, old.id).state is RecordState.NEEDS_REVIEW


def test_step4_pure_denial_creates_no_replacement(lore: Userlore, clock: FakeClock) -> None:
    old = learned(lore)
    respond(lore, clock)
    before = {r.id for r in lore.records.list(SCOPE)}
    result = lore.feedback.handle_correction(SCOPE, "I never said that about me", SESSION)
    assert result.form == "denial" and result.replacements == ()
    assert {r.id for r in lore.records.list(SCOPE)} == before
    assert lore.records.get(SCOPE, old.id).state is RecordState.NEEDS_REVIEW


# -- step 5 -----------------------------------------------------------------------------------


def test_step5_old_record_waits_for_approval_then_is_archived(
    lore: Userlore, clock: FakeClock
) -> None:
    old = learned(lore, "我喜欢简短的回答")
    respond(lore, clock, "解释一下装饰器")
    result = lore.feedback.handle_correction(SCOPE, "你记错了我的偏好，我更喜欢详细解释", SESSION)
    [new] = result.replacements
    clock.advance(hours=3)
    assert (
        lore.records.get(SCOPE, old.id).state is RecordState.NEEDS_REVIEW
    )  # not replaced by mere time
    approved_at = clock.advance(minutes=1)
    assert lore.records.approve(SCOPE, new.id).state is RecordState.ACTIVE
    archived = lore.records.get(SCOPE, old.id)
    assert archived.state is RecordState.ARCHIVED and archived.valid_until == approved_at
    plan = lore.plan_context(SCOPE, "解释一下生成器", session_key=SESSION)
    assert new.id in plan.selected_ids and old.id not in plan.selected_ids


def test_auto_mode_replacement_activates_under_the_mode_rule(
    auto_lore: Userlore, clock: FakeClock
) -> None:
    old = learned(auto_lore, "我喜欢简短的回答")
    respond(auto_lore, clock, "解释一下装饰器")
    result = auto_lore.feedback.handle_correction(
        SCOPE, "你记错了我的偏好，我更喜欢详细解释", SESSION
    )
    [new] = result.replacements
    assert new.state is RecordState.ACTIVE and new.supersedes_record_id == old.id
    assert auto_lore.records.get(SCOPE, old.id).state is RecordState.ARCHIVED


# -- what must not count ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "the command failed",
        "this code doesn't compile",
        "that's wrong, try again",
        "you got it wrong",
        "I never said the tests pass",
        "这个命令失败了",
        "代码编译不过",
        "你记错了，这个API是v2的",
    ],
)
def test_generic_task_feedback_changes_nothing(lore: Userlore, clock: FakeClock, text: str) -> None:
    record = learned(lore)
    respond(lore, clock)
    before = lore.traces.list(SCOPE, limit=1000)
    result = lore.feedback.handle_correction(SCOPE, text, SESSION)
    assert not result.detected and result.reason == "not_a_correction"
    assert lore.traces.list(SCOPE, limit=1000) == before
    assert lore.records.get(SCOPE, record.id) == record


def test_no_correction_text_is_stored_in_any_trace(lore: Userlore, clock: FakeClock) -> None:
    learned(lore, "我喜欢简短的回答")
    learned(lore, "My timezone is PST")
    corrections = [
        "你记错了我的偏好，我更喜欢详细解释",
        "that's not my timezone any more, I'm in Berlin now",
        "I never said that about me",
    ]
    for text in corrections:
        respond(lore, clock, "解释一下 timezone")
        assert lore.feedback.handle_correction(
            SCOPE, text, SESSION, turn_id=f"m-{len(text)}"
        ).detected
    traces = lore.traces.list(SCOPE, limit=1000)
    corrections_written = [t for t in traces if t["event_type"] == "correction"]
    assert len(corrections_written) == 3
    assert {t["reason_code"] for t in corrections_written} == {"explicit_correction"}
    dump = json.dumps(traces, default=str, ensure_ascii=False).lower()
    for fragment in ("记错", "详细解释", "berlin", "never said", "about me", "not my timezone"):
        assert fragment not in dump


def test_correction_replays_change_nothing(lore: Userlore, clock: FakeClock) -> None:
    old = learned(lore, "我喜欢简短的回答")
    respond(lore, clock, "解释一下装饰器")
    text = "你记错了我的偏好，我更喜欢详细解释"
    first = lore.feedback.handle_correction(SCOPE, text, SESSION, turn_id="m7")
    # the turn is planned, then the same turn is handled again (a graph or agent replay)
    clock.advance(seconds=1)
    lore.plan_context(SCOPE, text, session_key=SESSION)
    snapshot = (lore.traces.list(SCOPE, limit=1000), lore.records.list(SCOPE))
    again = lore.feedback.handle_correction(SCOPE, text, SESSION, turn_id="m7")
    assert again.replayed and again.correction_trace_id == first.correction_trace_id
    assert again.paused == () and again.replacements == () and again.in_review == (old.id,)
    assert (lore.traces.list(SCOPE, limit=1000), lore.records.list(SCOPE)) == snapshot


def test_correction_replay_without_turn_id_is_idempotent(lore: Userlore, clock: FakeClock) -> None:
    learned(lore, "我喜欢简短的回答")
    respond(lore, clock, "解释一下装饰器")
    text = "你记错了我的偏好，我更喜欢详细解释"
    first = lore.feedback.handle_correction(SCOPE, text, SESSION)
    [new] = first.replacements
    snapshot = (lore.traces.list(SCOPE, limit=1000), lore.records.get(SCOPE, new.id))
    assert lore.feedback.handle_correction(SCOPE, text, SESSION).replayed
    assert (lore.traces.list(SCOPE, limit=1000), lore.records.get(SCOPE, new.id)) == snapshot


def test_a_correction_names_what_it_corrects(lore: Userlore, clock: FakeClock) -> None:
    style = learned(lore, "I prefer terse answers.")
    name = learned(lore, "My name is Ana.")
    respond(lore, clock, "explain decorators")
    # the plan selected both; the correction is about the timezone, which was not selected
    assert lore.feedback.handle_correction(SCOPE, "that's not my timezone", SESSION).paused == ()
    respond(lore, clock, "explain generators")
    result = lore.feedback.handle_correction(SCOPE, "你记错了我的偏好", SESSION)
    assert [p.record_id for p in result.paused] == [style.id]
    assert lore.records.get(SCOPE, name.id).state is RecordState.ACTIVE


def test_correction_without_a_previous_plan_writes_nothing(lore: Userlore) -> None:
    learned(lore)
    before = lore.traces.list(SCOPE, limit=1000)
    result = lore.feedback.handle_correction(SCOPE, "I never said that about me", SESSION)
    assert result.detected and result.reason == "no_inject_trace"
    assert lore.traces.list(SCOPE, limit=1000) == before


def test_remediation_only_touches_its_own_scope(lore: Userlore, clock: FakeClock) -> None:
    record = learned(lore)
    other = lore.observe("u2", "user", "I prefer terse answers.", session_key=SESSION)
    theirs = lore.records.approve("u2", other.candidates[0].id)
    clock.advance(seconds=1)
    lore.plan_context("u2", "explain decorators", session_key=SESSION)
    for _ in range(2):
        lore.feedback.set_response_feedback(SCOPE, SESSION, respond(lore, clock), "not_helpful")
    assert lore.records.get(SCOPE, record.id).state is RecordState.NEEDS_REVIEW
    assert lore.records.get("u2", theirs.id).state is RecordState.ACTIVE
    assert lore.traces.list("u2", event_type="remediation") == []
    assert clock.now - timedelta(minutes=5) < lore.records.get(SCOPE, record.id).review_after  # type: ignore[operator]
