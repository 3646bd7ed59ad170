"""MCP server for the seed 003 memory tools (``userlore mcp``)."""

from __future__ import annotations

from userlore.mcp.server import (
    MemoryServerSettings,
    bearer_guard,
    build_mcp_server,
    http_app,
    run_mcp_server,
)

__all__ = ["MemoryServerSettings", "bearer_guard", "build_mcp_server", "http_app", "run_mcp_server"]
