"""Corrections in the understanding graph and ratings through the create_agent middleware."""

from __future__ import annotations

from typing import Any

from langchain.agents import create_agent
from langgraph.checkpoint.memory import InMemorySaver

from tests.conftest import FakeClock
from tests.support.chat_models import ScriptedChatModel
from userlore import RecordState, Userlore
from userlore.graph import build_understanding_graph
from userlore.integrations import UserloreMiddleware

SCOPE = "u1"


def say(text: str, session: str = "t1") -> dict[str, Any]:
    return {
        "scope": SCOPE,
        "session_key": session,
        "messages": [{"role": "user", "content": text}],
    }


def test_graph_handles_a_correction_before_planning_the_turn(
    lore: Userlore, clock: FakeClock
) -> None:
    graph = build_understanding_graph(lore, checkpointer=InMemorySaver())
    thread = {"configurable": {"thread_id": "t1"}}
    first = graph.invoke(say("我喜欢简短的回答"), thread)
    assert first["correction"] is None
    [old_id] = [o["record_id"] for o in first["outcomes"]]
    lore.records.approve(SCOPE, old_id)
    clock.advance(minutes=1)
    second = graph.invoke(say("解释一下装饰器"), thread)
    assert "简短" in second["context"] and second["correction"] is None
    clock.advance(minutes=1)

    third = graph.invoke(say("你记错了我的偏好，我更喜欢详细解释"), thread)
    correction = third["correction"]
    assert correction["reason"] == "recorded" and correction["paused"] == [old_id]
    assert correction["target_trace_id"] == second["trace_id"]  # the previous turn's plan
    [replacement] = correction["replacements"]
    assert replacement["supersedes_record_id"] == old_id
    # extract saw the same statement afterwards: it reinforced the replacement, no twin
    assert [o["record_id"] for o in third["outcomes"]] == [replacement["record_id"]]
    assert "简短" not in third["context"]  # the corrected understanding is out of this turn
    assert lore.records.get(SCOPE, old_id).state is RecordState.NEEDS_REVIEW
    assert lore.records.get(SCOPE, replacement["record_id"]).supersedes_record_id == old_id


def agent_for(lore: Userlore, model: ScriptedChatModel) -> tuple[Any, UserloreMiddleware]:
    middleware = UserloreMiddleware(lore)
    agent = create_agent(model, tools=[], middleware=[middleware], checkpointer=InMemorySaver())
    return agent, middleware


def learned(lore: Userlore) -> str:
    [record] = lore.observe(SCOPE, "user", "I prefer terse answers.").candidates
    return lore.records.approve(SCOPE, record.id).id


def test_middleware_rates_the_last_response(lore: Userlore, clock: FakeClock) -> None:
    rid = learned(lore)
    model = ScriptedChatModel(replies=["first answer", "second answer"])
    agent, middleware = agent_for(lore, model)
    chat, ctx = {"configurable": {"thread_id": "chat-1"}}, {"user_id": SCOPE}

    agent.invoke(
        {"messages": [{"role": "user", "content": "explain decorators"}]}, chat, context=ctx
    )
    assert "terse" in model.system_texts()[-1]
    clock.advance(seconds=5)
    first = middleware.rate_last_response("not_helpful", thread_id="chat-1", user_id=SCOPE)
    assert first.selected == (rid,) and not first.queued_for_review
    clock.advance(minutes=1)
    agent.invoke(
        {"messages": [{"role": "user", "content": "explain generators"}]}, chat, context=ctx
    )
    clock.advance(seconds=5)
    second = middleware.rate_last_response("not_helpful", thread_id="chat-1", user_id=SCOPE)
    assert second.trace_id != first.trace_id
    assert (
        second.queued_for_review and lore.records.get(SCOPE, rid).state is RecordState.NEEDS_REVIEW
    )


async def test_middleware_async_rating(lore: Userlore, clock: FakeClock) -> None:
    learned(lore)
    model = ScriptedChatModel(replies=["answer"])
    agent, _ = agent_for(lore, model)
    middleware = UserloreMiddleware(lore, default_scope=SCOPE)
    chat, ctx = {"configurable": {"thread_id": "chat-2"}}, {"user_id": SCOPE}
    await agent.ainvoke({"messages": [{"role": "user", "content": "hi"}]}, chat, context=ctx)
    result = await middleware.arate_last_response("helpful", thread_id="chat-2")
    assert result.feedback == "helpful" and result.changed


def test_middleware_handles_a_correction_before_planning(lore: Userlore, clock: FakeClock) -> None:
    rid = learned(lore)
    model = ScriptedChatModel(replies=["Use terse answers, as you prefer.", "Understood."])
    agent, _ = agent_for(lore, model)
    chat, ctx = {"configurable": {"thread_id": "chat-3"}}, {"user_id": SCOPE}
    agent.invoke(
        {"messages": [{"role": "user", "content": "explain decorators"}]}, chat, context=ctx
    )
    [plan] = lore.traces.list(SCOPE, event_type="plan")
    clock.advance(minutes=1)
    agent.invoke(
        {"messages": [{"role": "user", "content": "I never said that about me"}]}, chat, context=ctx
    )
    assert "terse" not in model.system_texts()[-1]  # paused before this turn was planned
    assert lore.records.get(SCOPE, rid).state is RecordState.NEEDS_REVIEW
    [correction] = lore.traces.list(SCOPE, event_type="correction")
    assert correction["parent_trace_id"] == plan["id"]
    # the task turn after it is not a correction and plans normally
    clock.advance(minutes=1)
    agent.invoke(
        {"messages": [{"role": "user", "content": "the command failed"}]}, chat, context=ctx
    )
    assert len(lore.traces.list(SCOPE, event_type="correction")) == 1
