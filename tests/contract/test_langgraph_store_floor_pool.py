"""The floor in worker processes (``floor_workers=N``): the same rows, the same errors.

A pooled ``batch`` judges its puts in forked workers while the first chunk is written part by
part, and commits only once every put is judged (issue 30, item 5). These tests shrink the
thresholds so a few ops cross every boundary (worker jobs, write parts, chunks), then compare
the raw database a pooled batch leaves with the one the plain batch and single puts leave,
and check that a refusal anywhere, or a malformed op, leaves nothing written.
"""

from __future__ import annotations

import asyncio
import os
import signal
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest
from langgraph.store.base import GetOp, Op, PutOp
from sqlalchemy import inspect, text
from sqlalchemy.exc import SAWarning

import userlore.integrations.langgraph_store as lg_store
from userlore import RecordState, Userlore
from userlore.errors import InvalidInputError, PolicyViolationError
from userlore.integrations.langgraph_store import UserloreStore, floor_pool, puts
from userlore.integrations.langgraph_store.floor_pool import FloorPool, PooledFloor
from userlore.models import CandidateInput, Producer
from userlore.policy.govern import assess
from userlore.testing.embeddings import HashingEmbeddings

pytestmark = pytest.mark.skipif(not FloorPool.available(), reason="needs fork (POSIX)")

USER_FIRST = ("{user_id}",)
NS = ("u1", "notes")
SECRET = "my api key is sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD"


