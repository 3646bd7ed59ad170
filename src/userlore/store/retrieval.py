"""Full-text retrieval with a bounded cost per query, on SQLite FTS5 or PostgreSQL.

BM25 must score every document that matches any query term, so one common word ("meeting" in a
work diary) would make a 100k-record scope cost tens of milliseconds. Retrieval therefore keeps a
*posting budget*: terms are taken rarest first while their summed document frequency fits the
budget. Common terms carry little BM25 weight anyway (low IDF). When even the rarest term is
too common, the newest records containing it are returned instead of a full ranking.

Document frequencies come from the index itself and are cached for a few minutes; a stale value
only changes which terms are pruned, never which scope's records can be returned.

The query logic is written once; :class:`_Dialect` holds the only backend differences: how a
phrase is written and the three SQL statements (SQLite FTS5 ``bm25``; PostgreSQL ``tsvector`` +
GIN with ``ts_rank_cd``).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import Connection, TextClause, text

from userlore.store.text import scoped_terms

__all__ = ["POSTING_BUDGET", "TermStatistics", "fulltext_hits", "match_expression"]

POSTING_BUDGET = 4_000


@dataclass(frozen=True)
class _Dialect:
    phrase: Callable[[tuple[str, ...]], str]
    or_join: str
    top_k: TextClause
    newest: TextClause
    document_frequency: TextClause


def _fts5_phrase(tokens: tuple[str, ...]) -> str:
    return '"' + " ".join(tokens) + '"'


def _tsquery_phrase(tokens: tuple[str, ...]) -> str:
    inner = " <-> ".join(f"'{t}'" for t in tokens)
    return f"({inner})" if len(tokens) > 1 else inner


_SQLITE = _Dialect(
    phrase=_fts5_phrase,
    or_join=" OR ",
    top_k=text(
        "SELECT rowid, -bm25(memory_records_fts) AS score FROM memory_records_fts "
        "WHERE memory_records_fts MATCH :q ORDER BY rank LIMIT :k"
    ),
    newest=text(
        "SELECT rowid FROM memory_records_fts WHERE memory_records_fts MATCH :q "
        "ORDER BY rowid DESC LIMIT :k"
    ),
    document_frequency=text(
        "SELECT count(*) FROM memory_records_fts WHERE memory_records_fts MATCH :q"
    ),
)
_POSTGRES = _Dialect(
    phrase=_tsquery_phrase,
    or_join=" | ",
    top_k=text(
        "SELECT seq, ts_rank_cd(search_tsv, q) AS score "
        "FROM memory_records, to_tsquery('english', :q) AS q "
        "WHERE search_tsv @@ q AND scope = :scope ORDER BY score DESC, seq DESC LIMIT :k"
    ),
    newest=text(
        "SELECT seq FROM memory_records WHERE search_tsv @@ to_tsquery('english', :q) "
        "AND scope = :scope ORDER BY seq DESC LIMIT :k"
    ),
    document_frequency=text(
        "SELECT count(*) FROM memory_records WHERE search_tsv @@ to_tsquery('english', :q)"
    ),
)


def _dialect(conn: Connection) -> _Dialect:
    return _POSTGRES if conn.dialect.name == "postgresql" else _SQLITE


def match_expression(conn: Connection, scope: str, query: str) -> str | None:
    """The backend's OR-of-all-terms expression for ``query`` (used by benchmarks as a floor)."""
    dialect = _dialect(conn)
    phrases = [dialect.phrase(t) for t in scoped_terms(scope, query)]
    return dialect.or_join.join(phrases) if phrases else None


class TermStatistics:
    """A small, thread-safe LRU of per-scope document frequencies with a time-to-live."""

    def __init__(self, max_terms: int = 50_000, ttl_s: float = 300.0) -> None:
        self.max_terms = max_terms
        self.ttl_s = ttl_s
        self._cache: OrderedDict[str, tuple[int, float]] = OrderedDict()
        self._lock = threading.Lock()

    def document_frequency(self, conn: Connection, phrase: str) -> int:
        now = time.monotonic()
        with self._lock:
            hit = self._cache.get(phrase)
            if hit is not None and now - hit[1] < self.ttl_s:
                self._cache.move_to_end(phrase)
                return hit[0]
        statement = _dialect(conn).document_frequency
        df = int(conn.execute(statement, {"q": phrase}).scalar_one())
        if df == 0:
            # Never cache absence: the next write (here or in another process sharing the
            # database) may add the term, and a cached 0 would hide that record for the TTL.
            return df
        with self._lock:
            self._cache[phrase] = (df, now)
            self._cache.move_to_end(phrase)
            while len(self._cache) > self.max_terms:
                self._cache.popitem(last=False)
        return df

    def clear(self) -> None:
        with self._lock:
            self._cache.clear()


def fulltext_hits(
    conn: Connection,
    scope: str,
    query: str,
    k: int,
    stats: TermStatistics,
    posting_budget: int = POSTING_BUDGET,
) -> dict[int, float]:
    """Top-``k`` record sequence numbers for ``query`` within ``scope``, with positive scores."""
    dialect = _dialect(conn)
    phrases = [dialect.phrase(t) for t in scoped_terms(scope, query)]
    if not phrases:
        return {}
    sized = sorted(((stats.document_frequency(conn, p), p) for p in phrases), key=lambda x: x[0])
    sized = [(df, p) for df, p in sized if df > 0]
    if not sized:
        return {}
    params = {"scope": scope, "k": k}
    if sized[0][0] > posting_budget:
        rows = conn.execute(dialect.newest, {**params, "q": sized[0][1]})
        return {int(seq): 1e-3 for (seq,) in rows}
    chosen: list[str] = []
    total = 0
    for df, phrase in sized:
        if total + df > posting_budget:
            break
        chosen.append(phrase)
        total += df
    rows = conn.execute(dialect.top_k, {**params, "q": dialect.or_join.join(chosen)})
    return {int(seq): max(float(score), 1e-9) for seq, score in rows}
