"""The quality signals shared by the quality report and the adaptive review cadence.

Each is one scope-filtered query over existing tables: pending candidates (``memory_records``),
review decisions (``review_decisions``) and rated inject traces (``memory_trace_events``).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from userlore.errors import InvalidInputError
from userlore.feedback.attribution import INJECT_EVENT, Rating, selected_entries
from userlore.models import RecordState
from userlore.store.schema import MemoryRecord, MemoryTraceEvent, ReviewDecision

__all__ = [
    "MAX_WINDOW_DAYS",
    "TURN_HEALTH",
    "Acceptance",
    "Helpfulness",
    "TurnHealth",
    "acceptance",
    "helpfulness",
    "pending_candidates",
    "window_start",
]

MAX_WINDOW_DAYS = 3650
ACCEPTED_DECISIONS = ("approve", "edit")


@dataclass(frozen=True, slots=True)
class Acceptance:
    """Review decisions in the window: approved or edited count as accepted."""

    decisions: int = 0
    accepted: int = 0
    rejected: int = 0

    @property
    def rate(self) -> float | None:
        return round(self.accepted / self.decisions, 4) if self.decisions else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "decisions": self.decisions,
            "accepted": self.accepted,
            "rejected": self.rejected,
            "rate": self.rate,
        }


@dataclass(frozen=True, slots=True)
class Helpfulness:
    """Ratings of responses whose plan selected understanding (recall helpfulness).

    ``unattributed`` counts rated responses whose plan selected nothing: kept, but they say
    nothing about understanding quality, so they are not in the rate.
    """

    ratings: int = 0
    helpful: int = 0
    not_helpful: int = 0
    unattributed: int = 0

    @property
    def rate(self) -> float | None:
        return round(self.helpful / self.ratings, 4) if self.ratings else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "ratings": self.ratings,
            "helpful": self.helpful,
            "not_helpful": self.not_helpful,
            "unattributed": self.unattributed,
            "rate": self.rate,
        }


def window_start(now: datetime, window_days: object) -> datetime:
    """Start of a ``window_days`` window ending at ``now``.

    Raises:
        InvalidInputError: not an integer in ``1..3650``.
    """
    if (
        isinstance(window_days, bool)
        or not isinstance(window_days, int)
        or not 1 <= window_days <= MAX_WINDOW_DAYS
    ):
        raise InvalidInputError(
            f"window_days must be an integer from 1 to {MAX_WINDOW_DAYS}, got {window_days!r}"
        )
    return now - timedelta(days=window_days)


def pending_candidates(session: Session, scope: str) -> int:
    """Candidates waiting in the review inbox."""
    return int(
        session.scalar(
            select(func.count())
            .select_from(MemoryRecord)
            .where(MemoryRecord.scope == scope, MemoryRecord.state == RecordState.CANDIDATE.value)
        )
        or 0
    )


def acceptance(session: Session, scope: str, since: datetime) -> Acceptance:
    rows = session.execute(
        select(ReviewDecision.decision, func.count())
        .where(ReviewDecision.scope == scope, ReviewDecision.created_at >= since)
        .group_by(ReviewDecision.decision)
    )
    counts = {str(d): int(n) for d, n in rows}
    accepted = sum(counts.get(d, 0) for d in ACCEPTED_DECISIONS)
    return Acceptance(sum(counts.values()), accepted, counts.get("reject", 0))


def helpfulness(session: Session, scope: str, since: datetime) -> Helpfulness:
    rows = session.execute(
        select(MemoryTraceEvent.payload, MemoryTraceEvent.feedback).where(
            MemoryTraceEvent.scope == scope,
            MemoryTraceEvent.event_type == INJECT_EVENT,
            MemoryTraceEvent.feedback.in_([r.value for r in Rating]),
            MemoryTraceEvent.created_at >= since,
        )
    )
    helpful = negative = unattributed = 0
    for payload, feedback in rows:
        if not selected_entries(payload):
            unattributed += 1
        elif feedback == Rating.HELPFUL.value:
            helpful += 1
        else:
            negative += 1
    return Helpfulness(helpful + negative, helpful, negative, unattributed)


class TurnHealth:
    """Process-wide counters of memory work that failed open or was deferred, for operators.

    A read that fails lets the turn run without a memory block; a write that cannot be queued
    in memory goes to the durable table; a turn no backend can store (over 32,000 characters, NUL)
    is skipped (``skipped_turns``). None fails the user's turn, so each is counted here
    (and logged) instead. Process-wide, so never part of a per-user (scope) report: one user's
    report must not show counts caused by another.
    """

    NAMES = (
        "read_failures",
        "correction_failures",
        "write_failures",
        "queue_overflows",
        "job_failures",
        "job_retries",
        "skipped_turns",
        "mode_mismatches",
    )

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts = dict.fromkeys(self.NAMES, 0)

    def count(self, name: str, n: int = 1) -> None:
        """Add ``n`` to counter ``name`` (one of :attr:`NAMES`)."""
        if name not in self._counts:
            raise InvalidInputError(f"unknown turn health counter {name!r}")
        with self._lock:
            self._counts[name] += n

    def snapshot(self) -> dict[str, int]:
        """The counters since the process started (or :meth:`reset`)."""
        with self._lock:
            return dict(self._counts)

    def reset(self) -> None:
        with self._lock:
            self._counts = dict.fromkeys(self.NAMES, 0)


TURN_HEALTH = TurnHealth()
"""This process's counters (``userlore.feedback.metrics.TURN_HEALTH.snapshot()``)."""
