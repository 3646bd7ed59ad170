"""Response feedback attribution: session key + response time → the preceding inject trace."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timedelta

import pytest

from tests.conftest import FakeClock
from userlore import (
    InvalidInputError,
    MemoryDisabledError,
    RecordNotFoundError,
    RecordState,
    ScopeError,
    Userlore,
)
from userlore.errors import TraceNotFoundError

SCOPE = "u1"


def learned(lore: Userlore) -> str:
    [record] = lore.observe(SCOPE, "user", "I prefer terse answers.").candidates
    return lore.records.approve(SCOPE, record.id).id


def test_rating_goes_to_the_most_recent_preceding_plan(lore: Userlore, clock: FakeClock) -> None:
    learned(lore)
    first = lore.plan_context(SCOPE, "explain decorators", session_key="s1")
    first_answer = clock.advance(seconds=5)
    clock.advance(minutes=1)
    second = lore.plan_context(SCOPE, "explain generators", session_key="s1")
    second_answer = clock.advance(seconds=5)

    result = lore.feedback.set_response_feedback(SCOPE, "s1", first_answer, "not_helpful")
    assert result.trace_id == first.trace_id and result.feedback == "not_helpful"
    assert lore.feedback.get_response_feedback(SCOPE, "s1", first_answer).feedback == "not_helpful"
    late = lore.feedback.get_response_feedback(SCOPE, "s1", second_answer)
    assert late.trace_id == second.trace_id and late.feedback is None
    assert late.planned_at == second_answer - timedelta(seconds=5)
    [plan] = [t for t in lore.traces.list(SCOPE, event_type="plan") if t["id"] == first.trace_id]
    assert plan["feedback"] == "not_helpful"
    [event] = lore.traces.list(SCOPE, event_type="feedback")
    assert event["parent_trace_id"] == first.trace_id
    assert event["payload"] == {"rating": "not_helpful", "previous": None, "selected": 1}


def test_a_response_before_any_plan_has_nothing_to_rate(lore: Userlore, clock: FakeClock) -> None:
    early = clock.now - timedelta(seconds=1)
    lore.plan_context(SCOPE, "hello", session_key="s1")
    got = lore.feedback.get_response_feedback(SCOPE, "s1", early)
    assert not got.resolved and got.feedback is None and got.selected == ()
    with pytest.raises(TraceNotFoundError):
        lore.feedback.set_response_feedback(SCOPE, "s1", early, "helpful")
    assert issubclass(TraceNotFoundError, RecordNotFoundError)


def test_other_sessions_and_scopes_are_never_used(lore: Userlore, clock: FakeClock) -> None:
    lore.plan_context(SCOPE, "hello", session_key="s1")
    lore.plan_context("u2", "hello", session_key="s2")
    at = clock.advance(seconds=5)
    with pytest.raises(TraceNotFoundError):
        lore.feedback.set_response_feedback(SCOPE, "s2", at, "helpful")
    with pytest.raises(TraceNotFoundError):
        lore.feedback.set_response_feedback("u3", "s1", at, "helpful")
    # plans made without a session key are rated with session_key=None
    lore.plan_context(SCOPE, "hello")
    assert lore.feedback.set_response_feedback(
        SCOPE, None, clock.advance(seconds=1), "helpful"
    ).changed


def test_replaying_the_same_rating_writes_nothing(lore: Userlore, clock: FakeClock) -> None:
    learned(lore)
    lore.plan_context(SCOPE, "explain decorators", session_key="s1")
    at = clock.advance(seconds=5)
    assert lore.feedback.set_response_feedback(SCOPE, "s1", at, "helpful").changed
    before = lore.traces.list(SCOPE, limit=1000)
    replay = lore.feedback.set_response_feedback(SCOPE, "s1", at, "helpful")
    assert not replay.changed and replay.previous == "helpful"
    assert lore.traces.list(SCOPE, limit=1000) == before
    replaced = lore.feedback.set_response_feedback(SCOPE, "s1", at, "not_helpful")
    assert replaced.changed and replaced.previous == "helpful"
    assert lore.feedback.get_response_feedback(SCOPE, "s1", at).feedback == "not_helpful"
    assert len(lore.traces.list(SCOPE, event_type="feedback")) == 2


def test_feedback_on_a_plan_that_selected_nothing_is_kept_and_touches_nothing(
    lore: Userlore, clock: FakeClock
) -> None:
    [candidate] = lore.observe(SCOPE, "user", "I prefer terse answers.").candidates
    for _ in range(3):
        clock.advance(minutes=1)
        plan = lore.plan_context(SCOPE, "explain decorators", session_key="s1")
        assert plan.selected == ()  # the candidate is not approved yet
        result = lore.feedback.set_response_feedback(
            SCOPE, "s1", clock.advance(seconds=5), "not_helpful"
        )
        assert result.changed and result.selected == ()
        assert not result.remediation.evaluated and result.remediation.reason == "no_selection"
    assert lore.records.get(SCOPE, candidate.id).state is RecordState.CANDIDATE
    assert [t["feedback"] for t in lore.traces.list(SCOPE, event_type="plan")] == [
        "not_helpful"
    ] * 3
    assert lore.traces.list(SCOPE, event_type="remediation") == []
    helpfulness = lore.feedback.quality(SCOPE).helpfulness
    assert (helpfulness.ratings, helpfulness.unattributed, helpfulness.rate) == (0, 3, None)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"rating": "meh"}, InvalidInputError),
        ({"rating": None}, InvalidInputError),
        ({"response_at": datetime(2026, 1, 5, 9, 0)}, InvalidInputError),  # naive
        ({"response_at": "2026-01-05T09:00:00Z"}, InvalidInputError),
        ({"session_key": ""}, InvalidInputError),
        ({"session_key": "x" * 301}, InvalidInputError),
        ({"scope": "bad scope"}, ScopeError),
    ],
)
def test_bad_input_is_refused_and_writes_nothing(
    lore: Userlore, clock: FakeClock, kwargs: dict[str, object], error: type[Exception]
) -> None:
    lore.plan_context(SCOPE, "hello", session_key="s1")
    before = lore.traces.list(SCOPE, limit=1000)
    args: dict[str, object] = {
        "scope": SCOPE,
        "session_key": "s1",
        "response_at": clock.advance(seconds=1),
        "rating": "helpful",
    }
    args.update(kwargs)
    with pytest.raises(error):
        lore.feedback.set_response_feedback(**args)  # type: ignore[arg-type]
    assert lore.traces.list(SCOPE, limit=1000) == before


def test_memory_off_records_no_feedback(
    make_lore: Callable[..., Userlore], clock: FakeClock
) -> None:
    off = make_lore("off")
    with pytest.raises(MemoryDisabledError):
        off.feedback.set_response_feedback(SCOPE, "s1", clock.now, "helpful")
    assert not off.feedback.get_response_feedback(SCOPE, "s1", clock.now).resolved


def test_results_are_json_ready(lore: Userlore, clock: FakeClock) -> None:
    learned(lore)
    lore.plan_context(SCOPE, "explain decorators", session_key="s1")
    at = clock.advance(seconds=5)
    result = lore.feedback.set_response_feedback(SCOPE, "s1", at, "helpful").as_dict()
    got = lore.feedback.get_response_feedback(SCOPE, "s1", at).as_dict()
    assert json.loads(json.dumps(result))["remediation"]["queued_for_review"] is False
    assert json.loads(json.dumps(got))["feedback"] == "helpful"


async def test_async_twins_share_the_sync_body(lore: Userlore, clock: FakeClock) -> None:
    learned(lore)
    lore.plan_context(SCOPE, "explain decorators", session_key="s1")
    at = clock.advance(seconds=5)
    result = await lore.feedback.aset_response_feedback(SCOPE, "s1", at, "not_helpful")
    assert result.changed
    assert (await lore.feedback.aget_response_feedback(SCOPE, "s1", at)).feedback == "not_helpful"
    assert (await lore.feedback.aquality(SCOPE)).helpfulness.not_helpful == 1
    correction = await lore.feedback.ahandle_correction(SCOPE, "I never said that about me", "s1")
    assert correction.detected and correction.target_trace_id == result.trace_id


def test_rating_a_trace_by_id_shares_the_same_path(lore: Userlore, clock: FakeClock) -> None:
    rid = learned(lore)
    traces = []
    for _ in range(2):
        clock.advance(minutes=1)
        traces.append(lore.plan_context(SCOPE, "explain decorators", session_key="s1").trace_id)
    first = lore.feedback.set_trace_feedback(SCOPE, str(traces[0]), "not_helpful")
    assert first.changed and first.response_at == clock.now - timedelta(minutes=1)
    second = lore.feedback.set_trace_feedback(SCOPE, str(traces[1]), "not_helpful")
    assert (
        second.queued_for_review and lore.records.get(SCOPE, rid).state is RecordState.NEEDS_REVIEW
    )
    assert not lore.feedback.set_trace_feedback(SCOPE, str(traces[1]), "not_helpful").changed
    with pytest.raises(TraceNotFoundError):
        lore.feedback.set_trace_feedback("u2", str(traces[0]), "helpful")  # other scope
