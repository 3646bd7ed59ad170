"""One agent, many users: tools, retriever and graphs built once resolve the user on every call.

Plus LangChain's standard tool suites (``ToolsUnitTests`` and ``ToolsIntegrationTests``,
subclassed unmodified) for every memory and facet tool.
"""

from __future__ import annotations

import asyncio
import functools
import json
import warnings
from dataclasses import dataclass
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.runnables import RunnableLambda
from langchain_core.tools import BaseTool
from langchain_tests.integration_tests import ToolsIntegrationTests
from langchain_tests.unit_tests import ToolsUnitTests

from tests.support.chat_models import ScriptedChatModel
from userlore import RecordState, ScopeError, Userlore
from userlore.graph import build_review_subgraph, build_understanding_graph
from userlore.integrations import UserloreRetriever
from userlore.integrations.facet_tools import FACET_TOOL_NAMES, make_facet_tools
from userlore.integrations.tools import MEMORY_TOOL_NAMES, make_memory_tools


def as_user(user: str) -> dict[str, Any]:
    return {"configurable": {"user_id": user}}


def by_name(tools: list[BaseTool]) -> dict[str, BaseTool]:
    return {t.name: t for t in tools}


@dataclass
class Ctx:
    user_id: str


# -- memory tools --------------------------------------------------------------------------------


def test_one_memory_tools_list_serves_two_users(auto_lore: Userlore) -> None:
    tools = by_name(make_memory_tools(auto_lore, agent_id="a1"))
    args = {"content": "Alice deploys with Argo.", "path": "ops", "memory_type": "semantic"}
    receipt = json.loads(tools["remember"].invoke(args, as_user("alice")))
    assert auto_lore.records.get("alice", receipt["id"]).content == "Alice deploys with Argo."

    alice = json.loads(tools["recall"].invoke({"query": "Argo deploys"}, as_user("alice")))
    bob = json.loads(tools["recall"].invoke({"query": "Argo deploys"}, as_user("bob")))
    assert [c.split("@")[0] for c in alice["citations"]] == [receipt["id"]]
    assert bob["citations"] == [] and "Argo" not in json.dumps(bob)

    # Bob cannot touch Alice's memory by id, and the error names nothing of hers.
    for name, call in (
        ("update_memory", {"id": receipt["id"], "content": "Bob was here."}),
        ("forget", {"id": receipt["id"]}),
    ):
        out = tools[name].invoke(call, as_user("bob"))
        assert out.startswith("RecordNotFoundError") and "Argo" not in out and "alice" not in out
    assert auto_lore.records.get("alice", receipt["id"]).content == "Alice deploys with Argo."


def test_a_call_naming_no_user_is_refused_not_pooled(auto_lore: Userlore) -> None:
    tools = by_name(make_memory_tools(auto_lore))
    out = tools["recall"].invoke({"query": "anything"})
    assert out.startswith("ScopeError: no user scope")


def test_default_scope_is_only_a_fallback(auto_lore: Userlore) -> None:
    tools = by_name(make_memory_tools(auto_lore, default_scope="shared"))
    args = {"content": "Team uses Argo.", "path": "ops", "memory_type": "semantic"}
    tools["remember"].invoke(args)
    assert auto_lore.records.list("shared")
    assert json.loads(tools["recall"].invoke({"query": "Argo"}, as_user("bob")))["citations"] == []


def test_deprecated_scope_keyword_warns_and_acts_as_default(auto_lore: Userlore) -> None:
    with pytest.warns(DeprecationWarning, match="default_scope"):
        tools = by_name(make_memory_tools(auto_lore, scope="u1"))
    args = {"content": "Uses pnpm.", "path": "tooling", "memory_type": "semantic"}
    tools["remember"].invoke(args)
    assert auto_lore.records.list("u1")
    with pytest.warns(DeprecationWarning):
        retriever = UserloreRetriever(lore=auto_lore, scope="u1")
    assert retriever.default_scope == "u1"


