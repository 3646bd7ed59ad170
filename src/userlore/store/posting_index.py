"""One large scope's full-text postings in memory, kept current by record generation (issue 23).

At 100k records FTS5's ``bm25`` over a query's posting budget cost ~3x an in-memory BM25 (bm25s)
over the same texts, before any policy work. Above :data:`POSTING_INDEX_ABOVE` records a scope's
retrieval is therefore answered here: the same terms, the same posting budget, the same BM25
(:mod:`userlore.store.bm25`) over postings held in machine-integer arrays and scored with numpy.
Below it, and on PostgreSQL, retrieval stays in the database.

Tokens are FTS5's own: texts go through an in-memory SQLite FTS5 table with the index's
tokenizer (``porter unicode61 remove_diacritics 2``) and come back through ``fts5vocab``, so a
record's terms here are exactly its terms in ``memory_records_fts``. IDF and the average length
are the scope's (FTS5's ``bm25()`` takes them over its whole table, every scope), and the BM25 is
:mod:`userlore.store.bm25`'s, which the FTS5 path scores with too (``store/scoped_bm25.py``): the
two paths give the same scores, and in a database of one scope they are FTS5's.

The index follows the records as :class:`~userlore.store.vector_matrix.ScopeMatrix` follows
vectors: triggers (migration ``0013_record_generations``) bump a per-scope generation on every
inserted, updated or deleted record row and stamp the row's ``memory_record_changes`` entry, so
a reader holding generation *g* re-tokenises only the rows changed after *g* (a write between
two plans costs one row, never a rebuild). A hard delete changes the scope's ``reset`` and the
next reader rebuilds. Scores only choose candidates: the policy filter decides on each hit's
row, read from the database or from a per-scope row cache that every change of that row (any
column) empties, so neither a stale posting nor a stale row can show a record it should not.
"""

from __future__ import annotations

import sqlite3
import sys
import threading
import time
import weakref
from array import array
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from sqlalchemy import Connection, Engine, text
from sqlalchemy.exc import OperationalError

from userlore.store import bm25
from userlore.store.bm25 import Floats, Ints
from userlore.store.driver import fetch_all

__all__ = [
    "MAX_CACHED_ROWS",
    "POSTING_INDEX_ABOVE",
    "Changed",
    "PostingIndexes",
    "ScopePostings",
    "ScopeState",
    "fts5_tokens",
    "indexes_for",
    "phrase_terms",
    "scope_state",
]

POSTING_INDEX_ABOVE = 10_000
"""Records from which a scope's retrieval is answered in memory (FTS5 below)."""
MAX_CACHED_ROWS = 20_000
"""Hit rows kept per scope and reader: a hit whose row did not change is not read again."""
MAX_SCOPES = 8
"""Scopes whose postings one database's registry keeps (least recently used leave)."""
_TOKENIZE_CHUNK = 2_000
_MAX_WORDS = 1_000_000
"""Distinct words whose terms are remembered (past it the memory starts again)."""
_FAR = 2**62
_RECHECK_S = 30.0
"""Seconds a scope found too small is left to FTS5 before it is counted again."""


class _Tokenizer:
    """FTS5's tokenizer outside the database: an in-memory FTS5 table read by ``fts5vocab``.

    Index text is words separated by spaces, and FTS5 (``unicode61``) never joins two of them,
    so a text's terms are its words' terms in order: each distinct word goes through FTS5 once
    and is remembered, and a record or a query is tokenised by dictionary lookups.
    """

    def __init__(self) -> None:
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        self._db.execute(
            "CREATE VIRTUAL TABLE t USING fts5(x, content='', "
            "tokenize='porter unicode61 remove_diacritics 2')"
        )
        self._db.execute("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, t, instance)")
        self._lock = threading.Lock()
        self._words: dict[str, tuple[str, ...]] = {}

    def _learn(self, words: list[str]) -> None:
        """Under the lock: each word's terms, from FTS5."""
        for start in range(0, len(words), _TOKENIZE_CHUNK):
            chunk = words[start : start + _TOKENIZE_CHUNK]
            self._db.executemany("INSERT INTO t(rowid, x) VALUES (?, ?)", enumerate(chunk))
            slots: list[dict[int, str]] = [{} for _ in chunk]
            for doc, offset, term in self._db.execute("SELECT doc, offset, term FROM v"):
                slots[doc][offset] = sys.intern(term)
            self._db.execute("INSERT INTO t(t) VALUES ('delete-all')")
            for word, slot in zip(chunk, slots, strict=True):
                self._words[word] = tuple(slot[i] for i in sorted(slot))

    def tokens(self, texts: Sequence[str]) -> list[tuple[str, ...]]:
        """Each text's terms in order, as FTS5 indexes them."""
        split = [text.split() for text in texts]
        with self._lock:
            words = self._words
            missing = list({w: None for ws in split for w in ws if w not in words})
            if missing:
                if len(words) + len(missing) > _MAX_WORDS:
                    words.clear()
                    missing = list({w: None for ws in split for w in ws})
                self._learn(missing)
            return [tuple(t for w in ws for t in words[w]) for ws in split]

    def phrase(self, words: str) -> tuple[str, ...]:
        """A query phrase's terms."""
        return self.tokens([words])[0]


