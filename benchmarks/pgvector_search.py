"""Vector search on PostgreSQL: pgvector HNSW vs the exact numpy path, one scope.

Loads N unit vectors (384 dimensions, like all-MiniLM-L6-v2; clustered: 1,000 Gaussian centres
plus noise, so neighbourhoods exist as with real embeddings) into one scope's evidence-vector
table of a throwaway server with pgvector (the test command's, ``userlore.testing.postgres``),
builds the HNSW index, and times ``VectorIndex.search`` (k=10) for Q queries two ways in the
same run, on the same rows:

- ``hnsw``: the HNSW index (``exact_below`` 0), ``ef_search`` 40, iterative scan;
- ``numpy``: exact scores over a per-scope float32 matrix cached in memory: what a scope under
  ``exact_below`` gets, and the fallback without the extension.

recall@10 of HNSW is measured against the exact numpy top 10. Vectors are written straight into
the table (foreign-key triggers off for the load: ``session_replication_role = replica``), not
through the write path: this measures search, not ingestion.

Usage: python benchmarks/pgvector_search.py [--sizes 10000,100000] [--queries 200]
Prints a Markdown table, then one JSON object on the last line.
"""

from __future__ import annotations

import argparse
import json
import time
from datetime import UTC, datetime

import numpy as np
from sqlalchemy import create_engine, text

from userlore.store.engine import create_store_engine, setup
from userlore.store.vectors import VectorIndex, pack
from userlore.testing.embeddings import HashingEmbeddings
from userlore.testing.postgres import ThrowawayPostgres

DIMS = 384
SCOPE = "bench-user"
MODEL = "bench:clustered"


def clustered(n: int, rng: np.random.Generator, centres: np.ndarray) -> np.ndarray:
    picks = rng.integers(0, len(centres), n)
    vectors = centres[picks] + rng.normal(0, 0.35 / np.sqrt(DIMS), (n, DIMS))
    return (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)


def literal(vector: np.ndarray) -> str:
    return "[" + ",".join(f"{x:.7g}" for x in vector.tolist()) + "]"


def load(url: str, vectors: np.ndarray) -> float:
    """Writes the vectors and builds the HNSW index; returns the index build seconds."""
    engine = create_engine(url)
    now = datetime.now(UTC)
    with engine.begin() as conn:
        conn.execute(text("SET LOCAL session_replication_role = replica"))
        conn.execute(
            text(
                "INSERT INTO embedding_model (id, model, dims, created_at) VALUES (1, :m, :d, :t)"
            ),
            {"m": MODEL, "d": DIMS, "t": now},
        )
        conn.execute(
            text(f"ALTER TABLE memory_evidence_vectors ADD COLUMN embedding vector({DIMS})")
        )
        rows = [
            {"s": SCOPE, "i": f"src_{n:08d}", "v": pack(v), "e": literal(v), "t": now}
            for n, v in enumerate(vectors)
        ]
        for start in range(0, len(rows), 5000):
            conn.execute(
                text(
                    "INSERT INTO memory_evidence_vectors "
                    "(scope, source_item_id, model, dims, vector, embedding, updated_at) "
                    f"VALUES (:s, :i, '{MODEL}', {DIMS}, :v, CAST(:e AS vector), :t)"
                ),
                rows[start : start + 5000],
            )
        conn.execute(
            text("INSERT INTO memory_vector_generations (scope, generation) VALUES (:s, 1)"),
            {"s": SCOPE},
        )
    started = time.perf_counter()
    with engine.begin() as conn:
        conn.execute(text("SET LOCAL maintenance_work_mem = '512MB'"))
        conn.execute(
            text(
                "CREATE INDEX ix_memory_evidence_vectors_hnsw ON memory_evidence_vectors "
                "USING hnsw (embedding vector_cosine_ops)"
            )
        )
        conn.execute(text("ANALYZE memory_evidence_vectors"))
    engine.dispose()
    return time.perf_counter() - started


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def measure(url: str, queries: np.ndarray, mode: str) -> tuple[list[float], list[list[str]]]:
    engine = create_store_engine(url)
    index = VectorIndex(HashingEmbeddings(dims=DIMS), model=MODEL)
    index.attach_pgvector(engine)
    index.dims = DIMS
    if mode == "numpy":
        index.pgvector = False
    index.exact_below = 0
    times, found = [], []
    with engine.connect() as conn:  # warm: the numpy matrix loads once, as in a long process
        index.search(conn, SCOPE, "evidence", queries[0], 10)
    for q in queries:
        with engine.connect() as conn:
            started = time.perf_counter()
            hits = index.search(conn, SCOPE, "evidence", q, 10)
            times.append((time.perf_counter() - started) * 1000)
        found.append([h for h, _ in hits])
    engine.dispose()
    return times, found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    server = ThrowawayPostgres().start()
    results = []
    try:
        admin = create_engine(server.admin_url, isolation_level="AUTOCOMMIT")
        for size in [int(s) for s in args.sizes.split(",")]:
            name = f"vectors_{size}"
            with admin.connect() as conn:
                conn.execute(text(f"CREATE DATABASE {name}"))
            url = server.url(name)
            engine = create_store_engine(url)
            setup(engine)
            engine.dispose()
            rng = np.random.default_rng(7)
            centres = rng.normal(0, 1, (1000, DIMS))
            centres /= np.linalg.norm(centres, axis=1, keepdims=True)
            vectors = clustered(size, rng, centres)
            queries = clustered(args.queries, rng, centres)
            build = load(url, vectors)
            truth = np.argsort(-(queries @ vectors.T), axis=1)[:, :10]
            exact_ids = [{f"src_{n:08d}" for n in row} for row in truth]
            row: dict[str, object] = {"size": size, "hnsw_build_s": round(build, 1)}
            for mode in ("hnsw", "numpy"):
                times, found = measure(url, queries, mode)
                recall = float(
                    np.mean([len(exact_ids[i] & set(f)) / 10 for i, f in enumerate(found)])
                )
                row[mode] = {
                    "p50_ms": round(percentile(times, 50), 2),
                    "p95_ms": round(percentile(times, 95), 2),
                    "recall@10": round(recall, 3),
                }
            results.append(row)
            print(json.dumps(row), flush=True)
    finally:
        server.stop()
    print(
        "| vectors in scope | HNSW build | hnsw p50 / p95 | recall@10 "
        "| numpy p50 / p95 | hnsw vs numpy p95 |"
    )
    print("|---:|---:|---:|---:|---:|---:|")
    for r in results:
        h, n = r["hnsw"], r["numpy"]  # type: ignore[index]
        print(
            f"| {r['size']:,} | {r['hnsw_build_s']} s | {h['p50_ms']} / {h['p95_ms']} ms "
            f"| {h['recall@10']} | {n['p50_ms']} / {n['p95_ms']} ms "
            f"| {n['p95_ms'] / h['p95_ms']:.1f}× |"
        )
    print(json.dumps(results))


if __name__ == "__main__":
    main()
