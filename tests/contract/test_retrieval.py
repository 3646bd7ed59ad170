"""Full-text hits loaded as rows: best first, one scope only, and driven by the primary key."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import event

from userlore import CandidateInput, Userlore
from userlore.planner.planner import PLAN_COLUMNS
from userlore.store.retrieval import (
    NEWEST_SCORE,
    RECORD_HITS,
    TermStatistics,
    as_record,
    fulltext_hits,
    match_expression,
)


def _write(lore: Userlore, scope: str, content: str) -> str:
    out = lore.write(scope, CandidateInput(kind="note", content=content))
    assert out.record is not None
    return out.record.id


def test_hits_are_rows_of_one_scope_best_first(auto_lore: Userlore) -> None:
    best = _write(auto_lore, "u1", "kayak kayak kayak trip to the fjord")
    other = _write(auto_lore, "u1", "a kayak was mentioned once among many other words here")
    _write(auto_lore, "u2", "kayak kayak kayak kayak kayak")  # same words, another scope
    with auto_lore.store.connection() as conn:
        hits = RECORD_HITS.search(conn, "u1", "kayak", 10, TermStatistics())
        seqs = fulltext_hits(conn, "u1", "kayak", 10, TermStatistics())
    assert [row.id for row, _ in hits] == [best, other]
    assert {row.scope for row, _ in hits} == {"u1"}
    assert hits[0][1] == 1.0 and 0 < hits[1][1] < 1.0
    assert sorted(seqs) == sorted(row.seq for row, _ in hits)
    record = as_record(hits[0][0])
    assert record.id == best and record.content.startswith("kayak")


def test_a_term_too_common_to_rank_returns_the_newest(auto_lore: Userlore) -> None:
    ids = [_write(auto_lore, "u1", f"standup meeting number {i}") for i in range(6)]
    with auto_lore.store.connection() as conn:
        hits = RECORD_HITS.search(conn, "u1", "meeting", 3, TermStatistics(), posting_budget=2)
    assert [row.id for row, _ in hits] == ids[::-1][:3]
    assert [score for _, score in hits] == [1.0, 1.0, 1.0]  # all NEWEST_SCORE, scaled
    assert NEWEST_SCORE > 0


def test_no_terms_or_no_match_is_empty(auto_lore: Userlore) -> None:
    _write(auto_lore, "u1", "kayak trip")
    with auto_lore.store.connection() as conn:
        assert PLAN_COLUMNS.hits.search(conn, "u1", "?!", 5, TermStatistics()) == []
        assert PLAN_COLUMNS.hits.search(conn, "u1", "zeppelin", 5, TermStatistics()) == []
        assert PLAN_COLUMNS.hits.search(conn, "u2", "kayak", 5, TermStatistics()) == []


def test_document_frequency_is_exact_up_to_the_cap(auto_lore: Userlore) -> None:
    for i in range(5):
        _write(auto_lore, "u1", f"standup meeting number {i}")
    _write(auto_lore, "u1", "kayak trip")
    stats = TermStatistics()
    with auto_lore.store.connection() as conn:
        meeting = match_expression(conn, "u1", "meeting")
        kayak = match_expression(conn, "u1", "kayak")
        assert meeting and kayak
        assert stats.document_frequency(conn, kayak, cap=3) == 1
        assert stats.document_frequency(conn, meeting, cap=3) == 4  # "more than 3"
        assert stats.document_frequency(conn, meeting, cap=2) == 3  # cached, still "more"
        assert stats.document_frequency(conn, meeting, cap=10) == 5  # counted again, exactly
        assert stats.document_frequency(conn, meeting, cap=3) == 4


def test_words_with_apostrophes_are_found(auto_lore: Userlore) -> None:
    rid = _write(auto_lore, "u1", "Caroline's O'Neil pottery class")
    plan = auto_lore.plan_context(scope="u1", query="What about Caroline's class with O'Neil?")
    assert rid in plan.selected_ids
    recall = auto_lore.memory.recall("u1", "o'neil's caroline's")
    assert [c.id for c in recall.memories] == [rid]


def test_a_rare_word_outweighs_a_common_one(auto_lore: Userlore) -> None:
    """Ranking uses inverse document frequency on every backend (BM25)."""
    rare = _write(auto_lore, "u1", "zeppelin agenda")
    for i in range(6):
        _write(auto_lore, "u1", f"meeting notes number {i}")
    common = _write(auto_lore, "u1", "meeting agenda")  # newer, same length
    with auto_lore.store.connection() as conn:
        hits = RECORD_HITS.search(conn, "u1", "meeting zeppelin", 10, TermStatistics())
    ranked = [row.id for row, _ in hits]
    assert ranked[0] == rare and ranked.index(common) > 0


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_document_frequencies_count_every_uncached_phrase_in_one_statement(
    backend: str, make_lore: Callable[..., Userlore], request: pytest.FixtureRequest
) -> None:
    url = request.getfixturevalue("postgres_url") if backend == "postgres" else "sqlite://"
    lore = make_lore("auto", url)
    for i in range(5):
        _write(lore, "u1", f"standup meeting number {i}")
    _write(lore, "u1", "kayak trip")
    stats = TermStatistics()
    statements: list[str] = []
    engine = lore.memory.store.engine
    with lore.store.connection() as conn:
        phrases = [match_expression(conn, "u1", w) for w in ("meeting", "kayak", "zeppelin")]
        assert all(phrases)
        meeting, kayak, absent = (p for p in phrases if p)

        def seen(*args: Any) -> None:
            statements.append(args[2])

        event.listen(engine, "before_cursor_execute", seen)
        try:
            got = stats.document_frequencies(conn, [meeting, kayak, absent, kayak], cap=3)
            assert got == [4, 1, 0, 1]  # "more than 3", exact, absent, the repeat too
            assert len(statements) == 1
            # Cached counts are served without a statement; absence is counted again.
            assert stats.document_frequencies(conn, [kayak, meeting], cap=3) == [1, 4]
            assert len(statements) == 1
            assert stats.document_frequencies(conn, [absent, kayak], cap=3) == [0, 1]
            assert len(statements) == 2
            # A phrase counted only past a smaller cap is counted again, exactly.
            assert stats.document_frequencies(conn, [meeting], cap=10) == [5]
            assert stats.document_frequency(conn, meeting, cap=10) == 5
            assert len(statements) == 3
        finally:
            event.remove(engine, "before_cursor_execute", seen)
