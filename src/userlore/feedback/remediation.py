"""The remediation lifecycle (seed 000 "Remediation lifecycle", steps 1-3).

1. One ordinary ``not_helpful`` rating is kept as a quality signal and changes no record.
2. An active user-understanding record moves to ``needs_review`` after at least
   :data:`NEGATIVE_THRESHOLD` independent ``not_helpful`` inject traces, and only while negative
   ratings outnumber helpful ones. An explicit correction is authoritative and pauses at once.
3. The move lowers confidence by :data:`CONFIDENCE_PENALTY`, sets ``review_after``, takes the
   record out of active-only retrieval (the planner selects ``active`` records only) and writes
   an auditable ``remediation`` trace.

Counts are recomputed from the inject traces every time, never kept as counters: a trace counts
once whatever happened to its rating before (set, replayed, replaced), so replays are idempotent
by construction. Only ratings of the record's current version made since its last approval
count, so a record a reviewer has just confirmed (or edited) starts with a clean slate.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from userlore.config import MemoryMode
from userlore.feedback.attribution import INJECT_EVENT, Rating, selected_entries
from userlore.models import Pipeline, RecordState, UserState
from userlore.store.governed import GovernedStore
from userlore.store.schema import MemoryRecord, MemoryTraceEvent, ReviewDecision

__all__ = [
    "CONFIDENCE_PENALTY",
    "CORRECTION_EVENT",
    "NEGATIVE_THRESHOLD",
    "REASON_CORRECTION",
    "REASON_NEGATIVE",
    "REMEDIATION_EVENT",
    "REVIEW_DELAY",
    "PausedRecord",
    "RemediationPolicy",
    "RemediationResult",
    "Tally",
]

NEGATIVE_THRESHOLD = 2
"""Independent ``not_helpful`` inject traces needed before a record is paused (seed 000)."""
CONFIDENCE_PENALTY = 0.2
"""Confidence removed when a record is paused (seed 000)."""
REVIEW_DELAY = timedelta(0)
"""``review_after`` is set to the pause time plus this delay: a paused record is due at once."""
REMEDIATION_EVENT = "remediation"
CORRECTION_EVENT = "correction"
"""Event type of a handled explicit correction (ids and a fixed reason code only)."""
REASON_NEGATIVE = "negative_feedback"
"""Remediation reason: negative ratings reached the threshold and outnumber helpful ones."""
REASON_CORRECTION = "explicit_correction"
"""Remediation reason (and correction trace reason): the user explicitly corrected it."""


@dataclass(frozen=True, slots=True)
class Tally:
    """Ratings of one record's current version, one per inject trace."""

    not_helpful: int = 0
    helpful: int = 0

    @property
    def warrants_review(self) -> bool:
        """Step 2: at least two negatives, and negatives outnumber helpfuls."""
        return self.not_helpful >= NEGATIVE_THRESHOLD and self.not_helpful > self.helpful


@dataclass(frozen=True, slots=True)
class PausedRecord:
    """One record this call moved from ``active`` to ``needs_review``."""

    record_id: str
    version: int
    reason: str
    confidence_before: float
    confidence_after: float
    review_after: datetime
    trace_id: str
    not_helpful: int
    helpful: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "record_id": self.record_id,
            "version": self.version,
            "reason": self.reason,
            "confidence_before": self.confidence_before,
            "confidence_after": self.confidence_after,
            "review_after": self.review_after.isoformat(),
            "trace_id": self.trace_id,
            "not_helpful": self.not_helpful,
            "helpful": self.helpful,
        }


@dataclass(frozen=True, slots=True)
class RemediationResult:
    """What evaluating one rated inject trace did.

    Attributes:
        evaluated: Whether the selected records were evaluated at all.
        reason: Fixed code: ``evaluated``, ``no_selection`` (the plan selected nothing, so the
            rating only counts as a signal) or ``read_only`` (the memory mode forbids changes).
        paused: Records this call paused.
        in_review: Selected records now waiting in ``needs_review`` (paused now or earlier), so
            a chat UI can say "paused and queued for review" on a replay as well.
    """

    evaluated: bool
    reason: str
    paused: tuple[PausedRecord, ...] = ()
    in_review: tuple[str, ...] = ()

    @property
    def queued_for_review(self) -> bool:
        """True when related understanding is paused and waiting for review."""
        return bool(self.in_review)

    def as_dict(self) -> dict[str, Any]:
        return {
            "evaluated": self.evaluated,
            "reason": self.reason,
            "paused": [p.as_dict() for p in self.paused],
            "in_review": list(self.in_review),
            "queued_for_review": self.queued_for_review,
        }


