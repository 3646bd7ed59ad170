"""The whole plan over one scope of a million records (issue 24 items 4 and 6), measured.

Two steps, each resumable from its SQLite file, because the fill and the approximate index's
build each take longer than one sitting on a shared 2-core machine:

- ``fill``: one scope of N note records through the batched governed write
  (:func:`~userlore.understanding.govern_batch`: validation, the sensitivity floor of every
  text, fresh keys in bulk, record versions, full-text rows and vectors in the same
  transaction), in chunks of ``--chunk``. Text: ``plan_latency.TextGen``'s Zipf sentences of 8-24
  words, one generator seeded per chunk (so a stopped fill resumes where it stopped). Vectors:
  :class:`WordVectors`, a bag of seeded per-word directions (texts sharing words are near each
  other, so the set has the structure a model's vectors have; no model embeds 1M texts here).
- ``measure``: open the file as an application does (the vectors' warm-up starts the matrix
  load and then the background build of the approximate index), time the first plan, then
  ``plan_context`` with a governed note write (untimed) before each plan: while the index builds
  (exact vectors), after it is built (approximate), and exact again in the same run (the
  index switched off by threshold, as ``ann.py`` does). Wall and thread-CPU p50/p95, a stage
  split by thread CPU (``plan_stages.instrument``, plus the vector search), file sizes per
  table and index (SQLite's ``dbstat``), the process's resident memory.

The built index is not persisted: every ``measure`` builds it again (``--build-threads``).

Usage: python benchmarks/plan_1m.py fill --database FILE [--records 1000000] [--chunk 2000]
       python benchmarks/plan_1m.py measure --database FILE [--queries 200] [--build-threads 2]
           [--skip-ann]
Progress lines go to stdout (flushed); the last line of ``measure`` is one JSON object.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import os
import resource
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings
from plan_latency import SCOPE, TextGen, percentile, write_profile
from plan_stages import STAGES, instrument
from sqlalchemy import create_engine, func, select, text
from sqlalchemy.exc import OperationalError

from userlore import CandidateInput, Userlore
from userlore.policy.govern import BatchFloor
from userlore.store.schema import MemoryRecord
from userlore.understanding import govern_batch

DIMS = 384
MODEL = "bench:word-vectors-384"
KEY = "note/bench-{}"


class WordVectors(Embeddings):
    """A text's vector: the normalised sum of seeded per-word unit directions, rarer words
    weighted more, plus a little per-text noise. Deterministic and cheap (no model)."""

    model_name = MODEL

    def __init__(self, dims: int = DIMS) -> None:
        self.dims = dims
        self._words: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}

    def _word(self, word: str) -> np.ndarray[Any, np.dtype[np.float32]]:
        vec = self._words.get(word)
        if vec is None:
            seed = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=8).digest(), "big")
            raw = np.random.default_rng(seed).standard_normal(self.dims).astype(np.float32)
            vec = self._words[word] = raw / np.linalg.norm(raw)
        return vec

    def _vector(self, item: str) -> list[float]:
        words = [w.strip(".,").lower() for w in item.split()]
        total = np.zeros(self.dims, dtype=np.float32)
        for w in words:
            # longer synthetic words are rarer in TextGen's Zipf draw: a crude idf
            total += self._word(w) * (1.0 + 0.25 * len(w))
        seed = int.from_bytes(hashlib.blake2b(item.encode(), digest_size=8).digest(), "big")
        total += np.random.default_rng(seed).standard_normal(self.dims).astype(np.float32) * 0.3
        norm = float(np.linalg.norm(total)) or 1.0
        return (total / norm).tolist()  # type: ignore[no-any-return]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)


def chunk_texts(chunk: int, size: int, gen: TextGen) -> list[str]:
    """The texts of chunk number ``chunk``: the same on every run (a resumed fill)."""
    gen.rng.seed(1_000_003 * chunk + 17)
    return [gen.sentence(gen.rng.randint(8, 24)) for _ in range(size)]


def held(lore: Userlore) -> int:
    """Records of the bench scope already written (a fill resumes after them)."""
    with lore.memory.store.engine.connect() as conn:
        return int(
            conn.scalar(
                select(func.count()).select_from(MemoryRecord).where(MemoryRecord.scope == SCOPE)
            )
            or 0
        )


def fill(database: Path, records: int, chunk: int) -> None:
    """Write ``records`` keyed notes to ``database`` by the batched governed write."""
    from userlore.store.vectors import matrices

    matrices.WARM_MIN_VECTORS = 2**62  # a writer never reads: no matrix load, no index build
    lore = Userlore.open(
        f"sqlite:///{database}", config={"memory": {"mode": "auto"}}, embeddings=WordVectors()
    )
    store = lore.memory.store
    gen = TextGen(seed=1)
    start_at = held(lore) // chunk * chunk
    print(f"fill {database}: {start_at:,} records held, writing to {records:,}", flush=True)
    began = time.perf_counter()
    cpu0 = time.process_time()
    written = 0
    try:
        for at in range(start_at, records, chunk):
            size = min(chunk, records - at)
            texts = chunk_texts(at // chunk, size, gen)
            candidates = [
                CandidateInput(kind="note", canonical_key=KEY.format(at + i), content=t)
                for i, t in enumerate(texts)
            ]
            floor = BatchFloor()
            for c in candidates:
                store.validate_candidate(c)
            verdicts = [floor.judge(c) for c in candidates]
            govern_batch(store, SCOPE, candidates, verdicts=verdicts)
            written += size
            if (at // chunk) % 25 == 0 or at + size >= records:
                wall = time.perf_counter() - began
                print(
                    f"fill {at + size:,} records; this run {written:,} in {wall:.0f} s "
                    f"({written / wall:,.0f} items/s wall, "
                    f"{written / (time.process_time() - cpu0):,.0f} items/CPU-s)",
                    flush=True,
                )
        write_profile(lore, lambda i: f"profile fact {i}: x{i}")
    finally:
        lore.close()


def rss_mb() -> tuple[float, float]:
    """Resident and peak resident memory of this process, in MB."""
    current = 0.0
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            current = int(line.split()[1]) / 1024
    return current, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def sizes(database: Path) -> dict[str, float]:
    """MB per table and index (SQLite's ``dbstat``), largest first; empty without dbstat."""
    engine = create_engine(f"sqlite:///{database}")
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                text("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC")
            ).all()
    except OperationalError as exc:  # a build of SQLite without dbstat
        print(f"sizes: dbstat unavailable ({exc.__class__.__name__})")
        return {}
    finally:
        engine.dispose()
    return {str(name): round(int(size) / 2**20, 1) for name, size in rows}


