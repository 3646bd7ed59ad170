"""``UserloreStore`` beside LangGraph's ``SqliteStore`` and ``InMemoryStore``, in one run.

The same N one-sentence items (Zipf vocabulary, as ``plan_latency.py``), the same deterministic
embeddings (``HashingEmbeddings``, 256 dimensions) and the same ``IndexConfig`` for all three
stores; ``UserloreStore`` and ``SqliteStore`` on a SQLite file each (``SqliteStore`` with its
sqlite-vec index, through ``peers.sqlite_store``: it ranks by cosine too). It measures:

- bulk puts: ``batch([PutOp, ...])`` in chunks of 500, items/s;
- ``search(prefix, query=..., limit=10)``: p50 / p95 over 60 queries (10 warm-up), the stores
  taking turns query by query (and the thread's CPU time, which waiting for a core does not
  inflate), and for
  ``UserloreStore`` also its previous path (the planner's BM25 + vector RRF search with the
  0.2 cosine floor, ``search_visible(rank_all=False)``), so before/after come from one run;
- the write-then-read cycle: one ``put`` of a new item, then one ``search``, p50 / p95 of the
  search (``--cycles`` times), beside the warm search of the same run;
- for ``UserloreStore`` and ``SqliteStore``: the first search after reopening the database
  file (a new store object, as a new process would open it);
- for ``Userlore`` itself on the same data: ``plan_context`` warm and right after one
  ``observe`` (``--cycles`` times).

``InMemoryStore`` is searched only up to ``--memory-max`` items (its brute-force search takes
seconds a query at 100k; its bulk put rate is measured at every size).

Usage: python benchmarks/store_api.py [--sizes 10000,100000] [--queries 60] [--cycles 20]
       [--memory-max 20000]
Prints a Markdown table per size, then one JSON object on the last line.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from langgraph.store.base import BaseStore, PutOp
from langgraph.store.memory import InMemoryStore
from peers import sqlite_store
from plan_latency import TextGen, percentile, timed

from userlore import Userlore
from userlore.integrations.langgraph_store import UserloreStore
from userlore.planner.visible import search_visible
from userlore.testing.embeddings import HashingEmbeddings

CHUNK = 500
USER = "bench-user"
NAMESPACE = (USER, "notes")


def put_seconds(
    store: BaseStore, texts: list[str], clock: Callable[[], float] = time.perf_counter
) -> float:
    """Seconds by ``clock`` (wall by default; ``time.process_time`` for CPU) to bulk-put
    ``texts`` through ``batch`` in chunks."""
    start = clock()
    for at in range(0, len(texts), CHUNK):
        store.batch(
            [
                PutOp(NAMESPACE, f"k{at + i}", {"text": text})
                for i, text in enumerate(texts[at : at + CHUNK])
            ]
        )
    return clock() - start


def load(store: BaseStore, texts: list[str]) -> float:
    """Bulk-put ``texts`` in chunks; items/s."""
    return len(texts) / put_seconds(store, texts)


def interleaved(
    stores: dict[str, BaseStore], queries: list[str], warmup: int = 10
) -> dict[str, dict[str, float]]:
    """Search p50 / p95 (wall) and p50 thread CPU of each store, the stores taking turns query
    by query, so a change in the machine's load falls on all of them alike."""
    for q in queries[:warmup]:
        for store in stores.values():
            store.search((USER,), query=q, limit=10)
    wall: dict[str, list[float]] = {name: [] for name in stores}
    cpu: dict[str, list[float]] = {name: [] for name in stores}
    for q in queries:
        for name, store in stores.items():
            start, used = time.perf_counter(), time.thread_time()
            store.search((USER,), query=q, limit=10)
            cpu[name].append((time.thread_time() - used) * 1000)
            wall[name].append((time.perf_counter() - start) * 1000)
    return {
        name: {
            "p50_ms": round(statistics.median(wall[name]), 3),
            "p95_ms": round(percentile(wall[name], 95), 3),
            "cpu_p50_ms": round(statistics.median(cpu[name]), 3),
        }
        for name in stores
    }


