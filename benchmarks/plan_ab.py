"""Before/after of issue 23 item 5 interleaved in one process: wall and thread CPU per plan.

On a shared machine the load drifts between two runs; alternating the read path query by query
(odd queries as before: FTS5 and the profile read every plan; even ones with the in-memory
posting index and the cached profile) puts both under the same load. A governed note write
(untimed) precedes every plan, as an agent's turns do.

Usage: python benchmarks/plan_ab.py --database FILE [--queries 120]
(FILE: a SQLite database ``plan_latency.py``/``plan_stages.py`` built, copied before use.)
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from plan_latency import SCOPE, TextGen, percentile

import userlore.planner.search as search_module
import userlore.store.retrieval as retrieval_module
from userlore import CandidateInput, Userlore


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", required=True)
    parser.add_argument("--queries", type=int, default=120)
    args = parser.parse_args()
    in_memory, standing = retrieval_module._in_memory, search_module.standing_rows
    gen = TextGen(seed=5)
    queries = [gen.sentence(gen.rng.randint(3, 8)) for _ in range(args.queries)]
    runs: dict[str, tuple[list[float], list[float]]] = {"before": ([], []), "after": ([], [])}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "ab.db"
        shutil.copy(args.database, path)
        lore = Userlore.open(f"sqlite:///{path}", config={"memory": {"mode": "auto"}})
        for q in queries[:5]:
            lore.plan_context(SCOPE, q)
        for i, q in enumerate(queries):
            mode = "before" if i % 2 else "after"
            if mode == "before":
                retrieval_module._in_memory = lambda *_a, **_k: None  # type: ignore[assignment]
                search_module.standing_rows = lambda _c, _s, _k, load, *_: load()  # type: ignore[assignment]
            else:
                retrieval_module._in_memory = in_memory  # type: ignore[assignment]
                search_module.standing_rows = standing  # type: ignore[assignment]
            lore.write(SCOPE, CandidateInput(kind="note", content=gen.sentence(12)))
            wall, cpu = time.perf_counter(), time.thread_time()
            lore.plan_context(SCOPE, q, session_key="bench")
            runs[mode][0].append((time.perf_counter() - wall) * 1000)
            runs[mode][1].append((time.thread_time() - cpu) * 1000)
        lore.close()
    for mode, (wall_ms, cpu_ms) in runs.items():
        wall50, wall95 = statistics.median(wall_ms), percentile(wall_ms, 95)
        cpu50, cpu95 = statistics.median(cpu_ms), percentile(cpu_ms, 95)
        print(
            f"{mode:<6} wall p50 {wall50:6.2f} p95 {wall95:6.2f}"
            f" | thread CPU p50 {cpu50:6.2f} p95 {cpu95:6.2f} ms"
        )


if __name__ == "__main__":
    main()
