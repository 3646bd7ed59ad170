"""The one policy-filtered read: candidates by full text (or newest first), then the filter.

The context planner, ``recall``, the LangGraph store's ``search``/``get`` and the retriever all
read through :func:`search`, so a record that may not enter the ``<user-context>`` block
(candidate, expired, forgotten, secret under newer rules, special category without consent)
cannot be read through any of them, and every record kept out gets one
:class:`~userlore.policy.filter.RejectionReason`. Full-text hits are loaded by primary key
(:class:`~userlore.store.retrieval.HitQuery`) as Core rows of the caller's columns: no ORM objects
on the hot path.

With embeddings on (a :class:`~userlore.store.vectors.VectorIndex`), a ranked query is hybrid:
the BM25 hits and the records nearest the query vector (cosine at least :data:`VECTOR_FLOOR`)
are fused by reciprocal rank (:func:`~userlore.planner.fusion.rrf_fuse`) *before* the policy
filter, so what follows (filter, rerank, sections, budgets, fence, trace) is unchanged. Each
candidate keeps its lexical and vector rank for the trace.

``rank_all`` is the LangGraph store's semantics, not the plan's: a query ranks *every* record
under the path (no relevance floor, no fusion), by the cosine of its stored vector with
embeddings on (the score LangGraph's stores report), else by BM25 (best hit 1.0); records the
ranking does not reach (no vector, no matching word) follow newest first with no score.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Row, Select, bindparam, select

from userlore.models import RecordState, Rejection
from userlore.planner.fusion import rrf_fuse
from userlore.policy.filter import rejection_reason
from userlore.policy.quote_gate import QUOTED_KINDS, quote_verdict
from userlore.store.governed import path_clause, under_path
from userlore.store.retrieval import RECORD_HITS, HitQuery, TermStatistics
from userlore.store.schema import MemoryRecord
from userlore.store.standing import standing_rows
from userlore.store.text import query_terms
from userlore.store.vectors import VectorIndex

__all__ = [
    "PROFILE_LIMIT",
    "RECENT_NOTES",
    "RECORD_COLUMNS",
    "VECTOR_FLOOR",
    "Candidate",
    "Found",
    "ReadColumns",
    "search",
]

PROFILE_LIMIT = 300
RECENT_NOTES = 3
_SCAN_CHUNK = 200
_ACTIVE = RecordState.ACTIVE.value
_ALL = 2**31 - 1
"""``k`` for "every stored vector of the scope"."""
_FIRST_WINDOW = 64
"""Ids a rank-all vector search sorts and loads first; it widens by :data:`_WINDOW_GROWTH`."""
_WINDOW_GROWTH = 8
_BY_ID_PREFIXES = 256
"""Path prefixes whose by-id statement :class:`ReadColumns` keeps composed."""

VECTOR_FLOOR = 0.2
"""Least cosine similarity for a vector candidate: below it a record is unrelated (for unit
sentence embeddings such as MiniLM's, unrelated texts score about 0 to 0.15), and a nearest
neighbour that is merely the least unrelated would spend the plan's budget."""


@dataclass(slots=True)
class Candidate:
    """A retrieved row (read as the policy filter's input) and its retrieval score.

    ``retrieval`` is ``None`` for a record that was listed rather than matched: the BM25 score
    (best hit 1.0), or with embeddings the fused RRF score (best 1.0). ``lexical_rank`` and
    ``vector_rank`` (1-based) say where each list placed the record, ``None`` when absent.
    """

    row: Row[*tuple[Any, ...]]
    id: str
    retrieval: float | None = None
    lexical_rank: int | None = None
    vector_rank: int | None = None


@dataclass(slots=True)
class Found:
    """What :func:`search` kept, best first, and a reason for every candidate kept out."""

    kept: list[Candidate] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)
    near: dict[str, int] | None = None
    """With embeddings: each record among the ``k`` nearest the query by its place in that list,
    those below :data:`VECTOR_FLOOR` too (never candidates for that, but the order in which the
    planner weighs standing records the question did not match); ``None`` without vectors."""


