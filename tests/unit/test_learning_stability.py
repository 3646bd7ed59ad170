"""Seed 002 stability scoring: decay per class half-life, cue factor, states, class budgets."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from userlore.learning.facets import (
    CLASS_BUDGETS,
    CUE_WEIGHTS,
    HALF_LIFE_DAYS,
    OVERFLOW_POOL,
    CueFamily,
    FacetClass,
    FacetState,
)
from userlore.learning.stability import (
    Observation,
    Slot,
    allocate,
    base_score,
    stability,
    state_of,
)
from userlore.models import UserState

T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


def obs(cue: CueFamily, days_ago: float = 0.0) -> Observation:
    return Observation(cue, T0 - timedelta(days=days_ago))


def test_seed_numbers() -> None:
    assert CUE_WEIGHTS == {
        CueFamily.EXPLICIT: 1.0,
        CueFamily.STRUCTURAL: 0.9,
        CueFamily.BEHAVIORAL: 0.7,
        CueFamily.RECURRENCE: 0.6,
    }
    assert {c.value: d for c, d in HALF_LIFE_DAYS.items()} == {
        "identity": 90,
        "veto": 60,
        "tooling": 30,
        "goal": 30,
        "style": 14,
        "channel": 7,
    }
    assert {c.value: n for c, n in CLASS_BUDGETS.items()} == {
        "style": 4,
        "identity": 4,
        "tooling": 5,
        "veto": 3,
        "goal": 3,
        "channel": 1,
    }
    assert OVERFLOW_POOL == 5


def test_one_explicit_statement_is_two_ln2() -> None:
    value = stability(FacetClass.STYLE, [obs(CueFamily.EXPLICIT)], T0)
    assert value == pytest.approx(2 * math.log(2))
    assert state_of(value) is FacetState.PROVISIONAL


def test_base_sums_every_observation_times_log_of_family_count() -> None:
    observations = [obs(CueFamily.BEHAVIORAL)] * 3 + [obs(CueFamily.STRUCTURAL)]
    expected = 3 * 0.7 * math.log(4) + 0.9 * math.log(2)
    assert base_score(FacetClass.TOOLING, observations, T0) == pytest.approx(expected)
    # no explicit evidence: cue factor 1
    assert stability(FacetClass.TOOLING, observations, T0) == pytest.approx(expected)
    # one explicit observation doubles the whole score
    with_explicit = [*observations, obs(CueFamily.EXPLICIT)]
    assert stability(FacetClass.TOOLING, with_explicit, T0) == pytest.approx(
        2 * (expected + math.log(2))
    )


@pytest.mark.parametrize("cls", list(FacetClass))
def test_evidence_halves_after_one_class_half_life(cls: FacetClass) -> None:
    half_life = HALF_LIFE_DAYS[cls]
    fresh = stability(cls, [Observation(CueFamily.EXPLICIT, T0)], T0)
    later = T0 + timedelta(days=half_life)
    aged = stability(cls, [Observation(CueFamily.EXPLICIT, T0)], later)
    assert aged == pytest.approx(fresh / 2)
    two = T0 + timedelta(days=2 * half_life)
    assert stability(cls, [Observation(CueFamily.EXPLICIT, T0)], two) == pytest.approx(fresh / 4)


def test_classes_decay_at_their_own_pace() -> None:
    evidence = [Observation(CueFamily.EXPLICIT, T0)] * 2
    at = T0 + timedelta(days=30)
    scores = {cls: stability(cls, evidence, at) for cls in FacetClass}
    order = sorted(FacetClass, key=lambda c: -scores[c])
    assert order[0] is FacetClass.IDENTITY and order[-1] is FacetClass.CHANNEL
    # two explicit statements: active when fresh; a style is dropped to provisional after a
    # month while an identity fact is still active
    assert state_of(stability(FacetClass.STYLE, evidence, T0)) is FacetState.ACTIVE
    assert state_of(scores[FacetClass.STYLE]) is FacetState.PROVISIONAL
    assert state_of(scores[FacetClass.IDENTITY]) is FacetState.ACTIVE


def test_future_evidence_is_not_aged_or_boosted() -> None:
    ahead = [Observation(CueFamily.EXPLICIT, T0 + timedelta(days=3))]
    assert stability(FacetClass.STYLE, ahead, T0) == pytest.approx(2 * math.log(2))


def test_user_state_overrides() -> None:
    weak = [obs(CueFamily.RECURRENCE, days_ago=100)]
    assert stability(FacetClass.STYLE, weak, T0, UserState.PINNED) == math.inf
    strong = [obs(CueFamily.EXPLICIT)] * 5
    assert stability(FacetClass.STYLE, strong, T0, UserState.FORGOTTEN) == 0.0


@pytest.mark.parametrize(
    ("value", "state"),
    [
        (1.5, FacetState.ACTIVE),
        (1.4999, FacetState.PROVISIONAL),
        (0.7, FacetState.PROVISIONAL),
        (0.6999, FacetState.CANDIDATE),
        (0.4, FacetState.CANDIDATE),
        (0.3999, FacetState.DROPPED),
        (0.0, FacetState.DROPPED),
        (math.inf, FacetState.ACTIVE),
    ],
)
def test_state_thresholds(value: float, state: FacetState) -> None:
    assert state_of(value) is state


def slots(cls: FacetClass, n: int, *, start: float = 10.0, pinned: int = 0) -> list[Slot]:
    return [Slot(cls, f"{cls.value}{i:02d}", start - i, i < pinned) for i in range(n)]


def test_budget_per_class_then_overflow_pool_by_stability() -> None:
    tooling = slots(FacetClass.TOOLING, 9, start=20.0)  # budget 5: 4 spill over
    style = slots(FacetClass.STYLE, 6, start=9.0)  # budget 4: 2 spill over
    goal = slots(FacetClass.GOAL, 1)  # under budget
    kept = allocate([*tooling, *style, *goal])
    assert sum(1 for c, _ in kept if c is FacetClass.GOAL) == 1
    # 5 + 4 own slots, then the 5 overflow slots go to the 6 spilled facets by stability:
    # tooling spill (15..12) beats style spill (5, 4), so 4 tooling + 1 style
    assert sum(1 for c, _ in kept if c is FacetClass.TOOLING) == 9
    assert sum(1 for c, _ in kept if c is FacetClass.STYLE) == 5
    assert (FacetClass.STYLE, "style05") not in kept
    assert len(kept) == 5 + 4 + 1 + OVERFLOW_POOL


def test_overflow_pool_is_shared_and_bounded() -> None:
    kept = allocate(slots(FacetClass.CHANNEL, 10))
    assert len(kept) == CLASS_BUDGETS[FacetClass.CHANNEL] + OVERFLOW_POOL
    assert len(allocate(slots(FacetClass.CHANNEL, 10), overflow=0)) == 1


def test_pinned_facets_always_fit_and_take_overflow_first() -> None:
    veto = slots(FacetClass.VETO, 12, pinned=10)  # 10 pinned facets of a 3-slot class
    kept = allocate(veto)
    assert {f"veto{i:02d}" for i in range(10)} <= {k for _, k in kept}
    assert len(kept) == 10  # pinned ones used the whole overflow pool: unpinned ones wait
