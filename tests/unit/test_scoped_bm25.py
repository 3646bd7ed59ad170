"""SQLite's per-scope full-text statistics follow every change, and both paths score alike.

``fulltext_scope_stats`` (migration 0014) must equal what FTS5 itself holds for each scope (its
rows and the lengths in ``%_docsize``) after writes, updates, forgets, restores, raw deletes and
edits, and purges; and the FTS5 path (``store/scoped_bm25.py``) must give the in-memory
posting index's scores for each scope of a database holding several, and FTS5's own ``bm25()``
in a database of one scope.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from sqlalchemy import Connection, text

from userlore import CandidateInput, Userlore
from userlore.store.posting_index import fts5_tokens, indexes_for
from userlore.store.retrieval import TermStatistics, fulltext_hits, match_expression
from userlore.store.scoped_bm25 import EPISODIC, RECORDS, scope_top
from userlore.store.text import scoped_terms, search_text

_TEXTS = [
    "running runs runner's knee",
    "café naïve résumé at caroline's",
    "我们去西湖跑步 and then sushi",
    "pnpm 2024 v8 42nd street",
    "don't won't o'clock rock'n'roll",
    "ÅNGSTRÖM straße ﬁle ｆｕｌｌ ｗｉｄｔｈ",
    "x",
]


def _stats(conn: Connection) -> dict[tuple[str, str], tuple[int, int]]:
    rows = conn.execute(text("SELECT corpus, scope, docs, tokens FROM fulltext_scope_stats"))
    return {(c, s): (int(d), int(t)) for c, s, d, t in rows}


def _truth(conn: Connection) -> dict[tuple[str, str], tuple[int, int]]:
    """Each scope's rows and token total as FTS5 tokenises its index text."""
    out: dict[tuple[str, str], tuple[int, int]] = {}
    for corpus, table in (("records", "memory_records"), ("episodic", "episodic_items")):
        rows = list(conn.execute(text(f"SELECT scope, search_text FROM {table}")))
        for (scope, _), tokens in zip(rows, fts5_tokens([t or "" for _, t in rows]), strict=True):
            docs, total = out.get((corpus, scope), (0, 0))
            out[(corpus, scope)] = (docs + 1, total + len(tokens))
    return out


def test_a_rows_tokens_are_fts5s_length() -> None:
    """The triggers' word-and-apostrophe count is the length FTS5 records for index text."""
    lore = Userlore.open("sqlite://", config={"memory": {"mode": "auto"}})
    try:
        for body in _TEXTS:
            lore.write("u1", CandidateInput(kind="note", content=body))
        with lore.store.connection() as conn:
            assert _stats(conn)[("records", "u1")] == _truth(conn)[("records", "u1")]
            sizes = conn.execute(
                text(
                    "SELECT r.search_text, d.sz FROM memory_records AS r "
                    "JOIN memory_records_fts_docsize AS d ON d.id = r.seq"
                )
            ).all()
        assert len(sizes) == len(_TEXTS)
        for (indexed, blob), tokens in zip(sizes, fts5_tokens([s for s, _ in sizes]), strict=True):
            assert blob[0] == len(tokens) < 128, indexed  # a one-byte varint
    finally:
        lore.close()


