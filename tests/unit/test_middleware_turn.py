"""Memory never breaks the user's turn: reads fail open, writes and reviews run off the turn."""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage
from langgraph.checkpoint.memory import InMemorySaver
from sqlalchemy import event, select
from sqlalchemy.exc import OperationalError

from tests.conftest import FakeClock, sequential_ids
from tests.support.chat_models import ScriptedChatModel
from userlore import Userlore
from userlore.extract.reviewer import LLMReviewer
from userlore.feedback.metrics import TURN_HEALTH
from userlore.integrations import UserloreMiddleware
from userlore.store.schema import WorkItem
from userlore.work import WorkQueue, WorkRunner

FENCE = "<user-context>"
THREAD = {"configurable": {"thread_id": "t"}}
VERDICT = {
    "kind": "goal",
    "content": "The user is preparing a product launch.",
    "canonical_key": "goal/launch",
    "value": None,
    "confidence": 0.6,
    "sensitivity": "none",
    "evidence": "the launch next week",
}


def user(text: str) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": text}]}


def agent_with(middleware: UserloreMiddleware, model: ScriptedChatModel) -> Any:
    return create_agent(
        model,
        tools=[],
        system_prompt="You are a helpful assistant.",
        middleware=[middleware],
        checkpointer=InMemorySaver(),
    )


def reviewer_model() -> ScriptedChatModel:
    return ScriptedChatModel(replies=[AIMessage(content=json.dumps({"candidates": [VERDICT]}))])


@pytest.fixture
def failing_reads(auto_lore: Userlore) -> Iterator[dict[str, bool]]:
    """The store's engine fails every SELECT while ``switch["on"]`` (a dead disk, say)."""
    switch = {"on": False}
    engine = auto_lore.memory.store.engine

    def fail(conn: Any, cursor: Any, statement: str, params: Any, *rest: Any) -> None:
        if switch["on"] and statement.lstrip().upper().startswith("SELECT"):
            raise OperationalError(statement, params, sqlite3.OperationalError("disk I/O error"))

    event.listen(engine, "before_cursor_execute", fail)
    yield switch
    event.remove(engine, "before_cursor_execute", fail)


def test_a_failing_read_lets_the_turn_run_without_a_block(
    auto_lore: Userlore, failing_reads: dict[str, bool], caplog: pytest.LogCaptureFixture
) -> None:
    auto_lore.observe("u1", "user", "Please always answer in bullet points.")
    model = ScriptedChatModel(replies=["fine"])
    middleware = UserloreMiddleware(auto_lore, default_scope="u1", writes="queue")
    agent = agent_with(middleware, model)
    agent.invoke(user("How do I deploy?"), THREAD)
    assert FENCE in model.system_texts()[0]  # the store works: the block is there

    before = TURN_HEALTH.snapshot()
    failing_reads["on"] = True
    with caplog.at_level(logging.WARNING, "userlore.integrations.middleware"):
        out = agent.invoke(user("that's not my timezone any more"), THREAD)
    failing_reads["on"] = False
    assert out["messages"][-1].text == "fine"  # the turn ran
    assert FENCE not in model.system_texts()[1]  # without a memory block
    after = TURN_HEALTH.snapshot()
    assert after["read_failures"] - before["read_failures"] == 1
    assert after["correction_failures"] - before["correction_failures"] == 1
    assert "failed open (StorageError)" in caplog.text


def test_a_programming_error_still_raises(auto_lore: Userlore, monkeypatch: Any) -> None:
    def broken(*args: Any, **kw: Any) -> Any:
        raise TypeError("a bug, not an outage")

    monkeypatch.setattr(auto_lore, "plan_context", broken)
    agent = agent_with(UserloreMiddleware(auto_lore, default_scope="u1"), ScriptedChatModel())
    with pytest.raises(TypeError, match="a bug"):
        agent.invoke(user("hello"), THREAD)


def test_queued_writes_wait_for_the_worker_and_run_once(auto_lore: Userlore) -> None:
    middleware = UserloreMiddleware(auto_lore, default_scope="u1", writes="queue")
    agent_with(middleware, ScriptedChatModel()).invoke(user("I use pnpm."), THREAD)
    assert auto_lore.records.list("u1") == []  # nothing was written on the turn
    assert middleware.queue.counts() == {"pending": 1, "running": 0, "done": 0, "failed": 0}

    worker = WorkRunner(auto_lore)
    assert worker.run_pending() == 1
    [rec] = auto_lore.records.list("u1")
    assert rec.canonical_key == "tooling/package_manager"
    assert worker.run_pending() == 0  # done once: nothing left to claim
    assert middleware.queue.counts()["done"] == 1


