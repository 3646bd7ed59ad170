"""HTTP gateway (``userlore serve``): FastAPI app factory with per-scope bearer tokens.

The names are loaded on first use (PEP 562), so importing a light submodule such as
``userlore.server.guard`` (the CLI reads its limits) does not import FastAPI.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from userlore.server.app import create_app
    from userlore.server.auth import TokenGrant, load_tokens

__all__ = ["TokenGrant", "create_app", "load_tokens"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from userlore.server.app import create_app

        return create_app
    if name in ("TokenGrant", "load_tokens"):
        from userlore.server import auth

        return getattr(auth, name)
    raise AttributeError(f"module 'userlore.server' has no attribute {name!r}")
