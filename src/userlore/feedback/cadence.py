"""Adaptive review cadence (seed 000 "Background synthesis").

With ``understanding.adaptiveCadence`` on, the configured ``reviewIntervalTurns`` is the
*fastest* allowed cadence. The interval is doubled when any of these holds:

- the candidate inbox is backlogged: at least :data:`INBOX_BACKLOG` candidates wait for a
  decision (another pass would only add to a queue nobody is working through);
- at least :data:`MIN_DECISIONS` review decisions in the window show a low acceptance rate
  (below :data:`LOW_ACCEPTANCE`: most of what review proposes is being rejected);
- at least :data:`MIN_RATINGS` recall ratings in the window show low helpfulness (below
  :data:`LOW_HELPFULNESS`: the understanding being injected is not helping).

Several conditions at once still double the interval once. The result never drops below the
configured interval, so review never runs more often than configured. The graph's
:class:`~userlore.graph.ReviewCadence` calls :func:`decide_interval` when it has a store.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from userlore.config import MemoryMode
from userlore.feedback.metrics import (
    Acceptance,
    Helpfulness,
    acceptance,
    helpfulness,
    pending_candidates,
    window_start,
)
from userlore.store.governed import GovernedStore, validate_scope

__all__ = [
    "CADENCE_WINDOW_DAYS",
    "INBOX_BACKLOG",
    "LOW_ACCEPTANCE",
    "LOW_HELPFULNESS",
    "MIN_DECISIONS",
    "MIN_RATINGS",
    "SLOWDOWN_FACTOR",
    "IntervalDecision",
    "decide_interval",
    "interval_decision",
]

INBOX_BACKLOG = 20
"""Pending candidates at which the inbox counts as backlogged: one full review batch
(``graph.review.DEFAULT_MAX_BATCH``) is already waiting."""
MIN_DECISIONS = 10
"""Review decisions needed before the acceptance rate may slow review (seed 000)."""
LOW_ACCEPTANCE = 0.5
"""Acceptance rate below which review slows down: most proposals are being rejected."""
MIN_RATINGS = 10
"""Recall ratings needed before helpfulness may slow review (seed 000)."""
LOW_HELPFULNESS = 0.5
"""Helpfulness below which review slows down: most rated responses were not helpful."""
SLOWDOWN_FACTOR = 2
"""How much a slowed cadence stretches the interval (seed 000: doubled)."""
CADENCE_WINDOW_DAYS = 30
"""Window of decisions and ratings the cadence looks at (the quality endpoint's default)."""


@dataclass(frozen=True, slots=True)
class IntervalDecision:
    """The effective review interval of one scope, and why.

    Attributes:
        interval: User turns between review passes (never below ``configured``).
        configured: ``understanding.reviewIntervalTurns``, the fastest allowed.
        enabled: Whether background review runs at all (mode and ``understanding.enabled``).
        adaptive: ``understanding.adaptiveCadence``.
        reason: Fixed code: ``configured`` (no slowdown), ``adaptive_off``, ``disabled``,
            ``mode``, or the slowdown reasons joined by ``+`` (``inbox_backlog``,
            ``low_acceptance``, ``low_helpfulness``).
        reasons: The slowdown reasons that held.
        pending_candidates: Candidates waiting in the inbox.
        acceptance: Review decisions in the window.
        helpfulness: Recall ratings in the window.
    """

    interval: int
    configured: int
    enabled: bool
    adaptive: bool
    reason: str
    reasons: tuple[str, ...]
    pending_candidates: int
    acceptance: Acceptance
    helpfulness: Helpfulness

    def as_dict(self) -> dict[str, Any]:
        return {
            "interval": self.interval,
            "configured": self.configured,
            "enabled": self.enabled,
            "adaptive": self.adaptive,
            "reason": self.reason,
            "reasons": list(self.reasons),
            "pending_candidates": self.pending_candidates,
            "acceptance": self.acceptance.as_dict(),
            "helpfulness": self.helpfulness.as_dict(),
        }


def decide_interval(
    store: GovernedStore, scope: str, *, window_days: int = CADENCE_WINDOW_DAYS
) -> IntervalDecision:
    """The effective review interval for ``scope`` (see the module docstring)."""
    validate_scope(scope)
    since = window_start(store.clock(), window_days)
    with store.transaction(scope) as session:
        return interval_decision(store, session, scope, since)


def interval_decision(
    store: GovernedStore, session: Session, scope: str, since: datetime
) -> IntervalDecision:
    """:func:`decide_interval` inside an open session (the quality report shares its reads)."""
    cfg = store.config
    configured = cfg.understanding.review_interval_turns
    adaptive = cfg.understanding.adaptive_cadence
    pending = pending_candidates(session, scope)
    acc = acceptance(session, scope, since)
    helped = helpfulness(session, scope, since)
    reasons: list[str] = []
    if pending >= INBOX_BACKLOG:
        reasons.append("inbox_backlog")
    if acc.decisions >= MIN_DECISIONS and (acc.rate or 0.0) < LOW_ACCEPTANCE:
        reasons.append("low_acceptance")
    if helped.ratings >= MIN_RATINGS and (helped.rate or 0.0) < LOW_HELPFULNESS:
        reasons.append("low_helpfulness")
    enabled = cfg.review_enabled
    if not enabled:
        mode_off = cfg.memory.mode in (MemoryMode.OFF, MemoryMode.READ_ONLY)
        reason, interval = ("mode" if mode_off else "disabled"), configured
    elif not adaptive:
        reason, interval = "adaptive_off", configured
    elif reasons:
        reason, interval = "+".join(reasons), configured * SLOWDOWN_FACTOR
    else:
        reason, interval = "configured", configured
    return IntervalDecision(
        interval=max(interval, configured),
        configured=configured,
        enabled=enabled,
        adaptive=adaptive,
        reason=reason,
        reasons=tuple(reasons) if enabled and adaptive else (),
        pending_candidates=pending,
        acceptance=acc,
        helpfulness=helped,
    )
