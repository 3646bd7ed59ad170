"""What the feedback service returns: a response's current rating, a recorded rating and a
handled correction, each with ``as_dict`` for the HTTP gateway and the understanding graph."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from userlore.feedback.remediation import PausedRecord, RemediationResult
from userlore.models import RecordView

__all__ = ["CorrectionResult", "FeedbackResult", "ResponseFeedback"]


@dataclass(frozen=True, slots=True)
class ResponseFeedback:
    """The feedback currently recorded for one assistant response.

    ``trace_id`` is ``None`` when no inject trace precedes the response (nothing to rate yet).
    """

    scope: str
    session_key: str | None
    response_at: datetime
    trace_id: str | None
    feedback: str | None
    planned_at: datetime | None
    selected: tuple[str, ...]
    in_review: tuple[str, ...]

    @property
    def resolved(self) -> bool:
        return self.trace_id is not None

    def as_dict(self) -> dict[str, Any]:
        return {
            "scope": self.scope,
            "session_key": self.session_key,
            "response_at": self.response_at.isoformat(),
            "resolved": self.resolved,
            "trace_id": self.trace_id,
            "feedback": self.feedback,
            "planned_at": self.planned_at.isoformat() if self.planned_at else None,
            "selected": list(self.selected),
            "in_review": list(self.in_review),
        }


@dataclass(frozen=True, slots=True)
class FeedbackResult:
    """What recording (or replacing) one response rating did.

    Attributes:
        trace_id: The inject trace the rating was attributed to.
        feedback: The rating now stored on it.
        previous: The rating it replaced (``None`` the first time).
        changed: ``False`` for a replay of the same rating.
        selected: Records that plan selected (the only ones a rating can affect).
        remediation: The evaluation that ran after recording the rating.
    """

    scope: str
    session_key: str | None
    response_at: datetime
    trace_id: str
    feedback: str
    previous: str | None
    changed: bool
    selected: tuple[str, ...]
    remediation: RemediationResult

    @property
    def queued_for_review(self) -> bool:
        """True when related understanding is paused and queued for review."""
        return self.remediation.queued_for_review

    def as_dict(self) -> dict[str, Any]:
        return {
            "scope": self.scope,
            "session_key": self.session_key,
            "response_at": self.response_at.isoformat(),
            "trace_id": self.trace_id,
            "feedback": self.feedback,
            "previous": self.previous,
            "changed": self.changed,
            "selected": list(self.selected),
            "remediation": self.remediation.as_dict(),
        }


@dataclass(frozen=True, slots=True)
class CorrectionResult:
    """What handling one user turn as a possible explicit correction did.

    Attributes:
        detected: Whether the turn is an explicit correction at all.
        reason: Fixed code: ``not_a_correction``, ``memory_off``, ``no_inject_trace``,
            ``recorded``, ``read_only`` (recorded, but nothing paused or proposed) or
            ``replayed`` (this turn was already handled; nothing changed).
        form: ``concrete`` or ``denial`` when detected.
        target_trace_id: The previous inject trace, now marked ``not_helpful``.
        correction_trace_id: The ``correction`` trace (reason code and ids only).
        paused: Records this call paused.
        replacements: Candidates proposed by a concrete correction, each linked to the record
            it replaces by ``supersedes_record_id``.
        in_review: Records of the target plan now waiting in ``needs_review``.
    """

    detected: bool
    reason: str
    form: str | None = None
    target_trace_id: str | None = None
    correction_trace_id: str | None = None
    paused: tuple[PausedRecord, ...] = ()
    replacements: tuple[RecordView, ...] = ()
    in_review: tuple[str, ...] = ()

    @property
    def replayed(self) -> bool:
        return self.reason == "replayed"

    @property
    def queued_for_review(self) -> bool:
        return bool(self.in_review)

    def as_dict(self) -> dict[str, Any]:
        """JSON-safe ids and codes (what the understanding graph keeps in its state)."""
        return {
            "detected": self.detected,
            "reason": self.reason,
            "form": self.form,
            "target_trace_id": self.target_trace_id,
            "correction_trace_id": self.correction_trace_id,
            "paused": [p.record_id for p in self.paused],
            "replacements": [
                {"record_id": r.id, "supersedes_record_id": r.supersedes_record_id}
                for r in self.replacements
            ],
            "in_review": list(self.in_review),
        }
