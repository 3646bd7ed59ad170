"""Whole records a caller may see right now, for the LangGraph store and the retriever.

A thin shell over :func:`~userlore.planner.search.search` (the planner's and recall's search):
it pages the kept records, turns them into :class:`~userlore.models.RecordView`s, loads their
evidence ids and writes the trace. Ranked by full-text score, or newest first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Row, select

from userlore.config import MemoryMode
from userlore.errors import InvalidInputError
from userlore.models import RecordView
from userlore.planner.search import RECORD_COLUMNS, search
from userlore.store.governed import GovernedStore, record_view, validate_scope
from userlore.store.retrieval import TermStatistics
from userlore.store.schema import MemoryEvidence

__all__ = ["MAX_VISIBLE", "VisibleRecord", "search_visible"]

MAX_VISIBLE = 1_000
"""Most records one call may return (limit + offset)."""


@dataclass(frozen=True, slots=True)
class VisibleRecord:
    """One record that passed the policy filter, with its score and evidence ids."""

    record: RecordView
    score: float | None
    evidence_ids: tuple[str, ...] = ()


def search_visible(
    store: GovernedStore,
    scope: str,
    query: str | None,
    *,
    limit: int,
    offset: int = 0,
    stats: TermStatistics | None = None,
    path_prefix: str | None = None,
    extra: Callable[[RecordView], bool] | None = None,
    canonical_key: str | None = None,
    record_id: str | None = None,
    with_evidence: bool = False,
    trace_event: str | None = None,
    session_key: str | None = None,
    rank_all: bool = False,
) -> list[VisibleRecord]:
    """Policy-filtered records of ``scope``, best first.

    Args:
        store: The governed store.
        scope: Whose records; every query filters by it.
        query: Full-text query; ``None`` or a query without terms lists newest first.
        limit: Records to return after ``offset``.
        offset: Visible records to skip.
        stats: Document-frequency cache for retrieval (a fresh one when omitted).
        path_prefix: Only records at or below this logical path.
        extra: A further predicate on the record view (e.g. a LangGraph ``filter``).
        canonical_key: Only the record holding this dedupe key.
        record_id: Only the record with this id.
        with_evidence: Also load each record's evidence source item ids.
        trace_event: When given, write a trace event of this type naming the returned ids and
            versions and a reason code per record kept out (never user text).
        session_key: Recorded on the trace.
        rank_all: LangGraph's store semantics: a query ranks every record that passes (by
            vector cosine, else BM25), the unranked rest newest first, up to ``limit``.

    Raises:
        InvalidInputError: ``limit``/``offset`` out of range.
        ScopeError: malformed scope.
    """
    validate_scope(scope)
    if limit < 0 or offset < 0 or limit + offset > MAX_VISIBLE:
        raise InvalidInputError(f"limit + offset must be within [0, {MAX_VISIBLE}]")
    if store.config.memory.mode is MemoryMode.OFF or limit == 0:
        return []
    wanted = limit + offset
    views: dict[str, RecordView] = {}

    def view(row: Row[*tuple[Any, ...]]) -> RecordView:
        # Once per record: the filter predicate and the page read the same view.
        made = views.get(row.id)
        if made is None:
            made = views[row.id] = record_view(row)
        return made

    accept = None if extra is None else lambda row: extra(view(row))
    with store.connection(scope) as conn:
        found = search(
            conn,
            scope,
            query,
            read=RECORD_COLUMNS,
            k=min(MAX_VISIBLE * 2, max(50, wanted * 8)),
            stats=stats or TermStatistics(),
            now=store.clock(),
            consented=store.consents_in(conn, scope),
            path_prefix=path_prefix or "",
            canonical_key=canonical_key,
            record_id=record_id,
            limit=wanted,
            accept=accept,
            vectors=store.vectors,
            rank_all=rank_all,
        )
        page = found.kept[offset:wanted]
        evidence = _evidence(conn, scope, [c.id for c in page]) if with_evidence else {}
        out = [
            VisibleRecord(
                view(c.row),
                None
                if c.retrieval is None
                else (c.retrieval if rank_all else round(c.retrieval, 6)),
                tuple(evidence.get(c.id, ())),
            )
            for c in page
        ]
        if trace_event is not None:
            store.trace(
                conn,
                scope,
                trace_event,
                session_key=session_key,
                payload={
                    "selected": [{"id": v.record.id, "v": v.record.version} for v in out],
                    "rejected": [{"id": r.id, "reason": r.reason} for r in found.rejected[:200]],
                },
            )
        return out


def _evidence(conn: Connection, scope: str, ids: list[str]) -> dict[str, list[str]]:
    if not ids:
        return {}
    out: dict[str, list[str]] = {}
    rows = conn.execute(
        select(MemoryEvidence.record_id, MemoryEvidence.source_item_id)
        .where(MemoryEvidence.scope == scope, MemoryEvidence.record_id.in_(ids))
        .order_by(MemoryEvidence.id)
    )
    for record_id, item_id in rows:
        out.setdefault(record_id, []).append(item_id)
    return out