def test_the_reviewer_never_runs_on_the_turn(make_lore: Any) -> None:
    lore = make_lore("auto", understanding={"reviewIntervalTurns": 1})
    model = reviewer_model()
    middleware = UserloreMiddleware(
        lore, default_scope="u1", reviewer=LLMReviewer(model), writes="queue"
    )
    agent = agent_with(middleware, ScriptedChatModel())
    out = agent.invoke(user("I'm nervous about the launch next week"), THREAD)
    assert model.calls == [] and lore.records.list("u1", kind="goal") == []
    assert out["messages"][-1].text  # the turn answered without waiting for a review
    assert WorkRunner(lore, reviewer=LLMReviewer(model)).run_pending() == 2  # observe + review
    assert len(model.calls) == 1
    assert [r.canonical_key for r in lore.records.list("u1", kind="goal")] == ["goal/launch"]


def test_a_queued_review_survives_a_restart(tmp_path: Path, clock: FakeClock) -> None:
    url = f"sqlite:///{tmp_path / 'lore.db'}"
    cfg = {"memory": {"mode": "auto"}, "understanding": {"reviewIntervalTurns": 1}}
    lore = Userlore.open(url, config=cfg, clock=clock, ids=sequential_ids())
    model = reviewer_model()
    middleware = UserloreMiddleware(
        lore, default_scope="u1", reviewer=LLMReviewer(model), observe=False, writes="queue"
    )
    agent_with(middleware, ScriptedChatModel()).invoke(user("the launch next week"), THREAD)
    lore.close()  # the process stops before any worker ran the review

    again = Userlore.open(url, config=cfg, clock=clock)
    try:
        runner = WorkRunner(again, reviewer=LLMReviewer(model))
        assert runner.run_pending() == 1 and len(model.calls) == 1
        assert runner.run_pending() == 0
        assert [r.canonical_key for r in again.records.list("u1")] == ["goal/launch"]
        with again.memory.store.transaction() as session:
            [row] = session.scalars(select(WorkItem))
            assert (row.kind, row.state, row.payload) == ("review", "done", {})
    finally:
        again.close()


def test_a_full_in_process_queue_falls_back_to_the_table(auto_lore: Userlore) -> None:
    before = TURN_HEALTH.snapshot()["queue_overflows"]
    middleware = UserloreMiddleware(auto_lore, default_scope="u1", max_queued=0)
    agent_with(middleware, ScriptedChatModel()).invoke(user("I use pnpm."), THREAD)
    assert TURN_HEALTH.snapshot()["queue_overflows"] - before == 1
    assert middleware.wait_idle(30)
    assert [r.canonical_key for r in auto_lore.records.list("u1")] == ["tooling/package_manager"]
    assert middleware.queue.counts()["done"] == 1  # it went through the table, not dropped


def test_background_writes_do_not_block_the_turn(auto_lore: Userlore) -> None:
    """A slow write path (a busy database) delays the memory, never the answer."""
    gate = threading.Event()
    observe = auto_lore.observe

    def slow_observe(*args: Any, **kw: Any) -> Any:
        gate.wait(30)
        return observe(*args, **kw)

    auto_lore.observe = slow_observe  # type: ignore[method-assign]
    middleware = UserloreMiddleware(auto_lore, default_scope="u1")
    out = agent_with(middleware, ScriptedChatModel(replies=["ok"])).invoke(
        user("I use pnpm."), THREAD
    )
    assert out["messages"][-1].text == "ok"  # answered while the write still waits
    assert auto_lore.records.list("u1") == []
    gate.set()
    assert middleware.wait_idle(30)
    assert len(auto_lore.records.list("u1")) == 1


def test_unqueueable_writes_fail_open(auto_lore: Userlore, monkeypatch: Any) -> None:
    def down(*args: Any, **kw: Any) -> bool:
        from userlore.errors import StorageError

        raise StorageError("database error: disk I/O error")

    monkeypatch.setattr(WorkQueue, "enqueue", down)
    before = TURN_HEALTH.snapshot()["write_failures"]
    middleware = UserloreMiddleware(auto_lore, default_scope="u1", writes="queue")
    out = agent_with(middleware, ScriptedChatModel(replies=["ok"])).invoke(
        user("I use pnpm."), THREAD
    )
    assert out["messages"][-1].text == "ok"
    assert TURN_HEALTH.snapshot()["write_failures"] - before == 1


