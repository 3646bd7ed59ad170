"""The durable work queue on every backend: leases, exactly-once completion, retries, no
secrets at rest; and plan traces that never wait for a writer (SQLite)."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from tests.conftest import FakeClock
from userlore import Userlore
from userlore.store.schema import WorkItem
from userlore.work import Job, WorkQueue, WorkRunner, observe_job

SECRET = "ghp_1234567890abcdefghijklmnopqrstuvwxyzAB"


def jobs(n: int, scope: str = "u1") -> list[Job]:
    """``n`` user turns saying the same thing (one record, one piece of evidence per turn)."""
    return [
        observe_job(scope, "I use pnpm.", turn_id=f"m{i}", session_key="s", agent_id=None)
        for i in range(n)
    ]


def rows(lore: Userlore) -> list[WorkItem]:
    with lore.memory.store.transaction() as session:
        return list(session.scalars(select(WorkItem).order_by(WorkItem.created_at, WorkItem.id)))


def test_enqueue_is_idempotent_per_job(make_lore: Any) -> None:
    lore = make_lore("auto")
    queue = WorkQueue(lore.memory.store)
    [job] = jobs(1)
    assert queue.enqueue(job) is True
    assert queue.enqueue(job) is False  # the same turn is queued once
    assert queue.enqueue(jobs(1, scope="u2")[0]) is True  # keys are per scope
    assert queue.counts() == {"pending": 2, "running": 0, "done": 0, "failed": 0}
    assert queue.counts("u1")["pending"] == 1


def test_two_workers_never_hold_the_same_job(make_lore: Any) -> None:
    lore = make_lore("auto")
    a = WorkQueue(lore.memory.store, worker_id="a")
    b = WorkQueue(lore.memory.store, worker_id="b")
    for job in jobs(10):
        a.enqueue(job)
    first = a.claim(6)
    second = b.claim(6)
    assert len(first) == 6 and len(second) == 4
    assert not {c.id for c in first} & {c.id for c in second}
    assert b.claim(6) == []  # everything is held


def test_completion_is_fenced_by_the_lease(make_lore: Any, clock: FakeClock) -> None:
    lore = make_lore("auto")
    a = WorkQueue(lore.memory.store, worker_id="a", lease_seconds=60)
    b = WorkQueue(lore.memory.store, worker_id="b", lease_seconds=60)
    a.enqueue(jobs(1)[0])
    [held] = a.claim()
    clock.advance(seconds=61)  # a stalls past its lease: b takes the job over
    [taken] = b.claim()
    assert taken.id == held.id and taken.attempts == 2
    assert a.complete(held) is False  # a's stale token completes nothing
    assert b.complete(taken) is True
    assert b.complete(taken) is False  # done once
    assert a.claim() == [] and b.claim() == []


def test_failures_retry_with_backoff_then_stop(make_lore: Any, clock: FakeClock) -> None:
    lore = make_lore("auto")
    queue = WorkQueue(lore.memory.store, max_attempts=2)
    queue.enqueue(jobs(1)[0])
    [first] = queue.claim()
    assert queue.fail(first, "StorageError", retry=True)
    assert queue.claim() == []  # backing off
    clock.advance(minutes=5)
    [second] = queue.claim()
    assert queue.fail(second, "StorageError", retry=True)  # out of attempts
    [row] = rows(lore)
    assert (row.state, row.last_error, row.payload) == ("failed", "StorageError", {})


def test_refused_jobs_fail_at_once_and_release_hands_back(make_lore: Any) -> None:
    lore = make_lore("auto")
    queue = WorkQueue(lore.memory.store)
    a, b = jobs(2)
    queue.enqueue(a)
    queue.enqueue(b)
    held = queue.claim()
    assert queue.fail(held[0], "InvalidInputError", retry=False)
    assert queue.release(held[1:]) == 1
    [again] = queue.claim()
    assert again.id == held[1].id and again.attempts == 1
    assert queue.counts()["failed"] == 1


def test_the_table_holds_redacted_text_and_forgets_it_when_done(make_lore: Any) -> None:
    lore = make_lore("auto")
    runner = WorkRunner(lore)
    job = observe_job(
        "u1", f"I use pnpm. My key is {SECRET}", turn_id="m1", session_key=None, agent_id=None
    )
    assert runner.submit(job, durable=True) == "stored"
    [row] = rows(lore)
    assert SECRET not in str(row.payload) and "pnpm" in row.payload["text"]
    assert runner.wait_idle(30)
    [row] = rows(lore)
    assert (row.state, row.payload) == ("done", {})
    assert [r.canonical_key for r in lore.records.list("u1")] == ["tooling/package_manager"]
    runner.close()


def test_a_dead_workers_jobs_are_run_by_the_next_one(make_lore: Any) -> None:
    """The runner's exactly-once contract across a crash: claimed, never completed, expired."""
    lore = make_lore("auto")
    dead = WorkQueue(lore.memory.store, worker_id="dead", lease_seconds=0)
    for job in jobs(3):
        dead.enqueue(job)
    assert len(dead.claim()) == 3  # then the process dies
    runner = WorkRunner(lore)
    assert runner.run_pending() == 3
    assert runner.run_pending() == 0
    [rec] = lore.records.list("u1")
    assert rec.evidence_count == 3
    assert {r.state for r in rows(lore)} == {"done"}


