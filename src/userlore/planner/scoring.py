"""How the planner ranks a record it may place: the rerank score, and which standing records
apply to every answer whether the question matched them or not."""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

from sqlalchemy import Row

from userlore.models import Explicitness, Sensitivity, UserState

__all__ = ["ALWAYS_APPLY", "applies", "score"]

ALWAYS_APPLY = frozenset({"instruction", "style", "veto", "channel", "identity"})
"""Standing kinds that apply to every answer (how to reply, who the user is): placed matched
or not, within their class budgets."""


def applies(rec: Row[*tuple[Any, ...]]) -> bool:
    """A standing record placed whether the question matched it or not: how to reply and who
    the user is (:data:`ALWAYS_APPLY`), and special-category facts the user consented to show
    (an allergy, a faith's diet): costly to miss and rarely worded like the question they
    constrain ("what should I try in Thailand?" against a nut allergy; cosine 0.08)."""
    return rec.kind in ALWAYS_APPLY or rec.sensitivity == Sensitivity.SPECIAL.value


def score(
    rec: Row[*tuple[Any, ...]], retrieval: float, now: datetime, half_life_days: float
) -> float:
    """Rerank by retrieval score, confidence, importance, explicitness and freshness."""
    age_days = max(0.0, (now - rec.updated_at).total_seconds() / 86_400)
    fresh = math.exp(_NEG_LN2 * age_days / half_life_days)
    score: float = (
        0.5 * retrieval
        + 0.15 * rec.confidence
        + 0.15 * rec.importance
        + 0.1 * (1.0 if rec.explicitness == _EXPLICIT else 0.6)
        + 0.1 * fresh
    )
    return score + (0.5 if rec.user_state == _PINNED else 0.0)


# Read once: an enum member's ``.value`` is a descriptor call, ~40 of them per plan.
_NEG_LN2 = -math.log(2)
_EXPLICIT = Explicitness.EXPLICIT.value
_PINNED = UserState.PINNED.value