def test_lore_close_runs_what_is_queued_in_memory(tmp_path: Path, clock: FakeClock) -> None:
    lore = Userlore.open(f"sqlite:///{tmp_path / 'l.db'}", config={"memory": {"mode": "auto"}})
    runner = WorkRunner(lore, idle_seconds=0.1)
    middleware = UserloreMiddleware(lore, default_scope="u1", runner=runner)
    agent_with(middleware, ScriptedChatModel()).invoke(user("I use pnpm."), THREAD)
    lore.close()  # stops the runner first (it drains its memory queue), then the engine
    again = Userlore.open(f"sqlite:///{tmp_path / 'l.db'}")
    try:
        assert len(again.records.list("u1")) == 1
    finally:
        again.close()


def make_reviewer() -> LLMReviewer:
    """``userlore worker --reviewer tests.unit.test_middleware_turn:make_reviewer``."""
    return LLMReviewer(reviewer_model())


def test_userlore_worker_runs_queued_turns_and_reviews(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from userlore.cli import main

    db = f"sqlite:///{tmp_path / 'w.db'}"
    cfg = {"memory": {"mode": "auto"}, "understanding": {"reviewIntervalTurns": 1}}
    lore = Userlore.open(db, config=cfg)
    middleware = UserloreMiddleware(
        lore, default_scope="u1", reviewer=make_reviewer(), writes="queue"
    )
    agent_with(middleware, ScriptedChatModel()).invoke(
        user("I use pnpm. Nervous about the launch next week."), THREAD
    )
    lore.close()

    # The default configuration (confirmWrite) is not the agent's: its jobs are left pending.
    assert main(["worker", "--once", "--db", db]) == 0
    assert "queued job(s)" not in capsys.readouterr().err
    auto = ["--db", db, "--mode", "auto"]
    assert main(["worker", "--once", *auto]) == 0  # no reviewer: the review waits
    printed = capsys.readouterr()
    assert "ran 1 queued job(s)" in printed.err and "jobs=1" in printed.out
    reviewer = "tests.unit.test_middleware_turn:make_reviewer"
    assert main(["worker", "--once", *auto, "--reviewer", reviewer, "--json"]) == 0
    printed = capsys.readouterr()
    assert "ran 1 queued job(s)" in printed.err
    ran = json.loads(printed.out)  # --json: the counts match what ran
    assert ran["jobs"] == 1 and ran["ttl_swept"] == 0 and ran["synthesis"]["claimed"] == 0
    with Userlore.open(db) as again:
        keys = {r.canonical_key for r in again.records.list("u1")}
        assert keys == {"tooling/package_manager", "goal/launch"}
        assert WorkQueue(again.memory.store).counts()["done"] == 2


def test_a_turn_never_waits_for_another_writer(tmp_path: Path) -> None:
    """SQLite has one writer: while another process holds the lock, the turn still answers at
    once (plan trace and review job wait in memory); both land once the lock is free."""
    import time

    path = tmp_path / "busy.db"
    cfg = {"memory": {"mode": "auto"}, "understanding": {"reviewIntervalTurns": 1}}
    lore = Userlore.open(f"sqlite:///{path}", config=cfg)
    lore.observe("u1", "user", "Please always answer in bullet points.")
    model = reviewer_model()
    middleware = UserloreMiddleware(lore, default_scope="u1", reviewer=LLMReviewer(model))
    agent = agent_with(middleware, ScriptedChatModel(replies=["ok"]))
    writer = sqlite3.connect(path, timeout=30, check_same_thread=False)
    writer.execute("BEGIN IMMEDIATE")  # another process is ingesting
    try:
        started = time.monotonic()
        out = agent.invoke(user("I'm nervous about the launch next week"), THREAD)
        assert time.monotonic() - started < 5  # the busy timeout is 30 s
        assert out["messages"][-1].text == "ok"
        writer.commit()
        assert middleware.wait_idle(30)
        assert len(model.calls) == 1
        assert {r.canonical_key for r in lore.records.list("u1", kind="goal")} == {"goal/launch"}
        assert len(lore.traces.list("u1", event_type="plan")) == 1
        assert middleware.queue.counts("u1")["done"] == 1  # the review went through the table
    finally:
        writer.close()
        lore.close()


def test_the_langgraph_server_identity_names_the_user(auto_lore: Userlore) -> None:
    auto_lore.observe("ana", "user", "Please always answer in bullet points.")
    model = ScriptedChatModel()
    middleware = UserloreMiddleware(auto_lore, writes="queue")  # no default scope
    config = {"configurable": {"thread_id": "t", "langgraph_auth_user": {"identity": "ana"}}}
    agent_with(middleware, model).invoke(user("How do I deploy?"), config)
    assert "bullet points" in model.system_texts()[0]
    assert middleware.queue.counts("ana")["pending"] == 1  # the turn is queued for ana


SKIPPED_TURNS = [
    # (the turn, whether it is skipped and counted)
    ("x" * 32_001, True),  # one over MAX_TURN_CHARS: a pasted log
    ("before\x00after", True),  # NUL: no backend stores it
    ("x" * 32_000, False),  # exactly the limit is observed
    ("I use pnpm for every project.", False),
]


@pytest.mark.parametrize(("text", "skipped"), SKIPPED_TURNS, ids=["long", "nul", "limit", "plain"])
def test_a_skipped_turn_is_counted_in_turn_health(
    auto_lore: Userlore, text: str, skipped: bool
) -> None:
    middleware = UserloreMiddleware(auto_lore, default_scope="u1", writes="queue")
    agent = agent_with(middleware, ScriptedChatModel(replies=["fine"]))
    before = TURN_HEALTH.snapshot()["skipped_turns"]
    out = agent.invoke(user(text), THREAD)
    assert out["messages"][-1].text == "fine"  # the turn ran either way
    assert TURN_HEALTH.snapshot()["skipped_turns"] - before == int(skipped)


MODES = [
    # (the agent's mode, the worker's mode, whether the worker runs the job)
    ("auto", "confirmWrite", False),  # the default worker: the turn would become a candidate
    ("confirmWrite", "auto", False),  # the other way: it would skip the approval
    ("auto", "auto", True),
    ("confirmWrite", "confirmWrite", True),
]


@pytest.mark.parametrize(("agent_mode", "worker_mode", "runs"), MODES)
def test_a_worker_never_runs_a_turn_under_another_mode(
    tmp_path: Path, agent_mode: str, worker_mode: str, runs: bool
) -> None:
    url = f"sqlite:///{tmp_path / 'modes.db'}"
    agent_lore = Userlore.open(url, config={"memory": {"mode": agent_mode}})
    worker_lore = Userlore.open(url, config={"memory": {"mode": worker_mode}})
    try:
        middleware = UserloreMiddleware(agent_lore, default_scope="u1", writes="queue")
        agent_with(middleware, ScriptedChatModel()).invoke(user("I use pnpm."), THREAD)
        before = TURN_HEALTH.snapshot()["mode_mismatches"]
        assert WorkRunner(worker_lore).run_pending() == int(runs)
        assert TURN_HEALTH.snapshot()["mode_mismatches"] - before == int(not runs)
        states = [r.state for r in worker_lore.records.list("u1")]
        if not runs:
            assert states == []  # left pending for a worker of the agent's mode
            assert middleware.queue.counts()["pending"] == 1
            assert WorkRunner(agent_lore).run_pending() == 1  # which then runs it
            states = [r.state for r in agent_lore.records.list("u1")]
        assert states == ["active" if agent_mode == "auto" else "candidate"]
    finally:
        agent_lore.close()
        worker_lore.close()


QUERIES = [
    # (query length, refused by plan_context)
    (2 * 1024 * 1024, True),  # a 2 MB query: refused, and never traced
    (32_001, True),
    (32_000, False),
    (40, False),
]


@pytest.mark.parametrize(("length", "refused"), QUERIES)
def test_plan_context_bounds_its_query(auto_lore: Userlore, length: int, refused: bool) -> None:
    from userlore.errors import InvalidInputError

    auto_lore.observe("u1", "user", "Please always answer in bullet points.")
    traces = len(auto_lore.traces.list("u1"))
    query = ("why " * length)[:length]
    if refused:
        with pytest.raises(InvalidInputError, match="query"):
            auto_lore.plan_context("u1", query)
        assert len(auto_lore.traces.list("u1")) == traces  # nothing traced
    else:
        assert auto_lore.plan_context("u1", query).trace_id is not None


def test_an_oversized_turn_is_still_planned_from_its_start(auto_lore: Userlore) -> None:
    auto_lore.observe("u1", "user", "Please always answer in bullet points.")
    model = ScriptedChatModel(replies=["fine"])
    middleware = UserloreMiddleware(auto_lore, default_scope="u1", writes="queue")
    agent_with(middleware, model).invoke(user("format? " + "log line\n" * 5_000), THREAD)
    assert FENCE in model.system_texts()[0]  # clipped to one turn's bound, not refused
