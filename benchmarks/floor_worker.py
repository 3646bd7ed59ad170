"""Bulk puts with and without the floor's worker process, in one run (issue 30).

``UserloreStore.batch`` in chunks of 500 (``store_api``'s items and loader) on fresh SQLite
files, the worker off and on in turns (ABBA, so the machine's load falls on both alike). It
prints, per turn and as medians: items per wall second, and items per CPU second counting the
caller's CPU and the worker's (``/proc/<pid>/stat``), so the second core's work is not hidden;
per turn also each one's CPU µs a put (on a loaded machine the wall time says little: with a
free core each, the larger of the two bounds a put's wall time).
The worker is started and ready before the first turn (a long-lived process's steady state);
``--cold`` also times the first load of a fresh process, worker start included.

Usage: python benchmarks/floor_worker.py [--items 10000] [--rounds 2] [--cold]
Prints one line per turn, then one JSON object on the last line.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from plan_latency import bulk_sentences
from store_api import put_seconds

from userlore import Userlore
from userlore.integrations.langgraph_store import UserloreStore
from userlore.policy import floor_worker
from userlore.testing.embeddings import HashingEmbeddings

_TICK = os.sysconf("SC_CLK_TCK")


def child_cpu(pid: int | None) -> float:
    """CPU seconds (user + system) of process ``pid`` so far; 0 without one."""
    if pid is None:
        return 0.0
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICK


def turn(batch: list[str], worker_on: bool) -> dict[str, float]:
    """One load of ``batch`` into a fresh store: wall and CPU seconds, texts the worker took."""
    os.environ["USERLORE_FLOOR_WORKER"] = "1" if worker_on else "0"
    embed = HashingEmbeddings(dims=256)
    with tempfile.TemporaryDirectory() as tmp:
        lore = Userlore.open(
            f"sqlite:///{Path(tmp) / 'userlore.db'}", config={"memory": {"mode": "auto"}}
        )
        store = UserloreStore(
            lore,
            namespace_template=("{user_id}",),
            index={"dims": 256, "embed": embed, "fields": ["text"]},
        )
        shared = floor_worker.stats()["shared"]
        worker = floor_worker.shared_worker() if worker_on else None
        pid = None if worker is None else worker.pid  # None until a batch first claims it
        child0, cpu0, wall0 = child_cpu(pid), time.process_time(), time.perf_counter()
        put_seconds(store, batch)
        wall = time.perf_counter() - wall0
        if worker is not None and worker.pid != pid:  # started (or replaced) by this load
            pid, child0 = worker.pid, 0.0
        caller = time.process_time() - cpu0
        child = child_cpu(pid) - child0
        lore.close()
    return {
        "wall_s": wall,
        "cpu_s": caller + child,
        "caller_cpu_s": caller,
        "worker_cpu_s": child,
        "shared": floor_worker.stats()["shared"] - shared,
    }


def cold(items: int) -> None:
    """The first load of a fresh process (the worker starts with it): run in a child."""
    out = subprocess.run(
        [sys.executable, __file__, "--items", str(items), "--cold-child"],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).parent,
    )
    print(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=10000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--cold", action="store_true")
    parser.add_argument("--cold-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    batch = bulk_sentences(args.items)
    os.environ["USERLORE_FLOOR_WORKER"] = "1"  # opt-in
    if args.cold_child:
        first = turn(batch, True)
        print(
            f"cold process, worker starting with the load: "
            f"{args.items / first['wall_s']:,.0f} items/wall-s, "
            f"worker took {first['shared']:,} texts"
        )
        return
    warm = floor_worker.shared_worker()
    assert warm is not None, "the worker is off (USERLORE_FLOOR_WORKER, cores, OS)"
    turn(batch[:600], False)  # this process's tables
    while not warm.claim():  # the worker's
        time.sleep(0.05)
    warm.release()
    rows: dict[str, list[dict[str, float]]] = {"off": [], "on": []}
    for r in range(args.rounds):
        for on in (False, True) if r % 2 == 0 else (True, False):
            row = turn(batch, on)
            rows["on" if on else "off"].append(row)
            print(
                f"{'on ' if on else 'off'}: {args.items / row['wall_s']:,.0f} items/wall-s, "
                f"{args.items / row['cpu_s']:,.0f} items/CPU-s (caller + worker), "
                f"worker took {row['shared']:,.0f} texts; load {os.getloadavg()[0]:.1f}; "
                f"CPU µs a put: caller {row['caller_cpu_s'] / args.items * 1e6:.0f}, "
                f"worker {row['worker_cpu_s'] / args.items * 1e6:.0f}"
            )
    summary: dict[str, Any] = {"items": args.items}
    for name, got in rows.items():
        summary[name] = {
            "items_per_wall_s": round(args.items / statistics.median(r["wall_s"] for r in got)),
            "items_per_cpu_s": round(args.items / statistics.median(r["cpu_s"] for r in got)),
        }
    on, off = summary["on"], summary["off"]
    print(
        f"median: on {on['items_per_wall_s']:,} items/wall-s against off "
        f"{off['items_per_wall_s']:,} ({on['items_per_wall_s'] / off['items_per_wall_s']:.2f}x); "
        f"per CPU-s {on['items_per_cpu_s']:,} against {off['items_per_cpu_s']:,}"
    )
    if args.cold:
        cold(args.items)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
