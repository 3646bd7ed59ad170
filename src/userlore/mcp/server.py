"""``userlore mcp``: the seed 003 memory tools over the Model Context Protocol.

Built on the official ``mcp`` Python SDK (``MCPServer``, the SDK's FastMCP), served over stdio
(desktop and CLI agents spawn it) or streamable HTTP. Scope and agent identity come from the
server's configuration — command-line flags or ``USERLORE_*`` environment variables — and never
from tool arguments, so a model cannot read or write another scope or pose as another agent.
Two agents configured with the same scope and database share one memory.

``purge`` is destructive and is only exposed when the operator starts the server with
``--allow-purge`` (for disposable demo scopes, as in seed 003's walkthrough).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import socket
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field

from userlore.errors import ConfigError, UserloreError
from userlore.memory import MAX_RECALL_K, Author
from userlore.server.guard import RequestGuard, bearer_token
from userlore.store.governed import validate_scope

if TYPE_CHECKING:
    from mcp.server import MCPServer

    from userlore.facade import Userlore

__all__ = ["MemoryServerSettings", "bearer_guard", "build_mcp_server", "http_app", "run_mcp_server"]

MemoryTypeName = Literal["semantic", "episodic", "procedural", "working", "identity"]
Transport = Literal["stdio", "streamable-http"]
# Tool signatures are read by the SDK at registration (string annotations resolve here).
MemoryId = Annotated[str, Field(min_length=1, max_length=40, description="Memory id.")]
FacetClassName = Literal["style", "identity", "tooling", "veto", "goal", "channel"]
FacetKey = Annotated[
    str, Field(min_length=1, max_length=120, description="Facet key within the class.")
]

INSTRUCTIONS = (
    "userlore memory for one user or team scope. Use recall before answering questions about "
    "earlier decisions, preferences or project facts, and cite the returned id@vN. Use remember "
    "for durable facts, decisions and handoff notes (not raw tool output or chit-chat), with a "
    "logical path such as projects/<name>/decisions. Correct outdated memories with "
    "update_memory instead of writing a duplicate; forget moves a memory to the trash."
)


@dataclass(frozen=True, slots=True)
class MemoryServerSettings:
    """Who this server acts for; fixed for the server's lifetime.

    Attributes:
        scope: The one scope every tool call is confined to.
        agent_id: Author attribution stored on every version written through this server.
        client: Client name (``Claude Desktop``, ``Codex CLI``...).
        device: Device name; defaults to the host name.
        instance: Instance hash; defaults to a hash of host, process, client and agent.
        allow_purge: Expose the destructive ``purge`` tool.
    """

    scope: str
    agent_id: str | None = None
    client: str | None = None
    device: str | None = None
    instance: str | None = None
    allow_purge: bool = False

    def __post_init__(self) -> None:
        validate_scope(self.scope)

    @property
    def author(self) -> Author:
        return Author(self.agent_id, self.client, self.device, self.instance)

    @classmethod
    def resolve(
        cls,
        *,
        scope: str | None = None,
        agent_id: str | None = None,
        client: str | None = None,
        device: str | None = None,
        instance: str | None = None,
        allow_purge: bool = False,
        env: Mapping[str, str] | None = None,
    ) -> MemoryServerSettings:
        """Settings from explicit values, falling back to ``USERLORE_*`` environment variables.

        Raises:
            ConfigError: no scope configured.
        """
        env = os.environ if env is None else env
        scope = scope or env.get("USERLORE_SCOPE")
        if not scope:
            raise ConfigError("the MCP server needs a scope: pass --scope or set USERLORE_SCOPE")
        agent_id = agent_id or env.get("USERLORE_AGENT_ID")
        client = client or env.get("USERLORE_CLIENT") or "mcp"
        device = device or env.get("USERLORE_DEVICE") or socket.gethostname()[:200]
        instance = instance or env.get("USERLORE_INSTANCE")
        if not instance:
            seed = f"{socket.gethostname()}:{os.getpid()}:{client}:{agent_id}"
            instance = hashlib.sha256(seed.encode("utf-8")).hexdigest()[:8]
        allow = allow_purge or env.get("USERLORE_ALLOW_PURGE", "").lower() in ("1", "true", "yes")
        return cls(scope, agent_id, client, device, instance, allow)


def build_mcp_server(lore: Userlore, settings: MemoryServerSettings) -> MCPServer:
    """An ``MCPServer`` exposing the memory tools for ``settings.scope``.

    Tools: ``remember``, ``recall``, ``update_memory``, ``forget``, ``restore``, ``history``,
    ``trash``, ``plan_context``, the seed 002 facet controls (``list_facets``, ``get_facet``,
    ``update_facet``, ``pin_facet``, ``unpin_facet``, ``forget_facet``, ``rebuild_cache``,
    ``cache_stats``, ``about_me``) and, with ``allow_purge``, ``purge``. Memory tools return
    the same receipt dictionaries as the facade and the HTTP gateway.
    """
    from mcp.server import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    from userlore import __version__

    server: MCPServer = MCPServer(
        name="userlore", instructions=INSTRUCTIONS, version=__version__, log_level="WARNING"
    )
    scope = settings.scope
    author = settings.author
    service = lore.memory

    def call(fn: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        try:
            return fn()
        except UserloreError as exc:
            raise ToolError(f"{type(exc).__name__}: {exc}") from None

    def remember(
        content: Annotated[str, Field(min_length=1, max_length=4000, description="What to keep.")],
        path: Annotated[
            str,
            Field(min_length=1, max_length=500, description="e.g. projects/memory-os/decisions"),
        ],
        memory_type: Annotated[
            MemoryTypeName,
            Field(description="semantic, episodic, procedural, working or identity"),
        ],
    ) -> dict[str, Any]:
        """Save a durable memory (content, logical path, memory type); returns its receipt."""
        return call(
            lambda: service.remember(
                scope, content, path=path, memory_type=memory_type, author=author
            ).as_dict()
        )

    def recall(
        query: Annotated[str, Field(max_length=2000, description="What to look for.")],
        path: Annotated[str | None, Field(max_length=500, description="Path prefix.")] = None,
        memory_type: MemoryTypeName | None = None,
        k: Annotated[int, Field(ge=1, le=MAX_RECALL_K)] = 5,
    ) -> dict[str, Any]:
        """Cite live memories (id@vN) matching a query; superseded versions never appear."""
        return call(
            lambda: service.recall(scope, query, path=path, memory_type=memory_type, k=k).as_dict()
        )

    def update_memory(
        id: MemoryId,
        content: Annotated[str, Field(min_length=1, max_length=4000)],
    ) -> dict[str, Any]:
        """Correct a memory: the next version goes live, the old one stays as a snapshot."""
        return call(lambda: service.update(scope, id, content, author=author).as_dict())

    def forget(id: MemoryId) -> dict[str, Any]:
        """Move a memory to the trash (state deleted, restorable); out of recall at once."""
        return call(lambda: service.forget(scope, id).as_dict())

    def restore(id: MemoryId) -> dict[str, Any]:
        """Bring a memory back from the trash, unchanged."""
        return call(lambda: service.restore(scope, id).as_dict())

    def history(id: MemoryId) -> dict[str, Any]:
        """Every version of a memory with its diff and author, oldest first."""
        return call(
            lambda: {"id": id, "versions": [v.as_dict() for v in service.history(scope, id)]}
        )

    def trash() -> dict[str, Any]:
        """Memories in the trash, each restorable."""
        return call(lambda: {"memories": [r.as_dict() for r in service.trash(scope)]})

    def plan_context(
        query: Annotated[str, Field(max_length=4000, description="The user's turn.")],
        session_key: Annotated[str | None, Field(max_length=300)] = None,
    ) -> dict[str, Any]:
        """The fenced <user-context> block for a turn, with selected ids and rejection reasons."""
        return call(
            lambda: lore.plan_context(scope=scope, query=query, session_key=session_key).as_dict()
        )

    def purge(
        path_prefix: Annotated[str | None, Field(max_length=500)] = None,
    ) -> dict[str, Any]:
        """Hard-delete this server's scope (or a path in it); reports residual rows (0)."""
        return call(lambda: lore.scopes.purge(scope, path_prefix).as_dict())

    # -- seed 002 facet controls ---------------------------------------------------------------

    def list_facets(facet_class: FacetClassName | None = None) -> dict[str, Any]:
        """Active and provisional facets (style, identity, tooling, veto, goal, channel)."""
        return call(lambda: {"facets": [f.as_dict() for f in lore.facets.list(scope, facet_class)]})

    def get_facet(facet_class: FacetClassName, key: FacetKey) -> dict[str, Any]:
        """One facet with its state, stability and value."""
        return call(lambda: lore.facets.get(scope, facet_class, key).as_dict())

    def update_facet(
        facet_class: FacetClassName,
        key: FacetKey,
        value: Annotated[str, Field(min_length=1, max_length=300)],
    ) -> dict[str, Any]:
        """Overwrite a facet's value as the user (it becomes active and pinned)."""
        return call(lambda: lore.facets.update(scope, facet_class, key, value).as_dict())

    def pin_facet(facet_class: FacetClassName, key: FacetKey) -> dict[str, Any]:
        """Lock a facet active."""
        return call(lambda: lore.facets.pin(scope, facet_class, key).as_dict())

    def unpin_facet(facet_class: FacetClassName, key: FacetKey) -> dict[str, Any]:
        """Release a pinned facet to automatic learning."""
        return call(lambda: lore.facets.unpin(scope, facet_class, key).as_dict())

    def forget_facet(facet_class: FacetClassName, key: FacetKey) -> dict[str, Any]:
        """Drop a facet from context and block its re-promotion."""
        return call(lambda: lore.facets.forget(scope, facet_class, key).as_dict())

    def rebuild_cache() -> dict[str, Any]:
        """Rebuild the facet cache now; returns counts."""
        return call(lambda: lore.facets.rebuild(scope).as_dict())

    def cache_stats() -> dict[str, Any]:
        """Facet cache statistics."""
        return call(lambda: lore.facets.stats(scope))

    def about_me() -> dict[str, Any]:
        """What is known about the user: each active facet with its evidence receipts."""
        return call(lambda: {"facets": lore.facets.about(scope)})

    tools: list[Callable[..., dict[str, Any]]] = [
        remember,
        recall,
        update_memory,
        forget,
        restore,
        history,
        trash,
        plan_context,
        list_facets,
        get_facet,
        update_facet,
        pin_facet,
        unpin_facet,
        forget_facet,
        rebuild_cache,
        cache_stats,
        about_me,
    ]
    if settings.allow_purge:
        tools.append(purge)
    for fn in tools:
        server.add_tool(fn, name=fn.__name__, structured_output=True)
    return server


