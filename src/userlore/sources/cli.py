"""The ``userlore sources`` and ``userlore worker`` subcommands.

``userlore sources sync PATH --kind mbox|slack|markdown|locomo --scope S`` ingests a source with a
progress bar, processes its items at once and prints a summary table; ``sources list`` and
``sources runs`` show what is connected and how the last syncs went. ``userlore worker`` runs the
coordinator in the foreground: it drains pending synthesis now and every minute until stopped
(SIGTERM or Ctrl-C: it finishes the write in flight and hands what it still holds back at once).
Syncing a source is the explicit opt-in to connected knowledge, so ``sources sync`` enables the
``connected`` source for its own run even when the configuration does not list it.
"""

from __future__ import annotations

import argparse
import signal
from types import FrameType
from typing import TYPE_CHECKING, Any

from userlore.service_cli import add_common_options
from userlore.sources.service import SYNTHESIS_STATES

if TYPE_CHECKING:
    from rich.console import Console

    from userlore.facade import Userlore
    from userlore.sources.views import PipelineReport, SyncReport

__all__ = ["add_sources_parser", "add_worker_parser"]

_KINDS = ("markdown", "mbox", "slack", "locomo")


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0:  # also refuses nan
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text!r}")
    return value


def _open(args: argparse.Namespace, *, connected: bool) -> Userlore:
    from userlore.facade import Userlore
    from userlore.service_cli import open_for_service

    lore = open_for_service(args.db, args.config, args.mode)
    memory = lore.config.memory
    if connected and "connected" not in memory.sources:
        cfg = lore.config.model_copy(
            update={"memory": memory.model_copy(update={"sources": (*memory.sources, "connected")})}
        )
        store = lore.sources.store
        lore = Userlore(type(store)(store.engine, cfg))
    return lore


def _console(stderr: bool = False) -> Console:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False)


def _sync(args: argparse.Namespace) -> int:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    from userlore.sources.adapters import adapters_for_path

    adapters = adapters_for_path(args.path, args.kind, source_instance_id=args.id)
    reports: list[SyncReport] = []
    lore = _open(args, connected=True)
    try:
        columns = (
            SpinnerColumn(),
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
        )
        with Progress(*columns, console=_console(stderr=True), transient=False) as bar:
            for adapter in adapters:
                task = bar.add_task(adapter.label, total=None)

                def advance(done: int, total: int | None, task_id: Any = task) -> None:
                    bar.update(task_id, completed=done, total=total)

                reports.append(
                    lore.sources.ingest(
                        args.scope, adapter, synthesize=not args.no_synthesis, progress=advance
                    )
                )
    finally:
        lore.close()
    _summary(reports)
    return 0


def _summary(reports: list[SyncReport]) -> None:
    """One column per source, one row per count: fits a terminal for a handful of sources."""
    from rich.table import Table

    table = Table(title="Sync summary")
    table.add_column("", style="bold", no_wrap=True)
    for r in reports:
        table.add_column(r.source_instance_id, justify="right", overflow="fold")
    rows: list[tuple[str, list[str]]] = [("status", [r.status for r in reports])]
    for name in ("seen", "added", "modified", "deleted", "unchanged", "skipped", "blocked"):
        rows.append((name, [str(getattr(r.counts, name)) for r in reports]))
    for label, field in (
        ("facts created", "created"),
        ("facts revised", "revised"),
        ("daily notes", "notes"),
        ("archived", "archived"),
        ("refused", "refused"),
        ("retry later", "retried"),
        ("failed", "failed"),
    ):
        rows.append(
            (label, [str(getattr(r.synthesis, field)) if r.synthesis else "-" for r in reports])
        )
    rows.append(("still pending", [str(r.counts.pending) for r in reports]))
    rows.append(("held by a worker", [str(r.counts.running) for r in reports]))
    rows.append(("ingest ms", [f"{r.duration_ms:.0f}" for r in reports]))
    for label, values in rows:
        table.add_row(label, *values)
    console = _console()
    console.print(table)
    for r in reports:
        for warning in r.warnings:
            console.print(f"[yellow]warning[/yellow] {r.source_instance_id}: {warning}")
        if r.synthesis is not None and r.synthesis.refused:
            console.print(
                f"[yellow]refused[/yellow] {r.source_instance_id}: {r.synthesis.refused} item(s) "
                "held content the sensitivity floor refuses; see `userlore sources items "
                "--state refused`"
            )
        if r.status == "partial":
            console.print(
                f"[yellow]partial[/yellow] {r.source_instance_id}: {r.counts.pending} item(s) "
                f"pending and {r.counts.running} held by a worker; a worker finishes them"
            )


def _list(args: argparse.Namespace) -> int:
    from rich.table import Table

    lore = _open(args, connected=False)
    try:
        states = lore.sources.sources(args.scope)
    finally:
        lore.close()
    table = Table(title=f"Connected sources of {args.scope}")
    for name in ("source", "kind", "label", "items", "pending", "refused", "last run", "at"):
        table.add_column(name)
    for s in states:
        run = s.latest_run
        table.add_row(
            s.source_instance_id,
            s.kind,
            s.label,
            str(s.items),
            str(s.pending),
            str(s.refused),
            run.status if run else "-",
            run.started_at.isoformat(timespec="seconds") if run else "-",
        )
    _console().print(table)
    return 0


