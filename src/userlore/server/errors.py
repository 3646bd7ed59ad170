"""The gateway's error vocabulary: typed errors → status and code, one JSON error body.

Shared by every router (the OpenAPI ``responses`` table) and installed once on the app.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DataError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from userlore.errors import (
    ConfigError,
    InvalidInputError,
    InvalidTransitionError,
    MemoryDisabledError,
    PolicyViolationError,
    RecordNotFoundError,
    ScopeError,
    StorageError,
    UserloreError,
)
from userlore.server.auth import Unauthorized
from userlore.server.schemas import ErrorBody

__all__ = ["ERROR_RESPONSES", "ERROR_STATUS", "error_response", "install_error_handlers"]

ERROR_STATUS: tuple[tuple[type[UserloreError], int, str], ...] = (
    (RecordNotFoundError, 404, "not_found"),
    (ScopeError, 422, "invalid_scope"),
    (PolicyViolationError, 422, "policy_violation"),
    (InvalidInputError, 422, "invalid_input"),
    (InvalidTransitionError, 409, "conflict"),
    (MemoryDisabledError, 403, "memory_disabled"),
    (ConfigError, 422, "invalid_config"),
    (StorageError, 503, "storage_unavailable"),
)
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "The body is not valid JSON or nests too deep."},
    401: {"model": ErrorBody, "description": "Missing or invalid bearer token."},
    403: {"model": ErrorBody, "description": "The memory mode forbids this operation."},
    404: {"model": ErrorBody, "description": "No such record in the token's scope."},
    409: {"model": ErrorBody, "description": "Not allowed from the record's current state."},
    413: {"model": ErrorBody, "description": "The body is larger than the gateway's limit."},
    422: {"model": ErrorBody, "description": "Invalid input or refused by the safety policy."},
    503: {"model": ErrorBody, "description": "The database is unavailable."},
}


def error_response(status: int, code: str, message: str, **headers: str) -> JSONResponse:
    """The ``{"error": {"code", "message"}}`` body every refusal answers with."""
    return JSONResponse(
        {"error": {"code": code, "message": message}}, status_code=status, headers=headers or None
    )


def install_error_handlers(app: FastAPI) -> None:
    """Answer every refusal with :func:`error_response`: no bare 500, no echoed driver text."""

    @app.exception_handler(Unauthorized)
    async def _unauthorized(_request: Request, _exc: Unauthorized) -> JSONResponse:
        return error_response(
            401, "unauthorized", "missing or invalid bearer token", **{"WWW-Authenticate": "Bearer"}
        )

    @app.exception_handler(UserloreError)
    async def _userloreerror_response(_request: Request, exc: UserloreError) -> JSONResponse:
        for kind, status, code in ERROR_STATUS:
            if isinstance(exc, kind):
                return error_response(status, code, str(exc))
        return error_response(422, "invalid_input", str(exc))

    @app.exception_handler(RequestValidationError)
    async def _invalid_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        if any(err.get("type") == "json_invalid" for err in errors):
            return error_response(400, "bad_request", "body: not valid JSON")
        parts = []
        for err in errors[:10]:
            loc = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
            parts.append(f"{loc}: {err.get('msg', 'invalid')}")
        return error_response(422, "invalid_request", "; ".join(parts) or "invalid request")

    @app.exception_handler(StarletteHTTPException)
    async def _httperror_response(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        codes = {400: "bad_request", 404: "not_found", 405: "method_not_allowed"}
        code = codes.get(exc.status_code, "http_error")
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            headers["Allow"] = ", ".join(allowed_methods(request))
        return error_response(exc.status_code, code, str(exc.detail), **headers)

    @app.exception_handler(UnicodeError)
    async def _bad_text(_request: Request, _exc: UnicodeError) -> JSONResponse:
        return error_response(
            422, "invalid_text", "text must be valid Unicode (no lone surrogates)"
        )

    @app.exception_handler(DataError)
    async def _refused_value(_request: Request, _exc: DataError) -> JSONResponse:
        # The guard refuses NUL and bad text first; this catches any value the database still
        # cannot store, without echoing the driver's message (it names tables and columns).
        return error_response(422, "invalid_input", "a value of this request cannot be stored")


def _routes(routes: Iterable[Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Every route with the prefix it is served under, routers included by ``include_router``
    walked into: FastAPI keeps an included router as one entry with neither a path nor methods
    (the About You page's routes are one), so a flat walk gave their 405s an empty ``Allow``."""
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is None:
            yield prefix, route
            continue
        context = getattr(route, "include_context", None)
        yield from _routes(included.routes, prefix + str(getattr(context, "prefix", "") or ""))


def allowed_methods(request: Request) -> list[str]:
    """The methods of the path template that routing chose, for the ``Allow`` header of a 405.

    Routing takes the first template matching the path (``/memories/recall`` before
    ``/memories/{record_id}``), so only routes with that same template count.
    """
    chosen: str | None = None
    methods: set[str] = set()
    path = str(request.scope.get("path", ""))
    for prefix, route in _routes(request.app.router.routes):
        if not path.startswith(prefix):
            continue
        scope = {**request.scope, "path": path[len(prefix) :]} if prefix else request.scope
        match, _ = route.matches(scope)
        template = prefix + str(getattr(route, "path", ""))
        if match is Match.NONE or (chosen is not None and template != chosen):
            continue
        chosen = template
        methods.update(getattr(route, "methods", None) or ())
    return sorted(methods)
