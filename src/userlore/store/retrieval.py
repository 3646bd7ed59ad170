"""Full-text retrieval with a bounded cost per query, on SQLite FTS5 or PostgreSQL.

BM25 must score every document that matches any query term, so one common word ("meeting" in a
work diary) would make a 100k-record scope cost tens of milliseconds. Retrieval therefore keeps a
*posting budget*: terms are taken rarest first while their summed document frequency fits the
budget. Common terms carry little BM25 weight anyway (low IDF). When every term is too common,
the newest records containing the query's first such term are returned instead of a ranking.

Document frequencies come from the index itself, counted only up to the budget, and are cached
for a few minutes; a stale value only changes which terms are pruned, never which scope's
records can be returned.

On SQLite a scope of :data:`~userlore.store.posting_index.POSTING_INDEX_ABOVE` records or more
is answered from its in-memory posting index (:mod:`userlore.store.posting_index`) with the same
term choice and BM25, and exact document frequencies; PostgreSQL and smaller scopes use the
statements below.

Every scope is ranked by its own statistics only, so no other scope's records move its scores
or its order: on SQLite FTS5 finds the postings and :mod:`userlore.store.scoped_bm25` scores them
with the scope's record count and average length (FTS5's ``bm25()`` takes them over the whole
table, every scope); on PostgreSQL BM25 is computed in SQL from the scope's record count, its
document frequencies (scope-prefixed tokens) and the average length of its matching records.

The query logic is written once; :class:`_Dialect` holds the only backend differences: how a
phrase is written and the SQL statements.
"""

from __future__ import annotations

import functools
import json
import math
import threading
import time
from collections import OrderedDict, namedtuple
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import (
    ColumnElement,
    Connection,
    Float,
    Integer,
    Row,
    Select,
    TextClause,
    column,
    select,
    text,
)
from sqlalchemy.orm import InstrumentedAttribute

from userlore.store.driver import driver_execute, fetch_all
from userlore.store.posting_index import ScopePostings, fts5_tokens, indexes_for
from userlore.store.schema import MemoryRecord
from userlore.store.scoped_bm25 import RECORDS, scope_top
from userlore.store.text import scoped_terms

__all__ = [
    "NEWEST_SCORE",
    "POSTING_BUDGET",
    "RECORD_HITS",
    "HitQuery",
    "TermStatistics",
    "as_record",
    "fulltext_hits",
    "match_expression",
]

POSTING_BUDGET = 4_000
NEWEST_SCORE = 0.001
"""The score of every hit when even the rarest term is too common to rank (newest first)."""


@dataclass(frozen=True)
class _Dialect:
    phrase: Callable[[tuple[str, ...]], str]
    or_join: str
    top_k: Callable[[int], TextClause] | None  # by the number of chosen phrases (PostgreSQL)
    newest: TextClause
    frequencies: Callable[[int], TextClause]  # n phrases counted in one statement


def _fts5_phrase(tokens: tuple[str, ...]) -> str:
    return '"' + " ".join(tokens) + '"'


def _tsquery_phrase(tokens: tuple[str, ...]) -> str:
    # A token may hold an inner apostrophe ("caroline's"); tsquery quotes double it.
    inner = " <-> ".join("'" + t.replace("'", "''") + "'" for t in tokens)
    return f"({inner})" if len(tokens) > 1 else inner


# BM25 on PostgreSQL (k1 1.2, b 0.75, as FTS5), with each phrase counted once per record: the
# records are short statements, where a word rarely repeats. ``ts_rank`` has no inverse
# document frequency, and measured 0.749 LoCoMo evidence recall against 0.804 for this and
# 0.807 for FTS5's bm25. The average length is taken over the matching records.
_BM25_K1, _BM25_B = 1.2, 0.75


@functools.cache
def _bm25_tsquery(n: int) -> TextClause:
    # Each tsquery is parsed once, in FROM; in the select list it would be parsed per row.
    parsed = "".join(f", to_tsquery('english', :q{i}) AS t{i}" for i in range(n))
    matched = " + ".join(f"CAST(:w{i} AS float8) * (search_tsv @@ t{i})::int" for i in range(n))
    return text(
        f"SELECT seq, s * {_BM25_K1 + 1} / (1 + {_BM25_K1} * "
        f"({1 - _BM25_B} + {_BM25_B} * dl / greatest(avg(dl) OVER (), 1))) AS score "
        f"FROM (SELECT seq, length(search_tsv)::float8 AS dl, ({matched}) AS s "
        f"FROM memory_records, to_tsquery('english', :q) AS q{parsed} "
        "WHERE search_tsv @@ q AND scope = :scope) AS matches "
        "ORDER BY score DESC, seq DESC LIMIT :k"
    )


