"""``langgraph.json`` auth entry (an example): bearer tokens to identities, one user per store.

``"auth": {"path": "./graphs/auth.py:auth"}``. Replace :data:`TOKENS` with your identity
provider; these are test tokens only. What the handlers enforce is the part to keep:

- ``@auth.on.store``: every ``client.store`` namespace (and Studio's memory browser) starts with
  the caller's identity, the label :func:`userlore.graph.serve.store_from_env`'s store reads as
  the user; a prefix-less ``list_namespaces`` lists the caller's namespaces only.
- ``@auth.on.threads``: threads carry their owner and only the owner sees them (their state holds
  the planned ``<user-context>`` block).
- ``@auth.on.threads.create_run``: a run's ``user_id`` (context and configurable) is the
  caller's identity, so a client cannot name another user for the graphs' per-run scope.
"""

from __future__ import annotations

import os
from typing import Any

from langgraph_sdk import Auth

auth = Auth()

TOKENS: dict[str, str] = {"alice-test-token": "alice", "bob-test-token": "bob"}
"""Bearer token → identity (test tokens; ``USERLORE_AUTH_TOKENS=token:user,...`` adds more)."""

for pair in filter(None, os.environ.get("USERLORE_AUTH_TOKENS", "").split(",")):
    token, _, user = pair.partition(":")
    if token and user:
        TOKENS[token] = user


@auth.authenticate
async def authenticate(authorization: str | None) -> Auth.types.MinimalUserDict:
    """Map ``Authorization: Bearer <token>`` to an identity; anything else is a 401."""
    scheme, _, token = (authorization or "").partition(" ")
    identity = TOKENS.get(token) if scheme.lower() == "bearer" else None
    if identity is None:
        raise Auth.exceptions.HTTPException(status_code=401, detail="unknown bearer token")
    return {"identity": identity}


@auth.on.store()
async def own_namespace(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> None:
    """Put the caller's identity in front of the namespace (once)."""
    identity = ctx.user.identity
    namespace = tuple(value.get("namespace") or ())
    if namespace[:1] != (identity,):
        namespace = (identity, *namespace)
    value["namespace"] = namespace


@auth.on.threads
async def own_threads(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> dict[str, str]:
    """Stamp the owner on new threads and show each user only their own."""
    metadata = value.get("metadata")
    if isinstance(metadata, dict):
        metadata["owner"] = ctx.user.identity
    return {"owner": ctx.user.identity}


@auth.on.threads.create_run
async def run_as_caller(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> dict[str, str]:
    """Run on the caller's own threads, as the caller: ``user_id`` is their identity."""
    identity = ctx.user.identity
    metadata = value.get("metadata")
    if isinstance(metadata, dict):
        metadata["owner"] = identity
    kwargs = value.get("kwargs")
    if isinstance(kwargs, dict):
        config = kwargs.setdefault("config", {}) or {}
        kwargs["config"] = config
        config.setdefault("configurable", {})["user_id"] = identity
        if isinstance(kwargs.get("context"), dict):
            kwargs["context"]["user_id"] = identity
    return {"owner": identity}
