"""Where ingest and synthesis spend their time, per backend: client CPU against waiting.

Runs ``ingest.py``'s fresh ingest and synthesis of N items (prose by default) on a SQLite file
and on a throwaway PostgreSQL, after the same untimed warm-up, and splits each phase:

- ``wall`` and ``cpu`` (this thread's ``time.thread_time``) of the whole phase: on SQLite the
  engine runs in this thread, so its work is CPU here; on PostgreSQL the server's work is the
  wall time the thread spends waiting;
- per statement kind (first words and table; ``many`` = ``executemany``), timed at the cursor
  with a ``before/after_cursor_execute`` listener: count, rows, wall, and the thread CPU spent
  inside the call (psycopg's adaptation and protocol, or SQLite's engine). ``wall - cpu`` of a
  PostgreSQL statement is the server and the socket;
- ``outside statements``: the phase's CPU not spent in a cursor call (the pipeline, the floor,
  the ORM's flush bookkeeping).

``--cprofile`` adds the top functions of the PostgreSQL synthesis by internal time.

Usage: python benchmarks/ingest_profile.py [--items 3000] [--text prose|synthetic] [--cprofile]
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import io
import os
import pstats
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ingest import CONFIG, SCOPE, Words, make_items, warm_up
from plan_latency import database_urls
from sqlalchemy import event

from userlore import Userlore
from userlore.sources import ConnectedKnowledgePipeline, ItemListSource

_TABLE = re.compile(r"\b(?:INTO|FROM|UPDATE)\s+\"?(\w+)", re.IGNORECASE)


def kind(statement: str, many: bool) -> str:
    """A statement's kind: its verb and first table (``INSERT episodic_items many``)."""
    words = statement.split()
    verb = words[0].upper() if words else "?"
    table = _TABLE.search(statement)
    return f"{verb} {table.group(1) if table else ''}{' many' if many else ''}".strip()


class Stats:
    """Per statement kind: count, rows, wall seconds, thread CPU seconds inside the call."""

    def __init__(self) -> None:
        self.count: collections.Counter[str] = collections.Counter()
        self.rows: collections.Counter[str] = collections.Counter()
        self.wall: collections.Counter[str] = collections.Counter()
        self.cpu: collections.Counter[str] = collections.Counter()


@contextmanager
def listened(lore: Userlore, stats: Stats) -> Iterator[None]:
    engine = lore.memory.store.engine
    started: dict[int, tuple[float, float]] = {}

    def before(_c: Any, cursor: Any, *_: Any) -> None:
        started[id(cursor)] = (time.perf_counter(), time.thread_time())

    def after(_c: Any, cursor: Any, statement: str, params: Any, _x: Any, many: bool) -> None:
        w0, c0 = started.pop(id(cursor))
        key = kind(statement, many)
        stats.count[key] += 1
        stats.rows[key] += len(params) if many else 1
        stats.wall[key] += time.perf_counter() - w0
        stats.cpu[key] += time.thread_time() - c0

    event.listen(engine, "before_cursor_execute", before)
    event.listen(engine, "after_cursor_execute", after)
    try:
        yield
    finally:
        event.remove(engine, "before_cursor_execute", before)
        event.remove(engine, "after_cursor_execute", after)


_TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: int | str) -> list[str]:
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()


def postmaster(lore: Userlore) -> int | None:
    """The pid of the server that serves ``lore`` (the parent of its connection's process)."""
    engine = lore.memory.store.engine
    if engine.dialect.name != "postgresql":
        return None
    with engine.connect() as conn:
        pid = int(conn.exec_driver_sql("SELECT pg_backend_pid()").scalar_one())
    return int(_stat(pid)[1])


def server_cpu(parent: int | None) -> collections.Counter[str]:
    """CPU seconds so far of the server's processes (children of ``parent``; other servers on
    the machine are left out), by role: ``backend`` (a client's server process: the
    statements' own cost) or its title (``autovacuum worker``, ``walwriter``...)."""
    out: collections.Counter[str] = collections.Counter()
    if parent is None:
        return out
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                title = f.read().split(b"\0")[0].decode(errors="replace")
            fields = _stat(entry)
        except OSError:
            continue
        if int(fields[1]) != parent or not title.startswith("postgres: "):
            continue
        role = title.removeprefix("postgres: ")
        role = "backend" if "127.0.0.1" in role or "[local]" in role else role.split(" ")[0]
        out[role] += (int(fields[11]) + int(fields[12])) / _TICK
    return out


def phase(
    fn: Callable[[], Any], parent: int | None, profile: cProfile.Profile | None = None
) -> tuple[float, float, collections.Counter[str]]:
    s0 = server_cpu(parent)
    w0, c0 = time.perf_counter(), time.thread_time()
    if profile is not None:
        profile.enable()
    fn()
    if profile is not None:
        profile.disable()
    wall, cpu = time.perf_counter() - w0, time.thread_time() - c0
    s1 = server_cpu(parent)
    s1.subtract(s0)
    return wall, cpu, +s1


