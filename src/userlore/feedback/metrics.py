"""The quality signals shared by the quality report and the adaptive review cadence.

Each is one scope-filtered query over existing tables: pending candidates (``memory_records``),
review decisions (``review_decisions``) and rated inject traces (``memory_trace_events``).
"""

from __future__ import annotations

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
    "Acceptance",
    "Helpfulness",
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
