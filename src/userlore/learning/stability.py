"""Stability scoring (seed 002), as pure functions of observations and a clock.

::

    stability(class, key, value) = base × cue × user_state
    base = Σ over evidence: cue_family_weight × decay(Δt, half_life(class))
                            × log(1 + evidence_count_for_family)
    cue  = 2.0 if any evidence is Explicit, else 1.0
    user = ∞ if pinned, 0 if forgotten, 1 otherwise

The seed writes the decay as ``exp(-Δt / half_life)`` and defines the half-life as "the time over
which evidence weight halves"; those two statements agree only when the exponent is scaled by
``ln 2``, so ``decay = exp(-ln 2 · Δt / half_life) = 2^(-Δt / half_life)``: evidence one
half-life old weighs exactly half. Evidence observed "in the future" (clock skew) is not aged.

Class budgets pick the top facets per class; a shared overflow pool lends spare capacity to a
class with more stable facets than its own budget. Pinned facets lock ``Active`` and are served
first (their stability is infinite).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from userlore.learning.facets import (
    CLASS_BUDGETS,
    CUE_WEIGHTS,
    EXPLICIT_CUE_MULTIPLIER,
    HALF_LIFE_DAYS,
    OVERFLOW_POOL,
    TAU_CANDIDATE,
    TAU_PROMOTE,
    TAU_PROVISIONAL,
    CueFamily,
    FacetClass,
    FacetState,
)
from userlore.models import UserState

__all__ = [
    "Observation",
    "Slot",
    "allocate",
    "base_score",
    "cue_factor",
    "decay",
    "stability",
    "state_of",
]

_DAY = 86_400.0


@dataclass(frozen=True, slots=True)
class Observation:
    """One piece of evidence for a value, as the scorer sees it."""

    cue_family: CueFamily
    observed_at: datetime
    evidence_ref: str | None = None
    confidence: float = 0.5


def decay(age_days: float, half_life_days: float) -> float:
    """Weight of evidence ``age_days`` old: 1 when fresh, 1/2 after one half-life."""
    return math.exp(-math.log(2) * max(0.0, age_days) / half_life_days)


def base_score(cls: FacetClass, observations: Sequence[Observation], now: datetime) -> float:
    """Σ weight(family) × decay(age) × log(1 + count(family)) over every observation."""
    counts = Counter(o.cue_family for o in observations)
    half_life = HALF_LIFE_DAYS[cls]
    total = 0.0
    for o in observations:
        age = (now - o.observed_at).total_seconds() / _DAY
        total += (
            CUE_WEIGHTS[o.cue_family] * decay(age, half_life) * math.log1p(counts[o.cue_family])
        )
    return total


def cue_factor(observations: Iterable[Observation]) -> float:
    """2.0 when any evidence is Explicit, else 1.0."""
    explicit = any(o.cue_family is CueFamily.EXPLICIT for o in observations)
    return EXPLICIT_CUE_MULTIPLIER if explicit else 1.0


def stability(
    cls: FacetClass,
    observations: Sequence[Observation],
    now: datetime,
    user_state: UserState = UserState.AUTO,
) -> float:
    """``base × cue × user_state`` at ``now``."""
    if user_state is UserState.FORGOTTEN:
        return 0.0
    if user_state is UserState.PINNED:
        return math.inf
    return base_score(cls, observations, now) * cue_factor(observations)


def state_of(value: float) -> FacetState:
    """The seed's state for a stability value (before budgets and overrides)."""
    if value >= TAU_PROMOTE:
        return FacetState.ACTIVE
    if value >= TAU_PROVISIONAL:
        return FacetState.PROVISIONAL
    if value >= TAU_CANDIDATE:
        return FacetState.CANDIDATE
    return FacetState.DROPPED


@dataclass(frozen=True, slots=True)
class Slot:
    """One facet competing for a place in the cache."""

    facet_class: FacetClass
    key: str
    stability: float
    pinned: bool = False


def allocate(
    slots: Iterable[Slot],
    budgets: dict[FacetClass, int] | None = None,
    overflow: int = OVERFLOW_POOL,
) -> set[tuple[FacetClass, str]]:
    """Which facets fit: top-N per class, then the best of the rest share the overflow pool.

    Pinned facets always fit (they lock ``Active``); beyond their class budget they take
    overflow slots first, so a pinned facet can only crowd out unpinned ones.
    """
    budgets = CLASS_BUDGETS if budgets is None else budgets
    by_class: dict[FacetClass, list[Slot]] = {}
    for slot in slots:
        by_class.setdefault(slot.facet_class, []).append(slot)
    kept: set[tuple[FacetClass, str]] = set()
    rest: list[Slot] = []
    for cls, group in by_class.items():
        group.sort(key=lambda s: (not s.pinned, -s.stability, s.key))
        cap = budgets.get(cls, 0)
        kept.update((s.facet_class, s.key) for s in group[:cap])
        rest.extend(group[cap:])
    rest.sort(key=lambda s: (not s.pinned, -s.stability, s.facet_class.value, s.key))
    free = overflow
    for slot in rest:
        if slot.pinned or free > 0:
            kept.add((slot.facet_class, slot.key))
            free -= 1
    return kept
