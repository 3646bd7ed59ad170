"""One vector per indexed field, an item scored by its best field (issue 30, B3).

LangGraph's stores embed every text of every indexed field of a value separately; a query
scores an item by the best of them. The planner still reads one vector per record (the first
indexed text).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import func, select

from userlore import Userlore
from userlore.integrations.langgraph_store import UserloreStore
from userlore.store.schema import FieldVector, RecordVector
from userlore.testing.embeddings import HashingEmbeddings

USER_FIRST = ("{user_id}",)
NS = ("u1", "docs")


def _store(make_lore: Callable[..., Userlore], fields: list[str]) -> UserloreStore:
    index: Any = {"dims": 64, "embed": HashingEmbeddings(dims=64), "fields": fields}
    return UserloreStore(make_lore("auto"), namespace_template=USER_FIRST, index=index)


def _count(store: UserloreStore, table: Any) -> int:
    with store.lore.memory.store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())


def test_a_query_equal_to_any_indexed_field_scores_one(
    make_lore: Callable[..., Userlore],
) -> None:
    store = _store(make_lore, ["key0", "key1", "key3"])
    store.put(NS, "a", {"key0": "red apple orchard", "key1": "blue whale song", "key3": "x y"})
    store.put(NS, "b", {"key0": "green field", "key1": "quiet library", "key3": "blue whale song"})
    store.put(NS, "c", {"key0": "stone bridge", "key1": "old map", "key3": "warm bread"})
    hits = store.search(("u1",), query="blue whale song", limit=10)
    scores = {h.key: h.score for h in hits}
    assert scores["a"] == pytest.approx(1.0, abs=1e-5)  # its second field
    assert scores["b"] == pytest.approx(1.0, abs=1e-5)  # its third field
    assert scores["c"] is not None and scores["c"] < 0.9
    assert [h.key for h in hits][2] == "c"
    # The first field is still the record's one vector (what the planner reads).
    assert _count(store, RecordVector) == 3
    assert _count(store, FieldVector) == 6


def test_fewer_fields_on_a_later_put_leave_no_stale_vector(
    make_lore: Callable[..., Userlore],
) -> None:
    store = _store(make_lore, ["title", "tags[*]"])
    store.put(NS, "a", {"title": "harbour lights", "tags": ["sailing", "night", "fog"]})
    assert _count(store, FieldVector) == 3
    hit = store.search(("u1",), query="fog", limit=1)[0]
    assert hit.key == "a" and hit.score == pytest.approx(1.0, abs=1e-5)
    store.put(NS, "a", {"title": "harbour lights", "tags": ["sailing"]})
    hit = store.search(("u1",), query="fog", limit=1)[0]
    assert hit.score is not None and hit.score < 0.99  # the old "fog" vector no longer counts
    store.put(NS, "b", {"title": "no vector"}, index=False)
    assert {h.key for h in store.search(("u1",), query="no vector", limit=5)} == {"a", "b"}
    assert store.search(("u1",), query="no vector", limit=5)[-1].score is None


def test_a_per_put_field_list_overrides_the_default(make_lore: Callable[..., Userlore]) -> None:
    store = _store(make_lore, ["title"])
    store.put(NS, "a", {"title": "alpha", "body": "mountain river"}, index=["title", "body"])
    store.put(NS, "b", {"title": "mountain river", "body": "alpha"})
    scores = {h.key: h.score for h in store.search(("u1",), query="mountain river", limit=5)}
    assert scores["a"] == pytest.approx(1.0, abs=1e-5)
    assert scores["b"] == pytest.approx(1.0, abs=1e-5)
    only = {h.key: h.score for h in store.search(("u1",), query="alpha", limit=5)}
    assert only["a"] == pytest.approx(1.0, abs=1e-5)
    assert only["b"] is not None and only["b"] < 0.99  # b's body is not indexed


def test_a_scope_searched_without_field_vectors_sees_the_first_ones_written(
    make_lore: Callable[..., Userlore],
) -> None:
    # A search remembers that the scope held no field vectors at its generation; the put that
    # writes the first ones moves the generation, so the next search reads them.
    store = _store(make_lore, ["title", "body"])
    store.put(NS, "a", {"title": "harbour lights"})
    store.put(NS, "b", {"title": "quiet library"})
    assert _count(store, FieldVector) == 0
    assert store.search(("u1",), query="blue whale song", limit=1)[0].score != pytest.approx(1.0)
    store.put(NS, "c", {"title": "stone bridge", "body": "blue whale song"})
    assert _count(store, FieldVector) == 1
    hit = store.search(("u1",), query="blue whale song", limit=1)[0]
    assert hit.key == "c" and hit.score == pytest.approx(1.0, abs=1e-5)


def test_a_filter_that_rejects_the_best_ranked_reads_on_down_the_ranking(
    make_lore: Callable[..., Userlore],
) -> None:
    # Rows are read by id in chunks that start at the limit, from a ranking window of 64: the
    # 70 best-ranked items fail the filter, so the search reads past several chunks and widens
    # the window to fill 3.
    store = _store(make_lore, ["title"])
    for i in range(80):
        words = "blue whale song" if i < 70 else f"item {i} of whale song"
        store.put(NS, f"k{i}", {"title": words, "n": i, "keep": i >= 70})
    hits = store.search(("u1",), query="blue whale song", filter={"keep": True}, limit=3)
    assert len(hits) == 3 and all(h.value["keep"] for h in hits)
    everything = store.search(("u1",), query="blue whale song", limit=80)
    kept = [h.key for h in everything if h.value["keep"]]
    assert [h.key for h in hits] == kept[:3]
    assert [h.score for h in everything] == sorted((h.score for h in everything), reverse=True)
