"""The plan's trace write on SQLite: one INSERT that never waits, and a connection left as found.

The no-wait write sets the busy timeout to zero on the driver's connection for the INSERT only
(issue 23); a pooled connection handed back with a zero timeout would make every later write
fail at once instead of waiting its turn, so each pooled connection is checked afterwards.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from sqlalchemy import insert, select

from userlore import Userlore
from userlore.store.schema import MemoryTraceEvent


def _timeouts(lore: Userlore, n: int) -> list[int]:
    engine = lore.memory.store.engine
    conns = [engine.connect() for _ in range(n)]
    try:
        return [int(c.exec_driver_sql("PRAGMA busy_timeout").scalar() or 0) for c in conns]
    finally:
        for c in conns:
            c.close()


def test_a_no_wait_write_under_another_writer_is_refused_and_the_timeout_restored(
    tmp_path: Path,
) -> None:
    path = tmp_path / "lore.db"
    lore = Userlore.open(f"sqlite:///{path}", config={"memory": {"mode": "auto"}})
    try:
        lore.observe("u1", "user", "Please always answer in bullet points.")
        store = lore.memory.store
        writer = sqlite3.connect(path, timeout=30)
        writer.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        row = store._trace_row("u1", "plan")
        try:
            assert store.execute_without_waiting(None, insert(MemoryTraceEvent), row) is None
        finally:
            writer.rollback()
            writer.close()
        assert _timeouts(lore, 3) == [30_000] * 3
        # Unlocked, the same call writes the row in one statement and keeps the timeout.
        assert store.execute_without_waiting(None, insert(MemoryTraceEvent), row) == []
        assert [t["id"] for t in lore.traces.list("u1", event_type="plan")] == [row["id"]]
        assert _timeouts(lore, 3) == [30_000] * 3
    finally:
        lore.close()


def test_every_plan_trace_is_written_with_writes_between_plans(tmp_path: Path) -> None:
    lore = Userlore.open(f"sqlite:///{tmp_path / 'lore.db'}", config={"memory": {"mode": "auto"}})
    try:
        ids = []
        for i in range(5):
            lore.observe("u1", "user", f"I moved my standup to {9 + i} am on weekdays.")
            ids.append(lore.plan_context("u1", "when is my standup?", session_key="s").trace_id)
        listed = [t["id"] for t in lore.traces.list("u1", event_type="plan")]
        assert sorted(listed) == sorted(ids) and None not in ids
    finally:
        lore.close()


def test_an_in_memory_store_writes_a_plan_trace_on_the_calling_thread() -> None:
    # One connection serves every thread of an in-memory store: a flusher thread writing on it
    # ended transactions that the caller's own `engine.connect()` held (LoCoMo's harness failed
    # with "cannot rollback - no transaction is active"), so the trace is written at once.
    lore = Userlore.open("sqlite://", config={"memory": {"mode": "auto"}})
    try:
        lore.observe("u1", "user", "I moved my standup to 9 am on weekdays.")
        trace_id = lore.plan_context("u1", "when is my standup?", session_key="s").trace_id
        flushers = [t for t in threading.enumerate() if t.name == "userlore-trace-flush"]
        with lore.store.engine.connect() as conn:  # no flush: the row must already be there
            stored = conn.execute(
                select(MemoryTraceEvent.id).where(MemoryTraceEvent.id == trace_id)
            ).all()
        assert stored == [(trace_id,)]
        assert flushers == []
    finally:
        lore.close()
