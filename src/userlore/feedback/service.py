"""``FeedbackService``: response feedback, explicit corrections and quality over one store.

The facade (:class:`~userlore.Userlore`) exposes these as ``get_response_feedback``,
``set_response_feedback``, ``handle_correction`` and ``quality`` (each with an async twin); the
HTTP gateway and the LangChain middleware call those. Every public method is one transaction.
"""

from __future__ import annotations

import hashlib
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from userlore.config import MemoryMode
from userlore.errors import MemoryDisabledError, TraceNotFoundError
from userlore.feedback.attribution import (
    INJECT_EVENT,
    REASON_RATING,
    Rating,
    check_instant,
    check_session_key,
    parse_rating,
    record_feedback,
    resolve_inject_trace,
    selected_entries,
)
from userlore.feedback.cadence import IntervalDecision, decide_interval
from userlore.feedback.corrections import TOPICS, Correction, detect_correction
from userlore.feedback.quality import QualityReport, quality_report
from userlore.feedback.remediation import (
    CORRECTION_EVENT,
    REASON_CORRECTION,
    PausedRecord,
    RemediationPolicy,
)
from userlore.feedback.results import CorrectionResult, FeedbackResult, ResponseFeedback
from userlore.models import Pipeline, RecordState, RecordView
from userlore.store.governed import GovernedStore, validate_scope
from userlore.store.schema import MemoryRecord, MemoryTraceEvent
from userlore.store.text import normalize_value
from userlore.understanding import govern, statement_candidate, turn_item
from userlore.validation import identifier, optional_identifier, text_field

__all__ = ["CorrectionResult", "FeedbackResult", "FeedbackService", "ResponseFeedback"]

MAX_CORRECTION_CHARS = 32_000
"""Longest turn a correction is read from (the same bound as ``Userlore.observe``)."""