def run_plans(lore: Userlore, queries: list[str], notes: list[str], label: str) -> dict[str, float]:
    """Wall and thread-CPU p50/p95 of ``plan_context``, one governed note write before each."""
    wall: list[float] = []
    cpu: list[float] = []
    for q, note in zip(queries, notes, strict=True):
        lore.write(SCOPE, CandidateInput(kind="note", content=note))
        w0, c0 = time.perf_counter(), time.thread_time()
        lore.plan_context(SCOPE, q, session_key="bench")
        cpu.append((time.thread_time() - c0) * 1000)
        wall.append((time.perf_counter() - w0) * 1000)
    row = {
        "p50_ms": round(statistics.median(wall), 2),
        "p95_ms": round(percentile(wall, 95), 2),
        "cpu_p50_ms": round(statistics.median(cpu), 2),
        "cpu_p95_ms": round(percentile(cpu, 95), 2),
        "plans": len(queries),
    }
    print(
        f"{label}: plan p50 {row['p50_ms']:.2f} p95 {row['p95_ms']:.2f} ms wall, thread CPU "
        f"p50 {row['cpu_p50_ms']:.2f} p95 {row['cpu_p95_ms']:.2f} ms ({len(queries)} plans, "
        "a governed write before each)",
        flush=True,
    )
    return row


