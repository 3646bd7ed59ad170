"""When background review runs: the plain cadence of seed 000.

Review is enabled by default for ``confirmWrite`` and ``auto``, disabled for ``off`` and
``readOnly``, and ``understanding.enabled = false`` leaves deterministic extraction only. When
enabled it runs every ``reviewIntervalTurns`` user turns.

This is deliberately one small class: the adaptive cadence (doubling the interval when the inbox
is backlogged or acceptance is low) replaces :meth:`ReviewCadence.interval` without touching the
graph or the middleware, which only ever call :meth:`ReviewCadence.should_review`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from userlore.config import MemoryMode, UserContextConfig
from userlore.feedback.cadence import decide_interval

if TYPE_CHECKING:
    from userlore.store.governed import GovernedStore

__all__ = ["Cadence", "CadenceDecision", "ReviewCadence"]


@dataclass(frozen=True, slots=True)
class CadenceDecision:
    """Whether a review pass is due now, and why.

    Attributes:
        review: ``True`` when a pass should run now.
        reason: Fixed code: ``due``, ``not_due``, ``disabled`` (``understanding.enabled`` is
            false) or ``mode`` (the memory mode is ``off`` or ``readOnly``).
        interval: The interval in user turns that was applied.
        turns_since_review: User turns since the last pass.
    """

    review: bool
    reason: str
    interval: int
    turns_since_review: int


class Cadence(Protocol):
    """What the graph and the middleware need from a cadence policy."""

    def should_review(
        self, scope: str, *, user_turns: int, last_review_turn: int
    ) -> CadenceDecision: ...


class ReviewCadence:
    """The plain cadence: review every ``reviewIntervalTurns`` user turns when enabled.

    Example:
        >>> from userlore import UserContextConfig
        >>> cadence = ReviewCadence(UserContextConfig())
        >>> cadence.should_review("u1", user_turns=10, last_review_turn=0).review
        True
        >>> cadence.should_review("u1", user_turns=9, last_review_turn=0).reason
        'not_due'
    """

    def __init__(self, config: UserContextConfig, store: GovernedStore | None = None) -> None:
        self.config = config
        # With a store and ``adaptiveCadence`` on, ``interval`` is the adaptive one.
        self.store = store

    def enabled(self) -> bool:
        """On for ``confirmWrite``/``auto`` unless ``understanding.enabled`` is false."""
        return self.config.review_enabled

    def interval(self, scope: str) -> int:
        """User turns between passes for ``scope`` (the adaptive cadence overrides this)."""
        if self.store is not None and self.config.understanding.adaptive_cadence:
            # seed 000 adaptive cadence: never faster than configured, doubled when the inbox
            # is backlogged or acceptance / helpfulness is low (userlore.feedback.cadence).
            return decide_interval(self.store, scope).interval
        return self.config.understanding.review_interval_turns

    def should_review(
        self, scope: str, *, user_turns: int, last_review_turn: int
    ) -> CadenceDecision:
        """Decide for one scope from its user-turn counter and the turn of the last pass."""
        since = max(0, user_turns - max(0, last_review_turn))
        if self.config.memory.mode in (MemoryMode.OFF, MemoryMode.READ_ONLY):
            return CadenceDecision(False, "mode", 0, since)
        if not self.config.understanding.enabled:
            return CadenceDecision(False, "disabled", 0, since)
        interval = self.interval(scope)
        if since >= interval:
            return CadenceDecision(True, "due", interval, since)
        return CadenceDecision(False, "not_due", interval, since)