def measure(
    url: str, n: int, text_kind: str, profile: bool, autovacuum: bool = True
) -> dict[str, Any]:
    items = make_items(n, Words(kind=text_kind))
    lore = Userlore.open(url, config=CONFIG)
    if not autovacuum and lore.memory.store.engine.dialect.name == "postgresql":
        # What a quiet machine sees: a 10,000-item load ends before autovacuum's first look
        # (naptime 60 s), so no table is analyzed by it during the run.
        with lore.memory.store.engine.begin() as conn:
            tables = conn.exec_driver_sql(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            ).scalars()
            for table in list(tables):
                conn.exec_driver_sql(f'ALTER TABLE "{table}" SET (autovacuum_enabled = off)')
    pipeline = ConnectedKnowledgePipeline(lore.memory.store, batch_size=200)
    out: dict[str, Any] = {}
    parent = postmaster(lore)
    try:
        for name, fn in (
            (
                "ingest",
                lambda: lore.sources.ingest(
                    SCOPE, ItemListSource("bench", items), synthesize=False
                ),
            ),
            ("synthesis", lambda: pipeline.drain(scope=SCOPE)),
        ):
            stats = Stats()
            prof = cProfile.Profile(time.perf_counter) if profile and name == "synthesis" else None
            with listened(lore, stats):
                wall, cpu, server = phase(fn, parent, prof)
            out[name] = (wall, cpu, stats, prof, server)
    finally:
        lore.close()
    return out


def report(
    backend: str,
    n: int,
    name: str,
    wall: float,
    cpu: float,
    stats: Stats,
    server: collections.Counter[str],
) -> dict[str, float]:
    in_wall = sum(stats.wall.values())
    in_cpu = sum(stats.cpu.values())
    print(
        f"\n### {backend} {name}: {n / wall:,.0f} items/s; wall {wall:.2f} s, thread CPU "
        f"{cpu:.2f} s; statements {sum(stats.count.values()):,}: wall {in_wall:.2f} s "
        f"(CPU inside {in_cpu:.2f} s, waiting {in_wall - in_cpu:.2f} s); outside statements "
        f"CPU {cpu - in_cpu:.2f} s, other wait {wall - cpu - (in_wall - in_cpu):.2f} s"
    )
    backend_cpu = server.get("backend", 0.0)
    if server:
        shown = ", ".join(f"{k} {v:.2f} s" for k, v in server.most_common())
        print(f"server CPU: {shown}")
    print(
        f"CPU items/s (client thread + server backends; load-independent estimate): "
        f"{n / (cpu + backend_cpu):,.0f}"
    )
    print("| statement kind | count | rows | wall s | CPU inside s | wait s |")
    print("|---|---:|---:|---:|---:|---:|")
    for key, spent in stats.wall.most_common(12):
        print(
            f"| {key} | {stats.count[key]:,} | {stats.rows[key]:,} | {spent:.3f} "
            f"| {stats.cpu[key]:.3f} | {spent - stats.cpu[key]:.3f} |"
        )
    return {"wall": wall, "cpu": cpu + backend_cpu}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, default=3000)
    parser.add_argument("--text", choices=("prose", "synthetic"), default="prose")
    parser.add_argument("--cprofile", action="store_true")
    parser.add_argument(
        "--no-autovacuum",
        action="store_true",
        help="PostgreSQL: autovacuum off on every table, as on a quiet machine where the run "
        "ends before autovacuum's first look",
    )
    parser.add_argument("--backend", choices=("sqlite", "postgres", "both"), default="both")
    args = parser.parse_args()
    warm_up(args.text)
    backends = ["sqlite", "postgres"] if args.backend == "both" else [args.backend]
    totals: dict[tuple[str, str], dict[str, float]] = {}
    for backend in backends:
        with database_urls(backend) as fresh_url:
            result = measure(
                fresh_url(), args.items, args.text, args.cprofile, not args.no_autovacuum
            )
        for name, (wall, cpu, stats, prof, server) in result.items():
            totals[backend, name] = report(backend, args.items, name, wall, cpu, stats, server)
            if prof is not None:
                buf = io.StringIO()
                pstats.Stats(prof, stream=buf).sort_stats("tottime").print_stats(25)
                print(buf.getvalue())
    if len(backends) == 2:
        for name in ("ingest", "synthesis"):
            pg, lite = totals["postgres", name], totals["sqlite", name]
            print(
                f"postgres/sqlite {name}: wall {lite['wall'] / pg['wall']:.2f}x, "
                f"CPU {lite['cpu'] / pg['cpu']:.2f}x"
            )


if __name__ == "__main__":
    main()