def _runs(args: argparse.Namespace) -> int:
    from rich.table import Table

    lore = _open(args, connected=False)
    try:
        runs = lore.sources.sync_runs(args.scope, source_instance_id=args.source, limit=args.limit)
    finally:
        lore.close()
    table = Table(title=f"Sync runs of {args.scope}")
    for name in ("run", "source", "status", "started", "ms", "counts", "error"):
        table.add_column(name)
    for run in runs:
        ms = run.duration_ms
        counts = " ".join(f"{k}={v}" for k, v in run.counts.items() if v)
        table.add_row(
            run.id,
            run.source_instance_id,
            run.status,
            run.started_at.isoformat(timespec="seconds"),
            f"{ms:.0f}" if ms is not None else "-",
            counts,
            run.error or "",
        )
    _console().print(table)
    return 0


def _items(args: argparse.Namespace) -> int:
    from rich.table import Table

    lore = _open(args, connected=False)
    try:
        items = lore.sources.items(
            args.scope,
            source_instance_id=args.source,
            synthesis_state=args.state,
            limit=args.limit,
        )
    finally:
        lore.close()
    table = Table(title=f"Source items of {args.scope}")
    for name in ("item", "source", "external id", "state", "attempts", "reason"):
        table.add_column(name, overflow="fold")
    for item in items:
        table.add_row(
            item.id,
            item.source_instance_id,
            item.external_id,
            item.synthesis_state,
            str(item.synthesis_attempts),
            item.last_error or "",
        )
    _console().print(table)
    return 0


def _worker(args: argparse.Namespace) -> int:
    from userlore.integrations.langgraph_store import TTLSweeper, sweep_ttl
    from userlore.sources.coordinator import SourceCoordinator
    from userlore.sources.pipeline import ConnectedKnowledgePipeline

    console = _console(stderr=True)

    def report(r: PipelineReport) -> None:
        done = ", ".join(f"{k} {v}" for k, v in r.as_dict().items() if v)
        console.print(f"userlore worker: drained ({done})")

    lore = _open(args, connected=False)
    try:
        pipeline = ConnectedKnowledgePipeline(
            lore.sources.store, worker_id=args.worker_id, lease_seconds=args.lease_seconds
        )
        if not pipeline.enabled:
            console.print(
                "userlore worker: connected sources are disabled by the configuration "
                "(memory mode or memory.sources); items stay pending"
            )
        coordinator = SourceCoordinator(pipeline, interval_seconds=args.interval, on_drain=report)
        if args.once:
            result = coordinator.drain_once()
            swept = sweep_ttl(lore)  # expired LangGraph store items (TTL) to the trash
            print(" ".join(f"{k}={v}" for k, v in result.as_dict().items()), f"ttl_swept={swept}")
            return 0

        def stop(signum: int, frame: FrameType | None) -> None:
            coordinator.stop(timeout=0)

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        console.print(
            f"userlore worker {pipeline.worker_id}: draining every {args.interval:g}s "
            "(Ctrl-C to stop)"
        )
        sweeper = TTLSweeper(lore, interval_minutes=args.interval / 60.0)
        sweeper.start()
        try:
            coordinator.run_forever()
        finally:
            sweeper.stop(timeout=30)
    finally:
        lore.close()
    return 0


def add_sources_parser(sub: Any) -> None:
    """Register ``userlore sources {sync,list,runs}``."""
    sources = sub.add_parser("sources", help="connected sources: sync and inspect")
    commands = sources.add_subparsers(dest="sources_command", required=True)

    sync = commands.add_parser(
        "sync", help="sync a mailbox, Slack export, notes folder or LoCoMo transcript"
    )
    sync.add_argument("path", help="the .mbox file, Slack export (.zip or folder), vault folder…")
    sync.add_argument("--kind", required=True, choices=_KINDS)
    sync.add_argument("--scope", required=True, help="whose memory the source feeds")
    sync.add_argument("--id", help="source instance id (default: derived from the path)")
    sync.add_argument(
        "--no-synthesis", action="store_true", help="only ingest; leave items for a worker"
    )
    add_common_options(sync)
    sync.set_defaults(func=_sync)

    listing = commands.add_parser("list", help="the connected sources of a scope")
    listing.add_argument("--scope", required=True)
    add_common_options(listing)
    listing.set_defaults(func=_list)

    runs = commands.add_parser("runs", help="recorded sync runs of a scope")
    runs.add_argument("--scope", required=True)
    runs.add_argument("--source", help="only this source instance")
    runs.add_argument("--limit", type=int, default=20)
    add_common_options(runs)
    runs.set_defaults(func=_runs)

    items = commands.add_parser("items", help="source items of a scope and their synthesis state")
    items.add_argument("--scope", required=True)
    items.add_argument("--source", help="only this source instance")
    items.add_argument("--state", choices=SYNTHESIS_STATES, help="only items in this state")
    items.add_argument("--limit", type=int, default=50)
    add_common_options(items)
    items.set_defaults(func=_items)


def add_worker_parser(sub: Any) -> None:
    """Register ``userlore worker``."""
    worker = sub.add_parser(
        "worker", help="drain pending connected-source synthesis now and every minute"
    )
    worker.add_argument("--interval", type=float, default=60.0, help="seconds between drains")
    worker.add_argument("--worker-id", help="name used in leases (default: host:pid:random)")
    worker.add_argument(
        "--lease-seconds",
        type=_positive,
        default=300.0,
        help="how long a claim is held before another worker may take it over (default 300); "
        "a worker on this host takes over a dead worker's claims at once",
    )
    worker.add_argument("--once", action="store_true", help="drain once and exit")
    add_common_options(worker)
    worker.set_defaults(func=_worker)