ASGIApp = Callable[
    [MutableMapping[str, Any], Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]],
    Awaitable[None],
]


def bearer_guard(app: ASGIApp, token: str) -> ASGIApp:
    """Wrap an ASGI app so every HTTP request needs ``Authorization: Bearer <token>``."""
    expected = f"Bearer {token}".encode()

    async def guarded(
        scope: MutableMapping[str, Any],
        receive: Callable[[], Awaitable[Any]],
        send: Callable[[Any], Awaitable[None]],
    ) -> None:
        if scope.get("type") == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(given, expected):
                body = b'{"error":{"code":"unauthorized","message":"missing or invalid token"}}'
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"www-authenticate", b"Bearer"),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await app(scope, receive, send)

    return guarded


def http_app(server: MCPServer, *, path: str, host: str, token: str | None) -> ASGIApp:
    """The streamable-HTTP app: the request guard outermost, then the bearer check.

    The guard (body size, then the token before any body is read, then JSON depth and NUL
    characters) runs as on the HTTP gateway, so an unauthenticated client can never make the
    server buffer or parse a body.
    """
    app: Any = server.streamable_http_app(streamable_http_path=path, host=host)
    if not token:
        return RequestGuard(app)
    expected = token.encode()

    def authorize(scope: MutableMapping[str, Any]) -> bool:
        given = (bearer_token(scope) or "").encode("utf-8", "surrogateescape")
        return hmac.compare_digest(given, expected)

    return RequestGuard(bearer_guard(app, token), authorize=authorize)


def run_mcp_server(
    lore: Userlore,
    settings: MemoryServerSettings,
    *,
    transport: Transport = "stdio",
    host: str = "127.0.0.1",
    port: int = 8766,
    path: str = "/mcp",
    token: str | None = None,
) -> None:
    """Serve until interrupted. Streamable HTTP off localhost requires a bearer ``token``.

    Raises:
        ConfigError: unknown transport, or a non-local HTTP bind without a token.
    """
    server = build_mcp_server(lore, settings)
    if transport == "stdio":
        server.run("stdio")
        return
    if transport != "streamable-http":
        raise ConfigError(f"unknown MCP transport {transport!r}")
    local = host in ("127.0.0.1", "localhost", "::1")
    if not local and not token:
        raise ConfigError(
            "refusing to serve MCP over HTTP on a non-local address without a token "
            "(set --token or USERLORE_MCP_TOKEN)"
        )
    import uvicorn

    uvicorn.run(
        http_app(server, path=path, host=host, token=token),
        host=host,
        port=port,
        log_level="warning",
    )
