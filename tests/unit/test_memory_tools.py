"""LangChain tools remember / recall / update_memory / forget, bound to one scope."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool

from userlore import InvalidInputError, RecordState, ScopeError, Userlore
from userlore.integrations.tools import MEMORY_TOOL_NAMES, make_memory_tools


class ToolCallingFake(FakeMessagesListChatModel):
    """Replays scripted messages (with tool calls); binding tools is a no-op."""

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Runnable[Any, Any]:
        return self


def by_name(tools: list[BaseTool]) -> dict[str, BaseTool]:
    return {t.name: t for t in tools}


def test_tool_schemas_never_take_a_scope(auto_lore: Userlore) -> None:
    tools = by_name(make_memory_tools(auto_lore, scope="u1", agent_id="a1"))
    assert tuple(tools) == MEMORY_TOOL_NAMES
    for tool in tools.values():
        schema = tool.tool_call_schema.model_json_schema()
        assert "scope" not in schema["properties"] and "agent_id" not in schema["properties"]
    remember = tools["remember"].tool_call_schema.model_json_schema()
    assert set(remember["required"]) == {"content", "path", "memory_type"}


def test_four_tools_walk_the_lifecycle(auto_lore: Userlore) -> None:
    tools = by_name(make_memory_tools(auto_lore, scope="u1", agent_id="codex", client="Codex CLI"))
    receipt = json.loads(
        tools["remember"].invoke(
            {
                "content": "Use OAuth for hosted ChatGPT connections.",
                "path": "projects/memory-os/decisions",
                "memory_type": "semantic",
            }
        )
    )
    mem = receipt["id"]
    assert (receipt["version"], receipt["state"]) == (1, "active")
    assert receipt["author"]["agent_id"] == "codex"
    updated = json.loads(
        tools["update_memory"].invoke(
            {"id": mem, "content": "Use OAuth with PKCE for hosted ChatGPT connections."}
        )
    )
    assert (updated["version"], updated["parent_version"]) == (2, 1)
    cited = json.loads(tools["recall"].invoke({"query": "ChatGPT connections", "path": "projects"}))
    assert cited["citations"] == [f"{mem}@v2"]
    gone = json.loads(tools["forget"].invoke({"id": mem}))
    assert gone["state"] == "deleted"
    assert auto_lore.records.get("u1", mem).state is RecordState.DELETED


def test_errors_come_back_as_tool_messages(auto_lore: Userlore) -> None:
    tools = by_name(make_memory_tools(auto_lore, scope="u1"))
    message = tools["forget"].invoke(
        {"type": "tool_call", "id": "call-1", "name": "forget", "args": {"id": "mem_nope"}}
    )
    assert isinstance(message, ToolMessage) and message.status == "error"
    assert "RecordNotFoundError" in str(message.content)
    secret = tools["remember"].invoke(
        {
            "type": "tool_call",
            "id": "call-2",
            "name": "remember",
            "args": {
                "content": "token ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
                "path": "ops",
                "memory_type": "semantic",
            },
        }
    )
    assert secret.status == "error" and "ghp_" not in str(secret.content)
    assert auto_lore.records.list("u1") == []


def test_tools_of_one_scope_cannot_touch_another(auto_lore: Userlore) -> None:
    mem = auto_lore.memory.remember(
        "team-a", "Our VPN is WireGuard.", path="infra", memory_type="semantic"
    )
    tools_b = by_name(make_memory_tools(auto_lore, scope="team-b"))
    for name, args in (
        ("update_memory", {"id": mem.id, "content": "Our VPN is OpenVPN."}),
        ("forget", {"id": mem.id}),
    ):
        out = tools_b[name].invoke({"type": "tool_call", "id": "c", "name": name, "args": args})
        assert out.status == "error" and "RecordNotFoundError" in str(out.content)
    assert json.loads(tools_b["recall"].invoke({"query": "VPN WireGuard"}))["count"] == 0
    assert auto_lore.records.get("team-a", mem.id).state is RecordState.ACTIVE


def test_factory_validates_its_configuration(auto_lore: Userlore) -> None:
    with pytest.raises(ScopeError):
        make_memory_tools(auto_lore, scope="bad scope!")
    with pytest.raises(InvalidInputError):
        make_memory_tools(auto_lore, scope="u1", include=["remember", "purge"])
    assert [t.name for t in make_memory_tools(auto_lore, scope="u1", include=["recall"])] == [
        "recall"
    ]


async def test_async_tools(auto_lore: Userlore) -> None:
    tools = by_name(make_memory_tools(auto_lore, scope="u1"))
    out = await tools["remember"].ainvoke(
        {"content": "Standup is at 9:30.", "path": "team", "memory_type": "semantic"}
    )
    cited = json.loads(await tools["recall"].ainvoke({"query": "standup"}))
    assert cited["citations"] == [f"{json.loads(out)['id']}@v1"]


def test_an_agent_remembers_and_recalls_with_the_tools(auto_lore: Userlore) -> None:
    tools = make_memory_tools(auto_lore, scope="u1", agent_id="agent-1")
    model = ToolCallingFake(
        responses=[
            AIMessage(
                content="",
                tool_calls=[
                    {
                        "name": "remember",
                        "args": {
                            "content": "The demo is on Thursday at 3pm.",
                            "path": "projects/demo/plan",
                            "memory_type": "semantic",
                        },
                        "id": "call-remember",
                    }
                ],
            ),
            AIMessage(
                content="",
                tool_calls=[
                    {"name": "recall", "args": {"query": "when is the demo"}, "id": "call-recall"}
                ],
            ),
            AIMessage(content="The demo is on Thursday at 3pm."),
        ]
    )
    agent = create_agent(model, tools)
    result = agent.invoke({"messages": [HumanMessage("Remember the demo time, then check it.")]})
    tool_messages = [m for m in result["messages"] if isinstance(m, ToolMessage)]
    receipt = json.loads(str(tool_messages[0].content))
    recalled = json.loads(str(tool_messages[1].content))
    assert recalled["citations"] == [f"{receipt['id']}@v1"]
    assert auto_lore.records.get("u1", receipt["id"]).author_agent_id == "agent-1"
