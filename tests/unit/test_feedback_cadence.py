"""Adaptive review cadence: each doubling condition, its thresholds, and the floor."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from tests.conftest import FakeClock
from userlore import CandidateInput, Explicitness, Producer, RecordState, Userlore
from userlore.feedback.cadence import (
    INBOX_BACKLOG,
    MIN_DECISIONS,
    MIN_RATINGS,
    SLOWDOWN_FACTOR,
    decide_interval,
)
from userlore.graph import ReviewCadence

SCOPE = "u1"
Factory = Callable[..., Userlore]
_SERIAL = itertools.count(1)


def open_lore(make_lore: Factory, *, interval: int = 10, adaptive: bool = True) -> Userlore:
    return make_lore(
        "confirmWrite",
        understanding={"reviewIntervalTurns": interval, "adaptiveCadence": adaptive},
    )


def propose(lore: Userlore, n: int, scope: str = SCOPE) -> list[str]:
    ids = []
    for _ in range(n):
        outcome = lore.write(
            scope,
            CandidateInput(
                kind="note",
                content=f"reviewer guess number {next(_SERIAL)} about the user",
                producer=Producer.REVIEWER,
                explicitness=Explicitness.INFERRED,
            ),
        )
        assert outcome.record is not None
        ids.append(outcome.record.id)
    return ids


def decide(lore: Userlore, accepted: int, rejected: int) -> None:
    ids = propose(lore, accepted + rejected)
    for rid in ids[:accepted]:
        lore.records.approve(SCOPE, rid)
    for rid in ids[accepted:]:
        lore.records.reject(SCOPE, rid)


def rate(lore: Userlore, clock: FakeClock, helpful: int, not_helpful: int) -> None:
    [record] = lore.observe(SCOPE, "user", "I prefer terse answers.").candidates
    if record.state is RecordState.CANDIDATE:
        lore.records.approve(SCOPE, record.id)
        lore.records.pin(
            SCOPE, record.id
        )  # pinned: ratings never pause it, so every rating stays attributed
    for rating in ["helpful"] * helpful + ["not_helpful"] * not_helpful:
        clock.advance(minutes=1)
        plan = lore.plan_context(SCOPE, "explain decorators", session_key="s1")
        assert plan.selected_ids == (record.id,)
        lore.feedback.set_response_feedback(SCOPE, "s1", clock.advance(seconds=5), rating)


def test_configured_interval_when_nothing_is_wrong(make_lore: Factory) -> None:
    decision = decide_interval(open_lore(make_lore).store, SCOPE)
    assert (decision.interval, decision.reason, decision.reasons) == (10, "configured", ())
    assert decision.enabled and decision.adaptive


def test_backlogged_inbox_doubles_the_interval(make_lore: Factory) -> None:
    lore = open_lore(make_lore)
    propose(lore, INBOX_BACKLOG - 1)
    assert decide_interval(lore.store, SCOPE).interval == 10
    propose(lore, 1)
    decision = decide_interval(lore.store, SCOPE)
    assert (decision.interval, decision.reason) == (20, "inbox_backlog")
    assert decision.pending_candidates == INBOX_BACKLOG
    assert decide_interval(lore.store, "u2").interval == 10  # per scope


def test_low_acceptance_doubles_only_with_enough_decisions(make_lore: Factory) -> None:
    lore = open_lore(make_lore)
    decide(lore, accepted=0, rejected=MIN_DECISIONS - 1)
    assert decide_interval(lore.store, SCOPE).interval == 10  # nine decisions are too few
    decide(lore, accepted=4, rejected=0)  # 13 decisions, 4 accepted: rate 0.31
    decision = decide_interval(lore.store, SCOPE)
    assert (decision.interval, decision.reason) == (20, "low_acceptance")
    assert decision.acceptance.decisions == 13 and decision.acceptance.rate == pytest.approx(
        4 / 13, abs=1e-4
    )


def test_acceptance_at_half_is_not_low(make_lore: Factory) -> None:
    lore = open_lore(make_lore)
    decide(lore, accepted=5, rejected=5)
    assert decide_interval(lore.store, SCOPE).reason == "configured"


def test_low_helpfulness_doubles_only_with_enough_ratings(
    make_lore: Factory, clock: FakeClock
) -> None:
    lore = open_lore(make_lore)
    rate(lore, clock, helpful=0, not_helpful=MIN_RATINGS - 1)
    assert decide_interval(lore.store, SCOPE).interval == 10  # nine ratings are too few
    rate(lore, clock, helpful=4, not_helpful=0)
    decision = decide_interval(lore.store, SCOPE)
    assert (decision.interval, decision.reason) == (20, "low_helpfulness")
    assert decision.helpfulness.ratings == 13


def test_several_conditions_still_double_once(make_lore: Factory, clock: FakeClock) -> None:
    lore = open_lore(make_lore, interval=3)
    decide(lore, accepted=0, rejected=MIN_DECISIONS)
    rate(lore, clock, helpful=0, not_helpful=MIN_RATINGS)
    propose(lore, INBOX_BACKLOG)
    decision = decide_interval(lore.store, SCOPE)
    assert decision.reasons == ("inbox_backlog", "low_acceptance", "low_helpfulness")
    assert decision.reason == "inbox_backlog+low_acceptance+low_helpfulness"
    assert decision.interval == 3 * SLOWDOWN_FACTOR


def test_signals_outside_the_window_do_not_count(make_lore: Factory, clock: FakeClock) -> None:
    lore = open_lore(make_lore)
    decide(lore, accepted=0, rejected=MIN_DECISIONS)
    assert decide_interval(lore.store, SCOPE).interval == 20
    clock.advance(days=31)
    assert decide_interval(lore.store, SCOPE).interval == 10


def test_floor_never_faster_than_configured(make_lore: Factory, clock: FakeClock) -> None:
    # excellent signals never speed review up
    good = open_lore(make_lore, interval=7)
    decide(good, accepted=MIN_DECISIONS, rejected=0)
    rate(good, clock, helpful=MIN_RATINGS, not_helpful=0)
    assert decide_interval(good.store, SCOPE).interval == 7
    # and with adaptiveCadence off the configured interval stands whatever happens
    plain = open_lore(make_lore, interval=7, adaptive=False)
    propose(plain, INBOX_BACKLOG)
    decision = decide_interval(plain.store, SCOPE)
    assert (decision.interval, decision.reason, decision.reasons) == (7, "adaptive_off", ())


@pytest.mark.parametrize(("mode", "reason"), [("readOnly", "mode"), ("off", "mode")])
def test_disabled_review_reports_why(make_lore: Factory, mode: str, reason: str) -> None:
    decision = decide_interval(make_lore(mode).store, SCOPE)
    assert not decision.enabled and decision.reason == reason


def test_understanding_disabled_is_reported(make_lore: Factory) -> None:
    lore = make_lore("auto", understanding={"enabled": False})
    assert decide_interval(lore.store, SCOPE).reason == "disabled"


def test_the_graph_cadence_uses_the_adaptive_interval(make_lore: Factory) -> None:
    lore = open_lore(make_lore, interval=4)
    propose(lore, INBOX_BACKLOG)
    adaptive = ReviewCadence(lore.config, lore.store)
    assert not adaptive.should_review(SCOPE, user_turns=4, last_review_turn=0).review
    due = adaptive.should_review(SCOPE, user_turns=8, last_review_turn=0)
    assert due.review and due.interval == 8
    # without a store (or with adaptiveCadence off) the plain cadence is unchanged
    assert ReviewCadence(lore.config).should_review(SCOPE, user_turns=4, last_review_turn=0).review
    plain = open_lore(make_lore, interval=4, adaptive=False)
    propose(plain, INBOX_BACKLOG)
    cadence = ReviewCadence(plain.config, plain.store)
    assert cadence.should_review(SCOPE, user_turns=4, last_review_turn=0).review