@pytest.fixture
def small(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every boundary within a few ops: 3 puts a worker job, 4 a write part, 10 a chunk."""
    monkeypatch.setattr(lg_store, "POOL_MIN", 1)
    monkeypatch.setattr(lg_store, "PUT_CHUNK", 10)
    monkeypatch.setattr(floor_pool, "PART", 3)
    monkeypatch.setattr(puts, "WRITE_PART", 4)
    yield


def _script() -> list[list[Op]]:
    """Batches crossing chunks: fresh keys, repeats, deletes, TTLs, values read twice."""
    first: list[Op] = [
        PutOp(NS, f"k{i}", {"content": f"Note number {i} about apples"}) for i in range(14)
    ]
    first += [
        PutOp(NS, "k2", {"content": "Note two, revised in the same batch"}),
        PutOp(("u1", "other"), "k0", {"content": "Same key, other namespace"}),
        PutOp(NS, "same-a", {"content": "Shared text of two keys"}),
        PutOp(NS, "same-b", {"content": "Shared text of two keys"}),
        PutOp(NS, "v", {"text": "A value with digits 42", "n": 3}),
        PutOp(NS, "ttl", {"content": "A note that expires"}, ttl=30),
        PutOp(NS, "noidx", {"content": "Not indexed"}, index=False),
        PutOp(NS, "health", {"content": "I have type 2 diabetes and take insulin"}),
    ]
    second: list[Op] = [
        PutOp(NS, "k3", {"content": "Note three, changed"}),
        PutOp(NS, "k4", {"content": "Note number 4 about apples"}),  # unchanged: reinforced
        *[PutOp(NS, f"n{i}", {"content": f"Second batch note {i}"}) for i in range(12)],
        PutOp(NS, "k5", None),
        PutOp(NS, "k5", {"content": "Note five, back again"}),
        GetOp(NS, "k5"),
        PutOp(NS, "n1", {"content": "Second batch note 1, revised"}),
    ]
    return [first, second]


def _open(make_lore: Callable[..., Userlore], path: Path, workers: int) -> UserloreStore:
    lore = make_lore("auto", url=f"sqlite:///{path}")
    index: Any = {"dims": 32, "embed": HashingEmbeddings(dims=32), "fields": ["content"]}
    return UserloreStore(lore, namespace_template=USER_FIRST, index=index, floor_workers=workers)


_GENERATED = {"id", "seq", "sequence", "generation", "reset"}
_LEFT_OUT = ("alembic_version", "_fts_")  # the migration row; FTS5's own shadow tables


def _database(store: UserloreStore) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, sorted, without generated ids and counters.

    The three runs share a fixed clock, so times compare; ids are drawn in write order,
    which parts and chunks change, so id columns (and the commit counters) are left out.
    """
    engine = store.lore.memory.store.engine
    out: dict[str, list[tuple[Any, ...]]] = {}
    with engine.connect() as conn, warnings.catch_warnings():
        warnings.simplefilter("ignore", SAWarning)  # pgvector's column type, unknown to it
        for table in inspect(conn).get_table_names():
            if any(part in table for part in _LEFT_OUT):
                continue
            columns = [
                c["name"]
                for c in inspect(conn).get_columns(table)
                if c["name"] not in _GENERATED and not c["name"].endswith("_id")
            ]
            quoted = ", ".join(f'"{c}"' for c in columns)
            rows = conn.execute(text(f'SELECT {quoted} FROM "{table}"')).all()
            out[table] = sorted((tuple(r) for r in rows), key=repr)
    return out


def test_a_pooled_batch_leaves_the_rows_of_the_plain_batch_and_of_single_puts(
    make_lore: Callable[..., Userlore], tmp_path: Path, small: None
) -> None:
    runs: dict[str, UserloreStore] = {
        "single": _open(make_lore, tmp_path / "single.db", 0),
        "plain": _open(make_lore, tmp_path / "plain.db", 0),
        "pooled": _open(make_lore, tmp_path / "pooled.db", 1),
    }
    results: dict[str, list[Any]] = {name: [] for name in runs}
    for batch in _script():
        for name, store in runs.items():
            parts = [[op] for op in batch] if name == "single" else [batch]
            for part in parts:
                results[name].extend(
                    None if r is None else (r.key, r.value)  # type: ignore[union-attr]
                    for r in store.batch(part)
                )
    pool = runs["pooled"]._floor_pool
    assert pool is not None and pool.worker_cpu > 0  # the workers judged the puts
    assert results["pooled"] == results["plain"] == results["single"]
    pooled, plain, single = (_database(runs[n]) for n in ("pooled", "plain", "single"))
    assert len(pooled["memory_records"]) > 30
    assert pooled == plain
    # Single puts differ only by their traces (one write transaction each, not one a chunk).
    assert {t: r for t, r in pooled.items() if t != "memory_trace_events"} == {
        t: r for t, r in single.items() if t != "memory_trace_events"
    }


@pytest.mark.parametrize("at", [6, 25])
def test_a_refused_put_in_any_chunk_leaves_nothing_and_is_traced_once(
    make_lore: Callable[..., Userlore], tmp_path: Path, small: None, at: int
) -> None:
    """At 6: in the first chunk's second write part; at 25: in the third chunk."""
    errors: list[str] = []
    for workers in (0, 1):
        store = _open(make_lore, tmp_path / f"refused-{workers}.db", workers)
        ops: list[Op] = [PutOp(NS, f"k{i}", {"content": f"Harmless note {i}"}) for i in range(30)]
        ops[at] = PutOp(NS, "bad", {"content": SECRET})
        with pytest.raises(PolicyViolationError) as raised:
            store.batch(ops)
        errors.append(str(raised.value))
        lore = store.lore
        assert lore.records.list("u1", state=list(RecordState)) == []
        traces = [t for t in lore.traces.list("u1") if t.get("reason_code") == "secret"]
        assert len(traces) == 1
        assert _database(store)["knowledge_source_items"] == []
        # The store still writes afterwards (nothing left locked or half-open).
        store.batch([PutOp(NS, "after", {"content": "Written after the refusal"})])
        assert store.get(NS, "after") is not None
    assert errors[0] == errors[1]


def test_a_malformed_op_raises_after_the_puts_before_it_are_judged(
    make_lore: Callable[..., Userlore], tmp_path: Path, small: None
) -> None:
    store = _open(make_lore, tmp_path / "malformed.db", 1)
    good: list[Op] = [PutOp(NS, f"k{i}", {"content": f"Harmless note {i}"}) for i in range(8)]
    malformed = PutOp(NS, "", {"content": "an empty key"})
    with pytest.raises(InvalidInputError):
        store.batch([*good, malformed])
    refused_first = [*good[:3], PutOp(NS, "bad", {"content": SECRET}), *good[3:], malformed]
    with pytest.raises(PolicyViolationError):  # a refusal before it wins, as in order
        store.batch(refused_first)
    assert store.lore.records.list("u1", state=list(RecordState)) == []


def test_abatch_takes_the_pooled_path(
    make_lore: Callable[..., Userlore], tmp_path: Path, small: None
) -> None:
    store = _open(make_lore, tmp_path / "async.db", 1)
    ops: list[Op] = [PutOp(NS, f"k{i}", {"content": f"Async note {i}"}) for i in range(12)]
    asyncio.run(store.abatch(ops))
    assert len(store.search(NS, limit=50)) == 12
    pool = store._floor_pool
    assert pool is not None and pool.worker_cpu > 0


def _candidate(content: str, key: str) -> CandidateInput:
    return CandidateInput(
        kind="note",
        content=content,
        canonical_key=f"store:notes#{key}",
        value=f'{{"content":"{content}","n":1}}',
        path="notes",
        producer=Producer.TOOL,
    )


TEXTS = [
    "I prefer short answers",
    SECRET,
    "I have type 2 diabetes",
    "My SSN is 078-05-1120",
    "Call me at nine one one two three four",
    "Ich bin schwul und lebe in Berlin",
]


def test_the_pooled_floor_gives_assess_s_verdicts() -> None:
    pool = FloorPool(1)
    try:
        floor = PooledFloor(pool=pool)
        candidates = [_candidate(t, f"k{i}") for i, t in enumerate(TEXTS)]
        floor.send(candidates)
        assert [floor.assess(c) for c in candidates] == [assess(c) for c in candidates]
        assert pool.worker_cpu > 0
    finally:
        pool.close()


def test_a_failed_worker_part_is_judged_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    pool = FloorPool(1)

    def broken(texts: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_exception(RuntimeError("worker died"))
        return future

    monkeypatch.setattr(pool, "submit", broken)
    floor = PooledFloor(pool=pool)
    candidates = [_candidate(t, f"k{i}") for i, t in enumerate(TEXTS)]
    floor.send(candidates)
    assert [floor.assess(c) for c in candidates] == [assess(c) for c in candidates]
    assert pool.worker_cpu == 0


def test_floor_workers_must_be_a_count(make_lore: Callable[..., Userlore]) -> None:
    lore = make_lore("auto")
    for bad in (-1, 1.5, True):
        with pytest.raises(InvalidInputError):
            UserloreStore(lore, namespace_template=USER_FIRST, floor_workers=bad)  # type: ignore[arg-type]


def test_a_killed_worker_costs_time_not_puts(
    make_lore: Callable[..., Userlore], tmp_path: Path, small: None
) -> None:
    store = _open(make_lore, tmp_path / "killed.db", 1)
    store.batch([PutOp(NS, f"a{i}", {"content": f"First note {i}"}) for i in range(6)])
    pool = store._floor_pool
    assert pool is not None and pool._executor is not None
    for process in list(pool._executor._processes.values()):
        os.kill(process.pid, signal.SIGKILL)
        process.join(timeout=30)
    for round_ in ("b", "c"):  # the parts in flight are judged here; then new workers start
        store.batch(
            [PutOp(NS, f"{round_}{i}", {"content": f"Note {round_} {i}"}) for i in range(6)]
        )
    refused = [PutOp(NS, f"d{i}", {"content": f"Note d {i}"}) for i in range(6)]
    refused[4] = PutOp(NS, "bad", {"content": SECRET})
    with pytest.raises(PolicyViolationError):
        store.batch(refused)
    assert len(store.search(NS, limit=50)) == 18


def test_parts_no_worker_started_are_taken_back_and_judged_here(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Workers that never start a part (all busy): the main process judges every part itself,
    the last ones first, and still gives ``assess``'s verdicts."""
    pool = FloorPool(1)
    sent: list[Future[Any]] = []

    def never_started(texts: Any) -> Future[Any]:
        sent.append(Future())
        return sent[-1]

    monkeypatch.setattr(pool, "submit", never_started)
    monkeypatch.setattr(floor_pool, "PART", 1)
    floor = PooledFloor(pool=pool)
    candidates = [_candidate(t, f"k{i}") for i, t in enumerate(TEXTS)]
    floor.send(candidates)
    assert len(sent) == len(TEXTS)
    assert floor.assess(candidates[0]) == assess(candidates[0])
    assert all(f.cancelled() for f in sent)  # the first wait took back every later part too
    assert [floor.assess(c) for c in candidates] == [assess(c) for c in candidates]