_TOKENIZER = _Tokenizer()


def phrase_terms(words: str) -> tuple[str, ...]:
    """A query phrase (index tokens joined by spaces) as FTS5 terms: a CJK bigram, or a word
    with an apostrophe, is two."""
    return _TOKENIZER.phrase(words)


def fts5_tokens(texts: Sequence[str]) -> list[tuple[str, ...]]:
    """``texts`` as ``memory_records_fts`` tokenises them: each text's terms, in order."""
    return _TOKENIZER.tokens(texts)


def _counted(occurrences: Ints) -> tuple[Ints, Ints]:
    """``np.unique(occurrences, return_counts=True)``: by runs when the occurrences are in
    order, as appended (a record's together, records by ``seq``), the same arrays without the
    sort; a record rewritten after newer ones leaves them out of order (then ``np.unique``)."""
    n = len(occurrences)
    if n < 2 or not bool(np.all(occurrences[1:] >= occurrences[:-1])):
        return np.unique(occurrences, return_counts=True)
    starts = np.flatnonzero(np.concatenate(([True], occurrences[1:] != occurrences[:-1])))
    return occurrences[starts], np.diff(np.append(starts, n))


class ScopePostings:
    """One scope's terms, postings and lengths; safe to search while it is updated.

    Args:
        generation: The scope's record generation the postings reflect.
        reset: The scope's reset mark when they were built (a new one means rebuild).
    """

    def __init__(self, generation: int, reset: int) -> None:
        self.generation = generation
        self.reset = reset
        self._docs: dict[int, tuple[str, ...]] = {}
        # One entry per occurrence, so tf repeats; machine integers, so a phrase's arrays are a
        # copy of a buffer (not a conversion of Python ints: ~75 µs for 4,000 postings).
        self._postings: dict[str, array[int]] = {}
        self._df: dict[str, int] = {}
        self._total = 0
        self._lengths: Floats = np.zeros(1024, dtype=np.float64)  # by seq: terms in the record
        # phrase -> (seqs, tfs, lengths), dropped when a record holding one of its terms changes
        self._arrays: dict[tuple[str, ...], tuple[Ints, Floats, Floats]] = {}
        self._by_term: dict[str, set[tuple[str, ...]]] = {}
        # reader (a column set) -> seq -> its row as last loaded; every change of a row drops it
        self._rows: dict[object, OrderedDict[int, Any]] = {}
        self._lock = threading.Lock()

    @property
    def size(self) -> int:
        """Records held."""
        return len(self._docs)

    def apply(self, generation: int, docs: Iterable[tuple[int, tuple[str, ...] | None]]) -> None:
        """Take in changed records (``None`` terms: the record is gone) up to ``generation``.

        A record whose terms did not change (a state change, say) costs a comparison.
        """
        with self._lock:
            for seq, terms in docs:
                for rows in self._rows.values():
                    rows.pop(seq, None)
                held = self._docs.get(seq)
                if held == terms:
                    continue
                if held is not None:
                    self._remove(seq, held)
                if terms is not None:
                    self._add(seq, terms)
            self.generation = max(self.generation, generation)

    def cached_rows(self, reader: object, seqs: Sequence[int]) -> dict[int, Any]:
        """The rows ``reader`` loaded earlier for ``seqs`` and nothing changed since."""
        with self._lock:
            rows = self._rows.get(reader)
            if rows is None:
                return {}
            found = {seq: rows[seq] for seq in seqs if seq in rows}
            for seq in found:
                rows.move_to_end(seq)
            return found

    def keep_rows(self, reader: object, loaded: dict[int, Any]) -> None:
        """Remember rows ``reader`` loaded (the least recently used leave past a bound)."""
        with self._lock:
            rows = self._rows.setdefault(reader, OrderedDict())
            rows.update(loaded)
            while len(rows) > MAX_CACHED_ROWS:
                rows.popitem(last=False)

    def _add(self, seq: int, terms: tuple[str, ...]) -> None:
        self._docs[seq] = terms
        self._total += len(terms)
        if seq >= len(self._lengths):
            grown = np.zeros(max(seq + 1, 2 * len(self._lengths)), dtype=np.float64)
            grown[: len(self._lengths)] = self._lengths
            self._lengths = grown
        self._lengths[seq] = len(terms)
        postings = self._postings
        for term in terms:
            held = postings.get(term)
            if held is None:
                held = postings[term] = array("q")
            held.append(seq)
        for term in set(terms):
            self._df[term] = self._df.get(term, 0) + 1
            self._stale(term)

    def _remove(self, seq: int, terms: tuple[str, ...]) -> None:
        del self._docs[seq]
        self._total -= len(terms)
        self._lengths[seq] = 0
        for term in terms:
            self._postings[term].remove(seq)
        for term in set(terms):
            left = self._df[term] - 1
            if left:
                self._df[term] = left
            else:
                del self._df[term], self._postings[term]
            self._stale(term)

    def _stale(self, term: str) -> None:
        for phrase in self._by_term.pop(term, ()):
            self._arrays.pop(phrase, None)

    def _phrase_arrays(self, phrase: tuple[str, ...]) -> tuple[Ints, Floats, Floats]:
        """Under the lock: the records holding ``phrase``, its count in each, their lengths."""
        held = self._arrays.get(phrase)
        if held is not None:
            return held
        docs = self._docs
        if len(phrase) == 1:
            seqs, counts = _counted(np.array(self._postings.get(phrase[0], ()), dtype=np.int64))
            tfs = counts.astype(np.float64)
        else:
            rarest = min(phrase, key=lambda t: self._df.get(t, 0))
            found: dict[int, int] = {}
            n = len(phrase)
            for seq in dict.fromkeys(self._postings.get(rarest, ())):
                terms = docs[seq]
                hits = sum(1 for i in range(len(terms) - n + 1) if terms[i : i + n] == phrase)
                if hits:
                    found[seq] = hits
            seqs = np.array(sorted(found), dtype=np.int64)
            tfs = np.array([found[s] for s in seqs.tolist()], dtype=np.float64)
        lengths = self._lengths[seqs]
        built = (seqs, tfs, lengths)
        self._arrays[phrase] = built
        for term in phrase:
            self._by_term.setdefault(term, set()).add(phrase)
        return built

    def frequencies(self, phrases: Sequence[tuple[str, ...]]) -> list[int]:
        """How many records hold each phrase (exact)."""
        with self._lock:
            return [
                self._df.get(p[0], 0) if len(p) == 1 else len(self._phrase_arrays(p)[0])
                for p in phrases
            ]

    def top(self, phrases: Sequence[tuple[str, ...]], k: int) -> list[tuple[int, float]]:
        """The ``k`` best records for an OR of ``phrases`` by BM25 (:func:`bm25.top`):
        ``(seq, score)``, best first, ties newest first."""
        with self._lock:
            count = len(self._docs)
            if not count or k <= 0:
                return []
            postings = [self._phrase_arrays(p) for p in dict.fromkeys(phrases)]
            avgdl = self._total / count
        return bm25.top(postings, count, avgdl, k)

    def newest(self, phrase: tuple[str, ...], k: int) -> list[int]:
        """The ``k`` newest records holding ``phrase``."""
        with self._lock:
            seqs = self._phrase_arrays(phrase)[0]
            return [int(s) for s in seqs[::-1][:k].tolist()]


