"""Bearer tokens of the HTTP gateway: each token grants exactly one scope and an author.

There is no default token: with none configured, every data request is refused. Tokens are compared
in constant time against every configured token, so timing reveals no near match, and a token is
only ever read from the ``Authorization`` header (never from a cookie or a query string).
"""

from __future__ import annotations

import hmac
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from userlore.errors import ConfigError, ScopeError
from userlore.memory import Author
from userlore.server.guard import Authorize, Scope, bearer_token
from userlore.store.governed import validate_scope

__all__ = [
    "Grant",
    "TokenGrant",
    "Unauthorized",
    "body_authorizer",
    "current_grant",
    "load_tokens",
    "resolver",
]

MIN_TOKEN_CHARS = 16


@dataclass(frozen=True, slots=True)
class TokenGrant:
    """What one bearer token may do: act in ``scope`` as the given author."""

    scope: str
    agent_id: str | None = None
    client: str | None = None
    device: str | None = None
    instance: str | None = None

    def __post_init__(self) -> None:
        validate_scope(self.scope)

    @property
    def author(self) -> Author:
        return Author(self.agent_id, self.client, self.device, self.instance)


def _grant(value: Any, where: str) -> TokenGrant:
    if isinstance(value, TokenGrant):
        return value
    if isinstance(value, str):
        try:
            return TokenGrant(value)
        except ScopeError as exc:
            raise ConfigError(f"{where}: {exc}") from None
    if isinstance(value, Mapping):
        allowed = {"scope", "agentId", "agent_id", "client", "device", "instance"}
        unknown = sorted(set(value) - allowed)
        if unknown or "scope" not in value:
            raise ConfigError(f"{where}: a grant needs 'scope' and allows {sorted(allowed)}")
        try:
            return TokenGrant(
                scope=value["scope"],
                agent_id=value.get("agentId", value.get("agent_id")),
                client=value.get("client"),
                device=value.get("device"),
                instance=value.get("instance"),
            )
        except ScopeError as exc:
            raise ConfigError(f"{where}: {exc}") from None
    raise ConfigError(f"{where}: a grant is a scope string or an object with 'scope'")


def load_tokens(source: Mapping[str, Any] | str | Path | None) -> dict[str, TokenGrant]:
    """Token → grant mapping from a mapping, a JSON file path, or ``None`` (the environment).

    Accepted shapes: ``{"tokens": {"<token>": "<scope>"}}`` or ``{"<token>": {"scope": "<scope>",
    "agentId": "...", "client": "...", "device": "..."}}``. With ``None``, ``USERLORE_TOKENS``
    (JSON text) or ``USERLORE_TOKENS_FILE`` (a path) is read; nothing configured means no token.

    Raises:
        ConfigError: unreadable file, malformed JSON, a token shorter than 16 characters, or a
            malformed grant.
    """
    if source is None:
        if os.environ.get("USERLORE_TOKENS"):
            try:
                source = json.loads(os.environ["USERLORE_TOKENS"])
            except json.JSONDecodeError as exc:
                raise ConfigError(f"USERLORE_TOKENS is not valid JSON: {exc}") from None
        elif os.environ.get("USERLORE_TOKENS_FILE"):
            source = Path(os.environ["USERLORE_TOKENS_FILE"])
        else:
            return {}
    if isinstance(source, str | Path):
        try:
            source = json.loads(Path(source).read_text(encoding="utf-8"))
        except OSError as exc:
            raise ConfigError(f"cannot read token file {source}: {exc.strerror}") from None
        except json.JSONDecodeError as exc:
            raise ConfigError(f"token file {source} is not valid JSON: {exc}") from None
    if not isinstance(source, Mapping):
        raise ConfigError("tokens must be a JSON object")
    if "tokens" in source and isinstance(source["tokens"], Mapping):
        source = source["tokens"]
    grants: dict[str, TokenGrant] = {}
    for token, value in source.items():
        if not isinstance(token, str) or len(token) < MIN_TOKEN_CHARS:
            raise ConfigError(f"every token must be a string of at least {MIN_TOKEN_CHARS} chars")
        grants[token] = _grant(value, f"token …{token[-4:]}")
    return grants


class Unauthorized(Exception):
    """Raised by the auth dependency; answered as 401."""


_bearer = HTTPBearer(auto_error=False, description="One token per scope, from configuration.")


def current_grant(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> TokenGrant:
    """The grant of the request's bearer token, or 401."""
    resolve: Callable[[str], TokenGrant | None] = request.app.state.resolve_token
    found = resolve(credentials.credentials) if credentials is not None else None
    if found is None:
        raise Unauthorized
    return found


Grant = Annotated[TokenGrant, Depends(current_grant)]


def resolver(grants: Mapping[str, TokenGrant]) -> Callable[[str], TokenGrant | None]:
    """Token lookup that compares against every token, so timing reveals no near match."""
    known = [(token.encode("utf-8"), value) for token, value in grants.items()]

    def resolve(token: str) -> TokenGrant | None:
        given = token.encode("utf-8", "surrogateescape")
        found: TokenGrant | None = None
        for candidate, value in known:
            if hmac.compare_digest(candidate, given):
                found = value
        return found

    return resolve


PUBLIC_API_PATHS = frozenset({"/api/health"})


def body_authorizer(resolve: Callable[[str], TokenGrant | None]) -> Authorize:
    """The guard's check before reading a body: every ``/api/`` route but health needs a grant.

    The same lookup as :func:`current_grant`, run on the headers alone, so a body sent without a
    valid token is refused before it is read, buffered or parsed.
    """

    def authorize(scope: Scope) -> bool:
        path = str(scope.get("path", ""))
        if not path.startswith("/api/") or path.rstrip("/") in PUBLIC_API_PATHS:
            return True
        token = bearer_token(scope)
        return token is not None and resolve(token) is not None

    return authorize
