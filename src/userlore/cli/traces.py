"""Trace events: ``trace list`` and ``trace show`` (ids, versions and reasons, never text)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any

import typer

from userlore.cli.app import app
from userlore.cli.common import ConfigOpt, DbOpt, JsonOpt, ScopeOpt, emit, opened, print_table

if TYPE_CHECKING:
    from rich.console import Console

trace_app = typer.Typer(help="Trace events of a scope: list, show.", no_args_is_help=True)
app.add_typer(trace_app, name="trace")


@trace_app.command("list")
def trace_list(
    scope: ScopeOpt,
    event_type: Annotated[str | None, typer.Option("--type", help="Only this event type.")] = None,
    limit: Annotated[int, typer.Option(min=1, max=100_000)] = 20,
    db: DbOpt = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The newest trace events of a scope."""
    with opened(db, config) as lore:
        events = lore.traces.list(scope, event_type=event_type, limit=limit)

    def render(out: Console) -> None:
        rows = [
            (
                e["id"],
                e["event_type"],
                e["created_at"].isoformat(timespec="seconds"),
                e["reason_code"] or "",
                "" if e["chars"] is None else str(e["chars"]),
            )
            for e in events
        ]
        columns = ("id", "type", "at", "reason", "chars")
        print_table(out, f"Traces of {scope}", columns, rows, overflow="fold", ids=True)

    emit(events, as_json, render)


@trace_app.command("show")
def trace_show(
    trace_id: Annotated[str, typer.Argument(help="The trace id (a plan prints it).")],
    scope: ScopeOpt,
    db: DbOpt = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """One trace event with its payload: what a plan selected and rejected, and why."""
    with opened(db, config) as lore:
        event = lore.traces.get(scope, trace_id)

    def render(out: Console) -> None:
        from pydantic_core import to_jsonable_python
        from rich.syntax import Syntax

        head: dict[str, Any] = {k: v for k, v in event.items() if k != "payload"}
        for key, value in head.items():
            out.print(f"{key}: {'-' if value is None else value}", markup=False)
        payload = json.dumps(to_jsonable_python(event["payload"]), indent=2, ensure_ascii=False)
        out.print(Syntax(payload, "json", word_wrap=True))

    emit(event, as_json, render)
