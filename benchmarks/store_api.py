"""``UserloreStore`` beside LangGraph's ``SqliteStore`` and ``InMemoryStore``, in one run.

The same N one-sentence items (Zipf vocabulary, as ``plan_latency.py``), the same deterministic
embeddings (``HashingEmbeddings``, 256 dimensions) and the same ``IndexConfig`` for all three
stores; ``UserloreStore`` and ``SqliteStore`` on a SQLite file each. It measures:

- bulk puts: ``batch([PutOp, ...])`` in chunks of 500, items/s;
- ``search(prefix, query=..., limit=10)``: p50 / p95 over 60 queries (10 warm-up), and for
  ``UserloreStore`` also its previous path (the planner's BM25 + vector RRF search with the
  0.2 cosine floor, ``search_visible(rank_all=False)``), so before/after come from one run.

Usage: python benchmarks/store_api.py [--items 10000] [--queries 60]
Prints a Markdown table, then one JSON object on the last line.
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=60)
    args = parser.parse_args()
    gen = TextGen(seed=11)
    texts = [gen.sentence(gen.rng.randint(6, 14)) for _ in range(args.items)]
    queries = [gen.sentence(gen.rng.randint(2, 5)) for _ in range(args.queries)]
    embed = HashingEmbeddings(dims=256)
    index: Any = {"dims": 256, "embed": embed, "fields": ["text"]}
    out: dict[str, Any] = {"items": args.items, "queries": args.queries}
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
                out[name] = {"put_items_per_s": round(rate), **search}
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
    print(f"Store API, {args.items:,} items, under load (8 parallel helpers on 2 cores)\n")
    print("| store | bulk put items/s | search p50 ms | search p95 ms |")
    print("|---|---:|---:|---:|")
    for name, row in out.items():
        if isinstance(row, dict):
            rate = f"{row['put_items_per_s']:,}" if "put_items_per_s" in row else "-"
            print(f"| {name} | {rate} | {row['p50_ms']:.1f} | {row['p95_ms']:.1f} |")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