class ReadColumns:
    """The statements of one read for a chosen set of record columns, composed once.

    Args:
        hits: Full-text hits over the columns; the columns must include ``seq``, ``id`` and the
            fields of :class:`~userlore.policy.filter.PolicyFields`.
    """

    def __init__(self, hits: HitQuery) -> None:
        self.hits = hits
        """Full-text hits over the columns."""
        columns = hits.columns
        self._newest = (
            select(*columns)
            .where(MemoryRecord.scope == bindparam("scope"), MemoryRecord.state == _ACTIVE)
            .order_by(MemoryRecord.seq.desc())
        )
        self.standing = (
            # The always-eligible profile and standing instructions, whatever the query.
            select(*columns)
            .where(
                MemoryRecord.scope == bindparam("scope"),
                MemoryRecord.kind.in_(bindparam("kinds", expanding=True)),
                MemoryRecord.state == _ACTIVE,
            )
            .order_by(MemoryRecord.importance.desc(), MemoryRecord.seq.desc())
            .limit(PROFILE_LIMIT),
            # The last few days' notes: an overview of recent days.
            select(*columns)
            .where(
                MemoryRecord.scope == bindparam("scope"),
                MemoryRecord.kind == "daily_note",
                MemoryRecord.state == _ACTIVE,
            )
            .order_by(MemoryRecord.valid_from.desc().nulls_last(), MemoryRecord.seq.desc())
            .limit(RECENT_NOTES),
        )
        """The always-eligible records, each statement bound by ``scope`` and ``kinds``."""
        self._by_id: dict[str, Select[*tuple[Any, ...]]] = {}

    def by_id(self, prefix: str) -> Select[*tuple[Any, ...]]:
        """Records under ``prefix`` with the ids bound as ``ids`` (any state; ``scope`` bound).

        Composed once per prefix (a store's searches use a handful): building the statement
        and its cache key cost more than looking up ten rows.
        """
        stmt = self._by_id.get(prefix)
        if stmt is None:
            stmt = select(*self.hits.columns).where(
                MemoryRecord.scope == bindparam("scope"),
                MemoryRecord.id.in_(bindparam("ids", expanding=True)),
                *path_clause(prefix),
            )
            if len(self._by_id) >= _BY_ID_PREFIXES:
                self._by_id.clear()
            self._by_id[prefix] = stmt
        return stmt

    def newest(
        self,
        prefix: str,
        memory_type: str | None,
        canonical_key: str | None,
        record_id: str | None,
    ) -> Select[*tuple[Any, ...]]:
        """Active records newest first, narrowed in SQL."""
        stmt = self._newest.where(*path_clause(prefix))
        if memory_type is not None:
            stmt = stmt.where(MemoryRecord.memory_type == memory_type)
        if canonical_key is not None:
            stmt = stmt.where(MemoryRecord.canonical_key == canonical_key)
        if record_id is not None:
            stmt = stmt.where(MemoryRecord.id == record_id)
        return stmt


RECORD_COLUMNS = ReadColumns(RECORD_HITS)
"""Every record column, for readers that hand whole records on (recall, the store adapter)."""


