"""One agent, many users: compile once, name the user per run.

A LangChain app builds its agent once and serves everyone with it. Nothing in userlore binds a
user when it is built: the middleware, the memory tools and the facet tools all read the user of
each run from ``context={"user_id": ...}`` (or ``config["configurable"]["user_id"]``, or the
LangGraph Server identity). A run that names nobody is refused, never pooled. Runs offline with a
scripted fake chat model:

    python cookbook/09_one_agent_many_users.py
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.runnables import Runnable

from userlore import Userlore
from userlore.integrations import UserloreMiddleware
from userlore.integrations.facet_tools import make_facet_tools
from userlore.integrations.tools import make_memory_tools


@dataclass
class UserContext:
    user_id: str


class ScriptedModel(GenericFakeChatModel):
    """Scripted replies; tool calls included, so it stands in for a tool-calling model."""

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Runnable[Any, Any]:
        return self


def call(name: str, args: dict[str, Any]) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": name, "args": args, "id": f"call-{name}"}])


def main() -> None:
    lore = Userlore.open("sqlite://", config={"memory": {"mode": "auto"}})
    replies: Iterator[AIMessage] = iter(
        [
            # Alice's run: she asks the agent to remember something.
            call(
                "remember",
                {
                    "content": "Deploys go out with Argo CD.",
                    "path": "ops",
                    "memory_type": "semantic",
                },
            ),
            AIMessage("Saved."),
            # Bob's run: he asks what he deploys with; his memory has nothing on it.
            call("recall", {"query": "deploys Argo"}),
            AIMessage("I don't know how you deploy yet."),
            # Alice again: her memory answers.
            call("recall", {"query": "deploys Argo"}),
            AIMessage("You deploy with Argo CD."),
            # Bob sets a preference through a facet tool.
            call("update_facet", {"facet_class": "style", "key": "verbosity", "value": "terse"}),
            AIMessage("Noted: terse answers."),
        ]
    )
    # Built once: one tools list, one middleware, one compiled agent for every user.
    tools = make_memory_tools(lore, agent_id="support-bot") + make_facet_tools(
        lore, include=["update_facet", "about_me"]
    )
    agent = create_agent(
        ScriptedModel(messages=replies),
        tools=tools,
        middleware=[UserloreMiddleware(lore)],
        context_schema=UserContext,
    )

    def run(user: str, text: str) -> str:
        out = agent.invoke(
            {"messages": [{"role": "user", "content": text}]}, context=UserContext(user)
        )
        [result] = [m for m in out["messages"] if isinstance(m, ToolMessage)]
        print(f"{user}: {text!r} -> {result.name}: {str(result.content)[:90]}...")
        return str(result.content)

    run("alice", "Remember that we deploy with Argo CD.")
    bob = json.loads(run("bob", "What do I deploy with?"))
    alice = json.loads(run("alice", "What do I deploy with?"))
    run("bob", "Keep your answers terse, please.")

    print("alice's memories:", [r.content for r in lore.records.list("alice")])
    print("bob's memories:", [r.content for r in lore.records.list("bob")])
    print("bob recall citations:", bob["citations"])
    print("alice recall citations:", len(alice["citations"]))
    print("bob's facets:", [(f.key, f.value) for f in lore.facets.list("bob")])
    print("alice's facets:", [(f.key, f.value) for f in lore.facets.list("alice")])
    assert bob["citations"] == [] and len(alice["citations"]) == 1

    # A run that names no user is refused (the tool tells the model), never pooled.
    lonely = make_memory_tools(lore, include=["recall"])[0]
    print("no user:", lonely.invoke({"query": "Argo"}))
    lore.close()


if __name__ == "__main__":
    main()