def test_scope_key_names_the_field(auto_lore: Userlore) -> None:
    tools = by_name(make_memory_tools(auto_lore, scope_key="tenant"))
    args = {"content": "Tenant T1 uses Argo.", "path": "ops", "memory_type": "semantic"}
    tools["remember"].invoke(args, {"configurable": {"tenant": "t1", "user_id": "bob"}})
    assert auto_lore.records.list("t1") and not auto_lore.records.list("bob")


def test_create_agent_resolves_each_run_from_its_context(auto_lore: Userlore) -> None:
    """``ToolRuntime`` injection: one compiled agent, the user from ``context=``."""
    call = {
        "name": "remember",
        "args": {"content": "I prefer tabs.", "path": "style", "memory_type": "semantic"},
        "id": "c1",
    }
    model = ScriptedChatModel(replies=[AIMessage("", tool_calls=[call]), "saved"])
    agent = create_agent(model, tools=make_memory_tools(auto_lore), context_schema=Ctx)
    out = agent.invoke({"messages": [("user", "remember tabs")]}, context=Ctx("alice"))
    [message] = [m for m in out["messages"] if isinstance(m, ToolMessage)]
    assert json.loads(str(message.content))["state"] == "active"
    assert [r.content for r in auto_lore.records.list("alice")] == ["I prefer tabs."]
    assert auto_lore.records.list("bob") == []


def test_async_tools_resolve_per_call(auto_lore: Userlore) -> None:
    tools = by_name(make_memory_tools(auto_lore))
    args = {"content": "Async Alice.", "path": "a", "memory_type": "semantic"}

    async def run() -> tuple[str, str]:
        await tools["remember"].ainvoke(args, as_user("alice"))
        a = await tools["recall"].ainvoke({"query": "Async"}, as_user("alice"))
        b = await tools["recall"].ainvoke({"query": "Async"}, as_user("bob"))
        return a, b

    a, b = asyncio.run(run())
    assert json.loads(a)["citations"] and json.loads(b)["citations"] == []


# -- facet tools ---------------------------------------------------------------------------------


def test_one_facet_tools_list_serves_two_users(auto_lore: Userlore) -> None:
    tools = by_name(make_facet_tools(auto_lore))
    args = {"facet_class": "style", "key": "verbosity", "value": "terse"}
    tools["update_facet"].invoke(args, as_user("alice"))
    alice = json.loads(tools["list_facets"].invoke({}, as_user("alice")))
    bob = json.loads(tools["list_facets"].invoke({}, as_user("bob")))
    assert [f["value"] for f in alice] == ["terse"] and bob == []
    out = tools["get_facet"].invoke({"facet_class": "style", "key": "verbosity"}, as_user("bob"))
    assert "terse" not in out and "alice" not in out
    assert tools["about_me"].invoke({}).startswith("ScopeError")


# -- retriever -----------------------------------------------------------------------------------


def test_one_retriever_serves_two_users(auto_lore: Userlore) -> None:
    for user, text in (("alice", "Alice ships on Fridays."), ("bob", "Bob ships on Mondays.")):
        auto_lore.memory.remember(user, text, path="ops", memory_type="semantic")
    retriever = UserloreRetriever(lore=auto_lore)
    alice = retriever.invoke("ships", as_user("alice"))
    bob = retriever.invoke("ships", as_user("bob"))
    assert [d.page_content for d in alice] == ["Alice ships on Fridays."]
    assert [d.page_content for d in bob] == ["Bob ships on Mondays."]
    with pytest.raises(ScopeError):
        retriever.invoke("ships")
    # Inside a chain the run's config reaches the retriever.
    chain = RunnableLambda(lambda q: q) | retriever
    assert [d.page_content for d in chain.invoke("ships", as_user("bob"))] == [
        "Bob ships on Mondays."
    ]
    docs = asyncio.run(retriever.ainvoke("ships", as_user("alice")))
    assert [d.page_content for d in docs] == ["Alice ships on Fridays."]
    batch = retriever.batch(["ships", "ships"], [as_user("alice"), as_user("bob")])
    assert [[d.page_content for d in b] for b in batch] == [
        ["Alice ships on Fridays."],
        ["Bob ships on Mondays."],
    ]


