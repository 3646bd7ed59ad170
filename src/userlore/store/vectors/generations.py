"""Per-scope vector generations: every vector write bumps its scope's, so readers load deltas."""

from __future__ import annotations

import secrets
from typing import Any, cast

from sqlalchemy import Connection, Table
from sqlalchemy.orm import Session

from userlore.store.concurrency import dialect_insert
from userlore.store.schema import VectorGeneration

__all__ = ["bump", "mark_removed"]

_GENERATIONS = cast(Table, VectorGeneration.__table__)

_GENERATION_START = 1 << 30
"""A new generation row starts below this (random): room for a billion writes in 32 bits."""


def bump(executor: Session | Connection, scope: str, *, removal: bool = False) -> int:
    """Mark ``scope``'s vectors changed and return the new generation (one statement).

    Readers load the rows stamped with a newer generation than theirs; ``removal`` (a vector
    deleted) also makes every matrix older than this generation reload whole. A new row starts
    at a random generation, so a matrix cached before the scope was purged never passes for
    current when the scope fills again.
    """
    t = _GENERATIONS.c
    start = secrets.randbelow(_GENERATION_START)
    stmt = dialect_insert(executor, _GENERATIONS).values(scope=scope, generation=start, reset=start)
    changed: dict[str, Any] = {"generation": t.generation + 1}
    if removal:
        changed["reset"] = t.generation + 1
    done = executor.execute(
        stmt.on_conflict_do_update(index_elements=["scope"], set_=changed).returning(t.generation)
    )
    return int(done.scalar_one())


def mark_removed(executor: Session | Connection, scope: str | None) -> None:
    """Vectors of ``scope`` (of every scope: ``None``) were deleted outside :meth:`VectorIndex.drop`
    (a path purge, a reindex): every matrix of it reloads whole at its next read."""
    t = _GENERATIONS.c
    stmt = _GENERATIONS.update().values(generation=t.generation + 1, reset=t.generation + 1)
    executor.execute(stmt if scope is None else stmt.where(t.scope == scope))
