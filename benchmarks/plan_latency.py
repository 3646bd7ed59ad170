"""Context-plan latency at 1k / 10k / 100k active records in one scope (SQLite or PostgreSQL).

Prints p50/p95 of ``plan_context`` (retrieval, policy filter, rerank, budget, render and the trace
write) beside, in the same run and over the same rows:
- a bare full-text top-k query (FTS5 ``bm25`` / PostgreSQL ``ts_rank``, OR of every query
  term; no policy, no rerank, no trace), and userlore's retrieval stage alone (posting budget) —
  the floors governance is measured from;
- LangGraph's ``InMemoryStore`` vector search with a cheap deterministic 64-d hashing embedder
  (so the peer pays for similarity over every item, as it does with a real embedder).

Records are written through the governed write path (sensitivity checks, dedupe, evidence), in
batched transactions. Text is synthetic: sentences drawn from a Zipf-distributed vocabulary, so
posting-list sizes resemble natural language.

With ``--embeddings local`` the plan is hybrid (BM25 + stored vectors fused by RRF): the plan
figures exclude the query embedding (query vectors are computed before timing and served from a
dict), the local model's query embedding time is reported on its own, and the peer is
LangGraph's ``InMemoryStore`` vector search over the **same** vectors (its ``embed`` looks them
up). ``--vectors random`` gives records and queries seeded random unit vectors of the model's
size instead of the model's (latency does not depend on vector content; embedding 100k records
with the model on a small shared machine takes long); the query embedding time is still the
local model's on the real query text.

Also beside it: ``bm25s`` (in-memory BM25 over sparse matrices) indexed once over the same texts,
the floor issue 23 measures the plan's fixed cost against. Reads are timed with writes between
them, as an agent does (``--writes-between``, default 1 governed note write before each timed
plan and floor query, untimed); bm25s takes no writes after indexing.

Usage: python benchmarks/plan_latency.py [--sizes 1000,10000,100000] [--queries 200]
       [--backend sqlite|postgres] [--no-peer] [--embeddings local|none] [--vectors model|random]
       [--writes-between 1] [--database FILE --sizes N] [--baseline]

``--baseline`` times the read path as before issue 23 item 5 (FTS5 for every scope, the profile
read on every plan) in the same session; every row also prints the in-memory posting index's
parity with FTS5 (top-k overlap, same scores).
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import math
import os
import random
import re
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
from langchain_core.embeddings import Embeddings
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from userlore import CandidateInput, Userlore
from userlore.store.retrieval import HitQuery, TermStatistics, fulltext_hits, match_expression
from userlore.store.schema import MemoryRecord
from userlore.testing.postgres import ThrowawayPostgres

SCOPE = "bench-user"
VOCAB_SIZE = 6000


def vocabulary(rng: random.Random, size: int = VOCAB_SIZE) -> list[str]:
    syllables = [
        "ka",
        "lo",
        "mi",
        "ren",
        "tor",
        "vel",
        "sa",
        "pen",
        "dor",
        "li",
        "qua",
        "zen",
        "bro",
        "fin",
        "gal",
        "hem",
        "jor",
        "nix",
        "ost",
        "pul",
        "ruv",
        "sim",
        "tek",
        "ul",
    ]
    words: set[str] = set()
    while len(words) < size:
        words.add("".join(rng.choice(syllables) for _ in range(rng.randint(2, 3))))
    return sorted(words)


class TextGen:
    """Zipf-distributed sentences over a synthetic vocabulary."""

    def __init__(self, seed: int = 7, size: int = VOCAB_SIZE) -> None:
        self.rng = random.Random(seed)
        self.words = vocabulary(self.rng, size)
        weights = [1.0 / (rank + 1) ** 1.05 for rank in range(len(self.words))]
        total = sum(weights)
        self.cum = list(itertools.accumulate(w / total for w in weights))

    def word(self) -> str:
        x = self.rng.random()
        lo, hi = 0, len(self.cum) - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if self.cum[mid] < x:
                lo = mid + 1
            else:
                hi = mid
        return self.words[lo]

    def sentence(self, n: int) -> str:
        return " ".join(self.word() for _ in range(n)).capitalize() + "."


def bulk_sentences(n: int) -> list[str]:
    """The one-sentence item texts the bulk-put benchmarks load (seed 11, 6-14 words)."""
    gen = TextGen(seed=11)
    return [gen.sentence(gen.rng.randint(6, 14)) for _ in range(n)]


def percentile(samples: list[float], pct: float) -> float:
    ordered = sorted(samples)
    k = max(0, min(len(ordered) - 1, math.ceil(pct / 100 * len(ordered)) - 1))
    return ordered[k]


def timed(
    fn: Callable[[str], object],
    queries: list[str],
    warmup: int = 10,
    between: Callable[[int], object] | None = None,
) -> dict[str, float]:
    """p50/p95 of ``fn`` per query; ``between(i)`` runs untimed before query ``i`` (a write)."""
    for q in queries[:warmup]:
        fn(q)
    samples = []
    for i, q in enumerate(queries):
        if between is not None:
            between(i)
        start = time.perf_counter()
        fn(q)
        samples.append((time.perf_counter() - start) * 1000)
    return {
        "p50_ms": round(statistics.median(samples), 3),
        "p95_ms": round(percentile(samples, 95), 3),
    }


def hashing_embedder(texts: list[str]) -> list[list[float]]:
    """A deterministic 64-d bag-of-words embedding: cheap, but a real vector per item."""
    out = []
    for item in texts:
        vec = [0.0] * 64
        for token in item.lower().split():
            h = int.from_bytes(hashlib.blake2b(token.encode(), digest_size=4).digest(), "big")
            vec[h % 64] += 1.0 if h & 1 else -1.0
        norm = math.sqrt(sum(v * v for v in vec)) or 1.0
        out.append([v / norm for v in vec])
    return out


class RandomVectors(Embeddings):
    """Seeded random unit vectors per text: the latency of vector search without a model."""

    def __init__(self, dims: int, name: str) -> None:
        self.dims = dims
        self.model_name = name

    def _vector(self, item: str) -> list[float]:
        seed = int.from_bytes(hashlib.blake2b(item.encode(), digest_size=8).digest(), "big")
        vec = np.random.default_rng(seed).standard_normal(self.dims).astype(np.float32)
        return (vec / np.linalg.norm(vec)).tolist()  # type: ignore[no-any-return]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)


class Recorded(Embeddings):
    """Remembers every vector it makes; queries embedded ahead of timing come from memory."""

    def __init__(self, inner: Embeddings) -> None:
        self.inner = inner
        self.model_name = getattr(inner, "model_name", "bench")
        self.vectors: dict[str, list[float]] = {}

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        out = self.inner.embed_documents(texts)
        self.vectors.update(zip(texts, out, strict=True))
        return out

    def embed_query(self, text: str) -> list[float]:
        hit = self.vectors.get(text)
        if hit is None:
            hit = self.vectors[text] = self.inner.embed_query(text)
        return hit

    def embed_documents_cached(self, texts: list[str]) -> list[list[float]]:
        """For the peer: the vectors already made for these texts (records and queries)."""
        return [self.embed_query(t) for t in texts]


PROFILE_KEYS = (
    ("style", "style/format"),
    ("style", "style/verbosity"),
    ("identity", "identity/role"),
    ("tooling", "tooling/editor"),
    ("veto", "veto/jest"),
    ("goal", "goal/ship"),
)
"""The profile a benchmark scope carries: standing instructions and facets, always eligible."""


def write_profile(lore: Userlore, content: Callable[[int], str]) -> None:
    """Write :data:`PROFILE_KEYS` to the scope, the i-th with value ``v{i}``, ``content(i)``."""
    for i, (kind, key) in enumerate(PROFILE_KEYS):
        lore.write(
            SCOPE, CandidateInput(kind=kind, canonical_key=key, value=f"v{i}", content=content(i))
        )


def populate(lore: Userlore, gen: TextGen, n: int) -> list[str]:
    texts = [gen.sentence(gen.rng.randint(8, 24)) for _ in range(n)]
    store = lore.memory.store
    batch = 2000
    for start in range(0, n, batch):
        with store.transaction() as session:
            for text in texts[start : start + batch]:
                store.govern(session, SCOPE, CandidateInput(kind="note", content=text))
    # a realistic profile: standing instructions and facets are always eligible
    write_profile(lore, lambda i: f"profile fact {i}: {gen.sentence(6)}")
    return texts


def reuse(gen: TextGen, n: int) -> list[str]:
    """The texts :func:`populate` wrote with this generator (``--database``: a file it built),
    the generator left where populate leaves it."""
    texts = [gen.sentence(gen.rng.randint(8, 24)) for _ in range(n)]
    for _ in range(6):  # the profile facts populate() writes after the texts
        gen.sentence(6)
    return texts


_BARE = {
    "sqlite": text(
        "SELECT r.id, r.content FROM memory_records_fts f JOIN memory_records r "
        "ON r.seq = f.rowid WHERE memory_records_fts MATCH :q ORDER BY f.rank LIMIT :k"
    ),
    "postgresql": text(
        "SELECT id, content FROM memory_records, to_tsquery('english', :q) AS q "
        "WHERE search_tsv @@ q ORDER BY ts_rank(search_tsv, q) DESC LIMIT :k"
    ),
}


def bare_fulltext(url: str, k: int, pruned: bool) -> Callable[[str], object]:
    """A bare full-text top-k over the same index: no policy, no rerank, no render, no trace.

    ``pruned=False`` ORs every query term (what a naive BM25 search does); ``pruned=True`` runs
    userlore's retrieval stage alone (posting budget), so the ratio against it is the cost of
    governance: policy filter, rerank, sections, budget, rendering and the trace write.
    """
    engine = create_engine(url)
    conn = engine.connect()
    stats = TermStatistics()
    bare = _BARE[engine.dialect.name]

    def run(query: str) -> object:
        if pruned:
            return fulltext_hits(conn, SCOPE, query, k, stats)
        expression = match_expression(conn, SCOPE, query)
        return conn.execute(bare, {"q": expression, "k": k}).fetchall() if expression else []

    return run


_BM25S_TOKEN = re.compile(r"(?u)\b\w\w+\b")


def bm25s_search(texts: list[str], k: int) -> Callable[[str], object]:
    """bm25s over the same texts, indexed in memory once (sparse matrices; no governance, no
    writes after indexing): the in-memory BM25 floor the plan is compared with (issue 23)."""
    import bm25s

    retriever = bm25s.BM25()
    retriever.index(bm25s.tokenize(texts, stopwords=None, show_progress=False), show_progress=False)
    vocab = retriever.vocab_dict

    def run(query: str) -> object:
        tokens = [t for t in _BM25S_TOKEN.findall(query.lower()) if t in vocab]
        if not tokens:
            return []
        return retriever.retrieve([tokens], k=k, show_progress=False, n_threads=0)

    return run


def steady_state(lore: Userlore) -> None:
    """On PostgreSQL, what autovacuum does shortly after a bulk load: merge the GIN pending list
    (which every full-text query scans until then) and gather planner statistics."""
    engine = lore.memory.store.engine
    if engine.dialect.name == "postgresql":
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(text("VACUUM ANALYZE"))


def disable_in_memory() -> None:
    """The read path as before issue 23 item 5: FTS5 for every scope, the profile read from the
    database on every plan (``--baseline``, for a before/after in one session)."""
    import userlore.planner.search as search_module
    import userlore.store.retrieval as retrieval_module

    retrieval_module._in_memory = lambda *_a, **_k: None  # type: ignore[assignment]
    search_module.standing_rows = lambda _c, _s, _k, load, *_: load()  # type: ignore[assignment]


def parity(url: str, queries: list[str], k: int) -> str:
    """The retrieval stage from the in-memory posting index against FTS5 over the same rows:
    mean top-``k`` id overlap, and the share of queries with the same ``k`` scores (ids may
    differ only among records tied at the cut)."""
    import userlore.store.retrieval as retrieval_module

    engine = create_engine(url)
    stats = TermStatistics()
    in_memory = retrieval_module._in_memory
    overlap: list[float] = []
    same_scores = 0
    with engine.connect() as conn:
        for query in queries:
            memory = fulltext_hits(conn, SCOPE, query, k, stats)
            retrieval_module._in_memory = lambda *_a, **_k: None  # type: ignore[assignment]
            try:
                fts5 = fulltext_hits(conn, SCOPE, query, k, stats)
            finally:
                retrieval_module._in_memory = in_memory  # type: ignore[assignment]
            if fts5:
                overlap.append(len(set(memory) & set(fts5)) / len(fts5))
            a, b = sorted(memory.values()), sorted(fts5.values())
            same_scores += len(a) == len(b) and all(
                abs(x - y) < 1e-6 for x, y in zip(a, b, strict=True)
            )
    engine.dispose()
    return (
        f"in-memory vs FTS5 retrieval: top-{k} overlap {statistics.mean(overlap):.3f}"
        f" (min {min(overlap):.2f}), same scores {same_scores}/{len(queries)} queries"
    )


def pruning_recall(url: str, queries: list[str], k: int, top: int = 10) -> float:
    """Share of the exact top-``top`` (the same ranking over every query term, no posting
    budget) that the budgeted retrieval stage still returns in its top-``k``: what the budget
    costs in ranking quality."""
    engine = create_engine(url)
    stats = TermStatistics()
    ids = HitQuery(MemoryRecord.id)
    kept: list[float] = []
    with engine.connect() as conn:
        for query in queries:
            exact = {r.id for r, _ in ids.search(conn, SCOPE, query, top, stats, 10**9)}
            if not exact:
                continue
            found = {r.id for r, _ in ids.search(conn, SCOPE, query, k, stats)}
            kept.append(len(exact & found) / len(exact))
    engine.dispose()
    return round(statistics.mean(kept), 3) if kept else 1.0


def bench_size(
    n: int,
    n_queries: int,
    with_peer: bool,
    url: str,
    embeddings: str = "none",
    vectors: str = "model",
    writes_between: int = 1,
    database: str | None = None,
) -> dict[str, object]:
    gen = TextGen(seed=n)
    model: Embeddings | None = None
    recorded: Recorded | None = None
    if embeddings == "local":
        from userlore.embeddings.local import LocalMiniLM

        model = LocalMiniLM()
        inner = RandomVectors(model.dims, "bench:random") if vectors == "random" else model
        recorded = Recorded(inner)
    if database:
        shutil.copy(database, make_url(url).database or "")
    lore = Userlore.open(url, config={"memory": {"mode": "auto"}}, embeddings=recorded)
    try:
        t0 = time.perf_counter()
        texts = reuse(gen, n) if database else populate(lore, gen, n)
        load_s = time.perf_counter() - t0
        steady_state(lore)
        queries = [gen.sentence(gen.rng.randint(3, 8)) for _ in range(n_queries)]
        k = lore.config.planner.retrieval_k
        embed_ms: dict[str, float] | None = None
        if recorded is not None and model is not None:
            embed_ms = timed(model.embed_query, queries[: min(len(queries), 100)], warmup=3)
            for q in queries:
                recorded.embed_query(q)  # ahead of timing: the plan figures exclude it
        # Reads with writes between them, as an agent does: a governed note write (untimed)
        # before each timed read, so no cache of the plan outlives a write unnoticed.
        notes = [gen.sentence(gen.rng.randint(8, 24)) for _ in range(3 * len(queries) + 40)]
        written = itertools.count()

        def write(_i: int) -> None:
            for _ in range(writes_between):
                lore.write(SCOPE, CandidateInput(kind="note", content=notes[next(written)]))

        between = write if writes_between else None
        plan = timed(
            lambda q: lore.plan_context(SCOPE, q, session_key="bench"), queries, between=between
        )
        bare = timed(bare_fulltext(url, k, pruned=False), queries, between=between)
        pruned = timed(bare_fulltext(url, k, pruned=True), queries, between=between)
        in_memory_bm25 = timed(bm25s_search(texts, k), queries)
        sample = lore.plan_context(SCOPE, queries[0])
        row: dict[str, object] = {
            "backend": lore.memory.store.engine.dialect.name,
            "embeddings": embeddings
            if embeddings == "none"
            else f"{embeddings} ({vectors} vectors)",
            "records": n,
            "write_items_per_s": round(n / load_s),
            "plan": plan,
            "bare_fulltext_topk": bare,
            "retrieval_stage_only": pruned,
            "bm25s_in_memory": in_memory_bm25,
            "writes_between_reads": writes_between,
            "plan_over_bm25s_p50": round(plan["p50_ms"] / max(in_memory_bm25["p50_ms"], 1e-6), 2),
            "plan_over_bm25s_p95": round(plan["p95_ms"] / max(in_memory_bm25["p95_ms"], 1e-6), 2),
            "plan_over_bare_p95": round(plan["p95_ms"] / max(bare["p95_ms"], 1e-6), 2),
            "plan_over_retrieval_p95": round(plan["p95_ms"] / max(pruned["p95_ms"], 1e-6), 2),
            "exact_top10_kept": pruning_recall(url, queries, k),
            "parity": parity(url, queries, k),
            "plan_chars_sample": sample.chars,
        }
        if embed_ms is not None:
            row["query_embedding_local_model"] = embed_ms
        if with_peer:
            from langgraph.store.memory import InMemoryStore

            if recorded is not None:  # the same vectors: the peer's embed looks them up
                index = {"dims": model.dims, "embed": recorded.embed_documents_cached}  # type: ignore[union-attr]
            else:
                index = {"dims": 64, "embed": hashing_embedder}
            peer = InMemoryStore(index={**index, "fields": ["text"]})  # type: ignore[typeddict-item]
            for i, sentence in enumerate(texts):
                peer.put(("bench", SCOPE), f"r{i}", {"text": sentence})
            peer_q = queries[: max(20, n_queries // 10)] if n >= 100_000 else queries
            row["langgraph_inmemory_vector"] = timed(
                lambda q: peer.search(("bench", SCOPE), query=q, limit=k), peer_q, warmup=2
            )
            peer_p95 = row["langgraph_inmemory_vector"]["p95_ms"]  # type: ignore[index]
            row["peer_over_plan_p95"] = round(peer_p95 / max(plan["p95_ms"], 1e-6), 1)
        return row
    finally:
        lore.close()


def summary_line(row: dict[str, object]) -> str:
    plan, bare = row["plan"], row["bare_fulltext_topk"]
    peer = row.get("langgraph_inmemory_vector") or {}
    assert isinstance(plan, dict) and isinstance(bare, dict) and isinstance(peer, dict)
    bm25s_ms = row["bm25s_in_memory"]
    assert isinstance(bm25s_ms, dict)
    embed = row.get("query_embedding_local_model") or {}
    assert isinstance(embed, dict)
    return (
        f"{row['embeddings']} | {row['records']:>7} records"
        f" | plan p50 {plan['p50_ms']:7.3f} p95 {plan['p95_ms']:7.3f} ms"
        f" | bare full-text p50 {bare['p50_ms']:7.3f} p95 {bare['p95_ms']:7.3f} ms"
        f" | plan/bare p95 {row['plan_over_bare_p95']}"
        f" | bm25s p50 {bm25s_ms['p50_ms']:.3f} p95 {bm25s_ms['p95_ms']:.3f} ms"
        f" (plan/bm25s p50 {row['plan_over_bm25s_p50']} p95 {row['plan_over_bm25s_p95']})"
        f" | retrieval-stage p95 {row['retrieval_stage_only']['p95_ms']:.3f} ms"  # type: ignore[index]
        f" (plan/retrieval {row['plan_over_retrieval_p95']})"
        f" | exact BM25 top-10 kept {row['exact_top10_kept']}"
        f" | {row['parity']}"
        f" | InMemoryStore p50 {peer.get('p50_ms', '-')} p95 {peer.get('p95_ms', '-')} ms"
        f" (peer/plan p95 {row.get('peer_over_plan_p95', '-')})"
        f" | query embedding p50 {embed.get('p50_ms', '-')} p95 {embed.get('p95_ms', '-')} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--no-peer", action="store_true", help="skip LangGraph InMemoryStore")
    parser.add_argument(
        "--backend",
        choices=["sqlite", "postgres"],
        default="sqlite",
        help="postgres: USERLORE_DATABASE_URL (a server where databases may be created), "
        "else a throwaway server started here",
    )
    parser.add_argument(
        "--embeddings",
        choices=["local", "none"],
        default="none",
        help="local: hybrid plans over the bundled MiniLM's vectors (userlore[local])",
    )
    parser.add_argument(
        "--vectors",
        choices=["model", "random"],
        default="model",
        help="random: seeded random unit vectors of the model's size for records and queries",
    )
    parser.add_argument(
        "--writes-between",
        type=int,
        default=1,
        help="governed note writes (untimed) before each timed read; 0: reads only",
    )
    parser.add_argument("--database", help="a SQLite file this script built (one size, reused)")
    parser.add_argument(
        "--baseline",
        action="store_true",
        help="the read path before issue 23 item 5 (FTS5 only, no profile cache)",
    )
    args = parser.parse_args()
    if args.baseline:
        disable_in_memory()
    results = []
    with database_urls(args.backend) as fresh_url:
        for n in (int(s) for s in args.sizes.split(",")):
            row = bench_size(
                n,
                args.queries,
                not args.no_peer,
                fresh_url(),
                args.embeddings,
                args.vectors,
                args.writes_between,
                args.database,
            )
            results.append(row)
            print(summary_line(row), flush=True)
    print(json.dumps({"plan_latency": results}))


@contextmanager
def database_urls(backend: str) -> Iterator[Callable[[], str]]:
    """Yields a factory of fresh, empty database URLs for the chosen backend."""
    counter = itertools.count()
    if backend == "sqlite":
        with tempfile.TemporaryDirectory() as tmp:
            yield lambda: f"sqlite:///{Path(tmp) / f'bench{next(counter)}.db'}"
        return
    server = None
    admin_url = os.environ.get("USERLORE_DATABASE_URL")
    if not admin_url:
        server = ThrowawayPostgres().start()
        admin_url = server.admin_url
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")

    def fresh() -> str:
        name = f"userlore_bench_{os.getpid()}_{next(counter)}"
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        return make_url(admin_url).set(database=name).render_as_string(hide_password=False)

    try:
        yield fresh
    finally:
        admin.dispose()
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
