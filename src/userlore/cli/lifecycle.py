"""Whole-scope operations, consent and maintenance: ``purge``, ``export``, ``import``,
``consent`` and ``reindex``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from userlore.cli.app import app
from userlore.cli.common import (
    ConfigOpt,
    DbOpt,
    JsonOpt,
    ScopeOpt,
    console,
    emit,
    open_db_url,
    opened,
    print_table,
)
from userlore.models import ConsentCategory

if TYPE_CHECKING:
    from rich.console import Console

consent_app = typer.Typer(
    help="Consent to special categories: grant, revoke, list.", no_args_is_help=True
)
app.add_typer(consent_app, name="consent")

CategoryArg = Annotated[ConsentCategory, typer.Argument(help="The special category.")]


@app.command()
def purge(
    scope: ScopeOpt,
    path: Annotated[str | None, typer.Option(help="Only this path and below.")] = None,
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask for confirmation.")] = False,
    db: DbOpt = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Hard-delete a scope (or a path in it); prints the residual-row receipt (all zero)."""
    if not yes:
        what = f"path {path!r} of scope {scope!r}" if path else f"scope {scope!r}"
        typer.confirm(f"Permanently delete everything in {what}?", abort=True, err=True)
    with opened(db, config) as lore:
        receipt = lore.scopes.purge(scope, path)

    def render(out: Console) -> None:
        deleted = sum(receipt.deleted.values())
        residual = sum(receipt.residual.values())
        out.print(f"purged {scope}: {deleted} rows deleted, {residual} left", markup=False)

    emit(receipt, as_json, render)


@app.command()
def export(
    scope: ScopeOpt,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="File to write (default: stdout).")
    ] = None,
    db: DbOpt = None,
    config: ConfigOpt = None,
) -> None:
    """Write a scope as a userlore.export v1 JSON document."""
    import json

    from pydantic_core import to_jsonable_python

    with opened(db, config) as lore:
        document = lore.scopes.export(scope)
    text = json.dumps(to_jsonable_python(document), indent=2, ensure_ascii=False) + "\n"
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        output.write_text(text, encoding="utf-8")


@app.command("import")
def import_(
    source: Annotated[Path, typer.Argument(help="An export document ('-' for stdin).")],
    scope: ScopeOpt,
    db: DbOpt = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Restore an export document into an empty scope (untrusted input: checked first)."""
    from userlore.store.importing import load_export_document

    raw = sys.stdin.buffer.read() if str(source) == "-" else source.read_bytes()
    document = load_export_document(raw)
    with opened(db, config) as lore:
        receipt = lore.scopes.import_(scope, document)

    def render(out: Console) -> None:
        counts = ", ".join(f"{k} {v}" for k, v in receipt.imported.items() if v)
        out.print(f"imported into {scope}: {counts or 'nothing'}", markup=False)
        if receipt.remapped:
            out.print(f"{len(receipt.id_map)} id(s) were renamed", markup=False)

    emit(receipt.as_dict(), as_json, render)


@app.command()
def reindex(
    embeddings: Annotated[
        str, typer.Option(help="The model: 'local' (userlore[local]) or 'provider:model'.")
    ],
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Re-embed every record and evidence item (after changing the embedding model)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from userlore.embeddings.reindex import reindex as run_reindex

    columns = ("{task.description}", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console(stderr=True)) as bar:
        task = bar.add_task("embedding", total=None)
        done = run_reindex(
            db or open_db_url(),
            embeddings,
            progress=lambda n, total: bar.update(task, completed=n, total=total),
        )

    def render(out: Console) -> None:
        out.print(
            f"{done.records} records, {done.evidence} evidence items: {done.model} ({done.dims}d)",
            markup=False,
        )

    emit(done, as_json, render)


@consent_app.command("grant")
def consent_grant(
    category: CategoryArg,
    scope: ScopeOpt,
    db: DbOpt = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Let the category's records into context for this scope."""
    _change_consent(category, scope, db, config, as_json, grant=True)


@consent_app.command("revoke")
def consent_revoke(
    category: CategoryArg,
    scope: ScopeOpt,
    db: DbOpt = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Withdraw consent; the category's records leave context at the next plan."""
    _change_consent(category, scope, db, config, as_json, grant=False)


def _change_consent(
    category: ConsentCategory,
    scope: str,
    db: str | None,
    config: str | None,
    as_json: bool,
    *,
    grant: bool,
) -> None:
    """``consent grant`` and ``consent revoke``: one change in two directions, one output."""
    verb = "granted" if grant else "revoked"
    with opened(db, config) as lore:
        (lore.consent.grant if grant else lore.consent.revoke)(scope, category)
    data = {"scope": scope, "category": category.value, verb: True}
    emit(data, as_json, lambda out: out.print(f"{verb} {category.value} for {scope}"))


@consent_app.command("list")
def consent_list(
    scope: ScopeOpt,
    db: DbOpt = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Every consent period of the scope, oldest first."""
    with opened(db, config) as lore:
        periods = lore.consent.history(scope)

    def render(out: Console) -> None:
        rows = [
            (
                p.category,
                p.granted_at.isoformat(timespec="seconds"),
                p.revoked_at.isoformat(timespec="seconds") if p.revoked_at else "-",
            )
            for p in periods
        ]
        print_table(out, f"Consent of {scope}", ("category", "granted", "revoked"), rows)

    emit(periods, as_json, render)