_STATE = text(
    "SELECT g.generation, g.reset, c.seq, r.kind, r.search_text "
    "FROM memory_record_generations AS g "
    "LEFT JOIN memory_record_changes AS c ON c.scope = g.scope AND c.generation > :held "
    "LEFT JOIN memory_records AS r ON r.seq = c.seq AND r.scope = g.scope "
    "WHERE g.scope = :scope"
)
_COUNT = text("SELECT count(*) FROM memory_records WHERE scope = :scope")
_ALL = text("SELECT seq, search_text FROM memory_records WHERE scope = :scope")


class PostingIndexes:
    """The posting indexes of one database's large scopes, each brought current on use.

    Args:
        above: Records from which a scope is indexed here (below: ``None``, use FTS5).
    """

    def __init__(self, above: int = POSTING_INDEX_ABOVE) -> None:
        self.above = above
        self._held: OrderedDict[str, ScopePostings] = OrderedDict()
        self._small: dict[str, float] = {}  # scope -> when it was last counted too small
        self._lock = threading.Lock()
        self.rebuilds = 0
        """Whole-scope builds so far (a write between reads must not cause one)."""

    def current(self, conn: Connection, scope: str) -> ScopePostings | None:
        """``scope``'s postings as of its current generation, or ``None`` to use FTS5.

        One statement when nothing changed, or when only changed rows are to be read (they
        come with it); a first use, or one after a hard delete, reads the whole scope.
        """
        with self._lock:
            held = self._held.get(scope)
            if held is not None:
                self._held.move_to_end(scope)
        state = scope_state(conn, scope, _FAR if held is None else held.generation)
        if state is None:
            return None  # no record in the scope was ever written under the generation triggers
        generation, reset = state.generation, state.reset
        if held is not None and held.reset == reset and held.generation <= generation:
            if state.changed:
                tokens = _TOKENIZER.tokens([c.text or "" for c in state.changed])
                held.apply(
                    generation,
                    [
                        (c.seq, terms if c.text is not None else None)
                        for c, terms in zip(state.changed, tokens, strict=True)
                    ],
                )
            return held
        now = time.monotonic()
        if held is None and now - self._small.get(scope, -_RECHECK_S) < _RECHECK_S:
            return None
        if held is None and int(conn.execute(_COUNT, {"scope": scope}).scalar_one()) < self.above:
            with self._lock:
                self._small[scope] = now
            return None
        return self._build(conn, scope, generation, reset)

    def _build(self, conn: Connection, scope: str, generation: int, reset: int) -> ScopePostings:
        # The generation was read first: rows newer than it are taken in again as deltas
        # (harmless), and a row deleted since changed ``reset`` (the next reader rebuilds).
        rows = [(int(seq), str(t)) for seq, t in conn.execute(_ALL, {"scope": scope})]
        postings = ScopePostings(generation, reset)
        tokens = _TOKENIZER.tokens([t for _, t in rows])
        postings.apply(generation, zip((seq for seq, _ in rows), tokens, strict=True))
        with self._lock:
            self.rebuilds += 1
            self._small.pop(scope, None)
            self._held[scope] = postings
            self._held.move_to_end(scope)
            while len(self._held) > MAX_SCOPES:
                self._held.popitem(last=False)
        return postings

    def clear(self) -> None:
        """Forget every scope (the next use rebuilds)."""
        with self._lock:
            self._held.clear()
            self._small.clear()


