"""Interop proved, not assumed: other libraries' memory code runs unmodified on ``UserloreStore``.

Each test compiles one agent or graph, serves two users from it (sync ``invoke`` and async
``ainvoke``, SQLite and PostgreSQL), and proves neither sees the other's memories:

- LangMem's ``create_manage_memory_tool`` / ``create_search_memory_tool`` with its own
  ``("memories", "{langgraph_user_id}")`` layout, inside ``create_agent``;
- Deep Agents' ``StoreBackend`` long-term memory (``/memories/`` routed to the store) with its
  per-user namespace factory, and with a user-free ``("filesystem",)`` namespace;
- the LangChain/LangGraph docs' long-term memory examples: ``create_agent(store=...)`` with tools
  reading ``runtime.store`` (``ToolRuntime``), and ``runtime.store`` inside a ``StateGraph`` node.

Models are scripted fakes (``tests/support/chat_models.py``); nothing touches the network.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain.tools import ToolRuntime, tool
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.runtime import Runtime

from tests.support.chat_models import ScriptedChatModel
from userlore import Userlore
from userlore.integrations.langgraph_store import UserloreStore
from userlore.integrations.scope import ScopeResolver

ALICE, BOB = "alice", "bob"


@pytest.fixture(params=["sync", "async"])
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def lore(make_lore: Callable[..., Userlore]) -> Userlore:
    return make_lore("auto")


def call(*name_args: tuple[str, dict[str, Any]]) -> AIMessage:
    """A scripted model turn calling the named tools."""
    return AIMessage(
        content="",
        tool_calls=[
            {"name": name, "args": args, "id": f"call_{uuid.uuid4().hex[:8]}"}
            for name, args in name_args
        ],
    )


def run(graph: Any, mode: str, inputs: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    if mode == "sync":
        return graph.invoke(inputs, **kwargs)  # type: ignore[no-any-return]
    return asyncio.run(graph.ainvoke(inputs, **kwargs))  # type: ignore[no-any-return]


def tool_texts(result: dict[str, Any]) -> str:
    messages: list[BaseMessage] = result["messages"]
    return "\n".join(str(m.content) for m in messages if isinstance(m, ToolMessage))


def ask(text: str) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": text}]}


# -- LangMem ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make_store",
    [
        lambda lore: UserloreStore(lore, scope=ScopeResolver(key="langgraph_user_id")),
        lambda lore: UserloreStore(lore, namespace_template=("memories", "{langgraph_user_id}")),
    ],
    ids=["run-names-user", "template"],
)
def test_langmem_memory_tools(
    lore: Userlore, mode: str, make_store: Callable[[Userlore], UserloreStore]
) -> None:
    from langmem import create_manage_memory_tool, create_search_memory_tool

    namespace = ("memories", "{langgraph_user_id}")  # LangMem's documented layout
    model = ScriptedChatModel(
        replies=[
            call(("manage_memory", {"content": "Prefers golang for backend work"})),
            "Saved.",
            call(("manage_memory", {"content": "Prefers rust for backend work"})),
            "Saved.",
            call(("search_memory", {"query": "backend"})),
            "Found.",
            call(("search_memory", {"query": "backend"})),
            "Found.",
        ]
    )
    agent = create_agent(
        model,
        tools=[create_manage_memory_tool(namespace), create_search_memory_tool(namespace)],
        store=make_store(lore),
    )

    def config(user: str) -> dict[str, Any]:
        return {"configurable": {"langgraph_user_id": user}}

    run(agent, mode, ask("I like golang"), config=config(ALICE))
    run(agent, mode, ask("I like rust"), config=config(BOB))
    alice = tool_texts(run(agent, mode, ask("What do I use?"), config=config(ALICE)))
    bob = tool_texts(run(agent, mode, ask("What do I use?"), config=config(BOB)))
    assert "golang" in alice and "rust" not in alice
    assert "rust" in bob and "golang" not in bob
    assert [r.content for r in lore.records.list(ALICE)] == ["Prefers golang for backend work"]
    assert [r.content for r in lore.records.list(BOB)] == ["Prefers rust for backend work"]
    assert {r.path for r in lore.records.list(ALICE)} == {"memories"}


# -- Deep Agents --------------------------------------------------------------------------------


@dataclass
class UserContext:
    user_id: str


@pytest.mark.parametrize(
    "namespace",
    [
        lambda rt: (rt.context.user_id, "filesystem"),  # Deep Agents' per-user example layout
        lambda rt: ("filesystem",),  # no user label: the run names the user
    ],
    ids=["user-first", "user-free"],
)
def test_deepagents_store_backend_long_term_memory(
    lore: Userlore, mode: str, namespace: Callable[[Any], tuple[str, ...]]
) -> None:
    from deepagents import create_deep_agent
    from deepagents.backends import CompositeBackend, StateBackend, StoreBackend

    path = "/memories/preferences.md"
    model = ScriptedChatModel(
        replies=[
            call(("write_file", {"file_path": path, "content": "Alice drinks green tea"})),
            "Noted.",
            call(("write_file", {"file_path": path, "content": "Bob drinks black coffee"})),
            "Noted.",
            call(("read_file", {"file_path": path})),
            "Read.",
            call(("read_file", {"file_path": path})),
            "Read.",
        ]
    )
    agent = create_deep_agent(
        model=model,
        backend=CompositeBackend(
            default=StateBackend(), routes={"/memories/": StoreBackend(namespace=namespace)}
        ),
        store=UserloreStore(lore),
        context_schema=UserContext,
    )
    for user in (ALICE, BOB):
        run(agent, mode, ask("remember my drink"), context=UserContext(user))
    alice = tool_texts(run(agent, mode, ask("my drink?"), context=UserContext(ALICE)))
    bob = tool_texts(run(agent, mode, ask("my drink?"), context=UserContext(BOB)))
    assert "green tea" in alice and "coffee" not in alice
    assert "black coffee" in bob and "tea" not in bob
    for user, drink in ((ALICE, "green tea"), (BOB, "black coffee")):
        [record] = lore.records.list(user)
        assert drink in record.content and record.path == "filesystem"


# -- LangChain / LangGraph docs: long-term memory -------------------------------------------------


def test_docs_create_agent_tools_read_runtime_store(lore: Userlore, mode: str) -> None:
    """LangChain's "long-term memory" example: tools use ``runtime.store`` and the context."""

    @tool
    def get_user_info(runtime: ToolRuntime[UserContext]) -> str:
        """Look up user info."""
        store = runtime.store
        assert store is not None
        user_id = runtime.context.user_id
        user_info = store.get(("users",), user_id)
        return str(user_info.value) if user_info else "Unknown user"

    @tool
    def save_user_info(name: str, language: str, runtime: ToolRuntime[UserContext]) -> str:
        """Save user info."""
        store = runtime.store
        assert store is not None
        user_id = runtime.context.user_id
        store.put(("users",), user_id, {"name": name, "language": language})
        return "Successfully saved user info."

    model = ScriptedChatModel(
        replies=[
            call(("save_user_info", {"name": "Alice", "language": "English"})),
            "Saved.",
            call(("save_user_info", {"name": "Bob", "language": "German"})),
            "Saved.",
            call(("get_user_info", {})),
            "Here.",
            call(("get_user_info", {})),
            "Here.",
        ]
    )
    agent = create_agent(
        model,
        tools=[get_user_info, save_user_info],
        store=UserloreStore(lore),
        context_schema=UserContext,
    )
    for user in (ALICE, BOB):
        run(agent, mode, ask("save my info"), context=UserContext(user))
    alice = tool_texts(run(agent, mode, ask("who am I?"), context=UserContext(ALICE)))
    bob = tool_texts(run(agent, mode, ask("who am I?"), context=UserContext(BOB)))
    assert "'name': 'Alice'" in alice and "Bob" not in alice
    assert "'name': 'Bob'" in bob and "Alice" not in bob
    # The example keys the item by user id under ("users",): a label, not a pooled namespace.
    assert [r.scope for r in lore.records.list(ALICE)] == [ALICE]
    assert [r.scope for r in lore.records.list(BOB)] == [BOB]