def after_put(store: BaseStore, queries: list[str], cycles: int) -> dict[str, float]:
    """p50 / p95 of a search right after one put of a new item."""
    picked = [queries[(n * 7) % len(queries)] for n in range(cycles)]

    def put(n: int) -> None:
        store.put(NAMESPACE, f"cycle{n}", {"text": queries[n % len(queries)] + " after a put"})

    wall: list[float] = []
    cpu: list[float] = []
    for n, q in enumerate(picked):
        put(n)
        start, used = time.perf_counter(), time.thread_time()
        store.search((USER,), query=q, limit=10)
        cpu.append((time.thread_time() - used) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
    return {
        "after_put_p50_ms": round(statistics.median(wall), 3),
        "after_put_p95_ms": round(percentile(wall, 95), 3),
        "after_put_cpu_p50_ms": round(statistics.median(cpu), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000", help="comma-separated item counts")
    parser.add_argument("--items", type=int, default=None, help="one size (same as --sizes N)")
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument("--cycles", type=int, default=20)
    parser.add_argument("--memory-max", type=int, default=20_000, help="InMemoryStore search cap")
    args = parser.parse_args()
    sizes = [args.items] if args.items else [int(n) for n in args.sizes.split(",")]
    runs = [run(n, args.queries, args.cycles, args.memory_max) for n in sizes]
    print(json.dumps(runs))


def first_search(open_store: Any, query: str) -> float:
    """ms of the first search of a store just opened on an existing file."""
    start = time.perf_counter()
    open_store().search((USER,), query=query, limit=10)
    return round((time.perf_counter() - start) * 1000, 1)


def plan_cycle(lore: Userlore, queries: list[str], cycles: int) -> dict[str, float]:
    """``plan_context`` p50 / p95 warm, and right after one ``observe`` of a new turn."""
    warm = timed(lambda q: lore.plan_context(USER, q), queries[:cycles], warmup=3)

    def observe(n: int) -> None:
        lore.observe(USER, "user", f"I prefer {queries[n % len(queries)].lower()} now")

    after = timed(lambda q: lore.plan_context(USER, q), queries[:cycles], warmup=0, between=observe)
    return {
        "plan_p50_ms": warm["p50_ms"],
        "plan_p95_ms": warm["p95_ms"],
        "plan_after_observe_p50_ms": after["p50_ms"],
        "plan_after_observe_p95_ms": after["p95_ms"],
    }


def run(items: int, n_queries: int, cycles: int, memory_max: int) -> dict[str, Any]:
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
        sqlite_name = "SqliteStore (sqlite-vec)"
        with sqlite_store(Path(tmp) / "lg.db", index) as sqlite:
            memory = InMemoryStore(index=index)
            stores: dict[str, BaseStore] = {
                "UserloreStore": ours,
                sqlite_name: sqlite,
                "InMemoryStore": memory,
            }
            for name, store in stores.items():
                out[name] = {"put_items_per_s": round(load(store, texts))}
            searched = {
                name: store
                for name, store in stores.items()
                if store is not memory or items <= memory_max
            }
            for name, search in interleaved(searched, queries).items():
                out[name].update(search)
            for name, store in searched.items():
                out[name].update(after_put(store, queries, cycles))
            with sqlite_store(Path(tmp) / "lg.db", index) as again:
                out[sqlite_name]["first_search_after_open_ms"] = first_search(
                    lambda: again, queries[1]
                )
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
        out["UserloreStore"].update(plan_cycle(lore, queries, cycles))
        lore.close()
        reopened = Userlore.open(
            f"sqlite:///{Path(tmp) / 'userlore.db'}", config={"memory": {"mode": "auto"}}
        )
        out["UserloreStore"]["first_search_after_open_ms"] = first_search(
            lambda: UserloreStore(reopened, namespace_template=("{user_id}",), index=index),
            queries[1],
        )
        reopened.close()
    print(f"Store API, {items:,} items, under load (other helpers share the 2 cores)\n")
    print(
        "| store | bulk put items/s | search p50 / p95 ms | search CPU p50 ms"
        " | search right after a put p50 / p95 ms | first search after opening ms |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for name, row in out.items():
        if isinstance(row, dict):
            rate = f"{row['put_items_per_s']:,}" if "put_items_per_s" in row else "-"
            cycle = (
                f"{row['after_put_p50_ms']:.1f} / {row['after_put_p95_ms']:.1f}"
                if "after_put_p50_ms" in row
                else "-"
            )
            search = f"{row['p50_ms']:.1f} / {row['p95_ms']:.1f}" if "p50_ms" in row else "-"
            first = row.get("first_search_after_open_ms", "-")
            cpu = f"{row['cpu_p50_ms']:.1f}" if "cpu_p50_ms" in row else "-"
            print(f"| {name} | {rate} | {search} | {cpu} | {cycle} | {first} |")
    ours = out["UserloreStore"]
    print(
        f"\nUserloreStore: search after a put / warm p50 "
        f"{ours['after_put_p50_ms'] / ours['p50_ms']:.2f}x, p95 "
        f"{ours['after_put_p95_ms'] / ours['p95_ms']:.2f}x, CPU p50 "
        f"{ours['after_put_cpu_p50_ms'] / ours['cpu_p50_ms']:.2f}x; plan_context warm "
        f"{ours['plan_p50_ms']:.1f} / {ours['plan_p95_ms']:.1f} ms, right after an observe "
        f"{ours['plan_after_observe_p50_ms']:.1f} / {ours['plan_after_observe_p95_ms']:.1f} ms"
    )
    print()
    return out


if __name__ == "__main__":
    main()
