"""``UserloreMiddleware`` inside ``create_agent``, end to end with a fake chat model."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, SystemMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.types import Command

from tests.conftest import sequential_ids
from tests.support.chat_models import ScriptedChatModel
from userlore import RecordState, ScopeError, Userlore
from userlore.extract.reviewer import LLMReviewer
from userlore.graph import build_review_subgraph, embedded_checkpointer
from userlore.integrations import MEMORY_ACCESS_SECTION, UserloreMiddleware
from userlore.integrations.middleware import _merge

FENCE = "<user-context>"


@tool
def recall(query: str) -> str:
    """Search the user's memory."""
    return "nothing found"


@tool
def lookup(query: str) -> str:
    """Look something up."""
    return "42"


def user(text: str) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": text}]}


class Settled:
    """An agent whose ``invoke``/``ainvoke`` return once the middleware's background work (the
    observations and reviews it queued off the turn) has run, so tests can read its effects."""

    def __init__(self, agent: Any, middleware: UserloreMiddleware) -> None:
        self.agent = agent
        self.middleware = middleware

    def invoke(self, *args: Any, **kw: Any) -> Any:
        out = self.agent.invoke(*args, **kw)
        assert self.middleware.wait_idle(30)
        return out

    async def ainvoke(self, *args: Any, **kw: Any) -> Any:
        out = await self.agent.ainvoke(*args, **kw)
        assert self.middleware.wait_idle(30)
        return out

    def __getattr__(self, name: str) -> Any:
        return getattr(self.agent, name)


def agent_for(lore: Userlore, model: ScriptedChatModel, **kw: Any) -> Any:
    tools = kw.pop("tools", [])
    checkpointer = kw.pop("checkpointer", None) or InMemorySaver()
    middleware = UserloreMiddleware(lore, **kw)
    agent = create_agent(
        model,
        tools=tools,
        system_prompt="You are a helpful assistant.",
        middleware=[middleware],
        checkpointer=checkpointer,
    )
    return Settled(agent, middleware)


def test_end_to_end_candidate_approval_injection_and_clean_history(
    tmp_path: Path, clock: Any
) -> None:
    """A turn yields a candidate; Command(resume=...) approves it; the next model call sees the
    fenced block in its system message; neither history nor checkpoints contain it."""
    lore = Userlore.open(f"sqlite:///{tmp_path / 'lore.db'}", clock=clock, ids=sequential_ids())
    saver = embedded_checkpointer(lore)
    assert isinstance(saver, SqliteSaver)
    model = ScriptedChatModel(replies=["Noted.", "- step one\n- step two"])
    agent = agent_for(lore, model, checkpointer=saver)
    chat = {"configurable": {"thread_id": "chat-1"}}
    ctx = {"user_id": "ana"}

    agent.invoke(user("Please always answer in bullet points."), chat, context=ctx)
    [candidate] = lore.records.list("ana", state=RecordState.CANDIDATE)
    assert candidate.canonical_key == "style/format"
    assert FENCE not in model.system_texts()[0]  # nothing active yet

    inbox = build_review_subgraph(lore, checkpointer=saver)
    review = {"configurable": {"thread_id": "inbox-ana"}}
    pending = inbox.invoke({"scope": "ana"}, review, version="v2")
    [intr] = pending.interrupts
    assert intr.value["action_requests"][0]["args"]["record_id"] == candidate.id
    inbox.invoke(Command(resume={"decisions": [{"type": "approve"}]}), review)
    assert lore.records.get("ana", candidate.id).state is RecordState.ACTIVE

    agent.invoke(user("How do I deploy the app?"), chat, context=ctx)
    system = model.system_texts()[-1]
    assert system.startswith("You are a helpful assistant.")
    assert FENCE in system and "bullet points" in system and candidate.id in system

    history = agent.get_state(chat).values["messages"]
    assert len(history) == 4
    assert all(FENCE not in m.text and not isinstance(m, SystemMessage) for m in history)
    for snapshot in agent.get_state_history(chat):
        assert all(FENCE not in m.text for m in snapshot.values.get("messages", []))
        plan = snapshot.values.get("userlore_plan")
        assert plan is None or set(plan) == {"key", "turn"}
    blobs = [
        row
        for table in ("checkpoints", "writes")
        for row in saver.conn.execute(f"SELECT * FROM {table}")
    ]
    assert blobs and not any(
        b"user-context" in bytes(c) for r in blobs for c in r if isinstance(c, bytes | memoryview)
    )
    saver.conn.close()
    lore.close()


