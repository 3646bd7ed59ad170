"""Purge: hard-delete a scope (or a path in it) and count the residual rows, which must be 0."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import (
    Connection,
    Table,
    delete,
    func,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.orm import Session
from sqlalchemy.sql import FromClause

from userlore.errors import (
    InvalidInputError,
)
from userlore.store.governed import GovernedStore, path_clause, validate_path, validate_scope
from userlore.store.receipts import PurgeReceipt
from userlore.store.schema import (
    Base,
    FacetObservation,
    KnowledgeSourceChange,
    KnowledgeSourceItem,
    MemoryEvidence,
    MemoryRecord,
    MemoryRecordVersion,
    MemoryRelation,
    MemoryTraceEvent,
    ReviewDecision,
)
from userlore.store.scoped_bm25 import RECORDS, fts_instances
from userlore.store.text import scope_prefix
from userlore.store.vectors import mark_removed

# -- purge ------------------------------------------------------------------------------------


def _scoped_tables() -> list[Table]:
    """Every table carrying a ``scope`` column, dependents first (safe delete order)."""
    return [
        t for t in reversed(Base.metadata.sorted_tables) if "scope" in t.c and isinstance(t, Table)
    ]


def _fts_prefix_range(scope: str) -> tuple[str, str]:
    prefix = scope_prefix(scope)
    return prefix, prefix[:-1] + chr(ord(prefix[-1]) + 1)


def _fts_vocab(conn: Connection | Session) -> bool:
    """Create the per-connection ``fts5vocab`` view of the index (SQLite only)."""
    bind = conn.get_bind() if isinstance(conn, Session) else conn
    if bind.dialect.name != "sqlite":
        return False
    fts_instances(conn.connection() if isinstance(conn, Session) else conn, RECORDS)
    return True


def _fts_rows_of_scope(conn: Session, scope: str) -> int:
    if not _fts_vocab(conn):
        return 0
    lo, hi = _fts_prefix_range(scope)
    return int(
        conn.execute(
            text(
                "SELECT count(*) FROM temp.userlore_fts_instances WHERE term >= :lo AND term < :hi"
            ),
            {"lo": lo, "hi": hi},
        ).scalar_one()
    )


def _fts_rows_of_docs(conn: Session, seqs: list[int]) -> int:
    if not seqs or not _fts_vocab(conn):
        return 0
    total = 0
    for start in range(0, len(seqs), 500):
        chunk = seqs[start : start + 500]
        marks = ",".join(str(int(s)) for s in chunk)
        total += int(
            conn.execute(
                text(f"SELECT count(*) FROM temp.userlore_fts_instances WHERE doc IN ({marks})")
            ).scalar_one()
        )
    return total


def _count(session: Session, table: FromClause, *where: Any) -> int:
    return int(session.scalar(select(func.count()).select_from(table).where(*where)) or 0)


def _mentions(value: Any, ids: frozenset[str]) -> bool:
    if isinstance(value, str):
        return value in ids
    if isinstance(value, Mapping):
        return any(_mentions(v, ids) for v in value.values())
    if isinstance(value, list | tuple):
        return any(_mentions(v, ids) for v in value)
    return False


def _chunks(ids: Iterable[str], size: int = 500) -> Iterable[list[str]]:
    items = list(ids)
    for start in range(0, len(items), size):
        yield items[start : start + size]


def purge(store: GovernedStore, scope: str, path_prefix: str | None = None) -> PurgeReceipt:
    """Hard-delete a scope (or the records under ``path_prefix``) and measure what is left.

    A scope purge deletes every row of every table whose ``scope`` column equals ``scope`` —
    records, versions, evidence links, relations, source items, changes, sync runs, cursors,
    watermarks, traces, review decisions, facet observations and consent grants — plus the
    records' full-text index entries. A path purge deletes the records under the path with their
    versions, evidence links, relations, review decisions, the traces that mention them, the
    facet observations that cite them and the evidence items no surviving record still cites.
    Other scopes are never touched: every statement filters by ``scope``.

    Purge works in every memory mode: erasure is always allowed.

    Raises:
        ScopeError: malformed scope.
        InvalidInputError: malformed path prefix.
    """
    validate_scope(scope)
    prefix = None
    if path_prefix is not None and path_prefix.strip().strip("/"):
        prefix = validate_path(path_prefix.strip().strip("/"))
    if prefix is None:
        deleted = _purge_scope(store, scope)
        residual = _residual_scope(store, scope)
    else:
        deleted, ids, seqs, items = _purge_path(store, scope, prefix)
        residual = _residual_path(store, scope, prefix, ids, seqs, items)
    return PurgeReceipt(scope, prefix, deleted, residual)


def _purge_scope(store: GovernedStore, scope: str) -> dict[str, int]:
    deleted: dict[str, int] = {}
    with store.transaction(scope) as session:
        deleted["memory_records_fts"] = _fts_rows_of_scope(session, scope)
        for table in _scoped_tables():
            result = session.execute(delete(table).where(table.c.scope == scope))
            deleted[table.name] = int(getattr(result, "rowcount", 0) or 0)
    return deleted


def _residual_scope(store: GovernedStore, scope: str) -> dict[str, int]:
    with store.transaction(scope) as session:
        residual = {t.name: _count(session, t, t.c.scope == scope) for t in _scoped_tables()}
        residual["memory_records_fts"] = _fts_rows_of_scope(session, scope)
    return residual


def _purge_path(
    store: GovernedStore, scope: str, prefix: str
) -> tuple[dict[str, int], list[str], list[int], list[str]]:
    if not prefix:  # an empty prefix would select the whole scope
        raise InvalidInputError("a path purge needs a non-empty path prefix")
    deleted: dict[str, int] = {}
    with store.transaction(scope) as session:
        rows = session.execute(
            select(MemoryRecord.id, MemoryRecord.seq).where(
                MemoryRecord.scope == scope, *path_clause(prefix)
            )
        ).all()
        ids = [r.id for r in rows]
        seqs = [int(r.seq) for r in rows]
        idset = frozenset(ids)
        deleted["memory_records_fts"] = _fts_rows_of_docs(session, seqs)
        linked: set[str] = set()
        for chunk in _chunks(ids):
            linked.update(
                session.scalars(
                    select(MemoryEvidence.source_item_id).where(
                        MemoryEvidence.scope == scope, MemoryEvidence.record_id.in_(chunk)
                    )
                )
            )

        def run(name: str, stmt: Any) -> None:
            result = session.execute(stmt)
            deleted[name] = deleted.get(name, 0) + int(getattr(result, "rowcount", 0) or 0)

        for chunk in _chunks(ids):
            run(
                "memory_evidence",
                delete(MemoryEvidence).where(
                    MemoryEvidence.scope == scope, MemoryEvidence.record_id.in_(chunk)
                ),
            )
            run(
                "memory_relations",
                delete(MemoryRelation).where(
                    MemoryRelation.scope == scope,
                    or_(
                        MemoryRelation.from_record_id.in_(chunk),
                        MemoryRelation.to_record_id.in_(chunk),
                    ),
                ),
            )
            run(
                "memory_record_versions",
                delete(MemoryRecordVersion).where(
                    MemoryRecordVersion.scope == scope, MemoryRecordVersion.record_id.in_(chunk)
                ),
            )
            run(
                "review_decisions",
                delete(ReviewDecision).where(
                    ReviewDecision.scope == scope, ReviewDecision.record_id.in_(chunk)
                ),
            )
            session.execute(
                update(MemoryRecord)
                .where(MemoryRecord.scope == scope, MemoryRecord.supersedes_record_id.in_(chunk))
                .values(supersedes_record_id=None)
            )
        for chunk in _chunks(ids):
            run(
                "memory_records",
                delete(MemoryRecord).where(MemoryRecord.scope == scope, MemoryRecord.id.in_(chunk)),
            )
        if ids:
            mark_removed(session, scope)  # their vectors went with them (cascade)
        still_cited: set[str] = set()
        for chunk in _chunks(linked):
            still_cited.update(
                session.scalars(
                    select(MemoryEvidence.source_item_id).where(
                        MemoryEvidence.source_item_id.in_(chunk)
                    )
                )
            )
        orphans = sorted(linked - still_cited)
        for chunk in _chunks(orphans):
            run(
                "knowledge_source_changes",
                delete(KnowledgeSourceChange).where(
                    KnowledgeSourceChange.scope == scope,
                    KnowledgeSourceChange.source_item_id.in_(chunk),
                ),
            )
            run(
                "knowledge_source_items",
                delete(KnowledgeSourceItem).where(
                    KnowledgeSourceItem.scope == scope, KnowledgeSourceItem.id.in_(chunk)
                ),
            )
        gone = idset | frozenset(orphans)
        for chunk in _chunks(gone):
            run(
                "facet_observations",
                delete(FacetObservation).where(
                    FacetObservation.scope == scope, FacetObservation.evidence_ref.in_(chunk)
                ),
            )
        trace_ids = _traces_mentioning(session, scope, idset)
        for chunk in _chunks(trace_ids):
            # A surviving trace keeps its row but no longer points at a deleted parent.
            session.execute(
                update(MemoryTraceEvent)
                .where(MemoryTraceEvent.scope == scope, MemoryTraceEvent.parent_trace_id.in_(chunk))
                .values(parent_trace_id=None)
            )
        for chunk in _chunks(trace_ids):
            run(
                "memory_trace_events",
                delete(MemoryTraceEvent).where(
                    MemoryTraceEvent.scope == scope, MemoryTraceEvent.id.in_(chunk)
                ),
            )
    return deleted, ids, seqs, orphans


def _traces_mentioning(session: Session, scope: str, ids: frozenset[str]) -> list[str]:
    if not ids:
        return []
    return [
        tid
        for tid, payload in session.execute(
            select(MemoryTraceEvent.id, MemoryTraceEvent.payload).where(
                MemoryTraceEvent.scope == scope
            )
        )
        if _mentions(payload, ids)
    ]


def _residual_path(
    store: GovernedStore,
    scope: str,
    prefix: str,
    ids: list[str],
    seqs: list[int],
    items: list[str],
) -> dict[str, int]:
    idset = frozenset(ids)
    with store.transaction(scope) as session:
        residual = {
            "memory_records": _count(
                session, MemoryRecord.__table__, MemoryRecord.scope == scope, *path_clause(prefix)
            ),
            "memory_records_fts": _fts_rows_of_docs(session, seqs),
            "memory_record_versions": 0,
            "memory_evidence": 0,
            "memory_relations": 0,
            "review_decisions": 0,
            "knowledge_source_items": 0,
            "memory_trace_events": len(_traces_mentioning(session, scope, idset)),
        }
        for chunk in _chunks(ids):
            residual["memory_record_versions"] += _count(
                session,
                MemoryRecordVersion.__table__,
                MemoryRecordVersion.record_id.in_(chunk),
            )
            residual["memory_evidence"] += _count(
                session, MemoryEvidence.__table__, MemoryEvidence.record_id.in_(chunk)
            )
            residual["memory_relations"] += _count(
                session,
                MemoryRelation.__table__,
                or_(
                    MemoryRelation.from_record_id.in_(chunk),
                    MemoryRelation.to_record_id.in_(chunk),
                ),
            )
            residual["review_decisions"] += _count(
                session, ReviewDecision.__table__, ReviewDecision.record_id.in_(chunk)
            )
        for chunk in _chunks(items):
            residual["knowledge_source_items"] += _count(
                session, KnowledgeSourceItem.__table__, KnowledgeSourceItem.id.in_(chunk)
            )
    return residual
