"""The ``userlore serve`` and ``userlore mcp`` subcommands.

Both open one database (``--db`` or ``USERLORE_DB``; default: the embedded SQLite file, so every
agent on a machine shares one memory) with one configuration (``--config``/``USERLORE_CONFIG``,
``--mode`` overriding the memory mode). Heavy imports (FastAPI, uvicorn, the MCP SDK) happen only
when a subcommand runs.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from userlore.config import MemoryMode, UserContextConfig

if TYPE_CHECKING:
    from userlore.facade import Userlore

__all__ = ["add_mcp_parser", "add_serve_parser", "open_for_service"]

_MODES = [m.value for m in MemoryMode]


def open_for_service(db: str | None, config: str | None, mode: str | None) -> Userlore:
    """Open the database with the configuration a service runs with."""
    from userlore.facade import Userlore

    db = db or os.environ.get("USERLORE_DB") or os.environ.get("USERLORE_DATABASE_URL") or None
    path = config or os.environ.get("USERLORE_CONFIG") or None
    cfg = UserContextConfig.from_json(path) if path else UserContextConfig()
    mode = mode or os.environ.get("USERLORE_MODE") or None
    if mode:
        memory = cfg.memory.model_copy(update={"mode": MemoryMode(mode)})
        cfg = cfg.model_copy(update={"memory": memory})
    return Userlore.open(db, config=cfg)


def add_common_options(parser: argparse.ArgumentParser) -> None:
    """``--db``, ``--config`` and ``--mode``, shared by every service subcommand."""
    parser.add_argument(
        "--db",
        help="database URL (env USERLORE_DB or USERLORE_DATABASE_URL; default: embedded SQLite)",
    )
    parser.add_argument("--config", help="userContext JSON file (env USERLORE_CONFIG)")
    parser.add_argument("--mode", choices=_MODES, help="override the memory mode")


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from userlore.server.access_log import access_log_config
    from userlore.server.app import create_app, load_tokens
    from userlore.server.guard import DEFAULT_MAX_API_BODY_BYTES, DEFAULT_MAX_BODY_BYTES

    grants = load_tokens(args.tokens)
    if not grants:
        print(
            "userlore: warning: no tokens configured (--tokens, USERLORE_TOKENS or "
            "USERLORE_TOKENS_FILE); every data request will be refused",
            file=sys.stderr,
        )
    lore = open_for_service(args.db, args.config, args.mode)
    try:
        app = create_app(
            lore,
            grants,
            max_body_bytes=_given(args.max_body_bytes, DEFAULT_MAX_BODY_BYTES),
            max_api_body_bytes=_given(args.max_api_body_bytes, DEFAULT_MAX_API_BODY_BYTES),
        )
        uvicorn.run(
            app,
            host=args.host,
            port=args.port,
            log_level="info",
            log_config=access_log_config(),
        )
    finally:
        lore.close()
    return 0


def _given(value: int | None, default: int) -> int:
    return default if value is None else value


def _mcp(args: argparse.Namespace) -> int:
    from userlore.mcp.server import MemoryServerSettings, run_mcp_server

    settings = MemoryServerSettings.resolve(
        scope=args.scope,
        agent_id=args.agent_id,
        client=args.client,
        device=args.device,
        instance=args.instance,
        allow_purge=args.allow_purge,
    )
    lore = open_for_service(args.db, args.config, args.mode)
    try:
        run_mcp_server(
            lore,
            settings,
            transport=args.transport,
            host=args.host,
            port=args.port,
            path=args.path,
            token=args.token or os.environ.get("USERLORE_MCP_TOKEN") or None,
        )
    finally:
        lore.close()
    return 0


def add_serve_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``userlore serve`` (the HTTP gateway)."""
    serve = sub.add_parser("serve", help="run the HTTP gateway (FastAPI, bearer token per scope)")
    add_common_options(serve)
    serve.add_argument(
        "--tokens", help="JSON file {token: scope | {scope, agentId, client, device}}"
    )
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8765)
    serve.add_argument(
        "--max-body-bytes",
        type=int,
        help="largest import body, refused with 413 before authentication (default 10 MiB)",
    )
    serve.add_argument(
        "--max-api-body-bytes",
        type=int,
        help="largest body of every other request (default 1 MiB)",
    )
    serve.set_defaults(func=_serve)


def add_mcp_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``userlore mcp`` (the MCP server for desktop and CLI agents)."""
    mcp = sub.add_parser("mcp", help="serve the memory tools over MCP (stdio or streamable HTTP)")
    add_common_options(mcp)
    mcp.add_argument("--scope", help="the one scope this server acts in (env USERLORE_SCOPE)")
    mcp.add_argument("--agent-id", help="author attribution (env USERLORE_AGENT_ID)")
    mcp.add_argument("--client", help="client name, e.g. 'Claude Desktop' (env USERLORE_CLIENT)")
    mcp.add_argument("--device", help="device name (env USERLORE_DEVICE; default: host name)")
    mcp.add_argument("--instance", help="instance hash (env USERLORE_INSTANCE)")
    mcp.add_argument("--allow-purge", action="store_true", help="expose the destructive purge tool")
    mcp.add_argument("--transport", choices=["stdio", "streamable-http"], default="stdio")
    mcp.add_argument("--host", default="127.0.0.1", help="streamable HTTP bind address")
    mcp.add_argument("--port", type=int, default=8766, help="streamable HTTP port")
    mcp.add_argument("--path", default="/mcp", help="streamable HTTP endpoint path")
    mcp.add_argument("--token", help="bearer token for streamable HTTP (env USERLORE_MCP_TOKEN)")
    mcp.set_defaults(func=_mcp)