def test_plan_is_reused_across_a_turns_tool_loop(auto_lore: Userlore) -> None:
    auto_lore.observe("u1", "user", "Please always answer in bullet points.")
    calls_tool = AIMessage(
        content="", tool_calls=[{"name": "lookup", "args": {"query": "x"}, "id": "call-1"}]
    )
    model = ScriptedChatModel(replies=[calls_tool, "done"])
    agent = agent_for(auto_lore, model, tools=[lookup], default_scope="u1")
    agent.invoke(user("What is the answer?"), {"configurable": {"thread_id": "t"}})
    assert len(model.calls) == 2
    assert all("bullet points" in s for s in model.system_texts())
    assert len(auto_lore.traces.list("u1", event_type="plan")) == 1  # planned once per turn


def test_recall_tool_adds_the_memory_access_instruction(lore: Userlore) -> None:
    with_recall = ScriptedChatModel(replies=["ok"])
    agent_for(lore, with_recall, tools=[recall, lookup], default_scope="u1").invoke(
        user("hi"), {"configurable": {"thread_id": "a"}}
    )
    without = ScriptedChatModel(replies=["ok"])
    agent_for(lore, without, tools=[lookup], default_scope="u1").invoke(
        user("hi"), {"configurable": {"thread_id": "b"}}
    )
    assert MEMORY_ACCESS_SECTION in with_recall.system_texts()[0]
    assert MEMORY_ACCESS_SECTION not in without.system_texts()[0]


@dataclass
class Ctx:
    user_id: str


def test_scope_comes_from_context_then_configurable_then_default(make_lore: Any) -> None:
    def scope_used(context: Any, configurable: dict[str, Any], default: str | None) -> str:
        lore = make_lore("auto")
        agent = agent_for(lore, ScriptedChatModel(), default_scope=default)
        config = {"configurable": {"thread_id": "t", **configurable}}
        agent.invoke(user("I use pnpm."), config, context=context)
        [scope] = [s for s in ("a", "b", "c") if lore.records.list(s)]
        return scope

    assert scope_used({"user_id": "a"}, {"user_id": "b"}, "c") == "a"
    assert scope_used(Ctx("a"), {"user_id": "b"}, "c") == "a"
    assert scope_used(None, {"user_id": "b"}, "c") == "b"
    assert scope_used({"other": "x"}, {}, "c") == "c"
    with pytest.raises(ScopeError, match="no user scope"):
        agent_for(make_lore(), ScriptedChatModel()).invoke(
            user("hi"), {"configurable": {"thread_id": "none"}}
        )
    with pytest.raises(ScopeError):
        agent_for(make_lore(), ScriptedChatModel()).invoke(
            user("hi"), {"configurable": {"thread_id": "bad"}}, context={"user_id": "no spaces!"}
        )


def test_memory_off_neither_plans_nor_observes(make_lore: Any) -> None:
    lore = make_lore("off")
    model = ScriptedChatModel()
    agent_for(lore, model, default_scope="u1").invoke(
        user("Please always answer in bullet points."), {"configurable": {"thread_id": "t"}}
    )
    assert FENCE not in model.system_texts()[0]
    assert lore.records.list("u1") == [] and lore.traces.list("u1") == []


