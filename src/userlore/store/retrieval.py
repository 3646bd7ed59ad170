"""Full-text retrieval with a bounded cost per query.

BM25 must score every document that matches any query term, so one common word ("meeting" in a
work diary) would make a 100k-record scope cost tens of milliseconds. Retrieval therefore keeps a
*posting budget*: terms are taken rarest first while their summed document frequency fits the
budget. Common terms carry little BM25 weight anyway (low IDF). When even the rarest term is
too common, the newest records containing it are returned instead of a full ranking.

Document frequencies come from the index itself and are cached for a few minutes; a stale value
only changes which terms are pruned, never which scope's records can be returned.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict

from sqlalchemy import Connection, text

from userlore.store.text import fts_phrase, query_terms

__all__ = ["POSTING_BUDGET", "TermStatistics", "fulltext_hits"]

POSTING_BUDGET = 4_000

_TOPK = text(
    "SELECT rowid, -bm25(memory_records_fts) AS score FROM memory_records_fts "
    "WHERE memory_records_fts MATCH :q ORDER BY rank LIMIT :k"
)
_NEWEST = text(
    "SELECT rowid FROM memory_records_fts WHERE memory_records_fts MATCH :q "
    "ORDER BY rowid DESC LIMIT :k"
)
_DF = text("SELECT count(*) FROM memory_records_fts WHERE memory_records_fts MATCH :q")


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
        df = int(conn.execute(_DF, {"q": phrase}).scalar_one())
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
    phrases = [fts_phrase(scope, term) for term in query_terms(query)]
    if not phrases:
        return {}
    sized = sorted(((stats.document_frequency(conn, p), p) for p in phrases), key=lambda x: x[0])
    sized = [(df, p) for df, p in sized if df > 0]
    if not sized:
        return {}
    if sized[0][0] > posting_budget:
        rows = conn.execute(_NEWEST, {"q": sized[0][1], "k": k})
        return {int(seq): 1e-3 for (seq,) in rows}
    chosen: list[str] = []
    total = 0
    for df, phrase in sized:
        if total + df > posting_budget:
            break
        chosen.append(phrase)
        total += df
    rows = conn.execute(_TOPK, {"q": " OR ".join(chosen), "k": k})
    return {int(seq): max(float(score), 1e-9) for seq, score in rows}
