"""``userlore serve``: the HTTP gateway (FastAPI) over one :class:`~userlore.Userlore`.

Every data endpoint needs ``Authorization: Bearer <token>`` (:mod:`userlore.server.auth`); each
configured token grants exactly one scope (and the agent identity written as author attribution).
There is no default token: with none configured, every data request is refused. Every query the
gateway runs is filtered by the token's scope, and a record of another scope answers ``404``
exactly like a missing one, so a token cannot even learn whether another scope's id exists.

Bad input is a ``4xx`` with ``{"error": {"code", "message"}}``; the gateway is tested with
property-based requests generated from its own OpenAPI schema to answer no ``5xx`` and nothing
off-schema. Every request first passes :class:`~userlore.server.guard.RequestGuard` (size, JSON
depth, NUL characters), before authentication and before parsing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import Body, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy import select
from sqlalchemy.exc import DataError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from userlore.config import MemoryMode
from userlore.errors import (
    ConfigError,
    InvalidInputError,
    InvalidTransitionError,
    MemoryDisabledError,
    PolicyViolationError,
    RecordNotFoundError,
    ScopeError,
    StorageError,
    TraceNotFoundError,
    UserloreError,
)
from userlore.models import RecordState
from userlore.server.access_log import install_access_log_redaction
from userlore.server.auth import Grant, TokenGrant, Unauthorized, load_tokens, resolver
from userlore.server.guard import DEFAULT_MAX_API_BODY_BYTES, DEFAULT_MAX_BODY_BYTES, RequestGuard
from userlore.server.schemas import (
    CandidateDecisionIn,
    CandidateEditIn,
    ErrorBody,
    EvidenceListOut,
    FeedbackResultOut,
    HistoryOut,
    ImportOut,
    MemoriesOut,
    MemoryOut,
    PlanIn,
    PlanOut,
    PurgeIn,
    PurgeOut,
    QualityOut,
    RecallIn,
    RecallOut,
    ReceiptOut,
    RememberIn,
    ResponseFeedbackIn,
    ResponseFeedbackOut,
    SourceChangesOut,
    SourceItemsOut,
    SyncRunsOut,
    Timestamp,
    TraceFeedbackIn,
    TraceFeedbackOut,
    TracesOut,
    TrashOut,
    UpdateIn,
)
from userlore.store.schema import MemoryTraceEvent

if TYPE_CHECKING:
    from userlore.facade import Userlore

__all__ = ["TokenGrant", "create_app", "load_tokens"]

MAX_SEQUENCE = 2**62
RecordId = Annotated[str, "record id"]


_ERROR_STATUS: tuple[tuple[type[UserloreError], int, str], ...] = (
    (RecordNotFoundError, 404, "not_found"),
    (ScopeError, 422, "invalid_scope"),
    (PolicyViolationError, 422, "policy_violation"),
    (InvalidInputError, 422, "invalid_input"),
    (InvalidTransitionError, 409, "conflict"),
    (MemoryDisabledError, 403, "memory_disabled"),
    (ConfigError, 422, "invalid_config"),
    (StorageError, 503, "storage_unavailable"),
)
_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "The body is not valid JSON or nests too deep."},
    401: {"model": ErrorBody, "description": "Missing or invalid bearer token."},
    403: {"model": ErrorBody, "description": "The memory mode forbids this operation."},
    404: {"model": ErrorBody, "description": "No such record in the token's scope."},
    409: {"model": ErrorBody, "description": "Not allowed from the record's current state."},
    413: {"model": ErrorBody, "description": "The body is larger than the gateway's limit."},
    422: {"model": ErrorBody, "description": "Invalid input or refused by the safety policy."},
    503: {"model": ErrorBody, "description": "The database is unavailable."},
}


def _error(status: int, code: str, message: str, **headers: str) -> JSONResponse:
    return JSONResponse(
        {"error": {"code": code, "message": message}}, status_code=status, headers=headers or None
    )


def create_app(
    lore: Userlore,
    tokens: Mapping[str, Any] | str | Path | None = None,
    *,
    title: str = "userlore gateway",
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    max_api_body_bytes: int = DEFAULT_MAX_API_BODY_BYTES,
) -> FastAPI:
    """The gateway app over ``lore``; ``tokens`` as accepted by :func:`load_tokens`.

    Args:
        lore: The store every endpoint reads and writes.
        tokens: Token grants; ``None`` reads ``USERLORE_TOKENS``/``USERLORE_TOKENS_FILE``.
        title: OpenAPI title.
        max_body_bytes: Largest accepted import body (a whole export document).
        max_api_body_bytes: Largest body of any other request (capped at ``max_body_bytes``).

    Raises:
        ConfigError: malformed tokens, or a body limit below 1 byte.
    """
    from userlore import __version__

    grants = load_tokens(tokens)
    if min(max_body_bytes, max_api_body_bytes) < 1:
        raise ConfigError("max_body_bytes and max_api_body_bytes must be at least 1")
    install_access_log_redaction()
    app = FastAPI(
        title=title,
        version=__version__,
        description=(
            "Governed user memory: seed 000 endpoints (quality, response feedback, memories, "
            "traces, connected knowledge) and the seed 003 lifecycle (remember, recall, "
            "update, forget, restore, history, purge, export). Every data endpoint is confined "
            "to the scope of its bearer token."
        ),
    )
    app.state.resolve_token = resolver(grants)

    @app.exception_handler(Unauthorized)
    async def _unauthorized(_request: Request, _exc: Unauthorized) -> JSONResponse:
        return _error(
            401, "unauthorized", "missing or invalid bearer token", **{"WWW-Authenticate": "Bearer"}
        )

    @app.exception_handler(UserloreError)
    async def _userlore_error(_request: Request, exc: UserloreError) -> JSONResponse:
        for kind, status, code in _ERROR_STATUS:
            if isinstance(exc, kind):
                return _error(status, code, str(exc))
        return _error(422, "invalid_input", str(exc))

    @app.exception_handler(RequestValidationError)
    async def _invalid_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        if any(err.get("type") == "json_invalid" for err in errors):
            return _error(400, "bad_request", "body: not valid JSON")
        parts = []
        for err in errors[:10]:
            loc = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
            parts.append(f"{loc}: {err.get('msg', 'invalid')}")
        return _error(422, "invalid_request", "; ".join(parts) or "invalid request")

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        codes = {400: "bad_request", 404: "not_found", 405: "method_not_allowed"}
        code = codes.get(exc.status_code, "http_error")
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            headers["Allow"] = ", ".join(_allowed_methods(request))
        return _error(exc.status_code, code, str(exc.detail), **headers)

    @app.exception_handler(UnicodeError)
    async def _bad_text(_request: Request, _exc: UnicodeError) -> JSONResponse:
        return _error(422, "invalid_text", "text must be valid Unicode (no lone surrogates)")

    @app.exception_handler(DataError)
    async def _refused_value(_request: Request, _exc: DataError) -> JSONResponse:
        # The guard refuses NUL and bad text first; this catches any value the database still
        # cannot store, without echoing the driver's message (it names tables and columns).
        return _error(422, "invalid_input", "a value of this request cannot be stored")

    memory = lore.memory

    # -- health -----------------------------------------------------------------------------

    @app.get("/api/health", tags=["meta"], summary="Liveness (no data, no token needed).")
    def health() -> dict[str, str]:
        return {"status": "ok", "version": __version__}

    # -- seed 000: quality, feedback, memories, traces ----------------------------------------

    @app.get(
        "/api/user-context/quality",
        response_model=QualityOut,
        responses=_ERRORS,
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
        responses=_ERRORS,
        tags=["user-context"],
        summary="The feedback recorded for one assistant response (by session and time).",
    )
    def get_response_feedback(
        g: Grant,
        response_at: Annotated[Timestamp, Query(alias="responseAt")],
        session_key: Annotated[
            str | None, Query(alias="sessionKey", min_length=1, max_length=300)
        ] = None,
    ) -> dict[str, Any]:
        return lore.feedback.get_response_feedback(g.scope, session_key, response_at).as_dict()

    @app.patch(
        "/api/user-context/understanding/response-feedback",
        response_model=FeedbackResultOut,
        responses=_ERRORS,
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
        responses=_ERRORS,
        tags=["user-context"],
        summary="Records of the scope (every state but deleted unless asked).",
    )
    def list_memories(
        g: Grant,
        state: Annotated[RecordState | None, Query()] = None,
        kind: Annotated[str | None, Query(max_length=40)] = None,
        path_prefix: Annotated[str | None, Query(alias="pathPrefix", max_length=500)] = None,
        limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    ) -> dict[str, Any]:
        views = lore.records.list(g.scope, state, kind=kind, path_prefix=path_prefix, limit=limit)
        out = [MemoryOut.model_validate(v) for v in views]
        return {"memories": out, "count": len(out)}

    @app.get(
        "/api/user-context/traces",
        response_model=TracesOut,
        responses=_ERRORS,
        tags=["user-context"],
        summary="Trace events: context plans, recalls, governance, consent, feedback.",
    )
    def list_traces(
        g: Grant,
        event_type: Annotated[str | None, Query(alias="eventType", max_length=30)] = None,
        limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    ) -> dict[str, Any]:
        traces = lore.traces.list(g.scope, event_type=event_type, limit=limit)
        return {"traces": traces, "count": len(traces)}

    @app.patch(
        "/api/user-context/traces/{trace_id}/feedback",
        response_model=TraceFeedbackOut,
        responses=_ERRORS,
        tags=["user-context"],
        summary="Rate the context of one inject trace helpful / not_helpful, then remediate.",
    )
    def trace_feedback(
        g: Grant, trace_id: Annotated[str, "trace id"], body: TraceFeedbackIn
    ) -> dict[str, Any]:
        return _rate_trace(lore, g.scope, trace_id, body.feedback)

    # -- seed 000: connected knowledge ---------------------------------------------------------

    @app.get(
        "/api/knowledge/source-items",
        response_model=SourceItemsOut,
        responses=_ERRORS,
        tags=["knowledge"],
        summary="Normalized, redacted source items of the scope, newest first.",
    )
    def source_items(
        g: Grant,
        source_instance_id: Annotated[
            str | None, Query(alias="sourceInstanceId", max_length=300)
        ] = None,
        limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    ) -> dict[str, Any]:
        views = lore.sources.items(
            g.scope, source_instance_id=source_instance_id, include_deleted=True, limit=limit
        )
        items = [dataclasses.asdict(v) for v in views]
        return {"items": items, "count": len(items)}

    @app.get(
        "/api/knowledge/source-changes",
        response_model=SourceChangesOut,
        responses=_ERRORS,
        tags=["knowledge"],
        summary="The ordered added/modified/deleted ledger after a sequence number.",
    )
    def source_changes(
        g: Grant,
        after_sequence: Annotated[int, Query(alias="afterSequence", ge=0, le=MAX_SEQUENCE)] = 0,
        limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    ) -> dict[str, Any]:
        views = lore.sources.changes(g.scope, after_sequence=after_sequence, limit=limit)
        changes = [dataclasses.asdict(v) for v in views]
        last = changes[-1]["sequence"] if changes else after_sequence
        return {"changes": changes, "count": len(changes), "next_after_sequence": last}

    @app.get(
        "/api/knowledge/sync-runs",
        response_model=SyncRunsOut,
        responses=_ERRORS,
        tags=["knowledge"],
        summary="Ingestion runs with counts, warnings, failure and timing, newest first.",
    )
    def sync_runs(
        g: Grant,
        source_instance_id: Annotated[
            str | None, Query(alias="sourceInstanceId", max_length=300)
        ] = None,
        limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    ) -> dict[str, Any]:
        views = lore.sources.sync_runs(g.scope, source_instance_id=source_instance_id, limit=limit)
        runs = [dataclasses.asdict(v) for v in views]
        return {"runs": runs, "count": len(runs)}

    # -- candidates inbox ----------------------------------------------------------------------

    @app.get(
        "/api/user-context/candidates",
        response_model=MemoriesOut,
        responses=_ERRORS,
        tags=["review"],
        summary="The review inbox: candidates and records paused for review.",
    )
    def candidates(g: Grant, limit: Annotated[int, Query(ge=1, le=1000)] = 100) -> dict[str, Any]:
        views = lore.records.list(
            g.scope, [RecordState.CANDIDATE, RecordState.NEEDS_REVIEW], limit=limit
        )
        out = [MemoryOut.model_validate(v) for v in views]
        return {"memories": out, "count": len(out)}

    @app.post(
        "/api/user-context/candidates/{record_id}/approve",
        response_model=MemoryOut,
        responses=_ERRORS,
        tags=["review"],
        summary="Approve a candidate, optionally with edited content.",
    )
    def approve(
        g: Grant,
        record_id: RecordId,
        body: Annotated[CandidateDecisionIn | None, Body()] = None,
    ) -> Any:
        content = body.content if body is not None else None
        return lore.records.approve(g.scope, record_id, content=content, reviewer=g.agent_id)

    @app.post(
        "/api/user-context/candidates/{record_id}/edit",
        response_model=MemoryOut,
        responses=_ERRORS,
        tags=["review"],
        summary="Approve an edited version of a candidate.",
    )
    def edit(g: Grant, record_id: RecordId, body: CandidateEditIn) -> Any:
        return lore.records.approve(g.scope, record_id, content=body.content, reviewer=g.agent_id)

    @app.post(
        "/api/user-context/candidates/{record_id}/reject",
        response_model=MemoryOut,
        responses=_ERRORS,
        tags=["review"],
        summary="Reject a candidate (kept for the acceptance rate).",
    )
    def reject(g: Grant, record_id: RecordId) -> Any:
        return lore.records.reject(g.scope, record_id, reviewer=g.agent_id)

    # -- seed 003 lifecycle --------------------------------------------------------------------

    @app.post(
        "/api/user-context/memories",
        response_model=ReceiptOut,
        responses=_ERRORS,
        tags=["memories"],
        summary="remember: write a durable memory (content, path, memory type).",
    )
    def remember(g: Grant, body: RememberIn) -> dict[str, Any]:
        receipt = memory.remember(
            g.scope, body.content, path=body.path, memory_type=body.memory_type, author=g.author
        )
        return receipt.as_dict()

    @app.post(
        "/api/user-context/memories/recall",
        response_model=RecallOut,
        responses=_ERRORS,
        tags=["memories"],
        summary="recall: cite live versions (id@vN) matching a query.",
    )
    def recall(g: Grant, body: RecallIn) -> dict[str, Any]:
        result = memory.recall(
            g.scope,
            body.query,
            path=body.path,
            memory_type=body.memory_type,
            k=body.k,
            session_key=body.session_key,
        )
        return result.as_dict()

    @app.get(
        "/api/user-context/memories/{record_id}",
        response_model=MemoryOut,
        responses=_ERRORS,
        tags=["memories"],
        summary="One record of the scope.",
    )
    def get_memory(g: Grant, record_id: RecordId) -> Any:
        return lore.records.get(g.scope, record_id)

    @app.patch(
        "/api/user-context/memories/{record_id}",
        response_model=ReceiptOut,
        responses=_ERRORS,
        tags=["memories"],
        summary="update_memory: v(n+1) live, v(n) a superseded snapshot with a diff.",
    )
    def update_memory(g: Grant, record_id: RecordId, body: UpdateIn) -> dict[str, Any]:
        return memory.update(g.scope, record_id, body.content, author=g.author).as_dict()

    @app.delete(
        "/api/user-context/memories/{record_id}",
        response_model=ReceiptOut,
        responses=_ERRORS,
        tags=["memories"],
        summary="forget: tombstone into the trash (restorable).",
    )
    def forget(g: Grant, record_id: RecordId) -> dict[str, Any]:
        return memory.forget(g.scope, record_id).as_dict()

    @app.post(
        "/api/user-context/memories/{record_id}/restore",
        response_model=ReceiptOut,
        responses=_ERRORS,
        tags=["memories"],
        summary="restore: bring a tombstoned record back unchanged.",
    )
    def restore(g: Grant, record_id: RecordId) -> dict[str, Any]:
        return memory.restore(g.scope, record_id).as_dict()

    @app.get(
        "/api/user-context/memories/{record_id}/history",
        response_model=HistoryOut,
        responses=_ERRORS,
        tags=["memories"],
        summary="history: every version with its diff and author.",
    )
    def history(g: Grant, record_id: RecordId) -> dict[str, Any]:
        versions = [v.as_dict() for v in memory.history(g.scope, record_id)]
        return {"id": record_id, "versions": versions}

    @app.get(
        "/api/user-context/memories/{record_id}/evidence",
        response_model=EvidenceListOut,
        responses=_ERRORS,
        tags=["memories"],
        summary="The redacted evidence items a record was learned from.",
    )
    def evidence(g: Grant, record_id: RecordId) -> dict[str, Any]:
        return {"id": record_id, "evidence": lore.records.evidence(g.scope, record_id)}

    @app.get(
        "/api/user-context/trash",
        response_model=TrashOut,
        responses=_ERRORS,
        tags=["memories"],
        summary="The trash view: tombstoned records, each restorable.",
    )
    def trash(g: Grant) -> dict[str, Any]:
        return {"memories": [r.as_dict() for r in memory.trash(g.scope)]}

    @app.post(
        "/api/user-context/plan",
        response_model=PlanOut,
        responses=_ERRORS,
        tags=["memories"],
        summary="plan_context: the fenced <user-context> block for one turn, with its trace.",
    )
    def plan(g: Grant, body: PlanIn) -> dict[str, Any]:
        result = lore.plan_context(
            g.scope, body.query, session_key=body.session_key, budget=body.budget
        )
        return result.as_dict()

    @app.post(
        "/api/user-context/purge",
        response_model=PurgeOut,
        responses=_ERRORS,
        tags=["lifecycle"],
        summary="Hard-delete the token's scope (or a path in it); reports residual rows.",
    )
    def purge(g: Grant, body: PurgeIn) -> dict[str, Any]:
        return lore.scopes.purge(g.scope, body.path_prefix).as_dict()

    @app.get(
        "/api/user-context/export",
        responses=_ERRORS,
        tags=["lifecycle"],
        summary="The whole scope as a userlore.export v1 JSON document.",
    )
    def export(g: Grant) -> dict[str, Any]:
        return lore.scopes.export(g.scope)

    @app.post(
        "/api/user-context/import",
        response_model=ImportOut,
        responses=_ERRORS,
        tags=["lifecycle"],
        summary="Restore an export document into the token's scope, which must be empty.",
    )
    def import_(g: Grant, body: Annotated[dict[str, Any], Body()]) -> dict[str, Any]:
        return lore.scopes.import_(g.scope, body).as_dict()

    from userlore.server.web_page import install_about_you  # the About You page (issue 9)

    install_about_you(app, lore)
    # Added last, so outermost: nothing (CSRF, bearer check, parser) sees an unchecked body.
    app.add_middleware(
        RequestGuard, max_body_bytes=max_body_bytes, max_api_body_bytes=max_api_body_bytes
    )
    return app


def _allowed_methods(request: Request) -> list[str]:
    """The methods of the path template that routing chose, for the ``Allow`` header of a 405.

    Routing takes the first template matching the path (``/memories/recall`` before
    ``/memories/{record_id}``), so only routes with that same template count.
    """
    chosen: str | None = None
    methods: set[str] = set()
    for route in request.app.router.routes:
        match, _ = route.matches(request.scope)
        template = getattr(route, "path", None)
        if match is Match.NONE or (chosen is not None and template != chosen):
            continue
        chosen = template
        methods.update(getattr(route, "methods", None) or ())
    return sorted(methods)


def _rate_trace(lore: Userlore, scope: str, trace_id: str, rating: str) -> dict[str, Any]:
    """Rate one inject trace by id, with the feedback engine's own steps (record, remediate)."""
    from userlore.feedback.attribution import (
        INJECT_EVENT,
        REASON_RATING,
        parse_rating,
        record_feedback,
        selected_entries,
    )

    value = parse_rating(rating)
    if lore.config.memory.mode is MemoryMode.OFF:
        raise MemoryDisabledError("memory mode 'off' records no feedback")
    service = lore.feedback
    with service.store.transaction() as session:
        trace = session.scalars(
            select(MemoryTraceEvent).where(
                MemoryTraceEvent.id == trace_id,
                MemoryTraceEvent.scope == scope,
                MemoryTraceEvent.event_type == INJECT_EVENT,
            )
        ).one_or_none()
        if trace is None:
            raise TraceNotFoundError(f"no inject trace {trace_id!r} in scope {scope!r}")
        previous = trace.feedback
        changed = record_feedback(service.store, session, trace, value, reason_code=REASON_RATING)
        remediation = service.policy.evaluate(session, trace)
        return {
            "trace_id": trace.id,
            "feedback": value.value,
            "previous": previous,
            "changed": changed,
            "selected": [e["id"] for e in selected_entries(trace.payload)],
            "remediation": remediation.as_dict(),
        }
