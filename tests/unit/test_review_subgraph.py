"""The review subgraph: a HITLRequest interrupt, validated resumes, governed decisions."""

from __future__ import annotations

import gc
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any, TypedDict

import pytest
from langchain.agents.middleware.human_in_the_loop import HITLRequest, HITLResponse
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph import START, StateGraph
from langgraph.types import Command
from pydantic import TypeAdapter
from sqlalchemy import select

from tests.conftest import sequential_ids
from userlore import InvalidInputError, RecordState, Userlore
from userlore.graph import build_review_subgraph, embedded_checkpointer
from userlore.graph.hitl import ACTION_NAME
from userlore.store.schema import ReviewDecision

GH_TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
CONFIG = {"configurable": {"thread_id": "review-1"}}


def seed(lore: Userlore, scope: str = "u1") -> list[str]:
    lore.observe(scope, "user", "Please always answer in bullet points.")
    lore.observe(scope, "user", "I use pnpm.")
    lore.observe(scope, "user", "Never suggest jest to me.")
    return [r.id for r in reversed(lore.records.list(scope, state=RecordState.CANDIDATE))]


def approve(n: int) -> dict[str, Any]:
    return {"decisions": [{"type": "approve"}] * n}


def edit(content: str) -> dict[str, Any]:
    return {"type": "edit", "edited_action": {"name": ACTION_NAME, "args": {"content": content}}}


def start(lore: Userlore, scope: str = "u1") -> tuple[Any, Any]:
    graph = build_review_subgraph(lore, checkpointer=InMemorySaver())
    out = graph.invoke({"scope": scope}, CONFIG, version="v2")
    return graph, out


def test_interrupt_is_a_langchain_hitl_request_with_response_schema(lore: Userlore) -> None:
    ids = seed(lore)
    _, out = start(lore)
    [intr] = out.interrupts
    TypeAdapter(HITLRequest).validate_python(intr.value)  # LangChain's own TypedDict
    assert [a["args"]["record_id"] for a in intr.value["action_requests"]] == ids
    first = intr.value["action_requests"][0]
    assert first["name"] == ACTION_NAME and "bullet points" in first["description"]
    assert first["args"]["evidence"] and first["args"]["version"] == 1
    assert intr.value["review_configs"] == [
        {"action_name": ACTION_NAME, "allowed_decisions": ["approve", "edit", "reject"]}
    ]
    schema = intr.response_schema
    assert schema == intr.value["response_schema"]
    assert schema["properties"]["decisions"]["minItems"] == 3
    # A LangChain HITLResponse with three decisions is exactly what the schema asks for.
    TypeAdapter(HITLResponse).validate_python(approve(3))


def test_decisions_apply_through_the_governed_api(lore: Userlore) -> None:
    style, tooling, veto = seed(lore)
    graph, _ = start(lore)
    resume = {
        "decisions": [
            {"type": "approve"},
            edit("I use pnpm, never npm."),
            {"type": "reject", "message": "not true"},
        ]
    }
    out = graph.invoke(Command(resume=resume), CONFIG, version="v2")
    assert out.interrupts == ()
    assert [(r["decision"], r["applied"], r["state"]) for r in out.value["review_results"]] == [
        ("approve", True, "active"),
        ("edit", True, "active"),
        ("reject", True, "rejected"),
    ]
    edited = lore.records.get("u1", tooling)
    assert edited.content == "I use pnpm, never npm." and edited.version == 2
    assert lore.records.get("u1", veto).state is RecordState.REJECTED
    with lore.store.transaction() as s:
        decisions = {d.record_id: d.decision for d in s.scalars(select(ReviewDecision))}
    assert decisions == {style: "approve", tooling: "edit", veto: "reject"}
    assert "never npm" in lore.plan_context("u1", "which package manager?").text


@pytest.mark.parametrize(
    "bad",
    [
        {"decisions": [{"type": "approve"}]},  # wrong count
        {"decisions": [{"type": "approve"}] * 4},
        {"decisions": [{"type": "respond", "message": "x"}] * 3},  # not allowed here
        {"decisions": [{"type": "approve", "extra": 1}] * 3},
        {"decisions": [edit(""), {"type": "approve"}, {"type": "approve"}]},
        {"decisions": [edit(f"token {GH_TOKEN}"), {"type": "approve"}, {"type": "approve"}]},
        {
            "decisions": [
                {"type": "edit", "edited_action": {"name": "other", "args": {"content": "x"}}},
                {"type": "approve"},
                {"type": "approve"},
            ]
        },
        "approve all",
        {"decision": "approve"},
    ],
)
def test_bad_resume_is_refused_and_the_review_can_be_answered_again(
    lore: Userlore, bad: Any
) -> None:
    ids = seed(lore)
    graph, _ = start(lore)
    with pytest.raises(InvalidInputError, match="invalid review decision") as info:
        graph.invoke(Command(resume=bad), CONFIG)
    assert GH_TOKEN not in str(info.value)
    assert all(
        lore.records.get("u1", i).state is RecordState.CANDIDATE for i in ids
    )  # nothing applied
    assert graph.get_state(CONFIG).interrupts  # still waiting
    out = graph.invoke(Command(resume=approve(3)), CONFIG, version="v2")
    assert all(r["applied"] for r in out.value["review_results"])