class FeedbackService:
    """Response feedback attribution, explicit corrections, remediation and quality."""

    def __init__(self, store: GovernedStore) -> None:
        self.store = store
        self.policy = RemediationPolicy(store)

    # -- response feedback --------------------------------------------------------------------

    def get_response_feedback(
        self, scope: str, session_key: str | None, response_at: datetime
    ) -> ResponseFeedback:
        """Resolve the feedback recorded for the response given at ``response_at``."""
        validate_scope(scope)
        key = check_session_key(session_key)
        at = check_instant(response_at)
        with self.store.transaction(scope) as session:
            trace = resolve_inject_trace(session, scope, key, at)
            if trace is None:
                return ResponseFeedback(scope, key, at, None, None, None, (), ())
            rows = self.policy.selected_rows(session, trace)
            return ResponseFeedback(
                scope,
                key,
                at,
                trace.id,
                trace.feedback,
                trace.created_at,
                _ids(trace),
                tuple(r.id for r in rows if r.state == RecordState.NEEDS_REVIEW.value),
            )

    def set_response_feedback(
        self, scope: str, session_key: str | None, response_at: datetime, rating: str
    ) -> FeedbackResult:
        """Record or replace ``helpful`` / ``not_helpful`` for one response, then remediate.

        Raises:
            InvalidInputError: bad rating, session key or time (nothing is written).
            TraceNotFoundError: no inject trace precedes the response in that session.
            MemoryDisabledError: the memory mode is ``off``.
        """
        validate_scope(scope)
        key = check_session_key(session_key)
        at = check_instant(response_at)
        value = parse_rating(rating)
        if self.store.config.memory.mode is MemoryMode.OFF:
            raise MemoryDisabledError("memory mode 'off' records no feedback")
        with self.store.transaction(scope) as session:
            trace = resolve_inject_trace(session, scope, key, at)
            if trace is None:
                raise TraceNotFoundError(
                    f"no planned context precedes that response in session {key!r}"
                )
            return self._rate(session, trace, value, at)

    def set_trace_feedback(self, scope: str, trace_id: str, rating: str) -> FeedbackResult:
        """Record or replace a rating on one inject trace named by id (trace endpoints).

        Same recording and remediation as :meth:`set_response_feedback`; ``response_at`` of the
        result is the time the trace was planned.

        Raises:
            InvalidInputError: bad rating (nothing is written).
            TraceNotFoundError: no inject trace with that id in ``scope``.
            MemoryDisabledError: the memory mode is ``off``.
        """
        validate_scope(scope)
        identifier(trace_id, "trace_id")
        value = parse_rating(rating)
        if self.store.config.memory.mode is MemoryMode.OFF:
            raise MemoryDisabledError("memory mode 'off' records no feedback")
        with self.store.transaction(scope) as session:
            trace = session.scalars(
                select(MemoryTraceEvent).where(
                    MemoryTraceEvent.id == trace_id,
                    MemoryTraceEvent.scope == scope,
                    MemoryTraceEvent.event_type == INJECT_EVENT,
                )
            ).one_or_none()
            if trace is None:
                raise TraceNotFoundError(f"no inject trace {trace_id!r} in scope {scope!r}")
            return self._rate(session, trace, value, trace.created_at)

    def _rate(
        self, session: Session, trace: MemoryTraceEvent, value: Rating, at: datetime
    ) -> FeedbackResult:
        previous = trace.feedback
        changed = record_feedback(self.store, session, trace, value, reason_code=REASON_RATING)
        remediation = self.policy.evaluate(session, trace)
        return FeedbackResult(
            trace.scope,
            trace.session_key,
            at,
            trace.id,
            value.value,
            previous,
            changed,
            _ids(trace),
            remediation,
        )

    # -- explicit corrections -----------------------------------------------------------------

    def handle_correction(
        self,
        scope: str,
        content: str,
        session_key: str | None = None,
        *,
        turn_id: str | None = None,
        at: datetime | None = None,
    ) -> CorrectionResult:
        """Treat a user turn as a possible explicit correction; call it *before* planning it.

        A detected correction marks the previous inject trace of the session ``not_helpful``,
        pauses the selected understanding it names (all selected understanding when it names
        nothing in particular), and, when concrete, proposes replacement candidates through the
        governed write. Anything else (task feedback included) writes nothing.

        Args:
            content: The user's turn. It is kept only as redacted evidence of a replacement;
                traces get a fixed reason code and ids.
            turn_id: The turn's message id; makes a replay of the same turn a no-op even after
                the turn itself was planned.
            at: When the turn was sent (default: now); the correction applies to the last
                plan at or before it.
        """
        validate_scope(scope)
        key = check_session_key(session_key)
        optional_identifier(turn_id, "turn_id", max_chars=200)
        text_field(content, "content", max_chars=MAX_CORRECTION_CHARS, allow_empty=True)
        when = check_instant(at, "at") if at is not None else self.store.clock()
        correction = detect_correction(content)
        if correction is None:
            return CorrectionResult(False, "not_a_correction")
        mode = self.store.config.memory.mode
        if mode is MemoryMode.OFF:
            return CorrectionResult(True, "memory_off", correction.form)
        writable = mode is not MemoryMode.READ_ONLY
        store = self.store
        with store.transaction(scope) as session:
            if turn_id is not None:
                prior = _prior(session, scope, key, turn_id=turn_id)
                if prior is not None:
                    return self._replayed(session, prior)
            target = resolve_inject_trace(session, scope, key, when)
            if target is None:
                return CorrectionResult(True, "no_inject_trace", correction.form)
            item_id: str | None = None
            if writable:
                digest = hashlib.sha256(content.encode("utf-8")).hexdigest()[:24]
                item_id = turn_item(
                    store,
                    session,
                    scope,
                    content,
                    role="user",
                    session_key=key,
                    external_id=turn_id or f"correction:{target.id}:{digest}",
                )
            if turn_id is None:
                prior = _prior(session, scope, key, parent=target.id, source_item_id=item_id)
                if prior is not None:
                    return self._replayed(session, prior)
            record_feedback(
                store, session, target, Rating.NOT_HELPFUL, reason_code=REASON_CORRECTION
            )
            rows = [
                r
                for r in self.policy.selected_rows(session, target)
                if r.pipeline == Pipeline.USER_UNDERSTANDING.value
                and r.state in (RecordState.ACTIVE.value, RecordState.NEEDS_REVIEW.value)
            ]
            targets = _targets(rows, correction)
            paused: list[PausedRecord] = []
            replacements: list[RecordView] = []
            if writable:
                for row in targets:
                    if self.policy.eligible(row, authoritative=True):
                        tally = self.policy.tally(session, row)
                        paused.append(
                            self.policy.pause(session, row, REASON_CORRECTION, target, tally)
                        )
                replacements = self._replacements(session, scope, key, correction, targets, item_id)
            trace_id = store.trace(
                session,
                scope,
                CORRECTION_EVENT,
                reason_code=REASON_CORRECTION,
                session_key=key,
                parent=target.id,
                payload={
                    "form": correction.form,
                    "turn_id": turn_id,
                    "source_item_id": item_id,
                    "targets": [r.id for r in targets],
                    "paused": [p.record_id for p in paused],
                    "replacements": [r.id for r in replacements],
                },
            )
            return CorrectionResult(
                True,
                "recorded" if writable else "read_only",
                correction.form,
                target.id,
                trace_id,
                tuple(paused),
                tuple(replacements),
                tuple(r.id for r in rows if r.state == RecordState.NEEDS_REVIEW.value),
            )

    def _replacements(
        self,
        session: Session,
        scope: str,
        session_key: str | None,
        correction: Correction,
        targets: list[MemoryRecord],
        item_id: str | None,
    ) -> list[RecordView]:
        """Step 4: a concrete correction proposes what replaces the old understanding."""
        out: list[RecordView] = []
        for st in correction.statements:
            old = _replaced(targets, st.canonical_key, st.kind, correction.topic)
            if old is None:
                continue  # says something new, but not about the record being corrected
            if normalize_value(st.value or st.content) == normalize_value(old.value or old.content):
                continue  # the "new" truth is what was already stored: nothing to replace
            candidate = statement_candidate(st, item_id, session_key=session_key, supersedes=old.id)
            outcome = govern(self.store, scope, candidate, session=session)
            if outcome.record is not None and outcome.record.id != old.id:
                out.append(outcome.record)
        return out

    def _replayed(self, session: Session, prior: MemoryTraceEvent) -> CorrectionResult:
        payload = prior.payload or {}
        targets = [t for t in payload.get("targets", []) if isinstance(t, str)]
        in_review: tuple[str, ...] = ()
        if targets:
            in_review = tuple(
                session.scalars(
                    select(MemoryRecord.id).where(
                        MemoryRecord.scope == prior.scope,
                        MemoryRecord.id.in_(targets),
                        MemoryRecord.state == RecordState.NEEDS_REVIEW.value,
                    )
                )
            )
        return CorrectionResult(
            True,
            "replayed",
            str(payload.get("form")) if payload.get("form") else None,
            prior.parent_trace_id,
            prior.id,
            in_review=in_review,
        )

    # -- quality ------------------------------------------------------------------------------

    def quality(self, scope: str, window_days: int = 30) -> QualityReport:
        """Funnel, states, acceptance, helpfulness and the effective review cadence."""
        return quality_report(self.store, scope, window_days)

    def review_interval(self, scope: str) -> IntervalDecision:
        """The adaptive review interval of ``scope`` and its reason."""
        return decide_interval(self.store, scope)


