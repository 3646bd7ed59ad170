"""Bulk puts in CPU time: where a ``UserloreStore`` put goes, beside LangGraph's stores.

Wall-clock rates on a shared machine move with the load (the same code measured 148 and 1,153
items/s); the process's CPU time does not, so this prints items per CPU-second (and per wall
second beside it) for ``UserloreStore`` (split into the floor, ``_draft_put`` and
``_judge_puts``, and the batched write, ``_put_many``), ``SqliteStore`` and ``InMemoryStore``
in one run, and the floor's ``classify`` per text (a put's content, its value JSON, its store
key), and the garbage collector's collections during the load (full and young, with their CPU
time). Same items and embeddings as ``store_api.py``: one-sentence values ``{"text": ...}``,
``HashingEmbeddings`` (256 dimensions), ``batch([PutOp...])`` in chunks of 500 on SQLite files.

Compare two versions of the code by running this on each, alternately, a few times.

Usage: python benchmarks/bulk_puts.py [--items 2000]
Prints one line per measure, then one JSON object on the last line.

``--base-src DIR`` (an exported ``src``: ``git archive BASE src | tar -x -C /tmp/base``) puts
the same items through this tree's ``UserloreStore`` and the base's in one run instead: two
worker processes take turns chunk by chunk (ABBA), so both see the machine's load alike, and
it prints each one's items per CPU-second and per wall second (the batch calls' own, summed)
and the ratios. ``--keys uuid`` gives each item a uuid4 key (LangMem's and most LangGraph apps'
keys; the same ones in both workers) instead of ``k{i}``. With ``--edit`` each tree then puts
every key again with an edited value (a key held before: the per-item governed write, where
the floor's verdict from the batch is handed down), timed apart.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from langgraph.store.base import BaseStore, PutOp
from langgraph.store.memory import InMemoryStore
from langgraph.store.sqlite import SqliteStore
from plan_latency import bulk_sentences
from store_api import CHUNK, NAMESPACE, put_seconds

from userlore import Userlore
from userlore.integrations.langgraph_store import UserloreStore
from userlore.integrations.langgraph_store import puts as puts_module
from userlore.policy.sensitivity import classify
from userlore.testing.embeddings import HashingEmbeddings


def warm(store: BaseStore, texts: list[str]) -> None:
    """A first small batch in another namespace (imports, caches, tables)."""
    store.batch(
        [PutOp(("bench-user", "warm"), f"w{i}", {"text": t}) for i, t in enumerate(texts[:20])]
    )


def load(store: BaseStore, texts: list[str], wall: dict[str, float] | None = None) -> float:
    """CPU seconds to bulk-put ``texts`` in chunks (``store_api``'s loader, by CPU time); the
    wall seconds go to ``wall["s"]`` (on a loaded machine they measure the scheduler too)."""
    start = time.perf_counter()
    cpu = put_seconds(store, texts, clock=time.process_time)
    if wall is not None:
        wall["s"] = time.perf_counter() - start
    return cpu


def phases() -> tuple[dict[str, float], Callable[[], None]]:
    """CPU seconds spent validating and judging puts (the floor: ``_draft_put`` and
    ``_judge_puts``, or an older tree's ``_prepare_put``) and in ``_put_many`` from now on (and
    an undo)."""
    spent = {"floor": 0.0, "write": 0.0}
    ops = puts_module.PutOps
    floor = [n for n in ("_draft_put", "_judge_puts") if hasattr(ops, n)] or ["_prepare_put"]
    saved = {name: getattr(ops, name) for name in [*floor, "_put_many"]}

    def timed(name: str, fn: Any) -> Any:
        def run(*args: Any, **kwargs: Any) -> Any:
            start = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[name] += time.process_time() - start

        return run

    for name, fn in saved.items():
        setattr(ops, name, timed("write" if name == "_put_many" else "floor", fn))

    def undo() -> None:
        for name, fn in saved.items():
            setattr(ops, name, fn)

    return spent, undo


def collector() -> tuple[dict[str, float], Callable[[], None]]:
    """Collections and their CPU seconds from now on, full (generation 2) and young apart
    (and an undo): the host's collector as it is, only watched (``gc.callbacks``)."""
    spent = {"full": 0, "full_s": 0.0, "young": 0, "young_s": 0.0}
    started = [0.0]

    def watch(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[0] = time.process_time()
            return
        kind = "full" if info["generation"] == 2 else "young"
        spent[kind] += 1
        spent[f"{kind}_s"] += time.process_time() - started[0]

    gc.callbacks.append(watch)
    return spent, lambda: gc.callbacks.remove(watch)


def per_text(texts: list[str], special: bool = True) -> float:
    """CPU ms of one ``classify`` over ``texts``."""
    for text in texts[:20]:
        classify(text, special=special)
    start = time.process_time()
    for text in texts:
        classify(text, special=special)
    return (time.process_time() - start) / len(texts) * 1000


def item_keys(items: int, kind: str) -> list[str]:
    """The items' keys: ``k{i}``, or uuid4s drawn from a seeded generator (``uuid``)."""
    if kind == "uuid":
        rng = random.Random(items)
        return [str(uuid.UUID(int=rng.getrandbits(128), version=4)) for _ in range(items)]
    return [f"k{i}" for i in range(items)]


def _worker(items: int, kind: str = "counter") -> None:
    """Serve chunks on stdin/stdout: each line puts the next chunk (``put``: fresh keys, then
    ``edit``: the same keys again, edited), the answer is its CPU s."""
    texts = bulk_sentences(items)
    keys = item_keys(items, kind)
    index: Any = {"dims": 256, "embed": HashingEmbeddings(dims=256), "fields": ["text"]}
    with tempfile.TemporaryDirectory() as tmp:
        lore = Userlore.open(
            f"sqlite:///{Path(tmp) / 'userlore.db'}", config={"memory": {"mode": "auto"}}
        )
        ours = UserloreStore(lore, namespace_template=("{user_id}",), index=index)
        warm(ours, texts)
        print("ready", flush=True)
        at = {"put": 0, "edit": 0}
        for line in sys.stdin:
            what = line.strip()
            start_at = at[what]
            chunk = texts[start_at : start_at + CHUNK]
            if what == "edit":
                chunk = [f"{t} (edited)" for t in chunk]
            start, wall = time.process_time(), time.perf_counter()
            ours.batch(
                [PutOp(NAMESPACE, keys[start_at + i], {"text": t}) for i, t in enumerate(chunk)]
            )
            spent = [time.process_time() - start, time.perf_counter() - wall]
            print(json.dumps([len(chunk), *spent]), flush=True)
            at[what] += CHUNK
        lore.close()


def same_run(base_src: Path, items: int, edit: bool = False, kind: str = "counter") -> None:
    """This tree against ``base_src``, two workers taking turns chunk by chunk (ABBA)."""
    here = Path(__file__).resolve()
    workers = {}
    for name, src in (("head", here.parent.parent / "src"), ("base", base_src)):
        env = {**os.environ, "PYTHONPATH": str(src)}
        cmd = [sys.executable, str(here), "--worker", "--items", str(items), "--keys", kind]
        proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
        )
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        workers[name] = proc
    out: dict[str, Any] = {"items": items}
    for what in ("put", "edit") if edit else ("put",):
        done = {"head": [0.0, 0.0, 0.0], "base": [0.0, 0.0, 0.0]}  # items, CPU s, wall s
        for r in range((items + CHUNK - 1) // CHUNK):
            for name in ("head", "base") if r % 4 in (0, 3) else ("base", "head"):
                proc = workers[name]
                assert proc.stdin is not None and proc.stdout is not None
                proc.stdin.write(f"{what}\n")
                proc.stdin.flush()
                for at, spent in enumerate(json.loads(proc.stdout.readline())):
                    done[name][at] += spent
        rate = {name: n / cpu for name, (n, cpu, _) in done.items()}
        walled = {name: n / wall for name, (n, _, wall) in done.items()}
        label = "puts" if what == "put" else "edits of held keys"
        print(
            f"same run, {items:,} {label}: head {rate['head']:,.0f} items/CPU-s, base "
            f"{rate['base']:,.0f} ({rate['head'] / rate['base']:.2f}x); head "
            f"{walled['head']:,.0f} items/wall-s, base {walled['base']:,.0f} "
            f"({walled['head'] / walled['base']:.2f}x)"
        )
        name = "items_per_cpu_s" if what == "put" else "edits_per_cpu_s"
        out[name] = {k: round(v) for k, v in rate.items()}
        out[name.replace("cpu", "wall")] = {k: round(v) for k, v in walled.items()}
    for proc in workers.values():
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()
    print(json.dumps(out))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=2000)
    parser.add_argument("--base-src", type=Path, help="time this tree against an exported src")
    parser.add_argument("--edit", action="store_true", help="with --base-src: edits too")
    parser.add_argument("--keys", choices=("counter", "uuid"), default="counter")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        _worker(args.items, args.keys)
        return
    if args.base_src:
        same_run(args.base_src, args.items, args.edit, args.keys)
        return
    texts = bulk_sentences(args.items)
    values = [
        json.dumps({"text": t}, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        for t in texts
    ]
    out: dict[str, Any] = {"items": args.items}
    index: Any = {"dims": 256, "embed": HashingEmbeddings(dims=256), "fields": ["text"]}
    with tempfile.TemporaryDirectory() as tmp:
        lore = Userlore.open(
            f"sqlite:///{Path(tmp) / 'userlore.db'}", config={"memory": {"mode": "auto"}}
        )
        ours = UserloreStore(lore, namespace_template=("{user_id}",), index=index)
        spent, undo = phases()
        warm(ours, texts)
        spent.update(floor=0.0, write=0.0)
        wall: dict[str, float] = {}
        collected, unwatch = collector()
        cpu = load(ours, texts, wall)
        unwatch()
        undo()
        lore.close()
        n = args.items
        out["UserloreStore"] = {
            "items_per_cpu_s": round(n / cpu),
            "items_per_wall_s": round(n / wall["s"]),
            "cpu_ms_per_put": round(cpu / n * 1000, 3),
            "floor_ms_per_put": round(spent["floor"] / n * 1000, 3),
            "write_ms_per_put": round(spent["write"] / n * 1000, 3),
            "gc": {
                "tracked": len(gc.get_objects()),
                "full": collected["full"],
                "full_cpu_s": round(collected["full_s"], 3),
                "young": collected["young"],
                "young_cpu_s": round(collected["young_s"], 3),
            },
        }
        with SqliteStore.from_conn_string(str(Path(tmp) / "lg.db"), index=index) as sqlite:
            try:
                sqlite.setup()
            except AttributeError:  # this Python's sqlite3 cannot load sqlite-vec
                sqlite.index_config = sqlite.embeddings = None
                sqlite.setup()
            warm(sqlite, texts)
            cpu = load(sqlite, texts, wall)
            out["SqliteStore"] = {
                "items_per_cpu_s": round(n / cpu),
                "items_per_wall_s": round(n / wall["s"]),
            }
        memory = InMemoryStore(index=index)
        warm(memory, texts)
        cpu = load(memory, texts, wall)
        out["InMemoryStore"] = {
            "items_per_cpu_s": round(n / cpu),
            "items_per_wall_s": round(n / wall["s"]),
        }
    # Keys no put used: the identifier memoises what it has seen (a put meets a new key).
    keys = [f"store:notes#m{i}" for i in range(len(texts))]
    out["classify_cpu_ms"] = {
        "content": round(per_text(texts), 3),
        "value_json": round(per_text(values), 3),
        "store_key": round(per_text(keys, special=False), 3),
    }
    ours_row = out["UserloreStore"]
    print(f"Bulk puts, {n:,} items, CPU time (a shared machine: CPU, not wall clock)")
    print(
        f"UserloreStore {ours_row['items_per_cpu_s']:,} items/CPU-s "
        f"({ours_row['items_per_wall_s']:,} items/wall-s): "
        f"{ours_row['cpu_ms_per_put']:.3f} ms a put = floor {ours_row['floor_ms_per_put']:.3f}"
        f" + write {ours_row['write_ms_per_put']:.3f} (+ grouping the ops)"
    )
    col = ours_row["gc"]
    print(
        f"garbage collector during the load: {col['full']} full collections "
        f"({col['full_cpu_s']:.3f} CPU-s), {col['young']} young ({col['young_cpu_s']:.3f} CPU-s); "
        f"{col['tracked']:,} objects tracked after it"
    )
    for peer in ("SqliteStore", "InMemoryStore"):
        rate = out[peer]["items_per_cpu_s"]
        ratio = ours_row["items_per_cpu_s"] / rate
        print(
            f"{peer} {rate:,} items/CPU-s, {out[peer]['items_per_wall_s']:,} items/wall-s "
            f"(UserloreStore {ratio:.3f}x by CPU)"
        )
    per = out["classify_cpu_ms"]
    print(
        f"classify per text: content {per['content']:.3f} ms, value JSON "
        f"{per['value_json']:.3f} ms, store key {per['store_key']:.3f} ms"
    )
    print(json.dumps(out))


if __name__ == "__main__":
    main()