def _counted(one: str) -> Callable[[int], TextClause]:
    """``n`` capped counts in one statement (one round trip for every uncached phrase)."""

    @functools.cache
    def statement(n: int) -> TextClause:
        counts = ", ".join(f"({one.format(i=i)}) AS c{i}" for i in range(n))
        return text(f"SELECT {counts}")

    return statement


_SQLITE = _Dialect(
    phrase=_fts5_phrase,
    or_join=" OR ",
    top_k=None,  # scored by scoped_bm25.scope_top
    newest=text(
        f"SELECT rowid AS seq, {NEWEST_SCORE} AS score FROM memory_records_fts "
        "WHERE memory_records_fts MATCH :q ORDER BY rowid DESC LIMIT :k"
    ),
    frequencies=_counted(
        "SELECT count(*) FROM (SELECT 1 FROM memory_records_fts "
        "WHERE memory_records_fts MATCH :q{i} LIMIT :cap)"
    ),
)
_POSTGRES = _Dialect(
    phrase=_tsquery_phrase,
    or_join=" | ",
    top_k=_bm25_tsquery,
    newest=text(
        f"SELECT seq, {NEWEST_SCORE} AS score FROM memory_records "
        "WHERE search_tsv @@ to_tsquery('english', :q) AND scope = :scope "
        "ORDER BY seq DESC LIMIT :k"
    ),
    frequencies=_counted(
        "SELECT count(*) FROM (SELECT 1 FROM memory_records "
        "WHERE search_tsv @@ to_tsquery('english', :q{i}) LIMIT :cap) AS m{i}"
    ),
)


_SCOPE_SIZE = text("SELECT count(*) FROM memory_records WHERE scope = :scope")


def _dialect(conn: Connection) -> _Dialect:
    return _POSTGRES if conn.dialect.name == "postgresql" else _SQLITE


def match_expression(conn: Connection, scope: str, query: str) -> str | None:
    """The backend's OR-of-all-terms expression for ``query`` (used by benchmarks as a floor)."""
    dialect = _dialect(conn)
    phrases = [dialect.phrase(t) for t in scoped_terms(scope, query)]
    return dialect.or_join.join(phrases) if phrases else None


class TermStatistics:
    """A small, thread-safe LRU of per-scope document frequencies with a time-to-live.

    Counting stops just past the caller's cap: retrieval only needs to know a frequency exactly
    while it fits the posting budget, and counting every posting of a very common word was
    the slowest part of a cold query (a heap recheck per match on PostgreSQL).
    """

    def __init__(self, max_terms: int = 50_000, ttl_s: float = 300.0) -> None:
        self.max_terms = max_terms
        self.ttl_s = ttl_s
        # phrase -> (count, exact, time); an inexact count means "more than count - 1"
        self._cache: OrderedDict[str, tuple[int, bool, float]] = OrderedDict()
        self._lock = threading.Lock()

    def document_frequency(self, conn: Connection, phrase: str, cap: int = POSTING_BUDGET) -> int:
        """How many records hold ``phrase``, exactly up to ``cap``; ``cap + 1`` means more."""
        return self.document_frequencies(conn, [phrase], cap)[0]

    def document_frequencies(
        self, conn: Connection, phrases: list[str], cap: int = POSTING_BUDGET
    ) -> list[int]:
        """:meth:`document_frequency` of each phrase; the uncached ones counted in one statement.

        A plan's query has a few phrases; a word not seen lately, or absent (absence is never
        cached), is counted: one round trip for all of them instead of one each (issue 23).
        """
        now = time.monotonic()
        out: list[int | None] = []
        with self._lock:
            for phrase in phrases:
                hit = self._cache.get(phrase)
                if hit is not None and now - hit[2] < self.ttl_s:
                    count, exact, _ = hit
                    if exact or count > cap:
                        self._cache.move_to_end(phrase)
                        out.append(min(count, cap + 1))
                        continue
                out.append(None)
        missing = list(dict.fromkeys(p for p, df in zip(phrases, out, strict=True) if df is None))
        if not missing:
            return [df for df in out if df is not None]
        params: dict[str, Any] = {f"q{i}": p for i, p in enumerate(missing)}
        counted = conn.execute(_dialect(conn).frequencies(len(missing)), {**params, "cap": cap + 1})
        fresh = dict(zip(missing, (int(c) for c in counted.one()), strict=True))
        with self._lock:
            for phrase, df in fresh.items():
                if df == 0:
                    # Never cache absence: the next write (here or in another process sharing
                    # the database) may add the term, and a cached 0 would hide that record.
                    continue
                self._cache[phrase] = (df, df <= cap, now)
                self._cache.move_to_end(phrase)
            while len(self._cache) > self.max_terms:
                self._cache.popitem(last=False)
        return [fresh[p] if df is None else df for p, df in zip(phrases, out, strict=True)]

    def scope_size(self, conn: Connection, scope: str) -> int:
        """Records in ``scope`` (every state, as document frequencies count), for IDF."""
        key = "\x00size\x00" + scope  # cannot collide with a phrase
        now = time.monotonic()
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None and now - hit[2] < self.ttl_s:
                return hit[0]
        size = int(conn.execute(_SCOPE_SIZE, {"scope": scope}).scalar_one())
        with self._lock:
            self._cache[key] = (size, True, now)
        return size

    def clear(self) -> None:
        with self._lock:
            self._cache.clear()


