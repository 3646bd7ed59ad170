"""A pending review survives a restart on every backend's checkpointer.

SQLite: the embedded checkpointer on the store's file. PostgreSQL: LangGraph's ``PostgresSaver``
on the store's database. Each test interrupts, drops every object, reopens and resumes.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.postgres import PostgresSaver
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.types import Command
from sqlalchemy.engine import make_url

from tests.conftest import FakeClock, sequential_ids
from userlore import RecordState, Userlore
from userlore.graph import build_review_subgraph, build_understanding_graph, embedded_checkpointer

THREAD = {"configurable": {"thread_id": "inbox-1"}}


@pytest.fixture
def database(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    if backend == "sqlite":
        return f"sqlite:///{tmp_path / 'lore.db'}"
    return str(request.getfixturevalue("postgres_databases").fresh())


@contextmanager
def opened(url: str, clock: FakeClock) -> Iterator[tuple[Userlore, Any]]:
    """One 'process': a store and a checkpointer on the same database, closed on exit."""
    lore = Userlore.open(url, clock=clock, ids=sequential_ids())
    try:
        if url.startswith("sqlite"):
            saver = embedded_checkpointer(lore)
            assert isinstance(saver, SqliteSaver)
            try:
                yield lore, saver
            finally:
                saver.conn.close()
        else:
            plain = make_url(url).set(drivername="postgresql").render_as_string(False)
            with PostgresSaver.from_conn_string(plain) as saver:
                saver.setup()
                yield lore, saver
    finally:
        lore.close()


def restart() -> None:
    gc.collect()


def test_pending_review_survives_restart(database: str, clock: FakeClock) -> None:
    with opened(database, clock) as (lore, saver):
        lore.observe("u1", "user", "Please always answer in bullet points.")
        lore.observe("u1", "user", "I use pnpm.")
        out = build_review_subgraph(lore, checkpointer=saver).invoke(
            {"scope": "u1"}, THREAD, version="v2"
        )
        shown = [a["args"]["record_id"] for a in out.interrupts[0].value["action_requests"]]
    restart()
    with opened(database, clock) as (lore, saver):
        graph = build_review_subgraph(lore, checkpointer=saver)
        [waiting] = graph.get_state(THREAD).interrupts
        assert [a["args"]["record_id"] for a in waiting.value["action_requests"]] == shown
        resume = {"decisions": [{"type": "approve"}, {"type": "reject"}]}
        graph.invoke(Command(resume=resume), THREAD)
        assert [lore.records.get("u1", i).state for i in shown] == [
            RecordState.ACTIVE,
            RecordState.REJECTED,
        ]


def test_understanding_graph_thread_survives_restart(database: str, clock: FakeClock) -> None:
    turn = {"scope": "u1", "messages": [{"role": "user", "content": "I use pnpm."}]}
    with opened(database, clock) as (lore, saver):
        graph = build_understanding_graph(lore, human_review=True, checkpointer=saver)
        out = graph.invoke(turn, THREAD, version="v2")
        assert out.interrupts
    restart()
    with opened(database, clock) as (lore, saver):
        graph = build_understanding_graph(lore, human_review=True, checkpointer=saver)
        done = graph.invoke(Command(resume={"decisions": [{"type": "approve"}]}), THREAD)
        assert "pnpm" in done["context"] and done["user_turns"] == 1
