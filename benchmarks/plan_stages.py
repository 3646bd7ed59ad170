"""Where a plan's time goes: per-stage thread CPU time beside the retrieval stage and bm25s.

One scope of N records written through the governed path (as ``plan_latency.py``), or a copy
of a database it built before (``--database``, a SQLite file holding that scope). Per query, in
this order and in one process: one governed note write (untimed), the plan, userlore's
retrieval stage alone (``fulltext_hits``), and bm25s over the same texts (indexed once). Each
timed with the thread's CPU clock, so that other processes on a shared machine inflate the
figures less than wall time; the plan's stages are timed by wrapping the functions it calls.

Usage: python benchmarks/plan_stages.py [--records 100000] [--queries 300] [--database FILE]
       [--baseline]  (the read path before issue 23 item 5, for a before/after in one session)
"""

from __future__ import annotations

import argparse
import functools
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from plan_latency import (
    SCOPE,
    TextGen,
    bare_fulltext,
    bm25s_search,
    disable_in_memory,
    parity,
    percentile,
    populate,
)

import userlore.planner.planner as planner_module
import userlore.planner.search as search_module
import userlore.store.posting_index as posting_module
import userlore.store.retrieval as retrieval_module
from userlore import CandidateInput, Userlore
from userlore.store.traces import TraceLog

STAGES: list[tuple[Any, str, str]] = [
    (planner_module, "search", "policy-filtered read (all below)"),
    (retrieval_module.HitQuery, "search", "  full-text hits as rows"),
    (retrieval_module, "_hit_statement", "    document frequencies (FTS5)"),
    (retrieval_module, "_in_memory", "    in-memory postings (delta + BM25)"),
    (posting_module.PostingIndexes, "current", "      posting index brought current"),
    (retrieval_module.HitQuery, "load_by_seq", "    hit rows not in the row cache, read"),
    (search_module, "_with_standing", "  always-eligible profile"),
    (planner_module, "search_snippets", "episodic snippets"),
    (planner_module, "place", "rerank, sections, render"),
    (TraceLog, "trace_soon", "trace write (queued since plancost3)"),
    (planner_module, "checked_session_key", "session key check"),
]


def cpu_ms(fn: Callable[[], object]) -> float:
    start = time.thread_time()
    fn()
    return (time.thread_time() - start) * 1000


def instrument(samples: dict[str, list[float]]) -> None:
    for owner, name, label in STAGES:
        inner = getattr(owner, name, None)
        if inner is None:  # the planner moved on: that stage is not timed
            print(f"(no {name} to time for {label.strip()!r})")
            continue

        def timed(*args: Any, _f: Any = inner, _label: str = label, **kwargs: Any) -> Any:
            start = time.thread_time()
            try:
                return _f(*args, **kwargs)
            finally:
                samples.setdefault(_label, []).append((time.thread_time() - start) * 1000)

        setattr(owner, name, functools.wraps(inner)(timed))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--database", help="a SQLite file this script or plan_latency built")
    parser.add_argument(
        "--baseline",
        action="store_true",
        help="the read path before issue 23 item 5 (FTS5 only, no profile cache)",
    )
    args = parser.parse_args()
    if args.baseline:
        disable_in_memory()
    n = args.records
    gen = TextGen(seed=n)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "stages.db"
        url = f"sqlite:///{path}"
        if args.database:
            shutil.copy(args.database, path)
            texts = [gen.sentence(gen.rng.randint(8, 24)) for _ in range(n)]
            for _ in range(6):  # the profile facts populate() writes after the texts
                gen.sentence(6)
            lore = Userlore.open(url, config={"memory": {"mode": "auto"}})
        else:
            lore = Userlore.open(url, config={"memory": {"mode": "auto"}})
            texts = populate(lore, gen, n)
        queries = [gen.sentence(gen.rng.randint(3, 8)) for _ in range(args.queries)]
        notes = [gen.sentence(gen.rng.randint(8, 24)) for _ in queries]
        k = lore.config.planner.retrieval_k
        bm25s, stage = bm25s_search(texts, k), bare_fulltext(url, k, pruned=True)

        def plan(q: str) -> object:
            return lore.plan_context(SCOPE, q, session_key="bench")

        for q in queries[:10]:
            plan(q), stage(q), bm25s(q)
        check = "" if args.baseline else parity(url, queries, k)
        samples: dict[str, list[float]] = {}
        instrument(samples)
        runs: dict[str, list[float]] = {"plan": [], "retrieval stage": [], "bm25s": []}
        for q, note in zip(queries, notes, strict=True):
            lore.write(SCOPE, CandidateInput(kind="note", content=note))
            runs["plan"].append(cpu_ms(lambda: plan(q)))  # noqa: B023
            runs["retrieval stage"].append(cpu_ms(lambda: stage(q)))  # noqa: B023
            runs["bm25s"].append(cpu_ms(lambda: bm25s(q)))  # noqa: B023
        lore.close()
    bm = statistics.median(runs["bm25s"])
    print(f"{n} records, {args.queries} queries, a governed write before each plan; CPU ms")
    for label, values in runs.items():
        p50 = statistics.median(values)
        print(
            f"{label:<34} p50 {p50:6.2f} p95 {percentile(values, 95):6.2f} ({p50 / bm:.1f}x bm25s)"
        )
    for _, _, label in STAGES:
        values = samples.get(label, [])
        if values:
            p50, mean = statistics.median(values), statistics.mean(values)
            print(f"{label:<34} p50 {p50:6.2f} mean {mean:6.2f}")
    if check:
        print(check)


if __name__ == "__main__":
    main()