_P = TypeVar("_P")


def _choose_terms(
    counts: Sequence[int], phrases: Sequence[_P], budget: int
) -> tuple[list[tuple[int, _P]], bool] | None:
    """The query terms to score, shared by FTS5 and the in-memory posting index.

    Rarest first (ties in query order) while their postings fit ``budget``; ``None`` when no
    term occurs. ``(rarest, True)`` when even the rarest is past the budget: the caller lists
    that term's newest records instead of scoring.
    """
    sized = sorted(zip(counts, phrases, strict=True), key=lambda x: x[0])
    sized = [(df, p) for df, p in sized if df > 0]
    if not sized:
        return None
    if sized[0][0] > budget:
        return [sized[0]], True
    chosen: list[tuple[int, _P]] = []
    total = 0
    for df, phrase in sized:
        if total + df > budget:
            break
        chosen.append((df, phrase))
        total += df
    return chosen, False


def _hit_statement(
    conn: Connection, scope: str, query: str, stats: TermStatistics, posting_budget: int
) -> tuple[TextClause, dict[str, Any]] | None:
    """PostgreSQL's statement (top-k or newest) for ``query`` and its parameters, or ``None``."""
    dialect = _POSTGRES
    phrases = [dialect.phrase(t) for t in scoped_terms(scope, query)]
    if not phrases:
        return None
    counts = stats.document_frequencies(conn, phrases, posting_budget)
    choice = _choose_terms(counts, phrases, posting_budget)
    if choice is None:
        return None
    chosen, newest = choice
    if newest:
        return dialect.newest, {"scope": scope, "q": chosen[0][1]}
    params: dict[str, Any] = {"scope": scope, "q": dialect.or_join.join(p for _, p in chosen)}
    size = max(stats.scope_size(conn, scope), max(df for df, _ in chosen))
    for i, (df, phrase) in enumerate(chosen):
        params[f"q{i}"] = phrase
        params[f"w{i}"] = math.log(1 + (size - df + 0.5) / (df + 0.5))
    assert dialect.top_k is not None
    return dialect.top_k(len(chosen)), params


def _sqlite_hits(
    conn: Connection, scope: str, query: str, k: int, stats: TermStatistics, posting_budget: int
) -> tuple[ScopePostings | None, list[tuple[int, float]]] | None:
    """SQLite's top-``k`` hits, with the scope's posting index when it answered (``None`` on
    PostgreSQL)."""
    if conn.dialect.name != "sqlite":
        return None
    memory = _in_memory(conn, scope, query, k, posting_budget)
    if memory is not None:
        return memory
    return None, _fts5_hits(conn, scope, query, k, stats, posting_budget)


def _fts5_hits(
    conn: Connection, scope: str, query: str, k: int, stats: TermStatistics, posting_budget: int
) -> list[tuple[int, float]]:
    """The top-``k`` hits from FTS5's postings, scored with the scope's own statistics."""
    terms = scoped_terms(scope, query)
    phrases = [_fts5_phrase(t) for t in terms]
    if not phrases:
        return []
    counts = stats.document_frequencies(conn, phrases, posting_budget)
    choice = _choose_terms(counts, terms, posting_budget)
    if choice is None:
        return []
    chosen, newest = choice
    if newest:
        rows = fetch_all(conn, _SQLITE.newest, {"q": _fts5_phrase(chosen[0][1]), "k": k})
        return [(int(seq), float(score)) for seq, score in rows]
    return scope_top(conn, RECORDS, scope, [t for _, t in chosen], k)


