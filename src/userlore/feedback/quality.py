"""Understanding quality over a window (seed 000 ``GET /api/user-context/quality?windowDays=30``).

The report has the candidate funnel (proposed → approved / rejected / pending, by producer), the
current record states, the acceptance rate of review decisions, recall helpfulness (ratings of
responses whose plan selected understanding) and the effective review cadence with its reason.
Everything is counted from existing tables; nothing is cached, so it is always current.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import func, select

from userlore.feedback.attribution import FEEDBACK_EVENT
from userlore.feedback.cadence import CADENCE_WINDOW_DAYS, IntervalDecision, interval_decision
from userlore.feedback.metrics import (
    Acceptance,
    Helpfulness,
    acceptance,
    helpfulness,
    window_start,
)
from userlore.feedback.remediation import CORRECTION_EVENT, REMEDIATION_EVENT
from userlore.models import RecordState
from userlore.store.governed import GovernedStore, validate_scope
from userlore.store.schema import MemoryRecord, MemoryTraceEvent

__all__ = ["FUNNEL_STAGE", "Funnel", "QualityReport", "quality_report"]

FUNNEL_STAGE: dict[str, str] = {
    RecordState.CANDIDATE.value: "pending",
    RecordState.ACTIVE.value: "approved",
    RecordState.NEEDS_REVIEW.value: "approved",
    RecordState.SUPERSEDED.value: "approved",
    RecordState.ARCHIVED.value: "approved",
    RecordState.REJECTED.value: "rejected",
    RecordState.DELETED.value: "deleted",
}
"""Funnel stage of a record proposed in the window, from its current state. A record that went
live counts as approved even if it was later paused, replaced or archived."""

_STAGES = ("approved", "rejected", "pending", "deleted")


@dataclass(frozen=True, slots=True)
class Funnel:
    """Records proposed in the window and where they are now, in total and by producer."""

    proposed: int = 0
    approved: int = 0
    rejected: int = 0
    pending: int = 0
    deleted: int = 0
    by_producer: dict[str, dict[str, int]] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "proposed": self.proposed,
            "approved": self.approved,
            "rejected": self.rejected,
            "pending": self.pending,
            "deleted": self.deleted,
            "by_producer": {p: dict(c) for p, c in sorted(self.by_producer.items())},
        }


@dataclass(frozen=True, slots=True)
class QualityReport:
    """Quality of one scope's understanding over ``window_days``."""

    scope: str
    window_days: int
    since: datetime
    generated_at: datetime
    funnel: Funnel
    states: dict[str, int]
    acceptance: Acceptance
    helpfulness: Helpfulness
    remediation: dict[str, int]
    cadence: IntervalDecision

    @property
    def acceptance_rate(self) -> float | None:
        return self.acceptance.rate

    @property
    def recall_helpfulness(self) -> float | None:
        return self.helpfulness.rate

    def as_dict(self) -> dict[str, Any]:
        """JSON-safe form (the HTTP quality endpoint's body)."""
        return {
            "scope": self.scope,
            "window_days": self.window_days,
            "since": self.since.isoformat(),
            "generated_at": self.generated_at.isoformat(),
            "funnel": self.funnel.as_dict(),
            "states": dict(self.states),
            "acceptance": self.acceptance.as_dict(),
            "acceptance_rate": self.acceptance_rate,
            "helpfulness": self.helpfulness.as_dict(),
            "recall_helpfulness": self.recall_helpfulness,
            "remediation": dict(self.remediation),
            "cadence": self.cadence.as_dict(),
        }


def quality_report(store: GovernedStore, scope: str, window_days: int = 30) -> QualityReport:
    """Build the :class:`QualityReport` of ``scope`` (one read transaction).

    Raises:
        ScopeError: malformed scope.
        InvalidInputError: ``window_days`` outside ``1..3650``.
    """
    validate_scope(scope)
    now = store.clock()
    since = window_start(now, window_days)
    with store.transaction(scope) as session:
        by_producer: dict[str, dict[str, int]] = {}
        totals = dict.fromkeys(_STAGES, 0)
        for producer, state, n in session.execute(
            select(MemoryRecord.producer, MemoryRecord.state, func.count())
            .where(MemoryRecord.scope == scope, MemoryRecord.created_at >= since)
            .group_by(MemoryRecord.producer, MemoryRecord.state)
        ):
            stage = FUNNEL_STAGE.get(str(state), "approved")
            counts = by_producer.setdefault(
                str(producer), {"proposed": 0, **dict.fromkeys(_STAGES, 0)}
            )
            counts["proposed"] += int(n)
            counts[stage] += int(n)
            totals[stage] += int(n)
        funnel = Funnel(proposed=sum(totals.values()), by_producer=by_producer, **totals)
        states = {s.value: 0 for s in RecordState}
        for state, n in session.execute(
            select(MemoryRecord.state, func.count())
            .where(MemoryRecord.scope == scope)
            .group_by(MemoryRecord.state)
        ):
            states[str(state)] = int(n)
        remediation = {"paused": 0, "corrections": 0, "feedback_events": 0}
        for event, n in session.execute(
            select(MemoryTraceEvent.event_type, func.count())
            .where(
                MemoryTraceEvent.scope == scope,
                MemoryTraceEvent.created_at >= since,
                MemoryTraceEvent.event_type.in_(
                    (REMEDIATION_EVENT, CORRECTION_EVENT, FEEDBACK_EVENT)
                ),
            )
            .group_by(MemoryTraceEvent.event_type)
        ):
            name = {
                REMEDIATION_EVENT: "paused",
                CORRECTION_EVENT: "corrections",
                FEEDBACK_EVENT: "feedback_events",
            }[str(event)]
            remediation[name] = int(n)
        # The effective cadence always looks at its own window, whatever window is reported.
        cadence = interval_decision(store, session, scope, window_start(now, CADENCE_WINDOW_DAYS))
        same = window_days == CADENCE_WINDOW_DAYS
        return QualityReport(
            scope=scope,
            window_days=window_days,
            since=since,
            generated_at=now,
            funnel=funnel,
            states=states,
            acceptance=cadence.acceptance if same else acceptance(session, scope, since),
            helpfulness=cadence.helpfulness if same else helpfulness(session, scope, since),
            remediation=remediation,
            cadence=cadence,
        )
