"""Records a caller may see right now: full-text retrieval or a listing, then the policy filter.

The retriever and the LangGraph store adapter both read through here, so a record that may not
enter the ``<user-context>`` block (candidate, expired, forgotten, secret under newer rules,
special category without consent) cannot be read through them either. The planner keeps its own
budgeted path; this one returns whole records ranked by full-text score (or newest first).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from sqlalchemy import Select, select
from sqlalchemy.orm import Session

from userlore.config import MemoryMode
from userlore.errors import InvalidInputError
from userlore.models import RecordState, RecordView
from userlore.policy.filter import rejection_reason
from userlore.store.governed import (
    GovernedStore,
    path_clause,
    record_view,
    under_path,
    validate_scope,
)
from userlore.store.retrieval import RECORD_HITS, TermStatistics, as_record
from userlore.store.schema import MemoryEvidence, MemoryRecord
from userlore.store.text import query_terms

__all__ = ["MAX_VISIBLE", "VisibleRecord", "search_visible"]

MAX_VISIBLE = 1_000
"""Most records one call may return (limit + offset)."""
_SCAN_CHUNK = 200


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
    with store.transaction() as session:
        now = store.clock()
        consented = store._consented(session, scope)
        rejected: list[dict[str, str]] = []
        kept: list[tuple[MemoryRecord, float | None]] = []
        found = _candidates(
            session, scope, query, wanted, stats, path_prefix, canonical_key, record_id
        )
        for row, score in found:
            reason = rejection_reason(row, scope=scope, now=now, consented=consented)
            if reason is not None:
                rejected.append({"id": row.id, "reason": reason})
                continue
            view = record_view(row)
            if extra is not None and not extra(view):
                continue
            kept.append((row, score))
            if len(kept) >= wanted:
                break
        page = kept[offset:wanted]
        evidence = _evidence(session, scope, [r.id for r, _ in page]) if with_evidence else {}
        out = [
            VisibleRecord(record_view(row), score, tuple(evidence.get(row.id, ())))
            for row, score in page
        ]
        if trace_event is not None:
            store._trace(
                session,
                scope,
                trace_event,
                session_key=session_key,
                payload={
                    "selected": [{"id": v.record.id, "v": v.record.version} for v in out],
                    "rejected": rejected[:200],
                },
            )
        return out


def _candidates(
    session: Session,
    scope: str,
    query: str | None,
    wanted: int,
    stats: TermStatistics | None,
    path_prefix: str | None,
    canonical_key: str | None,
    record_id: str | None,
) -> Iterator[tuple[MemoryRecord, float | None]]:
    base = select(MemoryRecord).where(MemoryRecord.scope == scope, *path_clause(path_prefix))
    exact = canonical_key is not None or record_id is not None
    if canonical_key is not None:
        base = base.where(MemoryRecord.canonical_key == canonical_key)
    if record_id is not None:
        base = base.where(MemoryRecord.id == record_id)
    if query and query_terms(query) and not exact:
        k = min(MAX_VISIBLE * 2, max(50, wanted * 8))
        hits = RECORD_HITS.search(session.connection(), scope, query, k, stats or TermStatistics())
        for row, score in hits:
            if under_path(row.path, path_prefix or ""):
                yield as_record(row), round(score, 6)
        return
    # No query: newest active records first, scanned in chunks until enough pass the filter.
    stmt = base.where(MemoryRecord.state == RecordState.ACTIVE.value).order_by(
        MemoryRecord.seq.desc()
    )
    yield from ((row, None) for row in _chunks(session, stmt))


def _chunks(session: Session, stmt: Select[MemoryRecord]) -> Iterable[MemoryRecord]:
    offset = 0
    while True:
        rows = list(session.scalars(stmt.limit(_SCAN_CHUNK).offset(offset)))
        yield from rows
        if len(rows) < _SCAN_CHUNK:
            return
        offset += _SCAN_CHUNK


def _evidence(session: Session, scope: str, ids: list[str]) -> dict[str, list[str]]:
    if not ids:
        return {}
    out: dict[str, list[str]] = {}
    rows = session.execute(
        select(MemoryEvidence.record_id, MemoryEvidence.source_item_id)
        .where(MemoryEvidence.scope == scope, MemoryEvidence.record_id.in_(ids))
        .order_by(MemoryEvidence.id)
    )
    for record_id, item_id in rows:
        out.setdefault(record_id, []).append(item_id)
    return out
