"""BM25 over FTS5's postings with one scope's own statistics (SQLite).

FTS5's ``bm25()`` takes the row count and the average length over its whole table, which holds
every scope: a scope's document frequencies were its own (its tokens carry its prefix), but its
scores moved when another user's records were added, a weak side channel and a plan that could
not be reproduced. Here FTS5 only finds the postings; the scores are
:func:`userlore.store.bm25.top`'s with the scope's record count and token total from
``fulltext_scope_stats`` (kept by triggers, migration ``0014_scope_text_stats``):

* a one-term phrase (most query words): its records and count in each from ``fts5vocab``
  (``instance``, a ``term =`` lookup), each record's length from FTS5's ``%_docsize``;
* a phrase of several terms (a CJK bigram, a word with an apostrophe, whose tail is not
  scope-prefixed): its records by ``MATCH``, counted in their index text as the in-memory
  posting index counts them.

The same BM25 and the same tokens as the posting index, so a scope scores the same whichever
path answers. Scores only choose candidates; every hit's row is read and filtered as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from sqlalchemy import Connection

from userlore.store import bm25
from userlore.store.driver import driver_execute
from userlore.store.posting_index import fts5_tokens, phrase_terms

__all__ = ["EPISODIC", "RECORDS", "Corpus", "fts_instances", "scope_top"]


@dataclass(frozen=True, slots=True)
class Corpus:
    """A scope-prefixed FTS5 index over a content table of ``seq`` and ``search_text``."""

    name: str  # its rows in ``fulltext_scope_stats``
    fts: str
    content: str
    instances: str  # the per-connection ``fts5vocab`` (instance) table's name, in ``temp``


RECORDS = Corpus("records", "memory_records_fts", "memory_records", "userlore_fts_instances")
EPISODIC = Corpus("episodic", "episodic_items_fts", "episodic_items", "userlore_episodic_instances")


def fts_instances(conn: Connection, corpus: Corpus) -> str:
    """The name of ``corpus``'s ``fts5vocab`` instance table, created once per connection."""
    info = conn.connection.info
    key = "userlore.instances." + corpus.name
    if key not in info:
        driver_execute(
            conn,
            f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{corpus.instances} "
            f"USING fts5vocab(main, {corpus.fts}, instance)",
            (),
        )
        info[key] = True
    return f"temp.{corpus.instances}"


def _size(blob: bytes) -> int:
    """The first varint of an FTS5 ``%_docsize`` blob: the tokens of the row's one column."""
    value = 0
    for i, byte in enumerate(blob[:9]):
        if i == 8:
            return (value << 8) | byte
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value
    return value


def _one_term(conn: Connection, corpus: Corpus, term: str) -> bm25.Postings:
    rows = driver_execute(
        conn,
        f"SELECT v.doc, count(*), d.sz FROM {fts_instances(conn, corpus)} AS v "
        f"JOIN {corpus.fts}_docsize AS d ON d.id = v.doc WHERE v.term = ? GROUP BY v.doc",
        (term,),
    )
    return (
        np.array([r[0] for r in rows], dtype=np.int64),
        np.array([r[1] for r in rows], dtype=np.float64),
        np.array([_size(r[2]) for r in rows], dtype=np.float64),
    )


def _phrase(conn: Connection, corpus: Corpus, words: tuple[str, ...]) -> bm25.Postings:
    terms = phrase_terms(" ".join(words))
    rows = driver_execute(
        conn,
        f"SELECT seq, search_text FROM {corpus.content} WHERE seq IN "
        f"(SELECT rowid FROM {corpus.fts} WHERE {corpus.fts} MATCH ?) ORDER BY seq",
        ('"' + " ".join(words) + '"',),
    )
    n = len(terms)
    found: list[tuple[int, int, int]] = []
    for (seq, _), tokens in zip(rows, fts5_tokens([r[1] or "" for r in rows]), strict=True):
        hits = sum(1 for i in range(len(tokens) - n + 1) if tokens[i : i + n] == terms)
        if hits:
            found.append((int(seq), hits, len(tokens)))
    return (
        np.array([f[0] for f in found], dtype=np.int64),
        np.array([f[1] for f in found], dtype=np.float64),
        np.array([f[2] for f in found], dtype=np.float64),
    )


def scope_top(
    conn: Connection, corpus: Corpus, scope: str, phrases: Sequence[tuple[str, ...]], k: int
) -> list[tuple[int, float]]:
    """The ``k`` best rows of ``scope`` for an OR of ``phrases`` (index tokens of the scope, as
    :func:`~userlore.store.text.scoped_terms` gives them): ``(seq, score)``, best first."""
    postings: list[bm25.Postings] = []
    for words in dict.fromkeys(phrases):
        terms = phrase_terms(" ".join(words))
        if len(terms) == 1:
            postings.append(_one_term(conn, corpus, terms[0]))
        elif terms:
            postings.append(_phrase(conn, corpus, words))
    postings = [p for p in postings if len(p[0])]
    if not postings:
        return []
    stats = driver_execute(
        conn,
        "SELECT docs, tokens FROM fulltext_scope_stats WHERE corpus = ? AND scope = ?",
        (corpus.name, scope),
    )
    docs, tokens = (int(stats[0][0]), int(stats[0][1])) if stats else (0, 0)
    # The triggers write the counts in the index's own transaction; the floor only guards IDF
    # against a count that could not hold (never fewer records than one phrase's postings).
    count = max(docs, *(len(p[0]) for p in postings))
    return bm25.top(postings, count, tokens / docs if docs else 0.0, k)
