"""Connected sources: ``sources sync|list|runs|items`` and the ``worker``.

``sources sync PATH --kind mbox|slack|markdown|locomo --scope S`` ingests a source with a progress
bar, processes its items at once (with a second bar) and prints a summary table; ``list``, ``runs``
and ``items`` show what is connected and how the syncs went. ``worker`` drains pending synthesis
now and every interval until stopped (SIGTERM or Ctrl-C: it finishes the write in flight and hands
what it still holds back at once). Syncing a source is the explicit opt-in to connected knowledge,
so ``sources sync`` enables the ``connected`` source for its own run even when the configuration
does not list it.
"""

from __future__ import annotations

import importlib
import math
import signal
from enum import StrEnum
from types import FrameType
from typing import TYPE_CHECKING, Annotated, Any

import typer

from userlore.cli.app import app
from userlore.cli.common import (
    ConfigOpt,
    DbOpt,
    JsonOpt,
    ModeOpt,
    ScopeOpt,
    console,
    emit,
    open_for_service,
    opened,
    print_table,
)
from userlore.config import MemoryMode
from userlore.errors import ConfigError
from userlore.sources.views import SYNTHESIS_STATES

if TYPE_CHECKING:
    from rich.console import Console

    from userlore.extract.reviewer import LLMReviewer
    from userlore.facade import Userlore
    from userlore.sources.views import PipelineReport, SyncReport
    from userlore.work import WorkRunner

sources_app = typer.Typer(help="Connected sources: sync and inspect.", no_args_is_help=True)
app.add_typer(sources_app, name="sources")


class Kind(StrEnum):
    """The source kinds ``sources sync`` reads."""

    MARKDOWN = "markdown"
    MBOX = "mbox"
    SLACK = "slack"
    LOCOMO = "locomo"


State = StrEnum("State", {s.upper(): s for s in SYNTHESIS_STATES})  # type: ignore[misc]
SourceOpt = Annotated[str | None, typer.Option(help="Only this source instance.")]


def _open_connected(db: str | None, config: str | None, mode: MemoryMode | None) -> Userlore:
    """:func:`open_for_service` with connected sources enabled (what ``sync`` writes)."""
    from userlore.facade import Userlore

    lore = open_for_service(db, config, mode)
    memory = lore.config.memory
    if "connected" not in memory.sources:
        cfg = lore.config.model_copy(
            update={"memory": memory.model_copy(update={"sources": (*memory.sources, "connected")})}
        )
        store = lore.sources.store
        lore = Userlore(type(store)(store.engine, cfg))
    return lore


