"""The MCP server in-process: tools, configuration, errors, facet controls, the HTTP guard."""

from __future__ import annotations

from typing import Any

import pytest
from mcp import Client

from userlore import ConfigError, RecordState, ScopeError, Userlore
from userlore.mcp import MemoryServerSettings, bearer_guard, build_mcp_server, http_app


def settings(**kw: Any) -> MemoryServerSettings:
    base: dict[str, Any] = {"scope": "team", "agent_id": "agent-1", "client": "Test", "device": "d",
                            "instance": "i1"}  # fmt: skip
    base.update(kw)
    return MemoryServerSettings(**base)


async def test_tools_return_the_facade_receipts(auto_lore: Userlore) -> None:
    async with Client(build_mcp_server(auto_lore, settings())) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert "purge" not in tools
        assert set(tools["remember"].input_schema["required"]) == {
            "content",
            "path",
            "memory_type",
        }
        made = await client.call_tool(
            "remember",
            {"content": "Deploys go out on Tuesdays.", "path": "ops", "memory_type": "procedural"},
        )
        receipt = made.structured_content
        assert receipt is not None and not made.is_error
        assert receipt == auto_lore.memory.receipt("team", receipt["id"]).as_dict() | {
            "action": "created"
        }
        assert receipt["author"] == {
            "agent_id": "agent-1",
            "client": "Test",
            "device": "d",
            "instance": "i1",
        }
        plan = await client.call_tool("plan_context", {"query": "when do deploys go out"})
        assert plan.structured_content is not None
        assert [s["id"] for s in plan.structured_content["selected"]] == [receipt["id"]]


async def test_errors_are_tool_errors_and_nothing_changes(auto_lore: Userlore) -> None:
    async with Client(build_mcp_server(auto_lore, settings())) as client:
        missing = await client.call_tool("forget", {"id": "mem_nope"})
        assert missing.is_error and "RecordNotFoundError" in missing.content[0].text  # type: ignore[union-attr]
        bad = await client.call_tool(
            "remember", {"content": "x", "path": "ops", "memory_type": "eternal"}
        )
        assert bad.is_error
        token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
        secret = await client.call_tool(
            "remember", {"content": f"token {token}", "path": "ops", "memory_type": "semantic"}
        )
        assert secret.is_error and token not in secret.content[0].text  # type: ignore[union-attr]
    assert auto_lore.records.list("team") == []


async def test_scope_comes_from_the_server_not_the_call(auto_lore: Userlore) -> None:
    async with Client(build_mcp_server(auto_lore, settings(scope="team-b"))) as client:
        await client.call_tool(
            "remember",
            {"content": "Planted.", "path": "x", "memory_type": "semantic", "scope": "team-a"},
        )
    assert auto_lore.records.list("team-a") == []
    assert [r.content for r in auto_lore.records.list("team-b")] == ["Planted."]


async def test_purge_only_when_allowed(auto_lore: Userlore) -> None:
    auto_lore.memory.remember("team", "A fact.", path="x", memory_type="semantic")
    auto_lore.memory.remember("other", "Another fact.", path="x", memory_type="semantic")
    async with Client(build_mcp_server(auto_lore, settings(allow_purge=True))) as client:
        out = await client.call_tool("purge", {})
    assert out.structured_content is not None and out.structured_content["residual_rows"] == 0
    assert auto_lore.records.list("team") == [] and len(auto_lore.records.list("other")) == 1


async def test_facet_controls(auto_lore: Userlore) -> None:
    async with Client(build_mcp_server(auto_lore, settings())) as client:
        updated = await client.call_tool(
            "update_facet", {"facet_class": "style", "key": "verbosity", "value": "terse"}
        )
        assert not updated.is_error, updated.content
        listed = await client.call_tool("list_facets", {"facet_class": "style"})
        assert listed.structured_content is not None
        assert [f["value"] for f in listed.structured_content["facets"]] == ["terse"]
        forgotten = await client.call_tool(
            "forget_facet", {"facet_class": "style", "key": "verbosity"}
        )
        assert not forgotten.is_error
        about = await client.call_tool("about_me", {})
        assert about.structured_content == {"facets": []}
    rec = auto_lore.records.list("team", kind="style")
    assert all(r.state is not RecordState.ACTIVE or r.user_state.value == "forgotten" for r in rec)


def test_settings_from_environment() -> None:
    env = {"USERLORE_SCOPE": "acme:ana", "USERLORE_AGENT_ID": "codex", "USERLORE_CLIENT": "Codex"}
    resolved = MemoryServerSettings.resolve(env=env)
    assert (resolved.scope, resolved.agent_id, resolved.client) == ("acme:ana", "codex", "Codex")
    assert resolved.instance and len(resolved.instance) == 8 and not resolved.allow_purge
    flags = MemoryServerSettings.resolve(scope="x", agent_id="flag", env=env)
    assert (flags.scope, flags.agent_id) == ("x", "flag")
    with pytest.raises(ConfigError):
        MemoryServerSettings.resolve(env={})
    with pytest.raises(ScopeError):
        MemoryServerSettings.resolve(scope="bad scope!", env={})


async def test_bearer_guard() -> None:
    seen: list[str] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.append(scope["type"])

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        return {}

    guarded = bearer_guard(app, "secret-token-0000")
    await guarded({"type": "http", "headers": [(b"authorization", b"Bearer nope")]}, receive, send)
    assert sent[0]["status"] == 401 and seen == []
    ok = [(b"authorization", b"Bearer secret-token-0000")]
    await guarded({"type": "http", "headers": ok}, receive, send)
    await guarded({"type": "lifespan"}, receive, send)
    assert seen == ["http", "lifespan"]


async def test_streamable_http_app_bounds_bodies_before_the_token(lore: Userlore) -> None:
    # The MCP HTTP transport gets the gateway's request guard outermost: an oversized body is
    # refused before anything, an unauthenticated one before it is read, an over-deep one before
    # any parser runs.
    import httpx

    server = build_mcp_server(lore, MemoryServerSettings.resolve(scope="u1", env={}))
    app = http_app(server, path="/mcp", host="127.0.0.1", token="secret-token-0000")
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        big = await client.post("/mcp", content=b"x" * (2 * 1024 * 1024))
        assert big.status_code == 413
        deep_body = b"[" * 5000 + b"]" * 5000
        json_type = {"content-type": "application/json"}
        deep = await client.post("/mcp", content=deep_body, headers=json_type)
        assert deep.status_code == 401  # not read at all without the token
        with_token = {**json_type, "authorization": "Bearer secret-token-0000"}
        deep = await client.post("/mcp", content=deep_body, headers=with_token)
        assert deep.status_code == 400
        unauthenticated = await client.post("/mcp", json={"jsonrpc": "2.0"})
        assert unauthenticated.status_code == 401