def test_statistics_follow_every_change() -> None:
    lore = Userlore.open("sqlite://", config={"memory": {"mode": "auto"}})
    try:
        ids = [
            out.record.id
            for body in _TEXTS
            if (out := lore.write("u1", CandidateInput(kind="note", content=body))).record
        ]
        lore.write("u2", CandidateInput(kind="note", content="kayak trip", path="trips"))
        lore.observe("u1", "user", "I went kayaking on caroline's fjord", "t1")
        lore.observe("u2", "user", "we bake sourdough", "t2")

        def check() -> None:
            with lore.store.connection() as conn:
                assert _stats(conn) == _truth(conn)

        check()
        lore.records.update("u1", ids[0], "running shoes and a new marathon plan")
        check()
        lore.records.forget("u1", ids[1])
        lore.records.restore("u1", ids[1])
        check()
        with lore.store.transaction() as session:
            conn = session.connection()
            for table in ("memory_evidence", "memory_record_versions"):
                conn.execute(text(f"DELETE FROM {table} WHERE record_id = :id"), {"id": ids[2]})
            conn.execute(text("DELETE FROM memory_records WHERE id = :id"), {"id": ids[2]})
            # an edit of a row's index text outside the governed path
            conn.execute(
                text("UPDATE memory_records SET search_text = :t WHERE id = :id"),
                {"t": search_text("u1", "rewritten text here's"), "id": ids[3]},
            )
        check()
        lore.scopes.purge("u2", "trips")
        check()
        lore.scopes.purge("u2")
        lore.scopes.purge("u3")
        check()
        with lore.store.connection() as conn:
            assert {s for _, s in _stats(conn)} == {"u1"}  # no residue of a purged scope
    finally:
        lore.close()


@pytest.fixture
def two_scopes() -> Iterator[Userlore]:
    lore = Userlore.open("sqlite://", config={"memory": {"mode": "auto"}})
    rng = random.Random(5)
    words = [
        "kayak",
        "fjord",
        "paddle",
        "lake",
        "sourdough",
        "bakery",
        "guitar",
        "lessons",
        "knee",
        "injury",
    ]
    store = lore.memory.store
    with store.transaction() as session:
        for scope, n, length in (("u1", 120, (3, 8)), ("u2", 300, (10, 30))):
            for _ in range(n):
                body = " ".join(rng.choices(words, k=rng.randint(*length)))
                store.govern(session, scope, CandidateInput(kind="note", content=body))
    yield lore
    lore.close()


@pytest.mark.parametrize("scope", ["u1", "u2"])
def test_fts5_path_scores_as_the_posting_index(two_scopes: Userlore, scope: str) -> None:
    queries = ["kayak", "kayak fjord", "paddle lake knee", "guitar sourdough bakery", "zebra"]
    with two_scopes.store.connection() as conn:
        registry = indexes_for(conn)
        assert registry is not None
        for query in queries:
            answers = []
            for above in (10**9, 0):  # FTS5's postings, then the in-memory index
                registry.above = above
                registry.clear()
                answers.append(fulltext_hits(conn, scope, query, 500, TermStatistics()))
            fts5, memory = answers
            assert fts5.keys() == memory.keys(), query
            assert [fts5[s] for s in fts5] == pytest.approx([memory[s] for s in fts5]), query


def test_one_scope_scores_are_fts5s_bm25() -> None:
    """In a database of one scope the scope's statistics are the table's: FTS5's own scores."""
    rng = random.Random(3)
    words = ["running", "caroline's", "café", "naïve", "kayak", "fjord", "西湖", "跑步", "2024"]
    lore = Userlore.open("sqlite://", config={"memory": {"mode": "auto"}})
    try:
        for _ in range(120):
            body = " ".join(rng.choices(words, k=rng.randint(2, 15)))
            lore.write("u1", CandidateInput(kind="note", content=body))
            lore.observe("u1", "user", "I said " + body, "t1")
        with lore.store.connection() as conn:
            for query in ["kayak", "caroline's kayak", "西湖跑步", "running 2024", "naive cafe"]:
                expr = match_expression(conn, "u1", query)
                for corpus in (RECORDS, EPISODIC):
                    ours = dict(scope_top(conn, corpus, "u1", scoped_terms("u1", query), 1000))
                    fts5 = dict(
                        conn.execute(
                            text(
                                f"SELECT rowid, -bm25({corpus.fts}) FROM {corpus.fts} "
                                f"WHERE {corpus.fts} MATCH :q"
                            ),
                            {"q": expr},
                        ).all()
                    )
                    assert ours.keys() == fts5.keys() and fts5, (query, corpus.name)
                    assert [ours[s] for s in fts5] == pytest.approx(list(fts5.values()))
    finally:
        lore.close()
