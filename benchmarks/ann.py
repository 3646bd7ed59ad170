"""Approximate vector search on the SQLite/numpy path (issue 24, items 4 and 6).

Two modes, one run each, on synthetic 384-d unit vectors **with cluster structure** (centres on
the sphere, each vector a centre plus Gaussian noise, renormalised; queries drawn the same way
and never in the set), because latency and recall at 1M cannot wait for a model to embed 1M
texts on a shared 2-core machine:

- ``--libs``: usearch against faiss-cpu's ``IndexHNSWFlat`` with the same HNSW parameters
  (M 16, ef_construction 128, ef_search 96): build time, one-query p50/p95, recall@10 against
  exact numpy. (faiss is only a peer here: ``pip install faiss-cpu`` to run it.)
- ``--sizes``: a real SQLite file per size with one scope of N record vectors (rows inserted
  directly, stamped with a generation, as the write path leaves them), searched through
  :meth:`VectorIndex.search`: the first read (loads the matrix; exact while the index builds in
  the background), the background build's time, then exact vs approximate p50/p95 and
  recall@10, and the write-then-read cycle: a put (new vector), a replacement, a removal, each
  followed by a read (deleted ids must never come back, a replaced id must score with its new
  vector).

Usage: python benchmarks/ann.py [--libs N] [--sizes 100000,1000000] [--queries 200]
    [--cycles 40] [--build-threads 2]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

Vector = npt.NDArray[np.float32]
DIMS = 384
K = 10


def clustered(n: int, seed: int, clusters: int = 0, noise: float = 0.9) -> Vector:
    """``n`` unit vectors around ``clusters`` random centres (default: one per 100 vectors)."""
    rng = np.random.default_rng(seed)
    centre_rng = np.random.default_rng(12345)  # same centres for the data and the queries
    count = clusters or max(10, n // 100)
    centres = centre_rng.standard_normal((count, DIMS)).astype(np.float32)
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    out = np.empty((n, DIMS), dtype=np.float32)
    step = 100_000
    for start in range(0, n, step):
        size = min(step, n - start)
        picked = centres[rng.integers(0, count, size)]
        noisy = picked + rng.standard_normal((size, DIMS)).astype(np.float32) * (
            noise / np.sqrt(DIMS)
        )
        out[start : start + size] = noisy / np.linalg.norm(noisy, axis=1, keepdims=True)
    return out


def exact_top(matrix: Vector, queries: Vector, k: int) -> list[set[int]]:
    out = []
    for q in queries:
        scores = matrix @ q
        out.append({int(i) for i in np.argpartition(-scores, k)[:k]})
    return out


def pct(samples: Sequence[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"{statistics.median(ordered):.2f} / {p95:.2f} ms"


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    out = fn()
    return (time.perf_counter() - start) * 1000, out


def compare_libs(
    n: int,
    queries: int,
    configs: list[tuple[str, int]],
    with_faiss: bool,
    noise: float,
    clusters: int,
) -> None:
    data = clustered(n, 1, clusters=clusters, noise=noise)
    qs = clustered(queries, 2, clusters=clusters or max(10, n // 100), noise=noise)
    truth = exact_top(data, qs, K)
    exact_ms = [timed(lambda q=q: np.argpartition(-(data @ q), K)[:K])[0] for q in qs]
    print(f"libs n={n} noise={noise} exact numpy search p50/p95 {pct(exact_ms)}")

    from usearch.index import Index

    def rescored(index: Any, q: Vector) -> list[int]:
        keys = index.search(q, 2 * K, threads=1).keys  # as ScopeMatrix.top: re-score 2k
        return [int(x) for x in keys[np.argsort(-(data[keys] @ q))][:K]]

    for dtype, ef_add in configs:
        index = Index(ndim=DIMS, metric="ip", dtype=dtype, connectivity=16, expansion_add=ef_add)
        build, _ = timed(lambda ix=index: ix.add(np.arange(n, dtype=np.uint64), data, threads=2))
        for ef in (64, 96):
            index.expansion_search = ef
            runs = [timed(lambda q=q, ix=index: ix.search(q, K, threads=1).keys) for q in qs]
            hits = [len(truth[i] & {int(x) for x in r[1]}) / K for i, r in enumerate(runs)]
            again = [timed(lambda q=q, ix=index: rescored(ix, q)) for q in qs]
            hits2 = [len(truth[i] & set(r[1])) / K for i, r in enumerate(again)]
            print(
                f"libs n={n} usearch {dtype} ef_add={ef_add} build {build / 1000:.1f} s "
                f"(2 threads) ef={ef} search p50/p95 {pct([r[0] for r in runs])} "
                f"recall@10 {np.mean(hits):.3f}; 2k re-scored {pct([r[0] for r in again])} "
                f"recall@10 {np.mean(hits2):.3f}"
            )
    if not with_faiss:
        return

    try:
        import faiss  # type: ignore[import-not-found]
    except ImportError:
        print("libs faiss-cpu not installed: skipped")
        return
    faiss.omp_set_num_threads(2)
    flat = faiss.IndexHNSWFlat(DIMS, 16, faiss.METRIC_INNER_PRODUCT)
    flat.hnsw.efConstruction = 128
    build, _ = timed(lambda: flat.add(data))
    faiss.omp_set_num_threads(1)
    for ef in (64, 96, 128):
        flat.hnsw.efSearch = ef
        runs = [timed(lambda q=q: flat.search(q[None, :], K)[1][0]) for q in qs]
        recall = np.mean([len(truth[i] & {int(x) for x in r[1]}) / K for i, r in enumerate(runs)])
        print(
            f"libs n={n} faiss HNSWFlat build {build / 1000:.1f} s (2 threads) ef={ef} "
            f"search p50/p95 {pct([r[0] for r in runs])} recall@10 {recall:.3f}"
        )


class _Fixed:
    """An ``Embeddings`` whose next vectors are set by the benchmark (a put of a known vector)."""

    def __init__(self) -> None:
        self.next: list[list[float]] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        out, self.next = self.next[: len(texts)], self.next[len(texts) :]
        return out

    def embed_query(self, text: str) -> list[float]:
        raise NotImplementedError


def fill(url: str, n: int, data: Vector) -> None:
    """One scope of ``n`` record vectors, written as the write path stores them (bulk)."""
    from sqlalchemy import create_engine, text

    from userlore.store.engine import setup

    engine = create_engine(url)
    setup(engine)
    engine.dispose()  # new connections of a plain engine: foreign keys off (no records needed)
    now = datetime.now(UTC)
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO embedding_model (id, model, dims, created_at) "
                "VALUES (1, 'bench', :d, :now)"
            ),
            {"d": DIMS, "now": now},
        )
        conn.execute(
            text(
                "INSERT INTO memory_vector_generations (scope, generation, reset) "
                "VALUES ('u1', 1, 1)"
            )
        )
    step = 20_000
    for start in range(0, n, step):
        rows = [
            {
                "scope": "u1",
                "id": f"r{i}",
                "v": data[i].astype("<f4").tobytes(),
                "now": now,
            }
            for i in range(start, min(n, start + step))
        ]
        with engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO memory_record_vectors (scope, record_id, version, model, dims, "
                    "vector, updated_at, generation) VALUES (:scope, :id, 1, 'bench', 384, :v, "
                    ":now, 1)"
                ),
                rows,
            )
    engine.dispose()


def measure_index(
    n: int, queries: int, threshold: int, cycles: int, clusters: int, noise: float
) -> None:
    from sqlalchemy import create_engine

    from userlore.store import vectors as vectors_module
    from userlore.store.vectors import PendingText, VectorIndex

    data = clustered(n, 1, clusters=clusters, noise=noise)
    qs = clustered(queries, 2, clusters=clusters or max(10, n // 100), noise=noise)
    truth = exact_top(data, qs, K)
    print(f"n={n} data: {clusters or 'n/100'} clusters, noise {noise}")
    with tempfile.TemporaryDirectory(dir=Path.cwd()) as tmp:
        url = f"sqlite:///{tmp}/ann.db"
        took, _ = timed(lambda: fill(url, n, data))
        print(f"n={n} filled the SQLite file in {took / 1000:.1f} s")
        engine = create_engine(url)
        embeddings = _Fixed()
        index = VectorIndex(embeddings, model="bench")  # type: ignore[arg-type]
        index.ann_above = threshold
        index.attach(engine)
        with engine.connect() as conn:
            first, _ = timed(lambda: index.search(conn, "u1", "record", qs[0], K))
        print(f"n={n} first read (whole load, exact) {first:.0f} ms")
        held = index._cache[("u1", "record")]
        start = time.perf_counter()
        with engine.connect() as conn:
            during = [
                timed(lambda q=q: index.search(conn, "u1", "record", q, K))[0] for q in qs[:20]
            ]
        print(f"n={n} search while the index builds (exact) p50/p95 {pct(during)}")
        while not held.ann_ready:
            time.sleep(0.2)
        print(f"n={n} background build done {time.perf_counter() - start:.1f} s after the load")

        def run(ann: bool) -> tuple[list[float], float]:
            index.ann_above = threshold if ann else n * 10
            held.ann_above = index.ann_above
            times, hits = [], 0
            with engine.connect() as conn:
                for i, q in enumerate(qs):
                    ms, found = timed(lambda q=q: index.search(conn, "u1", "record", q, K))
                    times.append(ms)
                    hits += len(truth[i] & {int(rid[1:]) for rid, _ in found})
            return times, hits / (K * len(qs))

        exact_ms, exact_recall = run(False)
        ann_ms, ann_recall = run(True)
        print(
            f"n={n} VectorIndex.search exact p50/p95 {pct(exact_ms)} recall@10 {exact_recall:.3f}"
        )
        print(f"n={n} VectorIndex.search ANN   p50/p95 {pct(ann_ms)} recall@10 {ann_recall:.3f}")
        print(f"n={n} ANN/exact p50 {statistics.median(ann_ms) / statistics.median(exact_ms):.3f}x")

        # The write-then-read cycle: put a new vector, replace one, remove one; read after each.
        fresh = clustered(queries, 3, clusters=clusters or max(10, n // 100), noise=noise)
        put_ms, read_ms, replace_ms, remove_ms = [], [], [], []
        missed = replaced = deleted = 0
        now = datetime.now(UTC)
        for i, q in enumerate(fresh[: min(cycles, queries)]):
            key = ("record", "u1", f"new{i}")
            embeddings.next = [q.tolist()]
            with engine.begin() as conn:
                put_ms.append(
                    timed(lambda k=key: index.write(conn, {k: PendingText("x", 1, now)}))[0]
                )
            with engine.connect() as conn:
                ms, found = timed(lambda q=q: index.search(conn, "u1", "record", q, K))
            read_ms.append(ms)
            missed += found[0][0] != f"new{i}"  # recall: the put's own vector is the query
            # Replace: the new row moves to the opposite of its query; it must not come first.
            embeddings.next = [(-q).tolist()]
            with engine.begin() as conn:
                index.write(conn, {key: PendingText("x", 1, now)})
            with engine.connect() as conn:
                ms, found = timed(lambda q=q: index.search(conn, "u1", "record", q, K))
            replace_ms.append(ms)
            replaced += any(rid == f"new{i}" for rid, _ in found)  # must stay 0
            # Remove the nearest stored row: it must never come back.
            victim = found[0][0]
            with engine.begin() as conn:
                index.drop(conn, "record", "u1", victim)
            with engine.connect() as conn:
                ms, found = timed(lambda q=q: index.search(conn, "u1", "record", q, K))
            remove_ms.append(ms)
            deleted += any(rid == victim for rid, _ in found)  # must stay 0
        print(f"n={n} put p50/p95 {pct(put_ms)}")
        print(f"n={n} read right after a put (ANN) p50/p95 {pct(read_ms)}")
        print(f"n={n} read right after a replacement p50/p95 {pct(replace_ms)}")
        print(f"n={n} read right after a removal p50/p95 {pct(remove_ms)}")
        print(
            f"n={n} after writes: a put not found first {missed}/{cycles}; a replaced row "
            f"returned for its old vector {replaced}; a deleted row returned {deleted}; whole "
            f"loads {index.loads}; ANN answered {held.ann_searches} searches"
        )
        _ = vectors_module
        engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--libs", type=int, default=0, help="compare usearch and faiss at N")
    parser.add_argument("--sizes", default="", help="comma-separated scope sizes")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--threshold", type=int, default=20_000)
    parser.add_argument(
        "--usearch", default="f32:128,i8:64", help="dtype:ef_construction pairs for --libs"
    )
    parser.add_argument("--no-faiss", action="store_true")
    parser.add_argument("--cycles", type=int, default=40, help="put/replace/remove cycles")
    parser.add_argument("--noise", type=float, default=0.9, help="noise around a centre")
    parser.add_argument(
        "--clusters",
        type=int,
        default=0,
        help="centres (0: one per 100 vectors); 1000 with "
        "--noise 0.018 is benchmarks/pgvector_search.py's set (tight, near-duplicate clusters)",
    )
    parser.add_argument(
        "--build-threads", type=int, default=0, help="threads of the background build (0: ours)"
    )
    args = parser.parse_args()
    if args.build_threads:
        from userlore.store import vector_matrix

        vector_matrix._BUILD_THREADS = args.build_threads
    if args.libs:
        configs = [(c.split(":")[0], int(c.split(":")[1])) for c in args.usearch.split(",") if c]
        compare_libs(args.libs, args.queries, configs, not args.no_faiss, args.noise, args.clusters)
    for size in [int(s) for s in args.sizes.split(",") if s]:
        measure_index(size, args.queries, args.threshold, args.cycles, args.clusters, args.noise)


if __name__ == "__main__":
    main()
