"""Seed 000 routes of the scope: quality, response feedback, memories, traces."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from fastapi import FastAPI, Query

from userlore.models import RecordState
from userlore.server.auth import Grant
from userlore.server.errors import ERROR_RESPONSES
from userlore.server.routes import Limit, TraceId
from userlore.server.schemas import (
    HTTP_PREFIX_PATTERN,
    FeedbackResultOut,
    MemoriesOut,
    MemoryOut,
    QualityOut,
    ResponseFeedbackIn,
    ResponseFeedbackOut,
    Timestamp,
    TraceFeedbackIn,
    TraceFeedbackOut,
    TracesOut,
)
from userlore.validation import IDENTIFIER_PATTERN, MAX_KEY_CHARS, MAX_NAME_CHARS, MAX_PATH_CHARS

if TYPE_CHECKING:
    from userlore.facade import Userlore


def install(app: FastAPI, lore: Userlore) -> None:
    """Add the context routes over ``lore`` to ``app``, each confined to the token's scope."""

    @app.get(
        "/api/user-context/quality",
        response_model=QualityOut,
        responses=ERROR_RESPONSES,
        tags=["user-context"],
        summary="Candidate funnel, record states, acceptance, helpfulness and review cadence.",
    )
    def quality(
        g: Grant, window_days: Annotated[int, Query(alias="windowDays", ge=1, le=3650)] = 30
    ) -> dict[str, Any]:
        return lore.feedback.quality(g.scope, window_days).as_dict()

    @app.get(
        "/api/user-context/understanding/response-feedback",
        response_model=ResponseFeedbackOut,
        responses=ERROR_RESPONSES,
        tags=["user-context"],
        summary="The feedback recorded for one assistant response (by session and time).",
    )
    def get_response_feedback(
        g: Grant,
        response_at: Annotated[Timestamp, Query(alias="responseAt")],
        session_key: Annotated[
            str | None,
            Query(
                alias="sessionKey",
                min_length=1,
                max_length=MAX_KEY_CHARS,
                pattern=IDENTIFIER_PATTERN,
            ),
        ] = None,
    ) -> dict[str, Any]:
        return lore.feedback.get_response_feedback(g.scope, session_key, response_at).as_dict()

    @app.patch(
        "/api/user-context/understanding/response-feedback",
        response_model=FeedbackResultOut,
        responses=ERROR_RESPONSES,
        tags=["user-context"],
        summary="Record or replace helpful / not_helpful for a response; returns remediation.",
    )
    def set_response_feedback(g: Grant, body: ResponseFeedbackIn) -> dict[str, Any]:
        result = lore.feedback.set_response_feedback(
            g.scope, body.session_key, body.response_at, body.feedback
        )
        return result.as_dict()

    @app.get(
        "/api/user-context/memories",
        response_model=MemoriesOut,
        responses=ERROR_RESPONSES,
        tags=["user-context"],
        summary="Records of the scope (every state but deleted unless asked).",
    )
    def list_memories(
        g: Grant,
        state: Annotated[RecordState | None, Query()] = None,
        kind: Annotated[
            str | None, Query(max_length=MAX_NAME_CHARS, pattern=IDENTIFIER_PATTERN)
        ] = None,
        path_prefix: Annotated[
            str | None,
            Query(alias="pathPrefix", max_length=MAX_PATH_CHARS, pattern=HTTP_PREFIX_PATTERN),
        ] = None,
        limit: Limit = 100,
    ) -> dict[str, Any]:
        views = lore.records.list(g.scope, state, kind=kind, path_prefix=path_prefix, limit=limit)
        out = [MemoryOut.model_validate(v) for v in views]
        return {"memories": out, "count": len(out)}

    @app.get(
        "/api/user-context/traces",
        response_model=TracesOut,
        responses=ERROR_RESPONSES,
        tags=["user-context"],
        summary="Trace events: context plans, recalls, governance, consent, feedback.",
    )
    def list_traces(
        g: Grant,
        event_type: Annotated[
            str | None,
            Query(alias="eventType", max_length=MAX_NAME_CHARS, pattern=IDENTIFIER_PATTERN),
        ] = None,
        limit: Limit = 100,
    ) -> dict[str, Any]:
        traces = lore.traces.list(g.scope, event_type=event_type, limit=limit)
        return {"traces": traces, "count": len(traces)}

    @app.patch(
        "/api/user-context/traces/{trace_id}/feedback",
        response_model=TraceFeedbackOut,
        responses=ERROR_RESPONSES,
        tags=["user-context"],
        summary="Rate the context of one inject trace helpful / not_helpful, then remediate.",
    )
    def trace_feedback(g: Grant, trace_id: TraceId, body: TraceFeedbackIn) -> dict[str, Any]:
        return _rate_trace(lore, g.scope, trace_id, body.feedback)


def _rate_trace(lore: Userlore, scope: str, trace_id: str, rating: str) -> dict[str, Any]:
    """Rate one inject trace by id through the feedback service (record, remediate)."""
    result = lore.feedback.set_trace_feedback(scope, trace_id, rating).as_dict()
    keys = ("trace_id", "feedback", "previous", "changed", "selected", "remediation")
    return {key: result[key] for key in keys}