@sources_app.command("sync")
def sync(
    path: Annotated[
        str, typer.Argument(help="The .mbox file, Slack export (.zip or folder), vault folder...")
    ],
    kind: Annotated[Kind, typer.Option(help="What the path holds.")],
    scope: Annotated[str, typer.Option(help="Whose memory the source feeds.")],
    source_id: Annotated[
        str | None,
        typer.Option("--id", help="Source instance id (default: derived from the path)."),
    ] = None,
    no_synthesis: Annotated[
        bool, typer.Option("--no-synthesis", help="Only ingest; leave items for a worker.")
    ] = False,
    db: DbOpt = None,
    config: ConfigOpt = None,
    mode: ModeOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Sync a mailbox, Slack export, notes folder or LoCoMo transcript."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    from userlore.sources.adapters import adapters_for_path

    adapters = adapters_for_path(path, kind.value, source_instance_id=source_id)
    reports: list[SyncReport] = []
    lore = _open_connected(db, config, mode)
    try:
        columns = (
            SpinnerColumn(),
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
        )
        with Progress(*columns, console=console(stderr=True), transient=False) as bar:
            for adapter in adapters:
                task = bar.add_task(f"{adapter.label}: ingest", total=None)
                synth = bar.add_task(f"{adapter.label}: synthesis", total=None, visible=False)

                def advance(done: int, total: int | None, task_id: Any = task) -> None:
                    bar.update(task_id, completed=done, total=total)

                def synthesized(done: int, total: int | None, task_id: Any = synth) -> None:
                    bar.update(task_id, completed=done, total=total, visible=True)

                reports.append(
                    lore.sources.ingest(
                        scope,
                        adapter,
                        synthesize=not no_synthesis,
                        progress=advance,
                        synthesis_progress=synthesized,
                    )
                )
    finally:
        lore.close()
    emit(reports, as_json, lambda out: _summary(reports, out))


def _summary(reports: list[SyncReport], out: Console) -> None:
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
    out.print(table)
    for r in reports:
        for warning in r.warnings:
            out.print(f"[yellow]warning[/yellow] {r.source_instance_id}: {warning}")
        if r.synthesis is not None and r.synthesis.refused:
            out.print(
                f"[yellow]refused[/yellow] {r.source_instance_id}: {r.synthesis.refused} item(s) "
                "held content the sensitivity floor refuses; see `userlore sources items "
                "--state refused`"
            )
        if r.status == "partial":
            out.print(
                f"[yellow]partial[/yellow] {r.source_instance_id}: {r.counts.pending} item(s) "
                f"pending and {r.counts.running} held by a worker; a worker finishes them"
            )


@sources_app.command("list")
def list_(
    scope: ScopeOpt,
    db: DbOpt = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The connected sources of a scope."""
    with opened(db, config) as lore:
        states = lore.sources.sources(scope)

    def render(out: Console) -> None:
        columns = ("source", "kind", "label", "items", "pending", "refused", "last run", "at")
        rows = [
            (
                s.source_instance_id,
                s.kind,
                s.label,
                str(s.items),
                str(s.pending),
                str(s.refused),
                run.status if (run := s.latest_run) else "-",
                run.started_at.isoformat(timespec="seconds") if run else "-",
            )
            for s in states
        ]
        print_table(out, f"Connected sources of {scope}", columns, rows)

    emit(states, as_json, render)


@sources_app.command("runs")
def runs(
    scope: ScopeOpt,
    source: SourceOpt = None,
    limit: Annotated[int, typer.Option(min=1, max=10_000)] = 20,
    db: DbOpt = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Recorded sync runs of a scope."""
    with opened(db, config) as lore:
        found = lore.sources.sync_runs(scope, source_instance_id=source, limit=limit)

    def render(out: Console) -> None:
        rows = [
            (
                run.id,
                run.source_instance_id,
                run.status,
                run.started_at.isoformat(timespec="seconds"),
                f"{ms:.0f}" if (ms := run.duration_ms) is not None else "-",
                " ".join(f"{k}={v}" for k, v in run.counts.items() if v),
                run.error or "",
            )
            for run in found
        ]
        columns = ("run", "source", "status", "started", "ms", "counts", "error")
        print_table(out, f"Sync runs of {scope}", columns, rows)

    emit(found, as_json, render)


@sources_app.command("items")
def items(
    scope: ScopeOpt,
    source: SourceOpt = None,
    state: Annotated[State | None, typer.Option(help="Only items in this state.")] = None,
    limit: Annotated[int, typer.Option(min=1, max=10_000)] = 50,
    db: DbOpt = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Source items of a scope and their synthesis state."""
    with opened(db, config) as lore:
        found = lore.sources.items(
            scope,
            source_instance_id=source,
            synthesis_state=state.value if state else None,
            limit=limit,
        )

    def render(out: Console) -> None:
        rows = [
            (
                item.id,
                item.source_instance_id,
                item.external_id,
                item.synthesis_state,
                str(item.synthesis_attempts),
                item.last_error or "",
            )
            for item in found
        ]
        columns = ("item", "source", "external id", "state", "attempts", "reason")
        print_table(out, f"Source items of {scope}", columns, rows, overflow="fold")

    emit(found, as_json, render)


def _positive_seconds(value: float) -> float:
    if not value > 0 or value == float("inf"):  # also refuses nan
        raise typer.BadParameter(f"must be a positive number of seconds, got {value!r}")
    return value


@app.command()
def worker(
    interval: Annotated[float, typer.Option(min=0.01, help="Seconds between drains.")] = 60.0,
    worker_id: Annotated[
        str | None, typer.Option(help="Name used in leases (default: host:pid:random).")
    ] = None,
    lease_seconds: Annotated[
        float,
        typer.Option(
            callback=_positive_seconds,
            help="How long a claim is held before another worker may take it over; a worker "
            "on this host takes over a dead worker's claims at once.",
        ),
    ] = 300.0,
    reviewer: Annotated[
        str | None,
        typer.Option(
            help="module:attr of an LLMReviewer (or a callable returning one) for queued reviews."
        ),
    ] = None,
    once: Annotated[bool, typer.Option("--once", help="Drain once and exit.")] = False,
    db: DbOpt = None,
    config: ConfigOpt = None,
    mode: ModeOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Drain pending connected-source synthesis now and every interval; sweep expired TTL items.

    With ``--once``, prints what ran: the synthesis counts, the TTL sweep and the queued jobs
    (turns and reviews) — one line, or one JSON document with ``--json``.
    """
    from userlore.integrations.langgraph_store import TTLSweeper, sweep_ttl
    from userlore.sources.coordinator import SourceCoordinator
    from userlore.sources.pipeline import ConnectedKnowledgePipeline

    err = console(stderr=True)

    def report(r: PipelineReport) -> None:
        done = ", ".join(f"{k} {v}" for k, v in r.as_dict().items() if v)
        err.print(f"userlore worker: drained ({done})", markup=False)

    with opened(db, config, mode) as lore:  # closing it stops the work runner first
        work = _work_runner(lore, reviewer)
        pipeline = ConnectedKnowledgePipeline(
            lore.sources.store, worker_id=worker_id, lease_seconds=lease_seconds
        )
        # Said only when something waits: the default configuration has no connected sources,
        # and a warning on every run would teach operators to ignore the worker's stderr.
        if not pipeline.enabled and (waiting := pipeline.waiting()):
            err.print(
                f"userlore worker: {waiting} connected-source item(s) wait, but connected "
                "sources are disabled by the configuration (memory mode or memory.sources)"
            )
        coordinator = SourceCoordinator(pipeline, interval_seconds=interval, on_drain=report)
        if once:
            result = coordinator.drain_once()
            swept = sweep_ttl(lore)  # expired LangGraph store items (TTL) to the trash
            jobs = 0
            while ran := work.run_pending():
                jobs += ran
            if jobs:
                err.print(f"userlore worker: ran {jobs} queued job(s)")
            ran_once = {"synthesis": result.as_dict(), "ttl_swept": swept, "jobs": jobs}

            def counts_line(out: Console) -> None:
                counts = " ".join(f"{k}={v}" for k, v in result.as_dict().items())
                out.print(f"{counts} ttl_swept={swept} jobs={jobs}", markup=False, soft_wrap=True)

            emit(ran_once, as_json, counts_line)
            return
        work.start()  # queued observations and reviews, on their own thread

        def stop(signum: int, frame: FrameType | None) -> None:
            coordinator.stop(timeout=0)

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        err.print(
            f"userlore worker {pipeline.worker_id}: draining every {interval:g}s (Ctrl-C to stop)",
            markup=False,
        )
        sweeper = TTLSweeper(lore, interval_minutes=interval / 60.0)
        sweeper.start()
        try:
            coordinator.run_forever()
        finally:
            sweeper.stop(timeout=30)


def _work_runner(lore: Userlore, reviewer: str | None) -> WorkRunner:
    """The runner for ``work_items`` (turns and reviews the middleware queued); review jobs
    need ``--reviewer module:attr`` (an ``LLMReviewer``, or a callable returning one)."""
    from userlore.work import WorkRunner

    found: LLMReviewer | None = None
    if reviewer:
        # Only here: the reviewer's module loads LangChain's chat models and LangSmith's
        # tracers, ~0.4 s of every worker start that has no reviewer to load.
        from userlore.extract.reviewer import LLMReviewer

        module, _, attr = reviewer.partition(":")
        try:
            target = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError, ValueError) as exc:
            raise ConfigError(f"--reviewer {reviewer!r}: {exc}") from None
        found = target if isinstance(target, LLMReviewer) else target()
        if not isinstance(found, LLMReviewer):
            raise ConfigError(f"--reviewer {reviewer!r} is not an LLMReviewer")
    return WorkRunner(lore, reviewer=found, idle_seconds=math.inf)
