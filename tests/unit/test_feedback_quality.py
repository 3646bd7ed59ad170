"""``quality(scope, window_days)``: funnel by producer, states, acceptance, helpfulness, cadence."""

from __future__ import annotations

import json

import pytest

from tests.conftest import FakeClock
from userlore import CandidateInput, Explicitness, InvalidInputError, Producer, Userlore

SCOPE = "u1"


def reviewer_guess(lore: Userlore, text: str) -> str:
    outcome = lore.write(
        SCOPE,
        CandidateInput(
            kind="note",
            content=text,
            producer=Producer.REVIEWER,
            explicitness=Explicitness.INFERRED,
        ),
    )
    assert outcome.record is not None
    return outcome.record.id


def test_quality_report(lore: Userlore, clock: FakeClock) -> None:
    explicit = [
        r.id
        for text in ("I prefer terse answers.", "My name is Ana.", "I use pnpm.")
        for r in lore.observe(SCOPE, "user", text, session_key="s1").candidates
    ]
    guesses = [reviewer_guess(lore, f"The user seems to like topic {i}.") for i in range(4)]
    lore.records.approve(SCOPE, explicit[0])
    lore.records.approve(
        SCOPE, explicit[1], content="My name is Ana Lima."
    )  # an edit is an acceptance
    lore.records.reject(SCOPE, guesses[0])
    lore.records.reject(SCOPE, guesses[1])
    lore.records.approve(SCOPE, guesses[2])
    lore.records.forget(SCOPE, explicit[2])
    clock.advance(minutes=1)
    lore.plan_context(SCOPE, "explain decorators", session_key="s1")
    lore.feedback.set_response_feedback(SCOPE, "s1", clock.advance(seconds=5), "helpful")
    clock.advance(minutes=1)
    lore.plan_context(SCOPE, "explain generators", session_key="s1")
    lore.feedback.set_response_feedback(SCOPE, "s1", clock.advance(seconds=5), "not_helpful")

    report = lore.feedback.quality(SCOPE)
    funnel = report.funnel
    assert (funnel.proposed, funnel.approved, funnel.rejected, funnel.pending, funnel.deleted) == (
        7,
        3,
        2,
        1,
        1,
    )
    assert funnel.by_producer == {
        "explicit": {"proposed": 3, "approved": 2, "rejected": 0, "pending": 0, "deleted": 1},
        "reviewer": {"proposed": 4, "approved": 1, "rejected": 2, "pending": 1, "deleted": 0},
    }
    assert report.states["active"] == 3 and report.states["candidate"] == 1
    assert report.states["rejected"] == 2 and report.states["deleted"] == 1
    assert (report.acceptance.decisions, report.acceptance.accepted) == (5, 3)
    assert report.acceptance_rate == 0.6
    assert (report.helpfulness.helpful, report.helpfulness.not_helpful) == (1, 1)
    assert report.recall_helpfulness == 0.5
    assert report.cadence.interval == 10 and report.cadence.reason == "configured"
    assert report.remediation == {"paused": 0, "corrections": 0, "feedback_events": 2}
    body = json.loads(json.dumps(report.as_dict()))
    assert body["cadence"]["reason"] == "configured" and body["window_days"] == 30
    assert body["funnel"]["by_producer"]["reviewer"]["rejected"] == 2


def test_the_window_limits_the_funnel_but_not_the_states(lore: Userlore, clock: FakeClock) -> None:
    reviewer_guess(lore, "An old guess.")
    clock.advance(days=10)
    reviewer_guess(lore, "A new guess.")
    week = lore.feedback.quality(SCOPE, window_days=7)
    assert week.funnel.proposed == 1 and week.states["candidate"] == 2
    assert lore.feedback.quality(SCOPE, window_days=30).funnel.proposed == 2
    # the effective cadence always looks at its own window, whatever window is reported
    assert week.cadence.pending_candidates == 2


@pytest.mark.parametrize("days", [0, -1, 3651, 1.5, "30", True])
def test_bad_window_is_refused(lore: Userlore, days: object) -> None:
    with pytest.raises(InvalidInputError):
        lore.feedback.quality(SCOPE, window_days=days)  # type: ignore[arg-type]


def test_quality_is_per_scope(lore: Userlore) -> None:
    reviewer_guess(lore, "A guess about u1.")
    other = lore.feedback.quality("u2")
    assert other.funnel.proposed == 0 and sum(other.states.values()) == 0