def test_purge_removes_the_scopes_queued_work(make_lore: Any) -> None:
    lore = make_lore("auto")
    queue = WorkQueue(lore.memory.store)
    queue.enqueue(jobs(1, "u1")[0])
    queue.enqueue(jobs(1, "u2")[0])
    lore.scopes.purge("u1")
    assert [r.scope for r in rows(lore)] == ["u2"]


# -- plan traces never wait for a writer (SQLite: one writer at a time) ------------------------


def test_a_plan_does_not_wait_for_another_writer(tmp_path: Path) -> None:
    path = tmp_path / "lore.db"
    lore = Userlore.open(f"sqlite:///{path}", config={"memory": {"mode": "auto"}})
    lore.observe("u1", "user", "Please always answer in bullet points.")
    writer = sqlite3.connect(path, timeout=30, check_same_thread=False)
    writer.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        started = time.monotonic()
        plan = lore.plan_context("u1", "how do I deploy?")
        waited = time.monotonic() - started
        assert "bullet points" in plan.text and plan.trace_id is not None
        assert waited < 5, f"the plan waited {waited:.1f}s for the writer"
        released = threading.Timer(0.3, writer.commit)
        released.start()
        # Reading traces flushes the queued ones (waiting for the writer, off the plan).
        [trace] = lore.traces.list("u1", event_type="plan")
        assert trace["id"] == plan.trace_id
        released.join()
    finally:
        writer.close()
        lore.close()


def test_close_writes_queued_traces(tmp_path: Path) -> None:
    path = tmp_path / "lore.db"
    lore = Userlore.open(f"sqlite:///{path}", config={"memory": {"mode": "auto"}})
    writer = sqlite3.connect(path, timeout=30, check_same_thread=False)
    writer.execute("BEGIN IMMEDIATE")
    ids = [lore.plan_context("u1", f"q{i}").trace_id for i in range(3)]
    writer.commit()
    writer.close()
    lore.close()
    again = Userlore.open(f"sqlite:///{path}")
    try:
        listed = {t["id"] for t in again.traces.list("u1", event_type="plan")}
        assert listed == set(ids)
    finally:
        again.close()


def test_the_trace_queue_is_bounded_and_keeps_rows_until_written() -> None:
    from userlore.store.traces import TraceQueue

    written: list[dict[str, Any]] = []
    failing = {"on": True}

    def write(rows: list[dict[str, Any]]) -> None:
        if failing["on"]:
            raise RuntimeError("database is locked")
        written.extend(rows)

    queue = TraceQueue(write, maxsize=2, background=False)  # the test decides when to flush
    assert queue.put({"id": "a"}) and queue.put({"id": "b"})
    assert not queue.put({"id": "c"})  # full: the caller writes it itself, nothing dropped
    with pytest.raises(RuntimeError):
        queue.flush()
    assert len(queue) == 2 and written == []  # a failed flush keeps the rows
    assert queue.flush(lambda rows: False) == 0 and len(queue) == 2  # would wait: skipped
    failing["on"] = False
    assert queue.flush() == 2 and [r["id"] for r in written] == ["a", "b"] and len(queue) == 0
