"""HTTP gateway (``userlore serve``): FastAPI app factory with per-scope bearer tokens."""

from __future__ import annotations

from userlore.server.app import create_app
from userlore.server.auth import TokenGrant, load_tokens

__all__ = ["TokenGrant", "create_app", "load_tokens"]
