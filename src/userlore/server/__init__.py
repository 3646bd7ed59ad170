"""HTTP gateway (``userlore serve``): FastAPI app factory with per-scope bearer tokens."""

from __future__ import annotations

from userlore.server.app import TokenGrant, create_app, load_tokens

__all__ = ["TokenGrant", "create_app", "load_tokens"]
