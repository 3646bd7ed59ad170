"""Multi-row inserts on SQLite without SQLAlchemy's per-row parameter processing.

A bulk put writes seven rows a put through ``executemany``; SQLAlchemy builds and processes a
parameter dict per row and column (about a fifth of the batched write's CPU, measured in
``benchmarks/bulk_puts.py``). :func:`insert_rows` compiles each statement once, applies the
same bind processors the columns' types give (dates, JSON, booleans) and hands the driver
tuples, so SQLite stores exactly what ``session.execute(insert(table), rows)`` stores
(``tests/unit/test_bulk_rows.py`` compares the rows written both ways). The rows go in as
one multi-row ``VALUES`` statement (as many as SQLite's bound-variable limit allows), not an
``executemany``: SQLite then runs the rows, their triggers and FTS5 postings in one step, which
costs less CPU than a step, a reset and a rebind per row (issue 30). PostgreSQL keeps
SQLAlchemy's path (psycopg pipelines it; one ``VALUES`` was slower there).
"""

from __future__ import annotations

import sqlite3
import threading
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, Literal

from sqlalchemy import Connection, Table
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import Session

from userlore.store.concurrency import dialect_insert

__all__ = ["insert_rows"]

OnConflict = Literal["nothing", "update"] | None


@dataclass(frozen=True, slots=True)
class _Plan:
    head: str
    """The statement up to its one row of placeholders, ``INSERT ... VALUES ``."""
    row: str
    """One row's placeholders, ``(?, ?, ...)``."""
    tail: str
    """What follows the rows (an ``ON CONFLICT`` clause, or nothing)."""
    columns: tuple[str, ...]
    """The rows' keys in the statement's parameter order."""
    processors: tuple[tuple[int, Callable[[Any], Any]], ...]
    """(position, bind processor) of the columns whose type processes a bound value."""


_PLANS: weakref.WeakKeyDictionary[Dialect, dict[tuple[Any, ...], _Plan | None]] = (
    weakref.WeakKeyDictionary()
)
"""Compiled statements per engine's dialect (its processors are that dialect's)."""
_LOCK = threading.Lock()


def insert_rows(
    executor: Session | Connection,
    table: Table,
    rows: Sequence[Mapping[str, Any]],
    *,
    on_conflict: OnConflict = None,
    index_elements: Sequence[str] = (),
) -> int | None:
    """``INSERT`` ``rows`` (dicts with the same keys) into ``table``, on SQLite in one statement.

    ``on_conflict``: ``"nothing"`` or ``"update"`` (every given column but ``index_elements``
    from the new row) on a conflict of ``index_elements``, as ``dialect_insert`` says it.

    Returns:
        On SQLite, the rows the statement changed (with ``"nothing"``, the rows inserted);
        ``None`` where that is not known.
    """
    if not rows:
        return 0
    conn = executor.connection() if isinstance(executor, Session) else executor
    keys = tuple(rows[0])
    plan = _plan(conn.dialect, table, keys, on_conflict, tuple(index_elements))
    if plan is None:
        conn.execute(_statement(conn, table, keys, on_conflict, tuple(index_elements)), rows)
        return None
    columns, processors = plan.columns, plan.processors
    width = len(columns)
    # One row's values in column order in one C call (a third less CPU than a comprehension).
    pick: Callable[[Mapping[str, Any]], Any] = (
        itemgetter(*columns) if width > 1 else lambda row: (row[columns[0]],)
    )
    flat: list[Any] = []
    if processors:
        for row in rows:
            values = list(pick(row))
            for at, process in processors:
                values[at] = process(values[at])
            flat.extend(values)
    else:
        for row in rows:
            flat.extend(pick(row))
    driver: Any = conn.connection.dbapi_connection
    limit: int = driver.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
    per = max(1, limit // width)
    changed = 0
    for at in range(0, len(rows), per):
        count = min(per, len(rows) - at)
        sql = plan.head + ",".join([plan.row] * count) + plan.tail
        part = tuple(flat[at * width : (at + count) * width])
        changed += conn.exec_driver_sql(sql, part).rowcount
    return changed


def _statement(
    conn: Connection,
    table: Table,
    keys: tuple[str, ...],
    on_conflict: OnConflict,
    index_elements: tuple[str, ...],
) -> Any:
    if on_conflict is None:
        return table.insert()
    stmt = dialect_insert(conn, table)
    if on_conflict == "nothing":
        return stmt.on_conflict_do_nothing(index_elements=list(index_elements))
    replaced = {c: stmt.excluded[c] for c in keys if c not in index_elements}
    return stmt.on_conflict_do_update(index_elements=list(index_elements), set_=replaced)


def _plan(
    dialect: Dialect,
    table: Table,
    keys: tuple[str, ...],
    on_conflict: OnConflict,
    index_elements: tuple[str, ...],
) -> _Plan | None:
    """The compiled statement for these keys (cached); ``None``: let SQLAlchemy run it."""
    memo = (table.name, keys, on_conflict, index_elements)
    plans = _PLANS.get(dialect)
    if plans is not None and memo in plans:
        return plans[memo]
    plan = _compile(dialect, table, keys, on_conflict, index_elements)
    with _LOCK:
        _PLANS.setdefault(dialect, {})[memo] = plan
    return plan


def _compile(
    dialect: Dialect,
    table: Table,
    keys: tuple[str, ...],
    on_conflict: OnConflict,
    index_elements: tuple[str, ...],
) -> _Plan | None:
    if dialect.name != "sqlite" or dialect.paramstyle != "qmark":
        return None
    given = set(keys)
    if not given <= set(table.c.keys()):
        return None
    for column in table.c:
        # A column left out whose value SQLAlchemy makes client-side: keep its path.
        if column.key not in given and column.default is not None:
            return None
    stmt: Any = sqlite_insert(table)
    if on_conflict == "nothing":
        stmt = stmt.on_conflict_do_nothing(index_elements=list(index_elements))
    elif on_conflict == "update":
        replaced = {c: stmt.excluded[c] for c in keys if c not in index_elements}
        stmt = stmt.on_conflict_do_update(index_elements=list(index_elements), set_=replaced)
    compiled = stmt.compile(dialect=dialect, column_keys=list(keys))
    order = compiled.positiontup
    if order is None or set(order) != given or len(order) != len(keys):
        return None
    processors = []
    for at, name in enumerate(order):
        process = table.c[name].type.dialect_impl(dialect).bind_processor(dialect)
        if process is not None:
            processors.append((at, process))
    sql = str(compiled)
    row = "(" + ", ".join(["?"] * len(order)) + ")"
    if sql.count(row) != 1:
        return None
    head, _, tail = sql.partition(row)
    return _Plan(head, row, tail, tuple(order), tuple(processors))
