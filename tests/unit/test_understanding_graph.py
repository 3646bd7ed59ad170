"""The understanding graph: extract → (review) → govern → plan_context, with any checkpointer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.types import Command

from tests.conftest import sequential_ids
from tests.support.chat_models import ScriptedChatModel
from userlore import InvalidInputError, RecordState, Userlore
from userlore.extract.reviewer import LLMReviewer
from userlore.graph import build_understanding_graph, embedded_checkpointer

TERSE = {
    "kind": "style",
    "content": "The user prefers terse answers.",
    "canonical_key": "style/verbosity",
    "value": "terse",
    "confidence": 0.8,
    "sensitivity": "none",
    "evidence": "way too long to read on my phone",
}
IMPLICIT = "ugh, that was way too long to read on my phone"


def turn(text: str, scope: str = "u1") -> dict[str, Any]:
    return {"scope": scope, "messages": [{"role": "user", "content": text}]}


def config(thread: str = "t1") -> dict[str, Any]:
    return {"configurable": {"thread_id": thread}}


def test_explicit_turn_is_extracted_governed_and_planned(auto_lore: Userlore) -> None:
    graph = build_understanding_graph(auto_lore, checkpointer=InMemorySaver())
    out = graph.invoke(turn("Please always answer in bullet points."), config())
    [outcome] = out["outcomes"]
    assert outcome["producer"] == "explicit" and outcome["state"] == "active"
    assert "bullet points" in out["context"] and out["trace_id"]
    assert out["user_turns"] == 1 and out["review"]["reason"] == "no_reviewer"
    [receipt] = auto_lore.records.evidence("u1", outcome["record_id"])
    assert "bullet points" in receipt["text"]


def test_confirm_write_keeps_candidates_out_of_context(lore: Userlore) -> None:
    graph = build_understanding_graph(lore)
    out = graph.invoke(turn("Please always answer in bullet points."))
    assert out["outcomes"][0]["state"] == "candidate"
    assert out["context"] == ""


def test_read_only_writes_nothing(make_lore: Any) -> None:
    lore = make_lore("readOnly")
    out = build_understanding_graph(lore).invoke(turn("Please always answer in bullet points."))
    assert [o["reason"] for o in out["outcomes"]] == ["read_only"]
    assert lore.records.list("u1") == []


def test_reviewer_runs_on_cadence_and_its_candidates_are_governed(make_lore: Any) -> None:
    lore = make_lore("auto", understanding={"reviewIntervalTurns": 2})
    model = ScriptedChatModel(replies=[AIMessage(content=json.dumps({"candidates": [TERSE]}))])
    graph = build_understanding_graph(
        lore, reviewer=LLMReviewer(model), checkpointer=InMemorySaver()
    )
    first = graph.invoke(turn("hello there"), config())
    assert model.calls == [] and first["review"]["reason"] == "not_due"
    second = graph.invoke(turn(IMPLICIT), config())
    assert len(model.calls) == 1 and second["review"]["status"] == "ok"
    assert second["last_review_turn"] == 2
    [inferred] = [o for o in second["outcomes"] if o["producer"] == "reviewer"]
    record = lore.records.get("u1", inferred["record_id"])
    assert record.explicitness.value == "inferred" and record.state is RecordState.ACTIVE
    graph.invoke(turn("thanks"), config())
    assert len(model.calls) == 1  # next pass is due at turn 4
    [trace] = lore.traces.list("u1", event_type="review")
    assert trace["reason_code"] == "ok" and trace["payload"]["created"] == 1


def test_understanding_disabled_leaves_deterministic_extraction_only(make_lore: Any) -> None:
    lore = make_lore("auto", understanding={"enabled": False, "reviewIntervalTurns": 1})
    model = ScriptedChatModel(replies=[AIMessage(content=json.dumps({"candidates": [TERSE]}))])
    graph = build_understanding_graph(lore, reviewer=LLMReviewer(model))
    out = graph.invoke(turn(f"I use pnpm. {IMPLICIT}"))
    assert model.calls == [] and out["review"]["reason"] == "disabled"
    assert [r.canonical_key for r in lore.records.list("u1")] == ["tooling/package_manager"]


def test_failed_review_pass_is_recorded_and_writes_only_explicit(make_lore: Any) -> None:
    lore = make_lore("auto", understanding={"reviewIntervalTurns": 1})
    model = ScriptedChatModel(replies=["not json"])
    graph = build_understanding_graph(lore, reviewer=LLMReviewer(model, max_attempts=2))
    out = graph.invoke(turn("I use pnpm."))
    assert out["review"]["status"] == "invalid_output" and len(model.calls) == 2
    assert [o["producer"] for o in out["outcomes"]] == ["explicit"]
    [trace] = lore.traces.list("u1", event_type="review")
    assert trace["reason_code"] == "invalid_output"


def test_human_review_interrupts_then_plans_the_approved_context(lore: Userlore) -> None:
    graph = build_understanding_graph(lore, human_review=True, checkpointer=InMemorySaver())
    out = graph.invoke(turn("Please always answer in bullet points."), config(), version="v2")
    [intr] = out.interrupts
    assert "bullet points" in intr.value["action_requests"][0]["args"]["content"]
    done = graph.invoke(
        Command(resume={"decisions": [{"type": "approve"}]}), config(), version="v2"
    )
    assert "bullet points" in done.value["context"]
    assert done.value["review_results"][0]["state"] == "active"


def test_embedded_checkpointer_shares_the_store_file(tmp_path: Path, clock: Any) -> None:
    url = f"sqlite:///{tmp_path / 'lore.db'}"
    lore = Userlore.open(
        url, config={"memory": {"mode": "auto"}}, clock=clock, ids=sequential_ids()
    )
    graph = build_understanding_graph(lore, checkpointer="embedded")
    graph.invoke(turn("I use pnpm."), config())
    graph.invoke(turn("Never suggest jest to me."), config())
    state = graph.get_state(config())
    assert state.values["user_turns"] == 2 and len(state.values["messages"]) == 2
    saver = graph.checkpointer
    assert isinstance(saver, SqliteSaver)
    assert saver.conn.execute("SELECT count(*) FROM checkpoints").fetchone()[0] > 0
    saver.conn.close()
    lore.close()
    assert isinstance(embedded_checkpointer(Userlore.open("sqlite://")), InMemorySaver)


async def test_async_invocation(auto_lore: Userlore) -> None:
    graph = build_understanding_graph(auto_lore, checkpointer=InMemorySaver())
    out = await graph.ainvoke(turn("I use pnpm."), config())
    assert "pnpm" in out["context"]


def test_turn_without_text_counts_but_extracts_nothing(auto_lore: Userlore) -> None:
    image_only = {
        "scope": "u1",
        "messages": [
            {"role": "user", "content": [{"type": "image", "url": "https://example.com/a.png"}]}
        ],
    }
    out = build_understanding_graph(auto_lore).invoke(image_only)
    assert out["user_turns"] == 1 and out["outcomes"] == []
    assert auto_lore.records.list("u1") == []


def test_oversized_turn_is_a_typed_error(auto_lore: Userlore) -> None:
    with pytest.raises(InvalidInputError):
        build_understanding_graph(auto_lore).invoke(turn("x" * 40_000))
    assert auto_lore.records.list("u1") == []