class RemediationPolicy:
    """Decides and performs the ``active → needs_review`` transition for rated records."""

    def __init__(self, store: GovernedStore) -> None:
        self.store = store

    def writable(self) -> bool:
        return self.store.config.memory.mode not in (MemoryMode.OFF, MemoryMode.READ_ONLY)

    @staticmethod
    def eligible(row: MemoryRecord, *, authoritative: bool) -> bool:
        """Active user understanding; a pinned record yields only to an explicit correction."""
        if row.state != RecordState.ACTIVE.value:
            return False
        if row.pipeline != Pipeline.USER_UNDERSTANDING.value:
            return False  # connected knowledge is a receipt of a document, not an inference
        return authoritative or row.user_state != UserState.PINNED.value

    def selected_rows(self, session: Session, trace: MemoryTraceEvent) -> list[MemoryRecord]:
        """The records ``trace`` selected, in selection order (missing ones are skipped)."""
        ids = [s["id"] for s in selected_entries(trace.payload)]
        if not ids:
            return []
        rows = {
            r.id: r
            for r in session.scalars(
                select(MemoryRecord).where(
                    MemoryRecord.scope == trace.scope, MemoryRecord.id.in_(ids)
                )
            )
        }
        return [rows[i] for i in dict.fromkeys(ids) if i in rows]

    def tally(self, session: Session, row: MemoryRecord) -> Tally:
        """Ratings of ``row``'s current version since its last approval, one per trace."""
        since = session.scalar(
            select(func.max(ReviewDecision.created_at)).where(
                ReviewDecision.scope == row.scope,
                ReviewDecision.record_id == row.id,
                ReviewDecision.decision.in_(("approve", "edit")),
            )
        )
        stmt = select(MemoryTraceEvent.payload, MemoryTraceEvent.feedback).where(
            MemoryTraceEvent.scope == row.scope,
            MemoryTraceEvent.event_type == INJECT_EVENT,
            MemoryTraceEvent.feedback.in_([r.value for r in Rating]),
        )
        if since is not None:
            stmt = stmt.where(MemoryTraceEvent.created_at >= since)
        negative = positive = 0
        for payload, feedback in session.execute(stmt):
            if not any(
                s["id"] == row.id and s.get("v", row.version) == row.version
                for s in selected_entries(payload)
            ):
                continue
            if feedback == Rating.NOT_HELPFUL.value:
                negative += 1
            else:
                positive += 1
        return Tally(negative, positive)

    def evaluate(self, session: Session, trace: MemoryTraceEvent) -> RemediationResult:
        """Steps 1-3 for every record ``trace`` selected, after its rating was recorded."""
        rows = self.selected_rows(session, trace)
        if not rows:
            return RemediationResult(False, "no_selection")
        if not self.writable():
            return RemediationResult(False, "read_only", (), _in_review(rows))
        paused: list[PausedRecord] = []
        for row in rows:
            if not self.eligible(row, authoritative=False):
                continue
            tally = self.tally(session, row)
            if tally.warrants_review:
                paused.append(self.pause(session, row, REASON_NEGATIVE, trace, tally))
        return RemediationResult(True, "evaluated", tuple(paused), _in_review(rows))

    def pause(
        self,
        session: Session,
        row: MemoryRecord,
        reason: str,
        trigger: MemoryTraceEvent,
        tally: Tally,
    ) -> PausedRecord:
        """Step 3: ``needs_review``, confidence - 0.2, ``review_after``, a remediation trace."""
        now = self.store.clock()
        before = row.confidence
        self.store.transition(row, RecordState.NEEDS_REVIEW, now)
        row.confidence = round(max(0.0, before - CONFIDENCE_PENALTY), 4)
        row.review_after = now + REVIEW_DELAY
        trace_id = self.store.trace(
            session,
            row.scope,
            REMEDIATION_EVENT,
            reason_code=reason,
            session_key=trigger.session_key,
            parent=trigger.id,
            payload={
                "record_id": row.id,
                "v": row.version,
                "from": RecordState.ACTIVE.value,
                "to": RecordState.NEEDS_REVIEW.value,
                "confidence_before": before,
                "confidence_after": row.confidence,
                "not_helpful": tally.not_helpful,
                "helpful": tally.helpful,
            },
        )
        return PausedRecord(
            row.id,
            row.version,
            reason,
            before,
            row.confidence,
            row.review_after,
            trace_id,
            tally.not_helpful,
            tally.helpful,
        )


def _in_review(rows: list[MemoryRecord]) -> tuple[str, ...]:
    return tuple(r.id for r in rows if r.state == RecordState.NEEDS_REVIEW.value)
