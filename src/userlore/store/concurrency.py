"""Writes that two callers may race: insert-or-get in one statement, and the write lock.

A row found by a select and then inserted is a race: two transactions both find nothing and the
second insert breaks a unique key. Content-addressed rows (evidence items, their index rows,
evidence links, vectors) are therefore written with ``INSERT ... ON CONFLICT`` (SQLite and
PostgreSQL), so the loser of a race gets the winner's row instead of an error. A governed write
that decides on what a scope already holds (one live value per key) takes the scope's write lock
first (:func:`hold_write_lock`), so its reads see every committed write before it decides.
"""

from __future__ import annotations

import hashlib
from typing import Any

from sqlalchemy import Connection, Table, text
from sqlalchemy.dialects.postgresql import Insert as PgInsert
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import Insert as SqliteInsert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

__all__ = ["bind_scope_and_lock", "dialect_insert", "hold_write_lock"]

_SCOPE_LOCK = text("SELECT pg_advisory_xact_lock(:key)")
_BIND_AND_LOCK = text(
    "SELECT set_config('userlore.scope', :scope, true), pg_advisory_xact_lock(:key)"
)
_HELD = "userlore.write_locks"


def _lock_key(scope: str) -> int:
    digest = hashlib.blake2b(scope.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def bind_scope_and_lock(session: Session, scope: str) -> None:
    """PostgreSQL: bind ``scope`` for row-level security and take its write lock in one round
    trip, at the start of a transaction that will write (see :func:`hold_write_lock`)."""
    session.execute(_BIND_AND_LOCK, {"scope": scope, "key": _lock_key(scope)})
    session.info.setdefault(_HELD, set()).add(scope)


def dialect_insert(executor: Session | Connection, table: Table) -> SqliteInsert | PgInsert:
    """An ``INSERT`` into ``table`` that can say ``ON CONFLICT`` on this database's dialect."""
    bind = executor.get_bind() if isinstance(executor, Session) else executor
    return pg_insert(table) if bind.dialect.name == "postgresql" else sqlite_insert(table)


def hold_write_lock(session: Session, scope: str) -> None:
    """Serialize this transaction's writes to ``scope`` with every other writer's, from now on.

    SQLite: ``BEGIN IMMEDIATE`` unless the transaction already writes (the driver opens a
    transaction only at its first write, so the selects before it could read a state another
    writer is about to change). PostgreSQL: a transaction-scoped advisory lock on the scope, so
    two writers of one scope take turns while other scopes' writers run on.
    """
    conn = session.connection()
    if conn.dialect.name == "postgresql":
        held: set[str] = session.info.setdefault(_HELD, set())
        if scope not in held:  # held until the transaction ends: once per scope is enough
            conn.execute(_SCOPE_LOCK, {"key": _lock_key(scope)})
            held.add(scope)
        return
    if conn.dialect.name != "sqlite":  # pragma: no cover - the store runs on the two above
        return
    raw: Any = conn.connection.driver_connection
    if not raw.in_transaction:
        conn.exec_driver_sql("BEGIN IMMEDIATE")