@dataclass(frozen=True, slots=True)
class Changed:
    """A record row changed after some generation: its kind and index text (``None``: gone)."""

    seq: int
    kind: str | None
    text: str | None


@dataclass(frozen=True, slots=True)
class ScopeState:
    """A scope's record generation and the rows changed after ``since``."""

    generation: int
    reset: int
    since: int
    changed: tuple[Changed, ...]


# Per open transaction: scope -> (state, the connection's row changes when it was read).
_SEEN: weakref.WeakKeyDictionary[Any, dict[str, tuple[ScopeState, int]]] = (
    weakref.WeakKeyDictionary()
)


_UNMIGRATED: weakref.WeakSet[Engine] = weakref.WeakSet()


def _changes(conn: Connection) -> int:
    return int(getattr(conn.connection.dbapi_connection, "total_changes", -1))


def scope_state(conn: Connection, scope: str, since: int) -> ScopeState | None:
    """``scope``'s record generation and the rows changed after ``since`` (SQLite), or
    ``None`` (PostgreSQL, or a scope never written).

    One statement, read once per transaction for every reader whose ``since`` is not older
    than the first one's (the changes then cover its own); again if this connection has
    changed rows since. A plan's retrieval and its profile share it.
    """
    if conn.dialect.name != "sqlite":
        return None
    transaction = conn.get_transaction()
    seen = None if transaction is None else _SEEN.get(transaction, {}).get(scope)
    if seen is not None and seen[1] == _changes(conn) and seen[0].since <= since:
        return seen[0]
    if conn.engine in _UNMIGRATED:
        return None
    try:
        rows = fetch_all(conn, _STATE, {"scope": scope, "held": since})
    except OperationalError:
        # A schema built without the migrations (no generation tables): FTS5 and no cache.
        # SQLite keeps the transaction after a failed statement.
        _UNMIGRATED.add(conn.engine)
        return None
    if not rows:
        return None
    state = ScopeState(
        int(rows[0][0]),
        int(rows[0][1]),
        since,
        tuple(Changed(int(r[2]), r[3], r[4]) for r in rows if r[2] is not None),
    )
    if transaction is not None:
        _SEEN.setdefault(transaction, {})[scope] = (state, _changes(conn))
    return state


_REGISTRIES: weakref.WeakKeyDictionary[Engine, PostingIndexes] = weakref.WeakKeyDictionary()
_REGISTRIES_LOCK = threading.Lock()


def indexes_for(conn: Connection) -> PostingIndexes | None:
    """The posting indexes of ``conn``'s database (SQLite), or ``None`` (PostgreSQL: its own
    path)."""
    if conn.dialect.name != "sqlite":
        return None
    engine = conn.engine
    with _REGISTRIES_LOCK:
        held = _REGISTRIES.get(engine)
        if held is None:
            held = _REGISTRIES[engine] = PostingIndexes()
        return held
