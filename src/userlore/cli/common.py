"""What every ``userlore`` command shares: the database options, output and errors.

Commands print rich tables for people and, with ``--json``, one JSON document for scripts.
Output piped into ``head`` ends quietly: a closed pipe is not an error worth a traceback.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer
from pydantic_core import to_jsonable_python

from userlore.config import MemoryMode, UserContextConfig

if TYPE_CHECKING:
    from rich.console import Console, OverflowMethod
    from rich.table import Table

    from userlore.facade import Userlore

__all__ = [
    "ConfigOpt",
    "DbOpt",
    "JsonOpt",
    "ModeOpt",
    "ScopeOpt",
    "console",
    "emit",
    "id_column",
    "open_db_url",
    "open_for_service",
    "opened",
    "print_table",
]

DbOpt = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="Database URL (env USERLORE_DB or USERLORE_DATABASE_URL; default: embedded SQLite).",
    ),
]
ConfigOpt = Annotated[
    str | None, typer.Option("--config", help="userContext JSON file (env USERLORE_CONFIG).")
]
ModeOpt = Annotated[
    MemoryMode | None, typer.Option("--mode", help="Override the memory mode.", show_default=False)
]
ScopeOpt = Annotated[str, typer.Option("--scope", help="Whose memory (the user scope).")]
JsonOpt = Annotated[
    bool, typer.Option("--json", help="Print one JSON document instead of a table.")
]


def open_db_url() -> str | None:
    """The database the environment names (``USERLORE_DB``, ``USERLORE_DATABASE_URL``), if any."""
    return os.environ.get("USERLORE_DB") or os.environ.get("USERLORE_DATABASE_URL") or None


def open_for_service(db: str | None, config: str | None, mode: MemoryMode | str | None) -> Userlore:
    """Open the database with the configuration a command or service runs with."""
    from userlore.facade import Userlore

    db = db or open_db_url()
    path = config or os.environ.get("USERLORE_CONFIG") or None
    cfg = UserContextConfig.from_json(path) if path else UserContextConfig()
    mode = mode or os.environ.get("USERLORE_MODE") or None
    if mode:
        memory = cfg.memory.model_copy(update={"mode": MemoryMode(mode)})
        cfg = cfg.model_copy(update={"memory": memory})
    return Userlore.open(db, config=cfg)


@contextmanager
def opened(
    db: str | None, config: str | None = None, mode: MemoryMode | None = None
) -> Iterator[Userlore]:
    """:func:`open_for_service`, closed on the way out."""
    lore = open_for_service(db, config, mode)
    try:
        yield lore
    finally:
        lore.close()


def console(*, stderr: bool = False) -> Console:
    """A rich console that does not guess highlights in user text."""
    from rich.console import Console

    return Console(stderr=stderr, highlight=False)


def emit(data: Any, as_json: bool, render: Callable[[Console], None]) -> None:
    """Print ``data`` as JSON (``--json``) or let ``render`` draw it for a person."""
    if as_json:
        sys.stdout.write(json.dumps(to_jsonable_python(data), indent=2, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    else:
        render(console())


def id_column(table: Table, name: str, values: Iterable[str]) -> None:
    """Add a column of ids that is never wrapped nor cut (at 80 columns, when piped, too).

    An id split over two lines cannot be copied into the next command; the table shrinks its
    other (folding) columns instead.
    """
    table.add_column(name, no_wrap=True, min_width=max((len(v) for v in values), default=1))


def print_table(
    out: Console,
    title: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    overflow: OverflowMethod = "ellipsis",
    ids: bool = False,
) -> None:
    """Print a listing as a titled table: one column per name, one row of text cells per item.

    Every listing command draws its table here, so they all look alike. With ``ids``, the first
    column holds ids and is kept whole (:func:`id_column`); ``overflow`` applies to the others.
    """
    from rich.table import Table

    table = Table(title=title)
    names = list(columns)
    if ids:
        id_column(table, names.pop(0), [row[0] for row in rows])
    for name in names:
        table.add_column(name, overflow=overflow)
    for row in rows:
        table.add_row(*row)
    out.print(table)
