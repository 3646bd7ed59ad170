"""Long-running services: ``serve`` (the HTTP gateway) and ``mcp`` (the MCP server).

Both open one database (``--db`` or ``USERLORE_DB``; default: the embedded SQLite file, so every
agent on a machine shares one memory) with one configuration. Heavy imports (FastAPI, uvicorn,
the MCP SDK) happen only when a subcommand runs. Both load the floor's tables in a background
thread as they start (``--no-warm`` or ``USERLORE_WARM=0`` to skip), so the first requests do not
pay them.
"""

from __future__ import annotations

import os
import sys
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

from userlore.cli.app import app
from userlore.cli.common import ConfigOpt, DbOpt, ModeOpt, open_for_service
from userlore.config import MemoryMode
from userlore.server.guard import DEFAULT_BODY_TIMEOUT, DEFAULT_MIN_BODY_RATE

if TYPE_CHECKING:
    from userlore.facade import Userlore

DEFAULT_LIMIT_CONCURRENCY = 100

WarmOpt = Annotated[
    bool,
    typer.Option(
        "--warm/--no-warm",
        envvar="USERLORE_WARM",
        help="Load the floor's tables in the background at start (env USERLORE_WARM).",
    ),
]


def _open_service(
    db: str | None, config: str | None, mode: MemoryMode | None, warm: bool
) -> Userlore:
    """:func:`open_for_service`, and the floor's tables loading beside it when ``warm``."""
    lore = open_for_service(db, config, mode)
    if warm:
        from userlore.policy.warm import start_warming

        start_warming()
    return lore


class Transport(StrEnum):
    """How MCP clients connect."""

    STDIO = "stdio"
    STREAMABLE_HTTP = "streamable-http"


@app.command()
def serve(
    tokens: Annotated[
        str | None,
        typer.Option(help="JSON file {token: scope | {scope, agentId, client, device}}."),
    ] = None,
    host: str = "127.0.0.1",
    port: int = 8765,
    max_body_bytes: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Largest import body, refused with 413 before authentication (default 10 MiB).",
        ),
    ] = None,
    max_api_body_bytes: Annotated[
        int | None, typer.Option(min=1, help="Largest body of every other request (default 1 MiB).")
    ] = None,
    body_timeout: Annotated[
        float,
        typer.Option(min=1, help="Seconds a request body may take to arrive; 408 after."),
    ] = DEFAULT_BODY_TIMEOUT,
    min_body_rate: Annotated[
        int,
        typer.Option(min=1, help="Bytes/s a body must keep up after its first 5 s; 408 below."),
    ] = DEFAULT_MIN_BODY_RATE,
    limit_concurrency: Annotated[
        int,
        typer.Option(min=1, help="Open connections and requests at once; 503 above (uvicorn)."),
    ] = DEFAULT_LIMIT_CONCURRENCY,
    timeout_keep_alive: Annotated[
        int, typer.Option(min=1, help="Seconds an idle keep-alive connection stays open (uvicorn).")
    ] = 5,
    db: DbOpt = None,
    config: ConfigOpt = None,
    mode: ModeOpt = None,
    warm: WarmOpt = True,
) -> None:
    """Run the HTTP gateway (FastAPI, bearer token per scope)."""
    import uvicorn

    from userlore.server.access_log import access_log_config
    from userlore.server.app import create_app, load_tokens
    from userlore.server.guard import DEFAULT_MAX_API_BODY_BYTES, DEFAULT_MAX_BODY_BYTES

    grants = load_tokens(tokens)
    if not grants:
        print(
            "userlore: warning: no tokens configured (--tokens, USERLORE_TOKENS or "
            "USERLORE_TOKENS_FILE); every data request will be refused",
            file=sys.stderr,
        )
    lore = _open_service(db, config, mode, warm)
    try:
        application = create_app(
            lore,
            grants,
            max_body_bytes=max_body_bytes or DEFAULT_MAX_BODY_BYTES,
            max_api_body_bytes=max_api_body_bytes or DEFAULT_MAX_API_BODY_BYTES,
            body_timeout=body_timeout,
            min_body_rate=min_body_rate,
        )
        uvicorn.run(
            application,
            host=host,
            port=port,
            log_level="info",
            log_config=access_log_config(),
            limit_concurrency=limit_concurrency,
            timeout_keep_alive=timeout_keep_alive,
        )
    finally:
        lore.close()


@app.command()
def mcp(
    scope: Annotated[
        str | None, typer.Option(help="The one scope this server acts in (env USERLORE_SCOPE).")
    ] = None,
    agent_id: Annotated[
        str | None, typer.Option(help="Author attribution (env USERLORE_AGENT_ID).")
    ] = None,
    client: Annotated[
        str | None, typer.Option(help="Client name, e.g. 'Claude Desktop' (env USERLORE_CLIENT).")
    ] = None,
    device: Annotated[
        str | None, typer.Option(help="Device name (env USERLORE_DEVICE; default: host name).")
    ] = None,
    instance: Annotated[
        str | None, typer.Option(help="Instance hash (env USERLORE_INSTANCE).")
    ] = None,
    allow_purge: Annotated[
        bool, typer.Option("--allow-purge", help="Expose the destructive purge tool.")
    ] = False,
    transport: Annotated[Transport, typer.Option(help="How clients connect.")] = Transport.STDIO,
    host: Annotated[str, typer.Option(help="Streamable HTTP bind address.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Streamable HTTP port.")] = 8766,
    path: Annotated[str, typer.Option(help="Streamable HTTP endpoint path.")] = "/mcp",
    token: Annotated[
        str | None, typer.Option(help="Bearer token for streamable HTTP (env USERLORE_MCP_TOKEN).")
    ] = None,
    db: DbOpt = None,
    config: ConfigOpt = None,
    mode: ModeOpt = None,
    warm: WarmOpt = True,
) -> None:
    """Serve the memory tools over MCP (stdio or streamable HTTP)."""
    from userlore.mcp.server import MemoryServerSettings, run_mcp_server

    settings = MemoryServerSettings.resolve(
        scope=scope,
        agent_id=agent_id,
        client=client,
        device=device,
        instance=instance,
        allow_purge=allow_purge,
    )
    lore = _open_service(db, config, mode, warm)
    try:
        run_mcp_server(
            lore,
            settings,
            transport=transport.value,
            host=host,
            port=port,
            path=path,
            token=token or os.environ.get("USERLORE_MCP_TOKEN") or None,
        )
    finally:
        lore.close()
