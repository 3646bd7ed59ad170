"""Response feedback attribution (seed 000 "Response feedback attribution").

A rating of a completed assistant response is resolved by session key and the response timestamp
to the most recent preceding *inject trace* (the ``plan`` trace written when that response's
context was planned) and stored on that trace row. Only the records that plan actually selected
can be affected; a plan that selected nothing keeps its rating as a plain quality signal.

Recording is idempotent: the rating lives in the trace's ``feedback`` column, and a ``feedback``
event (referencing the inject trace by ``parent_trace_id``) is written only when the stored
rating changes. Replaying the same rating writes nothing.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from userlore.errors import InvalidInputError
from userlore.policy.session_keys import checked_session_key
from userlore.store.governed import GovernedStore
from userlore.store.schema import MemoryTraceEvent

__all__ = [
    "FEEDBACK_EVENT",
    "INJECT_EVENT",
    "REASON_RATING",
    "Rating",
    "check_instant",
    "check_session_key",
    "parse_rating",
    "record_feedback",
    "resolve_inject_trace",
    "selected_entries",
]

INJECT_EVENT = "plan"
"""Event type of an inject trace: one per planned ``<user-context>`` block."""
FEEDBACK_EVENT = "feedback"
"""Event type written whenever the rating stored on an inject trace changes."""
REASON_RATING = "response_rating"
"""Reason code of a feedback event that came from a helpful / not-helpful control."""


class Rating(StrEnum):
    """A rating of one assistant response."""

    HELPFUL = "helpful"
    NOT_HELPFUL = "not_helpful"


def parse_rating(value: object) -> Rating:
    """Return ``value`` as a :class:`Rating`.

    Raises:
        InvalidInputError: anything other than ``helpful`` / ``not_helpful``.
    """
    if isinstance(value, str):
        try:
            return Rating(value)
        except ValueError:
            pass
    raise InvalidInputError(f"rating must be 'helpful' or 'not_helpful', got {value!r}")


def check_instant(value: object, name: str = "response_at") -> datetime:
    """A timezone-aware datetime, or a typed error (naive times are ambiguous across hosts)."""
    if not isinstance(value, datetime):
        raise InvalidInputError(f"{name} must be a datetime, got {type(value).__name__}")
    if value.tzinfo is None or value.utcoffset() is None:
        raise InvalidInputError(f"{name} must be timezone-aware")
    return value


def check_session_key(value: object) -> str | None:
    """``None`` (plans made without a session) or a non-empty key of at most 300 characters."""
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise InvalidInputError("session_key must be a non-empty string or None")
    return checked_session_key(value)


def resolve_inject_trace(
    session: Session, scope: str, session_key: str | None, at: datetime
) -> MemoryTraceEvent | None:
    """The most recent inject trace of ``session_key`` planned at or before ``at``."""
    key_filter = (
        MemoryTraceEvent.session_key.is_(None)
        if session_key is None
        else MemoryTraceEvent.session_key == session_key
    )
    return session.scalars(
        select(MemoryTraceEvent)
        .where(
            MemoryTraceEvent.scope == scope,
            key_filter,
            MemoryTraceEvent.event_type == INJECT_EVENT,
            MemoryTraceEvent.created_at <= at,
        )
        .order_by(MemoryTraceEvent.created_at.desc(), MemoryTraceEvent.id.desc())
        .limit(1)
    ).one_or_none()


def selected_entries(payload: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The ``{id, v, ...}`` entries an inject trace selected (tolerates older payloads)."""
    raw = (payload or {}).get("selected") or []
    return [s for s in raw if isinstance(s, dict) and isinstance(s.get("id"), str)]


def record_feedback(
    store: GovernedStore,
    session: Session,
    trace: MemoryTraceEvent,
    rating: Rating,
    *,
    reason_code: str,
) -> bool:
    """Store ``rating`` on ``trace``; returns whether it changed (a replay changes nothing).

    A change also writes a ``feedback`` event that references the inject trace, so the history
    of a rating (set, replaced) stays auditable while the trace row holds the current value.
    """
    previous = trace.feedback
    if previous == rating.value:
        return False
    trace.feedback = rating.value
    store.trace(
        session,
        trace.scope,
        FEEDBACK_EVENT,
        reason_code=reason_code,
        session_key=trace.session_key,
        parent=trace.id,
        payload={
            "rating": rating.value,
            "previous": previous,
            "selected": len(selected_entries(trace.payload)),
        },
    )
    return True
