"""A scope's ranking is a function of that scope's data only, on every backend.

The same records of ``u1`` are written into two databases; one also holds many records of
``u2``, sharing the query's words or not, long or short. ``u1``'s full-text scores, its hit
rows, its plan and its episodic snippets must be identical in both: FTS5's table-wide ``bm25()``
moved them (its record count and average length are every scope's).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from userlore import CandidateInput, Userlore
from userlore.planner.planner import PLAN_COLUMNS
from userlore.store.retrieval import TermStatistics, fulltext_hits

_U1 = [
    "kayak trip to the fjord with my sister",
    "kayak kayak paddle practice every tuesday morning at the lake near home",
    "the fjord was cold and the paddle broke halfway across",
    "sourdough starter needs feeding twice a day",
    "caroline's kayak is red and she keeps it in the garage next to the bikes",
    "paddle board lessons on saturday",
    "a very long note about many unrelated errands groceries laundry bank post office and "
    "finally one kayak rental receipt",
    "我们去西湖划船",
]
_QUERIES = [
    "kayak",
    "kayak fjord",
    "paddle fjord sister",
    "caroline's kayak",
    "西湖划船",
    "sourdough",
]
_TURNS = [
    "I went kayaking on the fjord last summer",
    "my paddle broke on the lake",
    "we bake sourdough on sundays",
]


def _other(kind: str, i: int) -> str:
    if kind == "shared":  # the query's words, in long records
        return f"kayak paddle fjord sourdough note {i} " + "filler words " * (i % 7)
    return f"unrelated errand {i} " + "groceries laundry " * (3 + i % 9)  # other words, long


def _fill(lore: Userlore, other: str | None) -> None:
    for content in _U1:
        lore.write("u1", CandidateInput(kind="note", content=content))
    for text in _TURNS:
        lore.observe("u1", "user", text, "t1")
    if other is None:
        return
    store = lore.memory.store
    with store.transaction() as session:
        for i in range(150):
            store.govern(session, "u2", CandidateInput(kind="note", content=_other(other, i)))
    for i in range(40):
        lore.observe("u2", "user", _other(other, i), "t2")


def _ranking(lore: Userlore) -> list[object]:
    out: list[object] = []
    with lore.store.connection() as conn:
        for query in _QUERIES:
            hits = fulltext_hits(conn, "u1", query, 10, TermStatistics())
            seq_to_id = {
                row.hit_seq: row.id
                for row, _ in PLAN_COLUMNS.hits.search(conn, "u1", query, 10, TermStatistics())
            }
            out.append(sorted((seq_to_id.get(s), v) for s, v in hits.items()))
            rows = PLAN_COLUMNS.hits.search(conn, "u1", query, 10, TermStatistics())
            out.append([(row.id, score) for row, score in rows])
    for query in [*_QUERIES, "what happened to my paddle on the fjord"]:
        plan = lore.plan_context("u1", query)
        out.append([s.id for s in plan.selected])
        out.append([s.item_id for s in plan.snippets])
    return out


@pytest.mark.parametrize("other", ["shared", "disjoint"])
def test_a_scopes_ranking_ignores_other_scopes(
    make_lore: Callable[..., Userlore], other: str
) -> None:
    alone = make_lore("auto", url="sqlite://")
    crowded = make_lore("auto", url="sqlite:///:memory:")
    _fill(alone, None)
    _fill(crowded, other)
    first = _ranking(alone)
    assert all(first[2 * i] for i in range(len(_QUERIES))), "every query finds u1's records"
    assert _ranking(crowded) == first
