"""Concurrency: N worker processes draining pending synthesis, and planning under ingestion.

Part 1 seeds ``--items`` pending source items (ingested, not yet synthesized) into a fresh
database, starts 1, 2 and 4 real ``userlore worker --once`` processes at the same moment and
reports items/s plus an exactly-once check (every item done, one fact per item at version 1,
every item claimed exactly once).

Part 2 measures ``plan_context`` p50/p95 for one user while another process ingests and
synthesizes a connected source into the same database.

Usage: python benchmarks/workers.py [--backend sqlite|postgres] [--items 10000]
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

from plan_latency import database_urls, percentile
from sqlalchemy import func, select

from userlore import Userlore
from userlore.sources import ItemListSource, SourceItem
from userlore.store.schema import KnowledgeSourceItem

CONNECTED = {"mode": "auto", "sources": ["session", "curated", "connected"]}


def items(n: int, prefix: str = "e") -> list[SourceItem]:
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


def seed(url: str, n: int) -> None:
    lore = Userlore.open(url, config={"memory": CONNECTED})
    lore.sources.ingest("u1", ItemListSource("bench", items(n)), synthesize=False)
    lore.close()


def check(url: str, n: int) -> dict[str, object]:
    lore = Userlore.open(url)
    try:
        with lore.memory.store.transaction() as s:
            states = dict(
                s.execute(
                    select(KnowledgeSourceItem.synthesis_state, func.count()).group_by(
                        KnowledgeSourceItem.synthesis_state
                    )
                ).all()
            )
            attempts = set(s.scalars(select(KnowledgeSourceItem.synthesis_attempts)))
        facts = lore.records.list("u1", kind="workspace_fact", limit=n + 10)
    finally:
        lore.close()
    return {
        "all_done": states == {"done": n},
        "facts": len(facts),
        "versions": sorted({f.version for f in facts}),
        "claimed_once": attempts == {1},
    }


def drain_with(url: str, workers: int, n: int, config: Path) -> dict[str, object]:
    seed(url, n)
    start = time.perf_counter()
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "userlore.cli",
                "worker",
                "--once",
                "--db",
                url,
                "--config",
                str(config),
                "--worker-id",
                f"bench{i}",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(workers)
    ]
    errors = [p.communicate()[1] for p in procs]
    elapsed = time.perf_counter() - start
    if any(p.returncode for p in procs):
        raise SystemExit(f"a worker failed: {errors}")
    result = check(url, n)
    exactly_once = bool(
        result["all_done"]
        and result["claimed_once"]
        and result["facts"] == n
        and result["versions"] == [1]
    )
    return {
        "workers": workers,
        "items": n,
        "seconds": round(elapsed, 2),
        "items_per_s": round(n / elapsed, 1),
        "exactly_once": exactly_once,
    }


def plan_under_ingest(url: str, n: int, config: Path, queries: int = 200) -> dict[str, object]:
    lore = Userlore.open(url, config={"memory": CONNECTED})
    for text in ("Always answer in bullet points.", "I use pnpm.", "Never suggest jest."):
        lore.observe(scope="reader", role="user", content=text)
    lore.sources.ingest("reader", ItemListSource("warm", items(2000, "w")))
    questions = [f"what happened to the nightly export for team {i % 40}?" for i in range(queries)]

    def timed() -> list[float]:
        out = []
        for q in questions:
            t0 = time.perf_counter()
            lore.plan_context(scope="reader", query=q)
            out.append((time.perf_counter() - t0) * 1000)
        return out

    idle = timed()
    script = Path(tempfile.mkdtemp()) / "writer.py"
    script.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        "from workers import items\n"
        "from userlore import Userlore\n"
        "from userlore.sources import ItemListSource\n"
        f"lore = Userlore.open(sys.argv[1], config={{'memory': {CONNECTED!r}}})\n"
        f"lore.sources.ingest('writer', ItemListSource('live', items({n}, 'l')))\n"
    )
    writer = subprocess.Popen([sys.executable, str(script), url])
    time.sleep(1.0)
    busy = timed()
    still_writing = writer.poll() is None
    writer.wait()
    lore.close()
    return {
        "idle": {
            "p50_ms": round(statistics.median(idle), 3),
            "p95_ms": round(percentile(idle, 95), 3),
        },
        "while_ingesting": {
            "p50_ms": round(statistics.median(busy), 3),
            "p95_ms": round(percentile(busy, 95), 3),
        },
        "writer_still_running_at_end": still_writing,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--backend", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--workers", default="1,2,4")
    args = parser.parse_args()
    config = Path(tempfile.mkdtemp()) / "config.json"
    config.write_text(json.dumps({"userContext": {"memory": CONNECTED}}))
    rows = []
    with database_urls(args.backend) as fresh_url:
        for n_workers in (int(w) for w in args.workers.split(",")):
            row = drain_with(fresh_url(), n_workers, args.items, config)
            rows.append(row)
            print(f"{args.backend}: {row}", flush=True)
        under = plan_under_ingest(fresh_url(), args.items, config)
        print(f"{args.backend}: plan under ingestion {under}", flush=True)
    print(json.dumps({"backend": args.backend, "drain": rows, "plan_under_ingest": under}))


if __name__ == "__main__":
    main()
