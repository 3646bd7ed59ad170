"""Records and review: ``demo``, ``plan``, ``records``, ``approve``, ``reject``, ``forget``,
``restore`` and ``stats``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from userlore.cli.app import app
from userlore.cli.common import (
    ConfigOpt,
    DbOpt,
    JsonOpt,
    ModeOpt,
    ScopeOpt,
    emit,
    opened,
    print_table,
)
from userlore.models import RecordState

if TYPE_CHECKING:
    from rich.console import Console

    from userlore.models import RecordView

RecordIdArg = Annotated[str, typer.Argument(help="The record id.")]
ReviewerOpt = Annotated[str | None, typer.Option(help="Who decided (for the ledger).")]


@app.command()
def demo(
    db: Annotated[
        Path | None,
        typer.Option("--db", help="SQLite file to (re)create; default: the user data dir."),
    ] = None,
) -> None:
    """Replay the shipped conversation on embedded SQLite."""
    from platformdirs import user_data_dir

    from userlore.demo.run import run_demo

    folder = Path(user_data_dir("userlore", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    run_demo(db or folder / "demo.db").close()


@app.command()
def plan(
    query: Annotated[str, typer.Argument(help="The turn to plan context for.")],
    scope: ScopeOpt,
    session: Annotated[str | None, typer.Option(help="Session key (dedupes within it).")] = None,
    db: DbOpt = None,
    config: ConfigOpt = None,
    mode: ModeOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Build a context plan for a query and show what was selected and rejected."""
    with opened(db, config, mode) as lore:
        result = lore.plan_context(scope=scope, query=query, session_key=session)

    def render(out: Console) -> None:
        # The block is printed as built (never re-wrapped mid-JSON), ids on one line each.
        out.print(result.text or "(nothing selected)", markup=False, soft_wrap=True)
        out.print(
            f"\ntrace {result.trace_id}: {result.chars}/{result.budget} characters", soft_wrap=True
        )
        for rej in result.rejected:
            out.print(f"  rejected {rej.id}: {rej.reason}", markup=False, soft_wrap=True)

    data = {
        "text": result.text,
        "trace_id": result.trace_id,
        "chars": result.chars,
        "budget": result.budget,
        "rejected": [{"id": r.id, "reason": str(r.reason)} for r in result.rejected],
    }
    emit(data, as_json, render)


def _record_table(title: str, rows: list[RecordView], out: Console) -> None:
    cells = [
        (rec.id, str(rec.version), rec.state.value, rec.canonical_key or rec.kind, rec.content[:80])
        for rec in rows
    ]
    columns = ("id", "v", "state", "key", "content")
    print_table(out, title, columns, cells, overflow="fold", ids=True)


@app.command("records")
def records_(
    scope: ScopeOpt,
    state: Annotated[
        list[RecordState] | None, typer.Option("--state", help="Only these states (repeatable).")
    ] = None,
    kind: Annotated[str | None, typer.Option(help="Only this record kind.")] = None,
    path: Annotated[str | None, typer.Option(help="Only records under this path.")] = None,
    limit: Annotated[int, typer.Option(min=1, max=100_000)] = 1000,
    db: DbOpt = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List the records of a scope (every state but deleted unless --state says)."""
    with opened(db, config) as lore:
        rows = lore.records.list(scope, state or None, kind=kind, path_prefix=path, limit=limit)
    emit(rows, as_json, lambda out: _record_table(f"Records of {scope}", rows, out))


def _one(action: str, record: RecordView, as_json: bool) -> None:
    emit(
        record,
        as_json,
        lambda out: out.print(
            f"{action} {record.id}: v{record.version} {record.state.value}", markup=False
        ),
    )


@app.command()
def approve(
    record_id: RecordIdArg,
    scope: ScopeOpt,
    content: Annotated[str | None, typer.Option(help="Approve an edited text instead.")] = None,
    reviewer: ReviewerOpt = None,
    db: DbOpt = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Activate a candidate record (the review inbox's approve)."""
    with opened(db, config) as lore:
        record = lore.records.approve(scope, record_id, content=content, reviewer=reviewer)
    _one("approved", record, as_json)


@app.command()
def reject(
    record_id: RecordIdArg,
    scope: ScopeOpt,
    reviewer: ReviewerOpt = None,
    db: DbOpt = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Reject a candidate record; it counts towards the acceptance rate."""
    with opened(db, config) as lore:
        record = lore.records.reject(scope, record_id, reviewer=reviewer)
    _one("rejected", record, as_json)


@app.command()
def forget(
    record_id: RecordIdArg,
    scope: ScopeOpt,
    db: DbOpt = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Tombstone a record: out of every plan at once, restorable from the trash."""
    with opened(db, config) as lore:
        record = lore.records.forget(scope, record_id)
    _one("forgot", record, as_json)


@app.command()
def restore(
    record_id: RecordIdArg,
    scope: ScopeOpt,
    db: DbOpt = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Bring a forgotten record back from the trash."""
    with opened(db, config) as lore:
        record = lore.records.restore(scope, record_id)
    _one("restored", record, as_json)


@app.command()
def stats(
    scope: ScopeOpt,
    window_days: Annotated[int, typer.Option(min=1, max=3650, help="Metrics window.")] = 30,
    db: DbOpt = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Quality of a scope's memory: funnel, states, acceptance, helpfulness, cadence."""
    with opened(db, config) as lore:
        report = lore.feedback.quality(scope, window_days).as_dict()

    def render(out: Console) -> None:
        from rich.table import Table

        table = Table(title=f"Memory quality of {scope} ({window_days} days)")
        table.add_column("metric", style="bold")
        table.add_column("value", justify="right")
        for name, value in _flatten(report):
            table.add_row(name, "-" if value is None else str(value))
        out.print(table)

    emit(report, as_json, render)


def _flatten(data: dict[str, object], prefix: str = "") -> list[tuple[str, object]]:
    rows: list[tuple[str, object]] = []
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            rows.extend(_flatten(value, f"{name}."))
        else:
            rows.append((name, value))
    return rows
