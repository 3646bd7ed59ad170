"""Before/after of issue 23 item 5 interleaved in one process: wall and thread CPU per plan.

On a shared machine the load drifts between two runs; alternating the read path query by query
(odd queries as before: FTS5 and the profile read every plan; even ones with the in-memory
posting index and the cached profile) puts both under the same load. A governed note write
(untimed) precedes every plan, as an agent's turns do.

Usage: python benchmarks/plan_ab.py --database FILE [--queries 120] [--before-src DIR]
(FILE: a SQLite database ``plan_latency.py``/``plan_stages.py`` built, copied before use.)

``--before-src DIR`` (a ``git archive`` of an older commit's ``src``) makes "before" that
commit's read path instead: the functions in :data:`SWAPPED` are loaded from DIR and swapped in
for odd queries (third round of issue 23 item 5: the trace write, the hit-row read, placement).
Each plan's process CPU (every thread: the trace flusher too) is printed beside its thread CPU.
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from plan_latency import SCOPE, TextGen, percentile

import userlore.planner.search as search_module
import userlore.store.retrieval as retrieval_module
from userlore import CandidateInput, Userlore

SWAPPED: list[tuple[str, str, list[str]]] = [
    ("userlore.store.traces", "TraceLog", ["trace_soon", "_write_now"]),
    ("userlore.store.retrieval", "HitQuery", ["_rows_of"]),
    ("userlore.planner.planner", "ContextPlanner", ["plan", "_place"]),
    ("userlore.store.consent", "ConsentLedger", ["consents_in"]),
]
"""(module, class, functions) of the read path swapped for the ``--before-src`` commit's."""


def swaps(before_src: Path) -> tuple[dict[Any, dict[str, Any]], dict[Any, dict[str, Any]]]:
    """For each class of :data:`SWAPPED`: its current functions and the older commit's."""
    now: dict[Any, dict[str, Any]] = {}
    old: dict[Any, dict[str, Any]] = {}
    for module_name, class_name, names in SWAPPED:
        current = getattr(importlib.import_module(module_name), class_name)
        path = before_src / (module_name.replace(".", "/") + ".py")
        spec = importlib.util.spec_from_file_location(f"_before_{module_name}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        older = getattr(module, class_name)
        now[current] = {n: current.__dict__.get(n) for n in names}
        old[current] = {n: older.__dict__.get(n) for n in names}
    return now, old


def apply(functions: dict[Any, dict[str, Any]]) -> None:
    for owner, named in functions.items():
        for name, fn in named.items():
            if fn is None:
                if name in owner.__dict__:
                    delattr(owner, name)
            else:
                setattr(owner, name, fn)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", required=True)
    parser.add_argument("--queries", type=int, default=120)
    parser.add_argument("--before-src", help="an older commit's src (git archive) as before")
    args = parser.parse_args()
    swapped = swaps(Path(args.before_src)) if args.before_src else None
    in_memory, standing = retrieval_module._in_memory, search_module.standing_rows
    gen = TextGen(seed=5)
    queries = [gen.sentence(gen.rng.randint(3, 8)) for _ in range(args.queries)]
    runs: dict[str, tuple[list[float], list[float], list[float]]] = {
        "before": ([], [], []),
        "after": ([], [], []),
    }
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "ab.db"
        shutil.copy(args.database, path)
        lore = Userlore.open(f"sqlite:///{path}", config={"memory": {"mode": "auto"}})
        for q in queries[:5]:
            lore.plan_context(SCOPE, q)
        for i, q in enumerate(queries):
            mode = "before" if i % 2 else "after"
            if swapped is not None:
                apply(swapped[1] if mode == "before" else swapped[0])
            elif mode == "before":
                retrieval_module._in_memory = lambda *_a, **_k: None  # type: ignore[assignment]
                search_module.standing_rows = lambda _c, _s, _k, load, *_: load()  # type: ignore[assignment]
            else:
                retrieval_module._in_memory = in_memory  # type: ignore[assignment]
                search_module.standing_rows = standing  # type: ignore[assignment]
            lore.write(SCOPE, CandidateInput(kind="note", content=gen.sentence(12)))
            wall, cpu, every = time.perf_counter(), time.thread_time(), time.process_time()
            lore.plan_context(SCOPE, q, session_key="bench")
            runs[mode][0].append((time.perf_counter() - wall) * 1000)
            runs[mode][1].append((time.thread_time() - cpu) * 1000)
            runs[mode][2].append((time.process_time() - every) * 1000)
        lore.close()
    for mode, (wall_ms, cpu_ms, process_ms) in runs.items():
        wall50, wall95 = statistics.median(wall_ms), percentile(wall_ms, 95)
        cpu50, cpu95 = statistics.median(cpu_ms), percentile(cpu_ms, 95)
        every50 = statistics.median(process_ms)
        print(
            f"{mode:<6} wall p50 {wall50:6.2f} p95 {wall95:6.2f}"
            f" | thread CPU p50 {cpu50:6.2f} p95 {cpu95:6.2f}"
            f" | process CPU p50 {every50:6.2f} ms"
        )


if __name__ == "__main__":
    main()
