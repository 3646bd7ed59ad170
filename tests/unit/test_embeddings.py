"""Embeddings: resolving a spec, the fake embedder, the vector codec, pgvector statements."""

from __future__ import annotations

import numpy as np
import pytest
from sqlalchemy.dialects import postgresql

from userlore.config import UserContextConfig
from userlore.embeddings import model_name, resolve_embeddings
from userlore.errors import ConfigError, EmbeddingError
from userlore.store.vectors import VectorIndex, pack, pgvector_ddl, pgvector_search, unpack
from userlore.testing.embeddings import HashingEmbeddings


def cosine(a: list[float], b: list[float]) -> float:
    return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))


def test_none_and_instances_pass_through() -> None:
    fake = HashingEmbeddings()
    assert resolve_embeddings(None) is None
    assert resolve_embeddings("none") is None
    assert resolve_embeddings(fake) is fake


@pytest.mark.parametrize("spec", ["nocolon", 42, "nosuchprovider:model-x"])
def test_bad_specs_are_config_errors(spec: object) -> None:
    with pytest.raises(ConfigError):
        resolve_embeddings(spec)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", ["bad", ":model", "openai:", 3])
def test_config_key_is_validated(value: object) -> None:
    with pytest.raises(ConfigError, match="embeddings"):
        UserContextConfig.from_dict({"planner": {"embeddings": value}})


def test_config_key_accepts_local_and_provider() -> None:
    for value in ("local", "none", "openai:text-embedding-3-small"):
        assert UserContextConfig.from_dict({"planner": {"embeddings": value}}).planner.embeddings


def test_model_name_prefers_the_declared_name() -> None:
    assert model_name(HashingEmbeddings(name="fake:a")) == "fake:a"


def test_hashing_embedder_similarity_is_meaningful() -> None:
    emb = HashingEmbeddings(synonyms={"salad": "greens"})
    same = emb.embed_documents(["I eat salads daily", "salad every day I eat"])
    assert cosine(*same) > 0.6
    unrelated = emb.embed_documents(["I eat salads daily", "the quarterly tax report"])
    assert cosine(*unrelated) < 0.2
    synonym = emb.embed_documents(["greens", "salad"])
    assert cosine(*synonym) == pytest.approx(1.0)
    assert emb.calls == [2, 2, 2]


def test_pack_round_trips_float32() -> None:
    vec = np.array([0.25, -1.5, 3.0e-7], dtype=np.float32)
    blob = pack(vec)
    assert len(blob) == 12
    assert np.array_equal(unpack(blob), vec)


def test_model_failures_and_bad_shapes_are_embedding_errors() -> None:
    class Broken(HashingEmbeddings):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            raise RuntimeError("provider down")

    with pytest.raises(EmbeddingError, match="provider down"):
        VectorIndex(Broken()).embed(["x"])

    class Short(HashingEmbeddings):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return [[1.0, 0.0]]

    with pytest.raises(EmbeddingError, match="returned"):
        VectorIndex(Short()).embed(["a", "b"])

    class NotFinite(HashingEmbeddings):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return [[float("nan"), 1.0] for _ in texts]

    with pytest.raises(EmbeddingError, match="non-finite"):
        VectorIndex(NotFinite()).embed(["a"])


def test_pgvector_statements_compile_for_postgresql() -> None:
    dialect = postgresql.dialect()  # type: ignore[no-untyped-call]
    ddl = [str(s.compile(dialect=dialect)) for s in pgvector_ddl(384)]
    assert ddl[0] == (
        "ALTER TABLE memory_record_vectors ADD COLUMN IF NOT EXISTS embedding vector(384)"
    )
    assert "USING hnsw (embedding vector_cosine_ops)" in ddl[1]
    assert any("memory_evidence_vectors" in s for s in ddl)
    compiled = pgvector_search("evidence").compile(dialect=dialect)
    sql = str(compiled)
    assert "FROM memory_evidence_vectors" in sql and "<=>" in sql
    assert "scope = %(scope)s" in sql
    assert set(compiled.params) == {"q", "scope", "model", "k"}


def test_index_search_ranks_by_cosine() -> None:
    """The numpy top-k (argpartition then sort) returns the k best, best first."""
    from sqlalchemy import create_engine

    from userlore.store.engine import setup

    engine = create_engine("sqlite://")
    setup(engine)
    index = VectorIndex(HashingEmbeddings(dims=32))
    rng = np.random.default_rng(7)
    from userlore.store.vectors import PendingText

    texts = [f"text {i} " + " ".join(rng.choice(list("abcdefghij"), 4)) for i in range(30)]
    from datetime import UTC, datetime

    from sqlalchemy import insert

    from userlore.store.schema import KnowledgeSourceItem

    now = datetime.now(UTC)
    with engine.begin() as conn:
        for i, t in enumerate(texts):
            conn.execute(
                insert(KnowledgeSourceItem).values(
                    id=f"src{i}",
                    scope="u",
                    source_instance_id="s",
                    external_id=str(i),
                    content_hash=str(i),
                    text=t,
                    meta={},
                    pipeline="user_understanding",
                    blocked=False,
                    synthesis_state="done",
                    synthesis_attempts=0,
                    created_at=now,
                    updated_at=now,
                )
            )
        index.write(
            conn,
            {("evidence", "u", f"src{i}"): PendingText(t, 0, now) for i, t in enumerate(texts)},
        )
    query = index.embed_query(texts[5])
    matrix = index.embed(texts)
    scores = matrix @ query
    expected = np.sort(scores)[::-1][:4]
    with engine.connect() as conn:
        found = index.search(conn, "u", "evidence", query, 4)
        assert index.search(conn, "other", "evidence", query, 4) == []
    assert np.allclose([score for _, score in found], expected, atol=1e-6)  # the k best, in order
    for rid, score in found:  # each id carries its own text's score
        assert score == pytest.approx(float(scores[int(rid[3:])]), abs=1e-6)
    assert found[0][0] == "src5" and found[0][1] == pytest.approx(1.0, abs=1e-5)
    engine.dispose()