# -- graphs --------------------------------------------------------------------------------------


def turn(text: str) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": text}]}


def test_one_understanding_graph_serves_two_users(auto_lore: Userlore) -> None:
    graph = build_understanding_graph(auto_lore)
    out = graph.invoke(turn("Please always answer in bullet points."), as_user("alice"))
    assert out["scope"] == "alice" and "bullet points" in out["context"]
    out = graph.invoke(turn("What do you know?"), context={"user_id": "bob"})
    assert out["scope"] == "bob" and "bullet" not in out["context"]
    with pytest.raises(ScopeError, match="no user scope"):
        graph.invoke(turn("Who am I?"))
    # An input scope may not name someone other than the run's user.
    with pytest.raises(ScopeError, match="not the run's user"):
        graph.invoke({"scope": "alice", **turn("hi")}, as_user("bob"))
    assert graph.invoke({"scope": "alice", **turn("hi")})["scope"] == "alice"


def test_review_subgraph_resolves_the_run_user(lore: Userlore) -> None:
    lore.memory.remember("alice", "Alice likes vim.", path="tools", memory_type="semantic")
    assert lore.records.list("alice", state=RecordState.CANDIDATE)  # Alice's inbox is not empty
    out = build_review_subgraph(lore).invoke({}, as_user("bob"))
    assert out["scope"] == "bob" and out["pending"] == []


# -- LangChain's standard tool suites, one class per tool ----------------------------------------


@functools.cache
def seeded() -> tuple[Userlore, str]:
    lore = Userlore.open("sqlite://", config={"memory": {"mode": "auto"}})
    receipt = lore.memory.remember("u1", "Uses pnpm.", path="tooling", memory_type="semantic")
    lore.facets.update("u1", "style", "verbosity", "terse")
    return lore, receipt.id


@functools.cache
def built() -> dict[str, BaseTool]:
    lore, _ = seeded()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the current keywords never warn
        tools = make_memory_tools(lore, default_scope="u1") + make_facet_tools(
            lore, default_scope="u1"
        )
    return by_name(tools)


def example(name: str) -> dict[str, Any]:
    _, rid = seeded()
    key = {"facet_class": "style", "key": "verbosity"}
    return {
        "remember": {"content": "Prefers tabs.", "path": "style", "memory_type": "semantic"},
        "recall": {"query": "pnpm", "k": 2},
        "update_memory": {"id": rid, "content": "Uses pnpm 9."},
        "forget": {"id": rid},
        "list_facets": {"facet_class": "style"},
        "get_facet": key,
        "update_facet": {**key, "value": "terse"},
        "pin_facet": key,
        "unpin_facet": key,
        "forget_facet": key,
    }.get(name, {})


def _suite(name: str) -> None:
    class Props:
        @property
        def tool_constructor(self) -> BaseTool:
            return built()[name]

        @property
        def tool_constructor_params(self) -> dict[str, Any]:
            return {}

        @property
        def tool_invoke_params_example(self) -> dict[str, Any]:
            return example(name)

    for base, prefix in ((ToolsUnitTests, "TestUnit"), (ToolsIntegrationTests, "TestStandard")):
        title = "".join(part.title() for part in name.split("_"))
        globals()[f"{prefix}{title}"] = type(f"{prefix}{title}", (Props, base), {})


for _name in (*MEMORY_TOOL_NAMES, *FACET_TOOL_NAMES):
    _suite(_name)


def test_every_tool_has_both_suites() -> None:
    suites = {k for k in globals() if k.startswith(("TestUnit", "TestStandard"))}
    assert len(suites) == 2 * (len(MEMORY_TOOL_NAMES) + len(FACET_TOOL_NAMES))