def measure(
    database: Path, n_queries: int, build_threads: int, skip_ann: bool, poll: float
) -> dict[str, Any]:
    """Time to first plan, exact / approximate / exact plans, stage split, sizing."""
    from userlore.store import vector_matrix

    if build_threads:
        vector_matrix._BUILD_THREADS = build_threads
    out: dict[str, Any] = {"database": str(database)}
    out["file_mb"] = round(database.stat().st_size / 2**20, 1)
    gen = TextGen(seed=2)
    gen.rng.seed(99)
    queries = [gen.sentence(gen.rng.randint(3, 8)) for _ in range(n_queries)]
    notes = [gen.sentence(gen.rng.randint(8, 24)) for _ in range(4 * n_queries + 20)]
    opened = time.perf_counter()
    lore = Userlore.open(
        f"sqlite:///{database}", config={"memory": {"mode": "auto"}}, embeddings=WordVectors()
    )
    try:
        out["records"] = held(lore)
        lore.plan_context(SCOPE, queries[0], session_key="bench")
        first = time.perf_counter() - opened
        out["first_plan_s"] = round(first, 1)
        out["rss_after_first_plan_mb"] = round(rss_mb()[0])
        print(
            f"{out['records']:,} records, file {out['file_mb']:,} MB: open + first plan "
            f"{first:.1f} s, RSS {out['rss_after_first_plan_mb']:,} MB",
            flush=True,
        )
        index = lore.memory.store.vectors
        assert index is not None
        matrix = index._cache.get((SCOPE, "record"))
        assert matrix is not None, "the record matrix is not held after a plan"
        built_from = opened
        notes_left = iter(notes)

        def take(count: int) -> list[str]:
            return [next(notes_left) for _ in range(count)]

        half = max(1, n_queries // 2)
        if not matrix.ann_ready:
            out["exact_while_building"] = run_plans(
                lore, queries[:half], take(half), "exact vectors while the index builds"
            )
        if skip_ann or matrix.ann_above is None or matrix.size < matrix.ann_above:
            return out  # asked to, or a scope below the threshold never builds an index
        while not matrix.ann_ready:
            time.sleep(poll)
            waited = time.perf_counter() - built_from
            print(f"building the approximate index: {waited:.0f} s since open", flush=True)
        out["ann_build_s_since_open"] = round(time.perf_counter() - built_from)
        out["rss_after_build_mb"] = round(rss_mb()[0])
        out["matrix_and_index_mb"] = round(matrix.nbytes / 2**20)
        print(
            f"approximate index ready {out['ann_build_s_since_open']} s after open "
            f"(build threads {vector_matrix._BUILD_THREADS}); RSS {out['rss_after_build_mb']:,} "
            f"MB, matrix + index {out['matrix_and_index_mb']:,} MB",
            flush=True,
        )
        searches = matrix.ann_searches
        out["ann"] = run_plans(lore, queries, take(n_queries), "approximate vectors")
        out["ann_searches"] = matrix.ann_searches - searches
        index.ann_above = matrix.ann_above = None
        out["exact"] = run_plans(lore, queries, take(n_queries), "exact vectors (same run)")
        index.ann_above = matrix.ann_above = vector_matrix.ANN_ABOVE
        p50 = out["ann"]["p50_ms"] / max(out["exact"]["p50_ms"], 1e-6)
        p95 = out["ann"]["p95_ms"] / max(out["exact"]["p95_ms"], 1e-6)
        out["ann_over_exact"] = {"p50": round(p50, 3), "p95": round(p95, 3)}
        print(f"approximate / exact: p50 {p50:.3f}x, p95 {p95:.3f}x", flush=True)
        out["stages_cpu_ms"] = stage_split(lore, queries[:half], take(half))
    finally:
        lore.close()
        out["sizes_mb"] = sizes(database)
        shown = {name: mb for name, mb in out["sizes_mb"].items() if mb >= 1}
        print("sizes (MB, tables and indexes of 1 MB or more):", json.dumps(shown), flush=True)
    return out


def stage_split(lore: Userlore, queries: list[str], notes: list[str]) -> dict[str, float]:
    """Thread-CPU p50 per stage of the plan (approximate path), ``plan_stages``' wrappers plus
    the vector search."""
    from userlore.store.vectors import VectorIndex

    samples: dict[str, list[float]] = {}
    instrument(samples)
    label = "  vector search (records and evidence)"
    inner: Callable[..., Any] = VectorIndex.search

    @functools.wraps(inner)
    def search(*args: Any, **kwargs: Any) -> Any:
        start = time.thread_time()
        try:
            return inner(*args, **kwargs)
        finally:
            samples.setdefault(label, []).append((time.thread_time() - start) * 1000)

    VectorIndex.search = search  # type: ignore[method-assign]
    try:
        plan = run_plans(lore, queries, notes, "stage split run (instrumented, approximate)")
    finally:
        VectorIndex.search = inner  # type: ignore[method-assign]
    out = {"plan_cpu_p50": plan["cpu_p50_ms"]}
    for name in [s[2] for s in STAGES] + [label]:
        values = samples.get(name)
        if values:
            out[name.strip()] = round(statistics.median(values), 2)
            print(f"{name:<40} p50 {statistics.median(values):7.2f} ms CPU ({len(values)} calls)")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=["fill", "measure"])
    parser.add_argument("--database", required=True, type=Path)
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--chunk", type=int, default=2000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--build-threads", type=int, default=0, help="0: the shipped setting")
    parser.add_argument("--skip-ann", action="store_true", help="exact plans only, no build wait")
    parser.add_argument("--poll", type=float, default=30.0, help="seconds between build checks")
    args = parser.parse_args()
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    if args.step == "fill":
        fill(args.database, args.records, args.chunk)
        return
    out = measure(args.database, args.queries, args.build_threads, args.skip_ann, args.poll)
    print(json.dumps({"plan_1m": out}))


if __name__ == "__main__":
    main()