def _ids(trace: MemoryTraceEvent) -> tuple[str, ...]:
    return tuple(dict.fromkeys(s["id"] for s in selected_entries(trace.payload)))


def _targets(rows: list[MemoryRecord], correction: Correction) -> list[MemoryRecord]:
    """Which selected records a correction is about, as narrowly as the turn allows.

    A record holding the key of a stated new truth; else the records of the named topic (which
    may be none: "not my timezone" says nothing about a selected name); else, for a correction
    that names nothing ("I never said that about me"), everything that was selected.
    """
    same_key = [r for r in rows if r.canonical_key and r.canonical_key in correction.keys]
    if same_key:
        return same_key
    if correction.topic is not None:
        topic = TOPICS[correction.topic]
        return [r for r in rows if topic.covers(r.canonical_key, r.kind)]
    return rows


def _replaced(
    targets: list[MemoryRecord], key: str, kind: str, topic: str | None
) -> MemoryRecord | None:
    for row in targets:
        if row.canonical_key == key:
            return row
    if topic is not None and TOPICS[topic].covers(key, kind):
        for row in targets:
            if TOPICS[topic].covers(row.canonical_key, row.kind):
                return row
    return None


def _prior(
    session: Session,
    scope: str,
    session_key: str | None,
    *,
    turn_id: str | None = None,
    parent: str | None = None,
    source_item_id: str | None = None,
) -> MemoryTraceEvent | None:
    """An earlier correction trace of the same turn (by id) or of the same evidence and plan."""
    stmt = select(MemoryTraceEvent).where(
        MemoryTraceEvent.scope == scope,
        MemoryTraceEvent.event_type == CORRECTION_EVENT,
        MemoryTraceEvent.session_key.is_(None)
        if session_key is None
        else MemoryTraceEvent.session_key == session_key,
    )
    if parent is not None:
        stmt = stmt.where(MemoryTraceEvent.parent_trace_id == parent)
    for trace in session.scalars(stmt.order_by(MemoryTraceEvent.created_at.desc())):
        payload = trace.payload or {}
        if turn_id is not None:
            if payload.get("turn_id") == turn_id:
                return trace
        elif payload.get("source_item_id") == source_item_id:
            return trace
    return None
