"""``userlore serve``: the HTTP gateway (FastAPI) over one :class:`~userlore.Userlore`.

Every data endpoint needs ``Authorization: Bearer <token>`` (:mod:`userlore.server.auth`); each
configured token grants exactly one scope (and the agent identity written as author attribution).
There is no default token: with none configured, every data request is refused. Every query the
gateway runs is filtered by the token's scope, and a record of another scope answers ``404``
exactly like a missing one, so a token cannot even learn whether another scope's id exists.

Bad input is a ``4xx`` with ``{"error": {"code", "message"}}``; the gateway is tested with
property-based requests generated from its own OpenAPI schema to answer no ``5xx`` and nothing
off-schema. Every request first passes :class:`~userlore.server.guard.RequestGuard`: size, then
the bearer token (before a byte of the body is read), then the body's arrival rate, encoding,
JSON depth and value count, and NUL characters, all before parsing.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI

from userlore.errors import ConfigError
from userlore.server.access_log import install_access_log_redaction
from userlore.server.auth import TokenGrant, body_authorizer, load_tokens, resolver
from userlore.server.errors import install_error_handlers
from userlore.server.guard import (
    DEFAULT_BODY_TIMEOUT,
    DEFAULT_MAX_API_BODY_BYTES,
    DEFAULT_MAX_BODY_BYTES,
    DEFAULT_MIN_BODY_RATE,
    RequestGuard,
)
from userlore.server.routes import context, knowledge, memories, review
from userlore.server.web_page import install_about_you

if TYPE_CHECKING:
    from userlore.facade import Userlore

__all__ = ["TokenGrant", "create_app", "load_tokens"]


def create_app(
    lore: Userlore,
    tokens: Mapping[str, Any] | str | Path | None = None,
    *,
    title: str = "userlore gateway",
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    max_api_body_bytes: int = DEFAULT_MAX_API_BODY_BYTES,
    body_timeout: float = DEFAULT_BODY_TIMEOUT,
    min_body_rate: int = DEFAULT_MIN_BODY_RATE,
) -> FastAPI:
    """The gateway app over ``lore``; ``tokens`` as accepted by :func:`load_tokens`.

    Args:
        lore: The store every endpoint reads and writes.
        tokens: Token grants; ``None`` reads ``USERLORE_TOKENS``/``USERLORE_TOKENS_FILE``.
        title: OpenAPI title.
        max_body_bytes: Largest accepted import body (a whole export document).
        max_api_body_bytes: Largest body of any other request (capped at ``max_body_bytes``).
        body_timeout: Seconds a request body may take to arrive (``408`` after).
        min_body_rate: Bytes per second a body must keep up after its first seconds.

    Raises:
        ConfigError: malformed tokens, a body limit below 1 byte, or a time bound below 1.
    """
    from userlore import __version__

    grants = load_tokens(tokens)
    if min(max_body_bytes, max_api_body_bytes) < 1:
        raise ConfigError("max_body_bytes and max_api_body_bytes must be at least 1")
    if min(body_timeout, min_body_rate) < 1:
        raise ConfigError("body_timeout and min_body_rate must be at least 1")
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
    app.state.resolve_token = resolve_token = resolver(grants)

    install_error_handlers(app)

    # -- health -----------------------------------------------------------------------------

    @app.get("/api/health", tags=["meta"], summary="Liveness (no data, no token needed).")
    def health() -> dict[str, str]:
        return {"status": "ok", "version": __version__}

    for routes in (context, knowledge, review, memories):
        routes.install(app, lore)

    install_about_you(app, lore)  # the About You page (issue 9)
    # Added last, so outermost: nothing (CSRF, bearer check, parser) sees an unchecked body,
    # and no body is read before its bearer token is.
    app.add_middleware(
        RequestGuard,
        max_body_bytes=max_body_bytes,
        max_api_body_bytes=max_api_body_bytes,
        authorize=body_authorizer(resolve_token),
        body_timeout=body_timeout,
        min_body_rate=min_body_rate,
    )
    return app
