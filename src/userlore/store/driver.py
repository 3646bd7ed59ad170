"""Hot-path reads through the SQLite driver: a statement compiled once, its rows as tuples.

A plan runs a few small fixed statements (the scope's consents, its record generation, episodic
frequencies). Through :meth:`Connection.execute` each costs ~0.1-0.2 ms of SQLAlchemy's
execution machinery for a result of a few integers or strings; the driver answers in a tenth
of that (issue 23 item 5). :func:`fetch_all` compiles a statement once per dialect and runs it
on the connection's own driver connection (the same transaction). Only statements whose
columns SQLAlchemy would not convert are read this way (checked when compiling), so the values
are exactly the ones ``Connection.execute`` returns; anything else, and every other backend,
goes through SQLAlchemy.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Select, TextClause
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.compiler import SQLCompiler

Statement = Select[*tuple[Any, ...]] | TextClause

__all__ = ["driver_execute", "fetch_all"]


@dataclass(frozen=True, slots=True)
class _Compiled:
    sql: str
    names: tuple[str, ...]  # the positional parameters' names, in order
    plain: bool  # no column needs a result processor (else: through SQLAlchemy)


_COMPILED: dict[tuple[int, str], tuple[Statement, _Compiled]] = {}
_LOCK = threading.Lock()


def _compile(conn: Connection, statement: Statement) -> _Compiled:
    key = (id(statement), conn.dialect.name)
    held = _COMPILED.get(key)
    if held is not None and held[0] is statement:
        return held[1]
    compiled = statement.compile(dialect=conn.dialect)
    assert isinstance(compiled, SQLCompiler)
    plain = not compiled.has_out_parameters and all(
        entry[3].dialect_impl(conn.dialect).result_processor(conn.dialect, None) is None
        for entry in compiled._result_columns
    )
    built = _Compiled(str(compiled), tuple(compiled.positiontup or ()), plain)
    with _LOCK:
        _COMPILED[key] = (statement, built)  # the statement is held: its id stays its own
    return built


def fetch_all(
    conn: Connection, statement: Statement, params: Mapping[str, Any]
) -> list[tuple[Any, ...]]:
    """Every row of ``statement`` (no expanding parameters) as tuples; on SQLite through the
    driver when no column needs converting, else through :meth:`Connection.execute`."""
    if conn.dialect.name == "sqlite":
        compiled = _compile(conn, statement)
        raw = conn.connection.dbapi_connection
        if compiled.plain and raw is not None:
            return driver_execute(conn, compiled.sql, tuple(params[n] for n in compiled.names))
    return [tuple(row) for row in conn.execute(statement, params)]


def driver_execute(conn: Connection, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    """``sql`` on ``conn``'s SQLite driver connection (its transaction); a driver error is
    raised as SQLAlchemy's (``OperationalError``...), as :meth:`Connection.execute` would."""
    raw = conn.connection.dbapi_connection
    assert raw is not None  # an open connection
    try:
        return list(raw.execute(sql, params).fetchall())
    except sqlite3.Error as exc:
        raise DBAPIError.instance(sql, params, exc, sqlite3.Error) from exc