def _in_memory(
    conn: Connection, scope: str, query: str, k: int, posting_budget: int
) -> tuple[ScopePostings, list[tuple[int, float]]] | None:
    """The scope's posting index and its top-``k`` hits, or ``None`` when FTS5 answers.

    The same term choice as :func:`_fts5_hits`: rarest first within the posting budget,
    frequencies past the budget counted as equal (as FTS5's capped counts are), so when every
    term is too common the newest records of the query's first term are returned.
    """
    registry = indexes_for(conn)
    postings = None if registry is None else registry.current(conn, scope)
    if postings is None:
        return None
    # One tokenizer call (one lock) for every term, not one each.
    phrases = [p for p in fts5_tokens([" ".join(t) for t in scoped_terms(scope, query)]) if p]
    if not phrases:
        return postings, []
    counts = [min(df, posting_budget + 1) for df in postings.frequencies(phrases)]
    choice = _choose_terms(counts, phrases, posting_budget)
    if choice is None:
        return postings, []
    chosen, newest = choice
    if newest:
        return postings, [(seq, NEWEST_SCORE) for seq in postings.newest(chosen[0][1], k)]
    return postings, postings.top([phrase for _, phrase in chosen], k)


_BY_SEQ = text("SELECT CAST(key AS INTEGER) AS seq, value AS score FROM json_each(:hits)")
"""The in-memory hits as the rows a :class:`HitQuery` joins (one JSON object parameter)."""


def fulltext_hits(
    conn: Connection,
    scope: str,
    query: str,
    k: int,
    stats: TermStatistics,
    posting_budget: int = POSTING_BUDGET,
) -> dict[int, float]:
    """Top-``k`` record sequence numbers for ``query`` within ``scope``, with positive scores."""
    found_sqlite = _sqlite_hits(conn, scope, query, k, stats, posting_budget)
    if found_sqlite is not None:
        return {seq: max(score, 1e-9) for seq, score in found_sqlite[1]}
    found = _hit_statement(conn, scope, query, stats, posting_budget)
    if found is None:
        return {}
    statement, params = found
    rows = conn.execute(statement, {**params, "k": k})
    return {int(seq): max(float(score), 1e-9) for seq, score in rows}


_row_type: Callable[[str, list[str]], Any] = namedtuple
"""A named-tuple class for column names known only at run time (mypy wants literal names)."""


@dataclass(frozen=True, slots=True)
class _DriverRead:
    """:data:`_BY_SEQ`'s hit rows read through the driver: the compiled SQL, each column's
    result processor (the one SQLAlchemy would apply) and a factory of rows with the column
    names, so the rows hold what :meth:`Connection.execute` returns.

    The rows are named tuples, not SQLAlchemy ``Row`` objects: the same names, order, values
    and ``_fields``, but a field read costs ~0.03 µs against ~0.3 µs, and the policy filter,
    the rerank and the placement read ~30 fields of each of ~40 rows per plan (issue 23 item 5,
    ~0.3 ms a plan). Nothing on the read path uses ``Row``'s own methods (``_mapping``).
    """

    sql: str
    processors: tuple[tuple[int, Callable[[Any], Any]], ...]
    make: Callable[[Iterable[Any]], Any]

    def rows(self, conn: Connection, hits: str) -> list[Row[*tuple[Any, ...]]]:
        out = []
        for raw in driver_execute(conn, self.sql, (hits,)):
            values = list(raw)
            for i, process in self.processors:
                values[i] = process(values[i])
            out.append(self.make(values))
        return out