def test_stale_candidate_is_not_applied(lore: Userlore) -> None:
    style, _, _ = seed(lore)
    graph, _ = start(lore)
    lore.records.approve("u1", style)  # decided elsewhere while the interrupt was open
    out = graph.invoke(
        Command(resume={"decisions": [{"type": "reject"}] * 3}), CONFIG, version="v2"
    )
    first = out.value["review_results"][0]
    assert first == {
        "record_id": style,
        "decision": "reject",
        "applied": False,
        "state": "active",
        "reason": "stale",
    }
    assert lore.records.get("u1", style).state is RecordState.ACTIVE


def test_nothing_pending_means_no_interrupt(lore: Userlore) -> None:
    _, out = start(lore)
    assert out.interrupts == () and out.value["pending"] == []


def test_scopes_are_isolated(lore: Userlore) -> None:
    seed(lore, "u1")
    _, out = start(lore, "u2")
    assert out.interrupts == ()


def test_batches_are_bounded(lore: Userlore) -> None:
    seed(lore)
    graph = build_review_subgraph(lore, max_batch=2, checkpointer=InMemorySaver())
    out = graph.invoke({"scope": "u1"}, CONFIG, version="v2")
    assert len(out.interrupts[0].value["action_requests"]) == 2
    with pytest.raises(InvalidInputError):
        build_review_subgraph(lore, max_batch=0)


def test_pending_review_survives_a_restart(tmp_path: Path, clock: Any) -> None:
    url = f"sqlite:///{tmp_path / 'lore.db'}"
    lore = Userlore.open(url, clock=clock, ids=sequential_ids())
    ids = seed(lore)
    saver = embedded_checkpointer(lore)
    graph = build_review_subgraph(lore, checkpointer=saver)
    out = graph.invoke({"scope": "u1"}, CONFIG, version="v2")
    assert out.interrupts
    # Drop every object: graph, checkpointer connection, store.
    assert isinstance(saver, SqliteSaver)
    saver.conn.close()
    lore.close()
    del graph, saver, lore, out
    gc.collect()

    lore = Userlore.open(url, clock=clock, ids=sequential_ids())
    saver = embedded_checkpointer(lore)
    graph = build_review_subgraph(lore, checkpointer=saver)
    state = graph.get_state(CONFIG)
    assert state.next == ("ask",) and len(state.interrupts) == 1
    resume = {"decisions": [{"type": "approve"}, {"type": "reject"}, {"type": "approve"}]}
    done = graph.invoke(Command(resume=resume), CONFIG, version="v2")
    assert [r["applied"] for r in done.value["review_results"]] == [True, True, True]
    assert [lore.records.get("u1", i).state for i in ids] == [
        RecordState.ACTIVE,
        RecordState.REJECTED,
        RecordState.ACTIVE,
    ]
    with sqlite3.connect(tmp_path / "lore.db") as raw:  # one file holds both
        tables = {r[0] for r in raw.execute("SELECT name FROM sqlite_master")}
    assert {"checkpoints", "writes", "memory_records"} <= tables
    assert isinstance(saver, SqliteSaver)
    saver.conn.close()
    lore.close()


PHASE_ONE = """
import sys
from userlore import Userlore
from userlore.graph import build_review_subgraph, embedded_checkpointer
lore = Userlore.open(sys.argv[1])
lore.observe("u1", "user", "Please always answer in bullet points.")
graph = build_review_subgraph(lore, checkpointer=embedded_checkpointer(lore))
out = graph.invoke({"scope": "u1"}, {"configurable": {"thread_id": "review-1"}}, version="v2")
print(out.interrupts[0].value["action_requests"][0]["args"]["record_id"])
"""


def test_pending_review_survives_a_new_process(tmp_path: Path, clock: Any) -> None:
    url = f"sqlite:///{tmp_path / 'lore.db'}"
    proc = subprocess.run(
        [sys.executable, "-c", PHASE_ONE, url], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    record_id = proc.stdout.strip()
    lore = Userlore.open(url, clock=clock)
    saver = embedded_checkpointer(lore)
    assert isinstance(saver, SqliteSaver)
    graph = build_review_subgraph(lore, checkpointer=saver)
    graph.invoke(Command(resume=approve(1)), CONFIG)
    assert lore.records.get("u1", record_id).state is RecordState.ACTIVE
    saver.conn.close()
    lore.close()


def test_embeds_in_a_parent_graph(lore: Userlore) -> None:
    class Parent(TypedDict, total=False):
        scope: str
        review_results: list[dict[str, Any]]
        note: str

    seed(lore)
    builder = StateGraph(Parent)
    builder.add_node("inbox", build_review_subgraph(lore))
    builder.add_node("after", lambda s: {"note": f"{len(s['review_results'])} decided"})
    builder.add_edge(START, "inbox")
    builder.add_edge("inbox", "after")
    parent = builder.compile(checkpointer=InMemorySaver())
    out = parent.invoke({"scope": "u1"}, CONFIG, version="v2")
    assert len(out.interrupts[0].value["action_requests"]) == 3
    done = parent.invoke(Command(resume=approve(3)), CONFIG, version="v2")
    assert done.value["note"] == "3 decided"


async def test_async_invocation(lore: Userlore) -> None:
    seed(lore)
    graph = build_review_subgraph(lore, checkpointer=InMemorySaver())
    out = await graph.ainvoke({"scope": "u1"}, CONFIG, version="v2")
    assert out.interrupts
    done = await graph.ainvoke(Command(resume=approve(3)), CONFIG, version="v2")
    assert len(lore.records.list("u1", state=RecordState.ACTIVE)) == 3
    assert done.value["review_results"][0]["applied"]
