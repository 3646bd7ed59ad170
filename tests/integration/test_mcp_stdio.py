"""``userlore mcp`` over stdio, driven by the official MCP SDK client.

Three real server processes share one SQLite file: agent A (Claude Desktop) and agent B (Codex CLI,
the only one started with ``--allow-purge``) in scope ``demo``, and an intruder configured for
another scope. The seed's six-state walkthrough runs through A and B; its receipts must equal the
facade's and the HTTP gateway's. The intruder then tries every tool on scope ``demo``'s memory.
"""

from __future__ import annotations

import sys
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from tests.walkthrough import (
    AGENT_A,
    AGENT_B,
    SCOPE,
    Call,
    facade_surface,
    http_surface,
    mcp_error,
    normalized,
    walk,
)
from userlore import Userlore
from userlore.server import create_app

INTRUDER = {"agent_id": "intruder", "client": "Rogue", "device": "box", "instance": "deadbeef"}


def server(db_url: str, home: Path, who: dict[str, str], scope: str, *extra: str) -> Any:
    args = [
        "-m", "userlore.cli", "mcp", "--db", db_url, "--mode", "auto", "--scope", scope,
        "--agent-id", who["agent_id"], "--client", who["client"], "--device", who["device"],
        "--instance", who["instance"], *extra,
    ]  # fmt: skip
    env = {"HOME": str(home), "XDG_DATA_HOME": str(home / "data")}
    return StdioServerParameters(command=sys.executable, args=args, env=env)


def mcp_surface(clients: dict[str, Client]) -> Call:
    async def call(agent: str, op: str, args: dict[str, Any]) -> dict[str, Any]:
        result = await clients[agent].call_tool(op, args)
        if result.is_error:
            return mcp_error(str(result.content[0].text))  # type: ignore[union-attr]
        assert isinstance(result.structured_content, dict)
        return result.structured_content

    return call


async def test_two_stdio_clients_walk_the_six_states(tmp_path: Path, make_lore: Any) -> None:
    db_url = f"sqlite:///{tmp_path / 'shared.db'}"
    Userlore.open(db_url).close()  # migrate once, before three processes open the file
    async with AsyncExitStack() as stack:
        clients = {
            "A": await stack.enter_async_context(
                Client(server(db_url, tmp_path, AGENT_A, SCOPE), read_timeout_seconds=60)
            ),
            "B": await stack.enter_async_context(
                Client(
                    server(db_url, tmp_path, AGENT_B, SCOPE, "--allow-purge"),
                    read_timeout_seconds=60,
                )
            ),
            "X": await stack.enter_async_context(
                Client(server(db_url, tmp_path, INTRUDER, "other-team"), read_timeout_seconds=60)
            ),
        }
        names_a = {t.name for t in (await clients["A"].list_tools()).tools}
        names_b = {t.name for t in (await clients["B"].list_tools()).tools}
        assert names_a >= {
            "remember", "recall", "update_memory", "forget", "restore", "history", "trash",
            "plan_context", "list_facets", "update_facet", "forget_facet", "about_me",
        }  # fmt: skip
        assert "purge" not in names_a
        assert names_b == names_a | {"purge"}
        for tool in (await clients["A"].list_tools()).tools:
            assert "scope" not in tool.input_schema.get("properties", {}), tool.name

        over_mcp = await walk(mcp_surface(clients))

        # The same walkthrough through the facade and the gateway gives identical receipts.
        over_facade = await walk(facade_surface(make_lore("auto")))
        tokens = {"A": "token-for-agent-a-000000", "B": "token-for-agent-b-000000"}
        grants = {
            tokens[k]: {"scope": SCOPE, "agentId": who["agent_id"], "client": who["client"],
                        "device": who["device"], "instance": who["instance"]}
            for k, who in (("A", AGENT_A), ("B", AGENT_B))
        }  # fmt: skip
        with TestClient(create_app(make_lore("auto"), grants)) as http:
            over_http = await walk(http_surface(http, tokens))
        assert normalized(over_mcp) == normalized(over_facade)
        assert normalized(over_http) == normalized(over_facade)

        await intruder_cannot_reach_demo(mcp_surface(clients))


async def intruder_cannot_reach_demo(call: Call) -> None:
    """A server configured for another scope can do nothing to scope ``demo``."""
    mine = await call("A", "remember", {"content": "Alpha VPN is WireGuard.", "path": "infra",
                                         "memory_type": "semantic"})  # fmt: skip
    mem = mine["id"]
    for op, args in (
        ("update_memory", {"id": mem, "content": "Alpha VPN is OpenVPN."}),
        ("forget", {"id": mem}),
        ("restore", {"id": mem}),
        ("history", {"id": mem}),
    ):
        assert await call("X", op, args) == {"error": "not_found"}, op
    recalled = await call("X", "recall", {"query": "Alpha VPN WireGuard"})
    assert recalled["count"] == 0 and recalled["excluded"] == []
    assert (await call("X", "trash", {}))["memories"] == []
    plan = await call("X", "plan_context", {"query": "Alpha VPN"})
    assert plan["selected"] == [] and "WireGuard" not in plan["text"]
    # Injected arguments cannot move a call into another scope either.
    await call("X", "remember", {"content": "Planted.", "path": "infra",
                                 "memory_type": "semantic", "scope": SCOPE})  # fmt: skip
    seen = await call("A", "recall", {"query": "Planted"})
    assert seen["count"] == 0
    still = await call("A", "recall", {"query": "Alpha VPN WireGuard"})
    assert still["citations"] == [f"{mem}@v1"]