def test_reviewer_runs_in_after_agent_on_cadence(make_lore: Any) -> None:
    lore = make_lore("auto", understanding={"reviewIntervalTurns": 2})
    verdict = {
        "kind": "goal",
        "content": "The user is preparing a product launch.",
        "canonical_key": "goal/launch",
        "value": None,
        "confidence": 0.6,
        "sensitivity": "none",
        "evidence": "the launch next week",
    }
    reviewer_model = ScriptedChatModel(
        replies=[AIMessage(content=json.dumps({"candidates": [verdict]}))]
    )
    agent = agent_for(
        lore, ScriptedChatModel(), default_scope="u1", reviewer=LLMReviewer(reviewer_model)
    )
    thread = {"configurable": {"thread_id": "t"}}
    agent.invoke(user("hello"), thread)
    assert reviewer_model.calls == []
    agent.invoke(user("I'm nervous about the launch next week"), thread)
    assert len(reviewer_model.calls) == 1
    agent.invoke(user("ok"), thread)
    assert len(reviewer_model.calls) == 1
    assert [r.canonical_key for r in lore.records.list("u1", kind="goal")] == ["goal/launch"]


def test_observation_is_idempotent_per_message(lore: Userlore) -> None:
    agent = agent_for(lore, ScriptedChatModel(), default_scope="u1")
    thread = {"configurable": {"thread_id": "t"}}
    agent.invoke(user("I use pnpm."), thread)
    agent.invoke(user("thanks"), thread)  # earlier turns are not observed again
    [rec] = lore.records.list("u1")
    assert rec.evidence_count == 1


def test_system_message_content_blocks_are_kept() -> None:
    blocks = SystemMessage(content=[{"type": "text", "text": "Base."}])
    merged = _merge(blocks, "extra")
    assert merged.content == [{"type": "text", "text": "Base."}, {"type": "text", "text": "extra"}]
    assert _merge(None, "extra").content == "extra"
    assert _merge(SystemMessage(content="Base."), "extra").content == "Base.\n\nextra"


async def test_async_agent(auto_lore: Userlore) -> None:
    auto_lore.observe("u1", "user", "Please always answer in bullet points.")
    model = ScriptedChatModel(replies=["ok"])
    agent = agent_for(auto_lore, model, tools=[recall])
    await agent.ainvoke(
        user("I use pnpm."), {"configurable": {"thread_id": "t"}}, context={"user_id": "u1"}
    )
    system = model.system_texts()[0]
    assert "bullet points" in system and MEMORY_ACCESS_SECTION in system
    assert {r.canonical_key for r in auto_lore.records.list("u1")} == {
        "style/format",
        "tooling/package_manager",
    }


def test_oversized_turn_is_skipped_not_fatal(lore: Userlore) -> None:
    # With correction handling on: an oversized turn is neither a correction nor a failure.
    agent = agent_for(lore, ScriptedChatModel(), default_scope="u1")
    agent.invoke(user("I use pnpm. " + "log line\n" * 5000), {"configurable": {"thread_id": "t"}})
    assert lore.records.list("u1") == []
    [trace] = lore.traces.list("u1", event_type="observe")
    assert trace["reason_code"] == "turn_too_long"


def test_unstorable_turn_is_skipped_not_fatal(lore: Userlore) -> None:
    # A NUL or an unpaired surrogate is a typed refusal for observe(); in an agent turn it must
    # neither fail the turn nor be stored: the turn is skipped with a trace, the plan still runs.
    model = ScriptedChatModel(replies=["ok"])
    agent = agent_for(lore, model, default_scope="u1")
    for text in ("I use pnpm.\x00", "I use pnpm. \ud800"):
        agent.invoke(user(text), {"configurable": {"thread_id": "t"}})
    assert lore.records.list("u1") == []
    traces = lore.traces.list("u1", event_type="observe")
    assert [t["reason_code"] for t in traces] == ["turn_unstorable", "turn_unstorable"]
    assert len(model.system_texts()) == 2