def search(
    conn: Connection,
    scope: str,
    query: str | None,
    *,
    read: ReadColumns,
    k: int,
    stats: TermStatistics,
    now: datetime,
    consented: frozenset[str],
    path_prefix: str = "",
    memory_type: str | None = None,
    canonical_key: str | None = None,
    record_id: str | None = None,
    kinds: tuple[str, ...] = (),
    newest: bool = True,
    depth: int | None = None,
    limit: int | None = None,
    accept: Callable[[Row[*tuple[Any, ...]]], bool] | None = None,
    vectors: VectorIndex | None = None,
    quote_uncovered: bool = False,
    rank_all: bool = False,
    vector_query: str | None = None,
) -> Found:
    """Records of ``scope`` that may be read now, best first, with a reason for the rest.

    Args:
        conn: An open connection (one transaction).
        scope: Whose records; every statement filters by it and the filter checks it again.
        query: Full-text query; ``None`` or a query without terms lists newest first.
        read: Which record columns each candidate row holds.
        k: Full-text hits to retrieve.
        stats: Document-frequency cache for retrieval.
        now: The clock reading validity is checked against.
        consented: Special categories the user has consented to.
        path_prefix: Only records at or below this logical path.
        memory_type: Only records of this memory type.
        canonical_key: Only the record holding this dedupe key (listed, never ranked).
        record_id: Only the record with this id (listed, never ranked).
        kinds: Also every active record of these kinds and the recent daily notes (the
            planner's always-eligible profile), after the hits and without repeating them.
        newest: List newest first when there is nothing to rank; ``False`` retrieves hits only.
        depth: Most records to list (all when ``None``).
        limit: Stop once this many records are kept; every candidate is screened when ``None``.
        accept: A further predicate on a row that passed the filter (not a rejection).
        vectors: The stored embeddings: a ranked query becomes BM25 + vector, fused by RRF.
        quote_uncovered: The app's opt-in to quoting languages the quote gate cannot read
            (records whose content is quoted source text, :data:`QUOTED_KINDS`, pass the gate).
        rank_all: Rank every record under the path (the LangGraph store's ``search``): by
            vector cosine (with ``vectors``) or BM25, the rest after them newest first.
        vector_query: What a ranked query's vectors are asked for, when not ``query`` (the
            planner's question without the speakers it names).
    """
    candidates: Iterator[Candidate]
    near: dict[str, int] | None = None
    exact = canonical_key is not None or record_id is not None
    # Without a newest-first fallback a query without terms simply has no hits: skip the check.
    if rank_all and query and not exact:
        candidates = _everything(
            conn, read, scope, query, k, stats, vectors, path_prefix, limit or _SCAN_CHUNK
        )
    elif query and not exact and (not newest or query_terms(query)):
        hits = read.hits.search(conn, scope, query, k, stats)
        if path_prefix or memory_type is not None:
            hits = [
                (row, score)
                for row, score in hits
                if under_path(row.path, path_prefix)
                and (memory_type is None or row.memory_type == memory_type)
            ]
        if vectors is not None:
            fused, near = _hybrid(
                conn, read, scope, vector_query or query, hits, vectors, k, path_prefix, memory_type
            )
            candidates = iter(fused)
        else:
            candidates = iter(
                [Candidate(row, row.id, score, rank) for rank, (row, score) in enumerate(hits, 1)]
            )
    elif newest:
        stmt = read.newest(path_prefix, memory_type, canonical_key, record_id)
        candidates = (Candidate(row, row.id) for row in _scan(conn, stmt, scope, depth))
    else:
        candidates = iter(())
    if kinds:
        candidates = _with_standing(conn, read, scope, kinds, candidates)

    found = Found(near=near)
    kept, rejected = found.kept, found.rejected
    for cand in candidates:
        reason = rejection_reason(cand.row, scope=scope, now=now, consented=consented)
        if reason is not None:
            rejected.append(Rejection(cand.id, reason))
            continue
        if cand.row.kind in QUOTED_KINDS:
            verdict = quote_verdict(
                cand.row.content, consented=consented, quote_uncovered=quote_uncovered
            )
            if verdict.reason is not None:
                rejected.append(Rejection(cand.id, verdict.reason, verdict.category))
                continue
        if accept is None or accept(cand.row):
            kept.append(cand)
            if limit is not None and len(kept) >= limit:
                break
    return found


def _hybrid(
    conn: Connection,
    read: ReadColumns,
    scope: str,
    query: str,
    hits: list[tuple[Row[*tuple[Any, ...]], float]],
    vectors: VectorIndex,
    k: int,
    path_prefix: str,
    memory_type: str | None,
) -> tuple[list[Candidate], dict[str, int]]:
    """BM25 hits and the nearest record vectors, fused by RRF (best fused score 1.0); and every
    nearest record's place, those below the floor included (:attr:`Found.near`)."""
    nearest = vectors.search(conn, scope, "record", vectors.embed_query(query), k)
    places = {rid: rank for rank, (rid, _) in enumerate(nearest, 1)}
    near = [rid for rid, cosine in nearest if cosine >= VECTOR_FLOOR]
    rows = {row.id: row for row, _ in hits}
    missing = [rid for rid in near if rid not in rows]
    if missing:
        stmt = select(*read.hits.columns).where(
            MemoryRecord.scope == scope, MemoryRecord.id.in_(missing)
        )
        narrowed = bool(path_prefix) or memory_type is not None
        for row in conn.execute(stmt):
            if narrowed and not (
                under_path(row.path, path_prefix)
                and (memory_type is None or row.memory_type == memory_type)
            ):
                continue
            if row.scope == scope:
                rows[row.id] = row
    near = [rid for rid in near if rid in rows]  # a vector of a purged record finds no row
    lexical = [row.id for row, _ in hits]
    lexical_rank = {rid: rank for rank, rid in enumerate(lexical, 1)}
    vector_rank = {rid: rank for rank, rid in enumerate(near, 1)}
    fused = rrf_fuse([lexical, near])
    if not fused:
        return [], places
    best = fused[0][1]
    return [
        Candidate(rows[rid], rid, score / best, lexical_rank.get(rid), vector_rank.get(rid))
        for rid, score in fused
    ], places


