"""Before/after of issue 23 item 5 interleaved in one process: wall and thread CPU per plan.

On a shared machine the load drifts between two runs; alternating the read path query by query
(odd queries as before: FTS5 and the profile read every plan; even ones with the in-memory
posting index and the cached profile) puts both under the same load. A governed note write
(untimed) precedes every plan, as an agent's turns do.

Usage: python benchmarks/plan_ab.py --database FILE [--queries 120]
       [--before-src DIR | --before-package DIR [--records 100000]]
(FILE: a SQLite database ``plan_latency.py``/``plan_stages.py`` built, copied before use.)

``--before-src DIR`` (a ``git archive`` of an older commit's ``src``) makes "before" that
commit's read path instead: the functions in :data:`SWAPPED` are loaded from DIR and swapped in
for odd queries (third round of issue 23 item 5: the trace write, the hit-row read, placement).
Each plan's process CPU (every thread: the trace flusher too) is printed beside its thread CPU.

``--before-package DIR`` (the same kind of ``git archive``) makes "before" that commit's whole
package instead, for changes that hold state a swap of functions would mix (the posting
index's caches, the row type): DIR's ``userlore`` is imported as ``userlore_before`` (its
imports rewritten) and opened on a second copy of the database, and the two read paths
alternate query by query, each writing the same note before its plan (fourth round of issue 23
item 5). bm25s over the same texts (``plan_latency.bm25s_search``, indexed once) is timed after
each pair, so every row carries its ratio to bm25s in the same run.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from plan_latency import SCOPE, TextGen, bm25s_search, percentile

import userlore.planner.search as search_module
import userlore.store.retrieval as retrieval_module
from userlore import CandidateInput, Userlore

SWAPPED: list[tuple[str, str, list[str]]] = [
    ("userlore.store.traces", "TraceLog", ["trace_soon", "_write_now"]),
    ("userlore.store.retrieval", "HitQuery", ["_rows_of"]),
    ("userlore.planner.planner", "ContextPlanner", ["plan", "_place", "_window", "_snippet_entry"]),
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


def before_package(src: Path, into: Path) -> Any:
    """``src``'s ``userlore`` copied into ``into`` as ``userlore_before`` and imported."""
    target = into / "userlore_before"
    shutil.copytree(src / "userlore", target)
    imports = re.compile(r"^(\s*)(from|import) userlore\b", re.MULTILINE)
    for path in target.rglob("*.py"):
        code = path.read_text(encoding="utf-8")
        path.write_text(imports.sub(r"\1\2 userlore_before", code), encoding="utf-8")
    sys.path.insert(0, str(into))
    return importlib.import_module("userlore_before")


def database_texts(n: int = 100_000) -> list[str]:
    """The record texts ``plan_latency.populate`` wrote into a database of ``n`` records."""
    gen = TextGen(seed=n)
    return [gen.sentence(gen.rng.randint(8, 24)) for _ in range(n)]


def whole_packages(args: argparse.Namespace) -> None:
    """Before and after as two whole packages on two copies of the database, interleaved."""
    gen = TextGen(seed=5)
    queries = [gen.sentence(gen.rng.randint(3, 8)) for _ in range(args.queries)]
    notes = [gen.sentence(12) for _ in queries]
    runs: dict[str, tuple[list[float], list[float], list[float]]] = {
        "before": ([], [], []),
        "after": ([], [], []),
        "bm25s": ([], [], []),
    }
    with tempfile.TemporaryDirectory() as tmp:
        old = before_package(Path(args.before_package), Path(tmp))
        lores: dict[str, Any] = {}
        for mode, package in (("before", old), ("after", sys.modules["userlore"])):
            path = Path(tmp) / f"{mode}.db"
            shutil.copy(args.database, path)
            lores[mode] = package.Userlore.open(
                f"sqlite:///{path}", config={"memory": {"mode": "auto"}}
            )
        bm25s = bm25s_search(
            database_texts(args.records), lores["after"].config.planner.retrieval_k
        )
        for q in queries[:5]:
            for lore in lores.values():
                lore.plan_context(SCOPE, q)
            bm25s(q)
        for i, (q, note) in enumerate(zip(queries, notes, strict=True)):
            order = ("before", "after") if i % 2 else ("after", "before")
            for mode in order:
                lore = lores[mode]
                package = old if mode == "before" else sys.modules["userlore"]
                lore.write(SCOPE, package.CandidateInput(kind="note", content=note))
                wall, cpu, every = time.perf_counter(), time.thread_time(), time.process_time()
                lore.plan_context(SCOPE, q, session_key="bench")
                runs[mode][0].append((time.perf_counter() - wall) * 1000)
                runs[mode][1].append((time.thread_time() - cpu) * 1000)
                runs[mode][2].append((time.process_time() - every) * 1000)
            wall, cpu, every = time.perf_counter(), time.thread_time(), time.process_time()
            bm25s(q)
            runs["bm25s"][0].append((time.perf_counter() - wall) * 1000)
            runs["bm25s"][1].append((time.thread_time() - cpu) * 1000)
            runs["bm25s"][2].append((time.process_time() - every) * 1000)
        for lore in lores.values():
            lore.close()
    report(runs)


def report(runs: dict[str, tuple[list[float], list[float], list[float]]]) -> None:
    bm = statistics.median(runs["bm25s"][1]) if "bm25s" in runs else None
    for mode, (wall_ms, cpu_ms, process_ms) in runs.items():
        wall50, wall95 = statistics.median(wall_ms), percentile(wall_ms, 95)
        cpu50, cpu95 = statistics.median(cpu_ms), percentile(cpu_ms, 95)
        every50 = statistics.median(process_ms)
        ratio = f" | {cpu50 / bm:4.2f}x bm25s (thread CPU p50)" if bm else ""
        print(
            f"{mode:<6} wall p50 {wall50:6.2f} p95 {wall95:6.2f}"
            f" | thread CPU p50 {cpu50:6.2f} p95 {cpu95:6.2f}"
            f" | process CPU p50 {every50:6.2f} ms{ratio}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", required=True)
    parser.add_argument("--queries", type=int, default=120)
    parser.add_argument("--before-src", help="an older commit's src (git archive) as before")
    parser.add_argument(
        "--before-package", help="an older commit's src: its whole package as before (see above)"
    )
    parser.add_argument(
        "--records", type=int, default=100_000, help="records in the database (bm25s's texts)"
    )
    args = parser.parse_args()
    if args.before_package:
        whole_packages(args)
        return
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
    report(runs)


if __name__ == "__main__":
    main()