def test_docs_runtime_store_in_a_node(lore: Userlore, mode: str) -> None:
    """LangGraph's memory example: a node searches and writes ``runtime.store`` itself."""
    model = ScriptedChatModel(replies=["ok"])
    seen: dict[str, str] = {}

    def call_model(state: MessagesState, runtime: Runtime[UserContext]) -> dict[str, Any]:
        user_id = runtime.context.user_id
        namespace = (user_id, "memories")
        assert runtime.store is not None
        memories = runtime.store.search(namespace, query=str(state["messages"][-1].content))
        info = "\n".join([d.value["data"] for d in memories])
        seen[user_id] = info
        system_msg = f"You are a helpful assistant talking to the user. User info: {info}"
        last_message = state["messages"][-1]
        if "remember" in str(last_message.content).lower():
            memory = f"User name is {user_id.capitalize()}"
            runtime.store.put(namespace, str(uuid.uuid4()), {"data": memory})
        response = model.invoke([{"role": "system", "content": system_msg}, *state["messages"]])
        return {"messages": response}

    builder = StateGraph(MessagesState, context_schema=UserContext)
    builder.add_node("call_model", call_model)
    builder.add_edge(START, "call_model")
    graph = builder.compile(store=UserloreStore(lore))

    for user in (ALICE, BOB):
        run(
            graph,
            mode,
            ask("Hi! Remember: my name is whatever you were told"),
            context=UserContext(user),
        )
    for user in (ALICE, BOB):
        run(graph, mode, ask("what is my name?"), context=UserContext(user))
    assert seen == {ALICE: "User name is Alice", BOB: "User name is Bob"}
    assert [r.scope for r in lore.records.list(ALICE)] == [ALICE]
