"""pgvector on a real server: the HNSW index exists, is used, and keeps every scope's hits.

The test command's PostgreSQL ships the ``vector`` extension (``userlore.testing.postgres``), so
these run on it; the same behaviour without the extension (the numpy fallback) is
``test_hybrid.py``'s ``postgres-numpy`` parameter.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from langchain_core.embeddings import Embeddings
from sqlalchemy import text

from tests.contract.test_hybrid import require_pgvector
from userlore import CandidateInput, Userlore
from userlore.sources import ItemListSource, SourceItem
from userlore.store.vectors import VectorIndex, _literal, pgvector_search

CONNECTED = {"memory": {"mode": "auto", "sources": ["session", "curated", "connected"]}}
DIMS = 16


class AxisEmbeddings(Embeddings):
    """``"axis:<i>:<w>:<j>"`` is the unit vector of ``e_i + w·e_j``: geometry a test can state."""

    model_name = "fake:axis"

    def _vector(self, spec: str) -> list[float]:
        _, i, weight, j = spec.split(":")
        vec = np.zeros(DIMS)
        vec[int(i)] += 1.0
        vec[int(j)] += float(weight)
        return [float(x) for x in vec / np.linalg.norm(vec)]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._vector(t.split()[0]) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)


@pytest.fixture
def pg_lore(postgres_databases: object) -> Iterator[Userlore]:
    require_pgvector(postgres_databases)
    url = postgres_databases.fresh()  # type: ignore[attr-defined]
    lore = Userlore.open(url, config=CONNECTED, embeddings=AxisEmbeddings())
    yield lore
    lore.close()


def _ingest(lore: Userlore, scope: str, specs: list[str]) -> None:
    items = [SourceItem(external_id=f"{scope}-{n}", text=f"{s} item") for n, s in enumerate(specs)]
    lore.sources.ingest(scope, ItemListSource("s", items), synthesize=False)


def _index(lore: Userlore) -> VectorIndex:
    index = lore.memory.store.vectors
    assert index is not None
    return index


def test_vectors_live_in_an_hnsw_index_that_answers_the_search(pg_lore: Userlore) -> None:
    _ingest(pg_lore, "u1", [f"axis:0:{w / 10}:1" for w in range(20)])
    index = _index(pg_lore)
    assert index.pgvector and index.iterative_scan
    engine = pg_lore.memory.store.engine
    with engine.connect() as conn:
        indexes = set(
            conn.scalars(text("SELECT indexname FROM pg_indexes WHERE indexdef LIKE '%hnsw%'"))
        )
        filled = conn.scalar(
            text("SELECT count(*) FROM memory_evidence_vectors WHERE embedding IS NOT NULL")
        )
        # 20 rows: PostgreSQL would rather sort the scope's rows (exact); at scale the ordered
        # HNSW scan is the cheaper plan. Forbid the sort to see that plan here.
        conn.execute(text("SET LOCAL enable_sort = off"))
        plan = "\n".join(
            conn.scalars(
                text("EXPLAIN " + str(pgvector_search("evidence"))),
                {"q": "[" + ",".join(["0.25"] * DIMS) + "]", "scope": "u1", "model": "m", "k": 5},
            )
        )
    assert indexes == {"ix_memory_record_vectors_hnsw", "ix_memory_evidence_vectors_hnsw"}
    assert filled == 20
    assert "ix_memory_evidence_vectors_hnsw" in plan
    with engine.connect() as conn:
        found = index.search(conn, "u1", "evidence", index.embed_query("axis:0:0:1"), 3)
    assert [score for _, score in found] == sorted((s for _, s in found), reverse=True)
    assert found[0][1] == pytest.approx(1.0, abs=1e-5)  # the item "axis:0:0.0:1" itself


def test_a_small_scope_keeps_its_hits_beside_a_large_one(pg_lore: Userlore) -> None:
    """One HNSW graph holds every scope: a small scope's far-away vectors can be unreachable
    from the query's neighbourhood, so a scope under ``exact_below`` is scored exactly (numpy);
    a large one is searched in the graph with ``ef_search`` raised to ``k``."""
    _ingest(pg_lore, "big", [f"axis:0:{n / 400}:2" for n in range(400)])  # all near the query
    _ingest(pg_lore, "small", ["axis:1:0.1:3", "axis:1:0.2:3", "axis:3:0.5:1"])  # far from it
    index = _index(pg_lore)
    index.exact_below = 100  # "big" (400) goes to the graph, "small" (3) is scanned
    engine = pg_lore.memory.store.engine
    query = index.embed_query("axis:0:0.01:1")
    with engine.connect() as conn:
        conn.execute(text("SET LOCAL enable_sort = off"))  # the HNSW scan, as at scale
        graph_only = conn.execute(
            pgvector_search("evidence"),
            {"q": _literal(query), "scope": "small", "model": index.model, "k": 3},
        ).all()
        small = index.search(conn, "small", "evidence", query, 3)
        big = index.search(conn, "big", "evidence", query, 60)  # k above the default ef_search
        scopes = set(
            conn.scalars(
                text("SELECT DISTINCT scope FROM knowledge_source_items WHERE id = ANY(:ids)"),
                {"ids": [item_id for item_id, _ in small]},
            )
        )
    assert len(graph_only) < 3  # what the graph alone returns for the small scope
    assert len(small) == 3 and scopes == {"small"}
    assert len(big) == 60


def test_plan_reads_through_hnsw_for_a_large_scope_and_numpy_for_a_small_one(
    pg_lore: Userlore,
) -> None:
    """A scope at ``exact_below`` or more is searched in SQL (no numpy matrix is loaded);
    below it, exactly in numpy."""
    # A sentence with English function words: a bare "axis:4:0:5 lunch plans" once read as
    # Romanian (now English, since the short-segment rule), and the floor refuses a
    # credential-shaped token in text it cannot read (docs/safety.md): not this test's subject.
    pg_lore.write("u1", CandidateInput(kind="note", content="axis:4:0:5 lunch plans with the team"))
    index = _index(pg_lore)
    index.clear()
    index.exact_below = 1
    assert len(pg_lore.plan_context("u1", "axis:4:0.1:5").selected_ids) == 1
    assert ("u1", "record") not in index._cache  # the SQL search answered
    index.exact_below = 2
    assert len(pg_lore.plan_context("u1", "axis:4:0.2:5").selected_ids) == 1
    assert ("u1", "record") in index._cache  # the numpy matrix answered
