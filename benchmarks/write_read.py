"""The write-then-read cycle at 10k / 100k vectors in one scope, beside LangGraph's SqliteStore.

An agent writes and reads every turn, so the latency its user sees is a read right after a
write. Measured in one run, per size, on SQLite files:

- ``UserloreStore``: ``search(query=...)`` warm (no write between searches), right after one
  ``put``, and right after the in-memory matrix was dropped (``VectorIndex.clear()``: what every
  write cost the next read before the matrix took deltas); the first search after opening;
- ``Userlore``: ``plan_context`` warm and right after one ``observe``;
- the peer: LangGraph's ``SqliteStore`` (sqlite-vec) search warm and right after one put, over
  the same texts and vectors.

Vectors come from a deterministic 384-d hashing embedder (``HashingEmbeddings``; latency does not
depend on what the vectors mean, and embedding 100k texts with a model on a shared machine takes
long), the same for both stores. The scope is filled through the batched governed write
(``govern_upsert_batch``, chunks of 2,000); a few hundred items go through
``UserloreStore.put`` so the store's namespace holds items of its own.

Runs against whatever ``userlore`` is importable, so ``PYTHONPATH=<old checkout>/src`` measures
the code before a change in the same way.

Usage: python benchmarks/write_read.py [--sizes 10000,100000] [--cycles 40] [--no-peer]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from langgraph.store.base import PutOp
from peers import sqlite_store

from userlore import CandidateInput, Userlore
from userlore.integrations.langgraph_store import UserloreStore
from userlore.testing.embeddings import HashingEmbeddings
from userlore.understanding import BatchItem, govern_upsert_batch

SCOPE = "u1"
NS = (SCOPE, "notes")
DIMS = 384
STORE_ITEMS = 300


def words(rng: random.Random, count: int = 4000) -> list[str]:
    syllables = ["ka", "lo", "mi", "ren", "tor", "vel", "sa", "pen", "dor", "li", "qua", "zen"]
    return ["".join(rng.choice(syllables) for _ in range(rng.randint(2, 4))) for _ in range(count)]


def sentence(rng: random.Random, vocab: list[str]) -> str:
    # Zipf-like: low ranks much more often, so postings resemble natural text.
    picked = [vocab[min(int(rng.paretovariate(1.1)) - 1, len(vocab) - 1)] for _ in range(12)]
    return " ".join(picked).capitalize() + "."


def pct(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"p50_ms": round(statistics.median(ordered) * 1000, 2), "p95_ms": round(p95 * 1000, 2)}


def timed(call: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    call()
    return time.perf_counter() - t0


def open_lore(url: str) -> Userlore:
    return Userlore.open(
        url, config={"memory": {"mode": "auto"}}, embeddings=HashingEmbeddings(dims=DIMS)
    )


def fill(lore: Userlore, texts: list[str]) -> None:
    """The batched governed write (floor per item, vectors embedded per chunk at commit)."""
    for start in range(0, len(texts), 2000):
        chunk = texts[start : start + 2000]
        govern_upsert_batch(
            lore.memory.store,
            SCOPE,
            [
                BatchItem(CandidateInput(kind="note", content=t, canonical_key=f"bulk/{start + j}"))
                for j, t in enumerate(chunk)
            ],
        )


def userlore_side(
    folder: Path, texts: list[str], queries: list[str], fresh: list[str], cycles: int
) -> dict[str, Any]:
    url = f"sqlite:///{folder / 'userlore.db'}"
    lore = open_lore(url)
    t0 = time.perf_counter()
    fill(lore, texts[:-STORE_ITEMS])
    store = UserloreStore(lore, namespace_template=("{user_id}", "notes"))
    for i, text in enumerate(texts[-STORE_ITEMS:]):
        store.put(NS, f"seed{i}", {"content": text})
    filled = time.perf_counter() - t0
    lore.close()

    lore = open_lore(url)  # a new process opening a large scope, read at once
    store = UserloreStore(lore, namespace_template=("{user_id}", "notes"))
    first = timed(lambda: store.search(NS, query=queries[0], limit=10))
    lore.close()
    lore = open_lore(url)  # the same, read once the background load had time (≤ 30 s)
    store = UserloreStore(lore, namespace_template=("{user_id}", "notes"))
    # Only scopes past WARM_MIN_VECTORS are loaded in the background (smaller ones load fast).
    deadline = time.perf_counter() + (30 if len(texts) >= 20_000 else 0)
    while getattr(lore.memory.store.vectors, "loads", 1) == 0 and time.perf_counter() < deadline:
        time.sleep(0.05)
    first_warmed = timed(lambda: store.search(NS, query=queries[0], limit=10))
    vectors = lore.memory.store.vectors
    assert vectors is not None
    warm = [timed(lambda q=q: store.search(NS, query=q, limit=10)) for q in queries[:cycles]]
    after_put: list[float] = []
    puts: list[float] = []
    for i in range(cycles):
        puts.append(timed(lambda i=i: store.put(NS, f"new{i}", {"content": fresh[i]})))
        after_put.append(timed(lambda i=i: store.search(NS, query=queries[i], limit=10)))
    reload: list[float] = []
    for q in queries[:cycles]:
        vectors.clear()
        reload.append(timed(lambda q=q: store.search(NS, query=q, limit=10)))
    plan_warm = [timed(lambda q=q: lore.plan_context(SCOPE, q)) for q in queries[:cycles]]
    plan_after: list[float] = []
    for i in range(cycles):
        lore.observe(SCOPE, "user", f"I prefer {fresh[cycles + i].lower()}")
        plan_after.append(timed(lambda i=i: lore.plan_context(SCOPE, queries[i])))
    loads = getattr(vectors, "loads", None)
    lore.close()
    return {
        "fill_s": round(filled, 1),
        "first_search_after_open_ms": round(first * 1000, 1),
        "first_search_after_background_load_ms": round(first_warmed * 1000, 1),
        "search_warm": pct(warm),
        "search_after_put": pct(after_put),
        "search_after_reload": pct(reload),
        "put": pct(puts),
        "plan_warm": pct(plan_warm),
        "plan_after_observe": pct(plan_after),
        "whole_matrix_loads": loads,
    }


def peer_side(
    folder: Path, texts: list[str], queries: list[str], fresh: list[str], cycles: int
) -> dict[str, Any]:
    embed = HashingEmbeddings(dims=DIMS)
    index: Any = {"dims": DIMS, "embed": embed, "fields": ["content"]}
    with sqlite_store(folder / "peer.db", index) as peer:
        t0 = time.perf_counter()
        for start in range(0, len(texts), 500):
            peer.batch(
                [
                    PutOp(NS, f"k{start + j}", {"content": text})
                    for j, text in enumerate(texts[start : start + 500])
                ]
            )
        filled = time.perf_counter() - t0
        warm = [timed(lambda q=q: peer.search(NS, query=q, limit=10)) for q in queries[:cycles]]
        after_put: list[float] = []
        for i in range(cycles):
            peer.put(NS, f"new{i}", {"content": fresh[i]})
            after_put.append(timed(lambda i=i: peer.search(NS, query=queries[i], limit=10)))
    return {
        "fill_s": round(filled, 1),
        "search_warm": pct(warm),
        "search_after_put": pct(after_put),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--cycles", type=int, default=40)
    parser.add_argument("--no-peer", action="store_true")
    args = parser.parse_args()
    rng = random.Random(11)
    vocab = words(rng)
    report: dict[str, Any] = {"label": "under load (8 parallel helpers on 2 cores)", "sizes": {}}
    for size in (int(s) for s in args.sizes.split(",")):
        texts = [sentence(rng, vocab) for _ in range(size)]
        queries = [" ".join(rng.sample(vocab[:300], 3)) for _ in range(args.cycles)]
        fresh = [sentence(rng, vocab) for _ in range(2 * args.cycles)]
        with tempfile.TemporaryDirectory() as tmp:
            row: dict[str, Any] = {
                "userlore": userlore_side(Path(tmp), texts, queries, fresh, args.cycles)
            }
            if not args.no_peer:
                row["SqliteStore"] = peer_side(Path(tmp), texts, queries, fresh, args.cycles)
        ours = row["userlore"]
        ratios = {
            "search_after_put_vs_warm_p50": round(
                ours["search_after_put"]["p50_ms"] / ours["search_warm"]["p50_ms"], 2
            ),
            "plan_after_observe_vs_warm_p50": round(
                ours["plan_after_observe"]["p50_ms"] / ours["plan_warm"]["p50_ms"], 2
            ),
        }
        if "SqliteStore" in row:
            ratios["search_after_put_vs_SqliteStore_p50"] = round(
                ours["search_after_put"]["p50_ms"]
                / row["SqliteStore"]["search_after_put"]["p50_ms"],
                2,
            )
        row["ratios"] = ratios
        report["sizes"][size] = row
        print(json.dumps({size: row}, indent=2), flush=True)


if __name__ == "__main__":
    main()
