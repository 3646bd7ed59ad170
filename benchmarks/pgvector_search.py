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

``--plan`` measures a whole hybrid plan instead (``plan_context``: BM25 + stored vectors fused by
RRF, policy, budget, render, trace): N records written through the batched governed write path
(``govern_upsert_batch``, 2,000 per transaction; seeded clustered 384-d unit vectors per text,
so no model runs; the HNSW index is dropped for the load and built after it, as a bulk import
would), then Q plans with HNSW and Q with the numpy fallback (``VectorIndex.pgvector`` off) over
the same rows, one governed write (with its vector) before every plan, untimed: reads see fresh
writes. recall@10 is the record-vector search's (HNSW vs the exact numpy top 10, same queries).

Usage: python benchmarks/pgvector_search.py [--sizes 10000,100000] [--queries 200] [--plan]
Prints a Markdown table, then one JSON object on the last line.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import time
from datetime import UTC, datetime

import numpy as np
from plan_latency import RandomVectors
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


class ClusteredVectors(RandomVectors):  # type: ignore[misc]
    """Per text, a seeded point near one of 1,000 centres (as :func:`clustered`): uniform random
    vectors in 384 dimensions have no neighbourhoods, and HNSW recall on them means nothing."""

    def __init__(self) -> None:
        super().__init__(DIMS, "bench:clustered")
        rng = np.random.default_rng(7)
        centres = rng.normal(0, 1, (1000, DIMS))
        self.centres = centres / np.linalg.norm(centres, axis=1, keepdims=True)

    def _vector(self, item: str) -> list[float]:
        seed = int.from_bytes(hashlib.blake2b(item.encode(), digest_size=8).digest(), "big")
        rng = np.random.default_rng(seed)
        vec = self.centres[rng.integers(0, 1000)] + rng.normal(0, 0.35 / np.sqrt(DIMS), DIMS)
        return (vec / np.linalg.norm(vec)).astype(np.float32).tolist()  # type: ignore[no-any-return]


def plan_bench(url: str, size: int, n_queries: int) -> dict[str, object]:
    """Hybrid plan p50/p95 with HNSW and with the numpy fallback, writes between reads."""
    from plan_latency import Recorded, TextGen, steady_state, timed

    from userlore import CandidateInput, Userlore
    from userlore.understanding import BatchItem, govern_upsert_batch

    gen = TextGen(seed=size)
    recorded = Recorded(ClusteredVectors())
    lore = Userlore.open(url, config={"memory": {"mode": "auto"}}, embeddings=recorded)
    store = lore.memory.store
    index = store.vectors
    assert index is not None and index.pgvector, "needs a server with pgvector"
    try:
        t0 = time.perf_counter()
        with store.engine.begin() as conn:  # the first write adds the column and the index
            conn.execute(text("DROP INDEX IF EXISTS ix_memory_record_vectors_hnsw"))
        for start in range(0, size, 2000):
            batch = [
                BatchItem(
                    CandidateInput(
                        kind="note",
                        canonical_key=f"bench/{n}",
                        content=gen.sentence(gen.rng.randint(8, 24)),
                    )
                )
                for n in range(start, min(size, start + 2000))
            ]
            govern_upsert_batch(store, SCOPE, batch)
            if start == 0:
                with store.engine.begin() as conn:
                    conn.execute(text("DROP INDEX IF EXISTS ix_memory_record_vectors_hnsw"))
        load_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        with store.engine.begin() as conn:
            conn.execute(text("SET LOCAL maintenance_work_mem = '512MB'"))
            conn.execute(
                text(
                    "CREATE INDEX ix_memory_record_vectors_hnsw ON memory_record_vectors "
                    "USING hnsw (embedding vector_cosine_ops)"
                )
            )
        build_s = time.perf_counter() - t0
        steady_state(lore)
        queries = [gen.sentence(gen.rng.randint(3, 8)) for _ in range(n_queries)]
        for q in queries:
            recorded.embed_query(q)  # ahead of timing, as in plan_latency.py
        writes = itertools.count()

        def plan(q: str) -> object:
            lore.write(SCOPE, CandidateInput(kind="note", content=gen.sentence(12)))
            next(writes)
            t = time.perf_counter()
            out = lore.plan_context(SCOPE, q, session_key="bench")
            plan_ms.append((time.perf_counter() - t) * 1000)
            return out

        row: dict[str, object] = {
            "records": size,
            "load_items_per_s": round(size / load_s),
            "hnsw_build_s": round(build_s, 1),
        }
        found: dict[str, list[set[str]]] = {}
        for mode in ("hnsw", "numpy"):
            index.pgvector = mode == "hnsw"
            plan_ms: list[float] = []
            timed(plan, queries, warmup=5)
            row[mode] = {
                "p50_ms": round(percentile(plan_ms[5:], 50), 1),
                "p95_ms": round(percentile(plan_ms[5:], 95), 1),
            }
            with store.engine.connect() as conn:
                found[mode] = [
                    {
                        i
                        for i, _ in index.search(
                            conn,
                            SCOPE,
                            "record",
                            np.asarray(recorded.embed_query(q), dtype=np.float32),
                            10,
                        )
                    }
                    for q in queries
                ]
        index.pgvector = True
        row["hnsw_recall@10"] = round(
            float(
                np.mean(
                    [len(h & e) / 10 for h, e in zip(found["hnsw"], found["numpy"], strict=True)]
                )
            ),
            3,
        )
        row["writes_between_reads"] = next(writes)
        return row
    finally:
        lore.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--plan", action="store_true", help="whole hybrid plans (see above)")
    args = parser.parse_args()
    if args.plan:
        plans(args.sizes, args.queries)
        return
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


def plans(sizes: str, n_queries: int) -> None:
    """``--plan``: databases on ``USERLORE_DATABASE_URL``'s server or a throwaway one."""
    from plan_latency import database_urls

    rows = []
    with database_urls("postgres") as fresh_url:
        for size in [int(s) for s in sizes.split(",")]:
            row = plan_bench(fresh_url(), size, n_queries)
            rows.append(row)
            print(json.dumps(row), flush=True)
    print(
        "| records | HNSW build | plan p50 / p95, HNSW | plan p50 / p95, numpy fallback "
        "| recall@10 HNSW vs exact |"
    )
    print("|---:|---:|---:|---:|---:|")
    for r in rows:
        h, n = r["hnsw"], r["numpy"]  # type: ignore[index]
        print(
            f"| {r['records']:,} | {r['hnsw_build_s']} s | {h['p50_ms']} / {h['p95_ms']} ms "
            f"| {n['p50_ms']} / {n['p95_ms']} ms | {r['hnsw_recall@10']} |"
        )
    print(json.dumps({"pgvector_plan": rows}))


if __name__ == "__main__":
    main()
