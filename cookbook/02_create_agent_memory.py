"""Governed memory for a ``create_agent`` agent: plan, inject, observe.

``UserloreMiddleware`` plans the user's context before each model call, adds the fenced
``<user-context>`` block to the system message (never to the stored history) and observes each
user turn afterwards. Runs offline with a fake chat model:

    python cookbook/02_create_agent_memory.py
    python cookbook/02_create_agent_memory.py --model openai:gpt-4o-mini   # a real model
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import Any

from langchain.agents import create_agent
from langchain_core.language_models import BaseChatModel
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatResult
from langgraph.checkpoint.memory import InMemorySaver

from userlore import RecordState, Userlore
from userlore.integrations import UserloreMiddleware


class FakeModel(GenericFakeChatModel):
    """Scripted replies; remembers the system message of the last call so we can show it."""

    last_system: str = ""

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        self.last_system = "\n".join(m.text for m in messages if m.type == "system")
        return super()._generate(messages, *args, **kwargs)


def build_model(name: str | None) -> BaseChatModel:
    if name:
        from langchain.chat_models import init_chat_model

        model = init_chat_model(name)
        assert isinstance(model, BaseChatModel)
        return model
    replies: Iterator[AIMessage] = iter(
        [
            AIMessage("Got it: bullet points from now on, and pnpm for packages."),
            AIMessage("- Run `pnpm add <package>`\n- Commit the updated lockfile"),
        ]
    )
    return FakeModel(messages=replies)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="provider:name for a real model, e.g. openai:gpt-4o-mini")
    args = parser.parse_args()

    lore = Userlore.open("sqlite://", config={"memory": {"mode": "confirmWrite"}})
    model = build_model(args.model)
    agent = create_agent(
        model,
        tools=[],
        system_prompt="You are a concise coding assistant.",
        middleware=[memory := UserloreMiddleware(lore)],
        checkpointer=InMemorySaver(),
    )
    config = {"configurable": {"thread_id": "chat-1"}}
    context = {"user_id": "ana"}  # whose memory: runtime context, else configurable, else default

    first = agent.invoke(
        {
            "messages": [
                {"role": "user", "content": "Please always answer in bullet points. I use pnpm."}
            ]
        },
        config,
        context=context,
    )
    print("assistant:", first["messages"][-1].text)
    memory.wait_idle()  # the turn's observation runs off the turn, on a background thread
    candidates = lore.records.list("ana", state=RecordState.CANDIDATE)
    for record in candidates:
        print(f"candidate: {record.canonical_key} = {record.value!r}  ({record.id})")

    # confirmWrite: a person approves (see 03_review_inbox.py for the LangGraph way).
    for record in candidates:
        lore.records.approve("ana", record.id)
    print(f"approved {len(candidates)} candidate(s)")

    second = agent.invoke(
        {"messages": [{"role": "user", "content": "How do I add a dependency?"}]},
        config,
        context=context,
    )
    print("assistant:", second["messages"][-1].text)
    if isinstance(model, FakeModel):
        print("the model's system message on turn 2:")
        print(model.last_system)
        assert "<user-context>" in model.last_system
    history = agent.get_state(config).values["messages"]
    leaked = any("<user-context>" in m.text for m in history)
    print(f"stored history: {len(history)} messages; contains the context block: {leaked}")
    assert not leaked
    lore.close()


if __name__ == "__main__":
    main()