def _everything(
    conn: Connection,
    read: ReadColumns,
    scope: str,
    query: str,
    k: int,
    stats: TermStatistics,
    vectors: VectorIndex | None,
    path_prefix: str,
    first: int,
) -> Iterator[Candidate]:
    """Every active record under ``path_prefix``: ranked ones first (cosine, else BM25).

    ``first`` is how many records the caller expects to keep: the first rows read by id.
    """
    seen: set[str] = set()
    if vectors is not None:
        query_vector = vectors.embed_query(query)
        window = _FIRST_WINDOW
        size = max(1, min(first, _SCAN_CHUNK))
        # The state is checked in Python, not in SQL: with ``state = 'active'`` beside the ids,
        # SQLite walks the (scope, state) index over the whole scope (170 ms at 100k records)
        # instead of looking the ids up by (scope, id) (3 ms).
        by_id = read.by_id(path_prefix)
        while True:
            # Exact top-``window`` rankings, widened only when the caller reads past one: a
            # search for 10 items of a 100k scope sorts and loads a few dozen rows, not all.
            ranked = vectors.search_best(conn, scope, query_vector, window, exact=True)
            fresh = [(rid, cosine) for rid, cosine in ranked if rid not in seen]
            start = 0
            while start < len(fresh):
                # Rows by id in chunks that start at what the caller keeps and double: a
                # search for 10 items reads 10 rows when the filter passes them (every row
                # read is a record's columns decoded), not the window's 64.
                chunk = fresh[start : start + size]
                start += size
                size = min(size * 2, _SCAN_CHUNK)
                found = conn.execute(by_id, {"scope": scope, "ids": [rid for rid, _ in chunk]})
                rows = {row.id: row for row in found if row.state == _ACTIVE}
                for rid, cosine in chunk:
                    seen.add(rid)
                    row = rows.get(rid)
                    if row is not None and row.scope == scope:
                        yield Candidate(row, rid, cosine, vector_rank=len(seen))
            if len(ranked) < window:
                break
            window = min(window * _WINDOW_GROWTH, _ALL)
    elif query_terms(query):
        for rank, (row, score) in enumerate(read.hits.search(conn, scope, query, k, stats), 1):
            if under_path(row.path, path_prefix):
                seen.add(row.id)
                yield Candidate(row, row.id, score, lexical_rank=rank)
    for row in _scan(conn, read.newest(path_prefix, None, None, None), scope, None):
        if row.id not in seen:
            yield Candidate(row, row.id)


def _with_standing(
    conn: Connection,
    read: ReadColumns,
    scope: str,
    kinds: tuple[str, ...],
    candidates: Iterator[Candidate],
) -> Iterator[Candidate]:
    found = {cand.row.seq: cand for cand in candidates}
    params = {"scope": scope, "kinds": kinds}
    # Cached while the scope's records are unchanged; the filter still sees every row.
    loaded = standing_rows(
        conn,
        scope,
        (read.standing, kinds),
        lambda: [conn.execute(stmt, params).all() for stmt in read.standing],
        frozenset((*kinds, "daily_note")),
    )
    for rows in loaded:
        for row in rows:
            if row.seq not in found:
                found[row.seq] = Candidate(row, row.id)
    return iter(found.values())


def _scan(
    conn: Connection, stmt: Select[*tuple[Any, ...]], scope: str, depth: int | None
) -> Iterator[Row[*tuple[Any, ...]]]:
    """Rows of ``stmt`` in chunks, so a caller that stops early reads little."""
    offset = 0
    while depth is None or offset < depth:
        size = _SCAN_CHUNK if depth is None else min(_SCAN_CHUNK, depth - offset)
        rows = list(conn.execute(stmt.limit(size).offset(offset), {"scope": scope}))
        yield from rows
        if len(rows) < size:
            return
        offset += size
