"""A review inbox with LangGraph: interrupt, survive a restart, resume with decisions.

The review subgraph raises one ``interrupt()`` whose value is a LangChain ``HITLRequest`` (one
action request per pending candidate; approve / edit / reject) with a ``response_schema``. The
pending review lives in the SQLite checkpointer on the store's own file, so it survives a
restart. Runs offline:

    python cookbook/03_review_inbox.py
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command

from userlore import InvalidInputError, Userlore
from userlore.graph import build_review_subgraph, embedded_checkpointer

SCOPE = "ana"
THREAD = {"configurable": {"thread_id": "inbox-ana"}}


def open_inbox(url: str) -> tuple[Userlore, SqliteSaver, CompiledStateGraph[Any, Any, Any, Any]]:
    lore = Userlore.open(url, config={"memory": {"mode": "confirmWrite"}})
    saver = embedded_checkpointer(lore)
    assert isinstance(saver, SqliteSaver)
    return lore, saver, build_review_subgraph(lore, checkpointer=saver)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'userlore.db'}"

        # 1. A few turns produce candidates (confirmWrite keeps them pending).
        lore, saver, inbox = open_inbox(url)
        for turn in [
            "Please always answer in bullet points.",
            "I use pnpm.",
            "Never suggest jest to me.",
        ]:
            lore.observe(SCOPE, "user", turn, session_key="s1")

        # 2. The inbox interrupts with a HITLRequest.
        result = inbox.invoke({"scope": SCOPE}, THREAD, version="v2")
        [pending] = result.interrupts
        print("review_configs:", pending.value["review_configs"])
        for i, action in enumerate(pending.value["action_requests"]):
            print(f"  [{i}] {action['description']}")
        schema = pending.response_schema
        print("resume schema requires", schema["properties"]["decisions"]["minItems"], "decisions")

        # 3. Restart: drop everything; the pending review is in the database file.
        saver.conn.close()
        lore.close()
        del lore, saver, inbox
        lore, saver, inbox = open_inbox(url)
        print("after restart, waiting at:", inbox.get_state(THREAD).next)

        # 4. A malformed answer is refused and the review stays open.
        try:
            inbox.invoke(Command(resume={"decisions": [{"type": "approve"}]}), THREAD)
        except InvalidInputError as exc:
            print("refused:", str(exc).split(";")[0])

        # 5. Approve, edit, reject (in the order of the action requests).
        decisions = {
            "decisions": [
                {"type": "approve"},
                {
                    "type": "edit",
                    "edited_action": {
                        "name": "memory_candidate",
                        "args": {"content": "I use pnpm, never npm or yarn."},
                    },
                },
                {"type": "reject", "message": "I was joking about jest."},
            ]
        }
        done = inbox.invoke(Command(resume=decisions), THREAD, version="v2")
        for outcome in done.value["review_results"]:
            print(f"  {outcome['decision']:>7} -> {outcome['state']} ({outcome['record_id']})")

        plan = lore.plan_context(SCOPE, "how should I install packages?")
        print(plan.text)
        assert "never npm or yarn" in plan.text and "jest" not in plan.text
        saver.conn.close()
        lore.close()


if __name__ == "__main__":
    main()
