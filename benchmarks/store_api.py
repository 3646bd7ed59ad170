"""``UserloreStore`` beside LangGraph's ``SqliteStore`` and ``InMemoryStore``, in one run.

The same N one-sentence items (Zipf vocabulary, as ``plan_latency.py``), the same deterministic
embeddings (``HashingEmbeddings``, 256 dimensions) and the same ``IndexConfig`` for all three
stores; ``UserloreStore`` and ``SqliteStore`` on a SQLite file each. It measures:

- bulk puts: ``batch([PutOp, ...])`` in chunks of 500, items/s;
- ``search(prefix, query=..., limit=10)``: p50 / p95 over 60 queries (10 warm-up), and for
  ``UserloreStore`` also its previous path (the planner's BM25 + vector RRF search with the
  0.2 cosine floor, ``search_visible(rank_all=False)``), so before/after come from one run;
- the write-then-read cycle: one ``put`` of a new item, then one ``search``, p50 / p95 of the
  search (``--cycles`` times), beside the warm search of the same run.

Usage: python benchmarks/store_api.py [--sizes 10000,100000] [--queries 60] [--cycles 20]
Prints a Markdown table per size, then one JSON object on the last line.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from langgraph.store.base import BaseStore, PutOp
from langgraph.store.memory import InMemoryStore
from langgraph.store.sqlite import SqliteStore
from plan_latency import TextGen, timed

from userlore import Userlore
from userlore.integrations.langgraph_store import UserloreStore
from userlore.planner.visible import search_visible
from userlore.testing.embeddings import HashingEmbeddings

CHUNK = 500
USER = "bench-user"
NAMESPACE = (USER, "notes")


def load(store: BaseStore, texts: list[str]) -> float:
    """Bulk-put ``texts`` in chunks; items/s."""
    start = time.perf_counter()
    for at in range(0, len(texts), CHUNK):
        store.batch(
            [
                PutOp(NAMESPACE, f"k{at + i}", {"text": text})
                for i, text in enumerate(texts[at : at + CHUNK])
            ]
        )
    return len(texts) / (time.perf_counter() - start)


def after_put(store: BaseStore, queries: list[str], cycles: int) -> dict[str, float]:
    """p50 / p95 of a search right after one put of a new item."""
    picked = [queries[(n * 7) % len(queries)] for n in range(cycles)]

    def put(n: int) -> None:
        store.put(NAMESPACE, f"cycle{n}", {"text": queries[n % len(queries)] + " after a put"})

    found = timed(lambda q: store.search((USER,), query=q, limit=10), picked, warmup=0, between=put)
    return {"after_put_p50_ms": found["p50_ms"], "after_put_p95_ms": found["p95_ms"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000", help="comma-separated item counts")
    parser.add_argument("--items", type=int, default=None, help="one size (same as --sizes N)")
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument("--cycles", type=int, default=20)
    args = parser.parse_args()
    sizes = [args.items] if args.items else [int(n) for n in args.sizes.split(",")]
    runs = [run(n, args.queries, args.cycles) for n in sizes]
    print(json.dumps(runs))


def run(items: int, n_queries: int, cycles: int) -> dict[str, Any]:
    """One size: the three stores on fresh databases, one after another."""
    gen = TextGen(seed=11)
    texts = [gen.sentence(gen.rng.randint(6, 14)) for _ in range(items)]
    queries = [gen.sentence(gen.rng.randint(2, 5)) for _ in range(n_queries)]
    embed = HashingEmbeddings(dims=256)
    index: Any = {"dims": 256, "embed": embed, "fields": ["text"]}
    out: dict[str, Any] = {"items": items, "queries": n_queries, "cycles": cycles}
    with tempfile.TemporaryDirectory() as tmp:
        lore = Userlore.open(
            f"sqlite:///{Path(tmp) / 'userlore.db'}", config={"memory": {"mode": "auto"}}
        )
        ours = UserloreStore(lore, namespace_template=("{user_id}",), index=index)
        sqlite_name = "SqliteStore"
        with SqliteStore.from_conn_string(str(Path(tmp) / "lg.db"), index=index) as sqlite:
            try:
                sqlite.setup()
            except AttributeError:  # this Python's sqlite3 cannot load sqlite-vec
                sqlite.index_config = sqlite.embeddings = None
                sqlite.setup()
                sqlite_name = "SqliteStore (no vectors: sqlite3 cannot load sqlite-vec here)"
            memory = InMemoryStore(index=index)
            stores: dict[str, BaseStore] = {
                "UserloreStore": ours,
                sqlite_name: sqlite,
                "InMemoryStore": memory,
            }
            for name, store in stores.items():
                rate = load(store, texts)
                search = timed(lambda q, s=store: s.search((USER,), query=q, limit=10), queries)
                cycle = after_put(store, queries, cycles)
                out[name] = {"put_items_per_s": round(rate), **search, **cycle}
            out["UserloreStore (previous search: RRF + floor)"] = timed(
                lambda q: search_visible(
                    lore.memory.store,
                    USER,
                    q,
                    limit=10,
                    stats=lore.memory.term_stats,
                    path_prefix="notes",
                ),
                queries,
            )
        lore.close()
    print(f"Store API, {items:,} items, under load (other helpers share the 2 cores)\n")
    print(
        "| store | bulk put items/s | search p50 / p95 ms | search right after a put p50 / p95 ms |"
    )
    print("|---|---:|---:|---:|")
    for name, row in out.items():
        if isinstance(row, dict):
            rate = f"{row['put_items_per_s']:,}" if "put_items_per_s" in row else "-"
            cycle = (
                f"{row['after_put_p50_ms']:.1f} / {row['after_put_p95_ms']:.1f}"
                if "after_put_p50_ms" in row
                else "-"
            )
            print(f"| {name} | {rate} | {row['p50_ms']:.1f} / {row['p95_ms']:.1f} | {cycle} |")
    print()
    return out


if __name__ == "__main__":
    main()