class HitQuery:
    """Loads the top-``k`` full-text hits of one scope as rows of chosen record columns.

    One statement per query: the hit list (a ``LIMIT``-ed subquery) drives a primary-key join
    to ``memory_records``. The statement deliberately has no ``scope =`` term — given one,
    SQLite's planner prefers the scope index and scans the whole scope (measured 10x slower at
    20k records). Hits come from the scope's own index namespace, and :meth:`search` checks
    every row's scope again before returning it.
    """

    def __init__(self, *columns: ColumnElement[Any] | InstrumentedAttribute[Any]) -> None:
        self._columns = columns
        self._statements: dict[tuple[str, str], Select[*tuple[Any, ...]]] = {}
        self._driver: dict[str, _DriverRead] = {}
        self._lock = threading.Lock()

    @property
    def columns(self) -> tuple[ColumnElement[Any] | InstrumentedAttribute[Any], ...]:
        """The record columns every returned row holds."""
        return self._columns

    def _statement(self, conn: Connection, source: TextClause) -> Select[*tuple[Any, ...]]:
        key = (conn.dialect.name, source.text)
        built = self._statements.get(key)
        if built is None:
            hits = source.columns(column("seq", Integer), column("score", Float)).subquery("hits")
            built = select(
                *self._columns,
                MemoryRecord.scope.label("hit_scope"),
                hits.c.seq.label("hit_seq"),
                hits.c.score.label("hit_score"),
            ).join_from(hits, MemoryRecord, MemoryRecord.seq == hits.c.seq)
            with self._lock:
                self._statements[key] = built
        return built

    def _driver_read(self, conn: Connection) -> _DriverRead:
        """:data:`_BY_SEQ`'s statement compiled once for the driver (SQLite)."""
        dialect = conn.dialect
        built = self._driver.get(dialect.name)
        if built is None:
            statement = self._statement(conn, _BY_SEQ)
            compiled = statement.compile(dialect=dialect)
            assert compiled.positiontup == ["hits"]  # one positional parameter
            columns = list(statement.selected_columns)
            processors = [
                col.type.dialect_impl(dialect).result_processor(dialect, None) for col in columns
            ]
            row_type = _row_type("HitRow", list(statement.selected_columns.keys()))
            built = _DriverRead(
                str(compiled),
                tuple((i, p) for i, p in enumerate(processors) if p is not None),
                row_type._make,
            )
            with self._lock:
                self._driver[dialect.name] = built
        return built

    def load_by_seq(self, conn: Connection, seqs: dict[int, float]) -> list[Row[*tuple[Any, ...]]]:
        """The rows of ``seqs`` (with ``hit_scope``, ``hit_seq`` and ``hit_score``), in one
        statement by primary key.

        On SQLite the compiled statement runs on the driver's connection (the same
        transaction) and each column gets the result processor SQLAlchemy would apply: 40 hit
        rows cost ~0.24 ms instead of ~0.76 ms through :meth:`Connection.execute` (issue 23
        item 5), the same values and names (``tests/unit/test_posting_index.py``).
        """
        hits = json.dumps({str(s): v for s, v in seqs.items()})
        if conn.dialect.name == "sqlite":
            return self._driver_read(conn).rows(conn, hits)
        return list(conn.execute(self._statement(conn, _BY_SEQ), {"hits": hits}))

    def search(
        self,
        conn: Connection,
        scope: str,
        query: str,
        k: int,
        stats: TermStatistics,
        posting_budget: int = POSTING_BUDGET,
    ) -> list[tuple[Row[*tuple[Any, ...]], float]]:
        """``(row, score)`` best first; scores are scaled so the best hit has 1.0."""
        found_sqlite = _sqlite_hits(conn, scope, query, k, stats, posting_budget)
        if found_sqlite is not None:
            return self._rows_of(conn, scope, *found_sqlite)
        found = _hit_statement(conn, scope, query, stats, posting_budget)
        if found is None:
            return []
        source, params = found
        statement = self._statement(conn, source)
        scored = [
            (r, max(float(r.hit_score), 1e-9))
            for r in conn.execute(statement, {**params, "k": k})
            if r.hit_scope == scope
        ]
        if not scored:
            return []
        scored.sort(key=lambda rs: (-rs[1], -rs[0].hit_seq))
        best = scored[0][1]
        return [(r, score / best) for r, score in scored]

    def _rows_of(
        self,
        conn: Connection,
        scope: str,
        postings: ScopePostings | None,
        hits: list[tuple[int, float]],
    ) -> list[tuple[Row[*tuple[Any, ...]], float]]:
        """The rows of SQLite's hits: from the posting index's row cache when it answered
        (every change of a row drops it there), the rest loaded by primary key in one
        statement."""
        if not hits:
            return []
        rows: dict[int, Row[*tuple[Any, ...]]] = (
            {} if postings is None else postings.cached_rows(self, [s for s, _ in hits])
        )
        missing = {s: v for s, v in hits if s not in rows}
        if missing:
            loaded = {
                int(r.hit_seq): r for r in self.load_by_seq(conn, missing) if r.hit_scope == scope
            }
            if postings is not None:
                postings.keep_rows(self, loaded)
            rows.update(loaded)
        scored = [(rows[s], max(v, 1e-9)) for s, v in hits if s in rows]
        if not scored:
            return []
        best = scored[0][1]
        return [(r, score / best) for r, score in scored]


RECORD_HITS = HitQuery(*MemoryRecord.__table__.c)
"""Hits with every record column, for callers that hand whole records on (see :func:`as_record`)."""

_RECORD_KEYS = tuple(MemoryRecord.__table__.c.keys())


def as_record(row: Row[*tuple[Any, ...]]) -> MemoryRecord:
    """A detached, read-only :class:`MemoryRecord` from a Core row holding every record column."""
    return MemoryRecord(**{key: getattr(row, key) for key in _RECORD_KEYS})
