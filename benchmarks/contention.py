"""Plan latency on SQLite while another process writes: does a read wait for the writer?

Measures ``plan_context`` p50/p95 for one user idle, then while a second process ingests and
synthesizes a connected source into the same database file, in the same run. SQLite has one
writer at a time; a plan whose trace insert waits for it inherits the writer's transactions.

A control phase runs the same plans while a second process only burns CPU (no database), so
on a shared machine the CPU share of the slowdown can be told from waiting for the writer.

Runs against whatever ``userlore`` is importable, so ``PYTHONPATH=<old checkout>/src`` measures
the code before a change in the same way.

Usage: python benchmarks/contention.py [--items 5000] [--queries 300]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from userlore import Userlore
from userlore.sources import ItemListSource, SourceItem

CONNECTED = {"mode": "auto", "sources": ["session", "curated", "connected"]}


def items(n: int, prefix: str) -> list[SourceItem]:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    return [
        SourceItem(
            external_id=f"{prefix}{i}",
            text=f"Ticket {i}: the nightly export for team {i % 40} finished after {i % 13} "
            f"retries; follow-up owner is engineer {i % 97}.",
            occurred_at=start + timedelta(minutes=i),
        )
        for i in range(n)
    ]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def stats(times: list[float]) -> dict[str, float]:
    return {
        "p50_ms": round(statistics.median(times), 3),
        "p95_ms": round(percentile(times, 95), 3),
        "max_ms": round(max(times), 1),
    }


WRITER = """
import sys
sys.path[:0] = {paths!r}
from contention import items
from userlore import Userlore
from userlore.sources import ItemListSource
lore = Userlore.open(sys.argv[1], config={{"memory": {connected!r}}})
lore.sources.ingest("writer", ItemListSource("live", items(int(sys.argv[2]), "l")))
lore.close()
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--items", type=int, default=5000)
    parser.add_argument("--queries", type=int, default=300)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    url = f"sqlite:///{folder / 'lore.db'}"
    lore = Userlore.open(url, config={"memory": CONNECTED})
    for text in ("Always answer in bullet points.", "I use pnpm.", "Never suggest jest."):
        lore.observe(scope="reader", role="user", content=text)
    lore.sources.ingest("reader", ItemListSource("warm", items(2000, "w")))
    questions = [
        f"what happened to the nightly export for team {i % 40}?" for i in range(args.queries)
    ]

    def timed() -> list[float]:
        out = []
        for q in questions:
            t0 = time.perf_counter()
            lore.plan_context(scope="reader", query=q)
            out.append((time.perf_counter() - t0) * 1000)
        return out

    idle = timed()
    burner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    time.sleep(0.5)
    cpu_only = timed()
    burner.kill()
    burner.wait()
    script = folder / "writer.py"
    script.write_text(
        WRITER.format(paths=[str(Path(__file__).parent), *sys.path], connected=CONNECTED)
    )
    writer = subprocess.Popen([sys.executable, str(script), url, str(args.items)])
    time.sleep(1.0)
    busy = timed()
    still_writing = writer.poll() is None
    writer.wait()
    lore.close()
    check = Userlore.open(url)
    plans = len(check.traces.list("reader", event_type="plan", limit=10_000))
    check.close()
    out = {
        "idle": stats(idle),
        "while_burning_cpu": stats(cpu_only),
        "while_ingesting": stats(busy),
        "p95_ratio": round(percentile(busy, 95) / percentile(idle, 95), 2),
        "p95_ratio_cpu_only": round(percentile(cpu_only, 95) / percentile(idle, 95), 2),
        "writer_still_running_at_end": still_writing,
        "plan_traces_written": plans,
        "plans_made": 3 * args.queries,
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
