"""A write never costs the next read a reload (issue 30, item 6).

Each scope's matrix is read whole once; afterwards a put (here or in another process, which
another ``Userlore`` on the same file stands in for) reaches it as a delta of the rows newer
than the generation it holds. Removing a vector makes older matrices compare their ids with the
stored ones (the vectors are not read again).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from userlore import CandidateInput, Userlore
from userlore.store.vector_matrix import ScopeMatrix
from userlore.store.vectors import VectorIndex
from userlore.testing.embeddings import HashingEmbeddings

SYNONYMS = {"salad": "greens", "lunch": "noon", "midday": "noon"}


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'deltas.db'}"


@pytest.fixture
def opened() -> Iterator[list[Userlore]]:
    lores: list[Userlore] = []
    yield lores
    for lore in lores:
        lore.close()


def _open(url: str, opened: list[Userlore]) -> Userlore:
    lore = Userlore.open(
        url, config={"memory": {"mode": "auto"}}, embeddings=HashingEmbeddings(synonyms=SYNONYMS)
    )
    opened.append(lore)
    return lore


def _index(lore: Userlore) -> VectorIndex:
    vectors = lore.memory.store.vectors
    assert vectors is not None
    return vectors


def _nearest(lore: Userlore, query: str) -> list[str]:
    index = _index(lore)
    with lore.memory.store.connection("u1") as conn:
        hits = index.search(conn, "u1", "record", index.embed_query(query), 3)
    return [lore.records.get("u1", rid).content for rid, _ in hits]


def _write(lore: Userlore, content: str) -> str:
    outcome = lore.write("u1", CandidateInput(kind="note", content=content))
    assert outcome.record is not None
    return outcome.record.id


def test_own_writes_reach_the_matrix_without_a_reload(url: str, opened: list[Userlore]) -> None:
    lore = _open(url, opened)
    for n in range(5):
        _write(lore, f"Filler note number {n} about trains")
    _nearest(lore, "trains")
    assert _index(lore).loads == 1
    _write(lore, "Eats greens every day at noon")
    assert _nearest(lore, "salad for lunch")[0] == "Eats greens every day at noon"
    assert _index(lore).loads == 1


def test_another_process_writes_arrive_as_a_delta(url: str, opened: list[Userlore]) -> None:
    reader, writer = _open(url, opened), _open(url, opened)
    _write(writer, "Filler note about trains")
    _nearest(reader, "trains")
    _write(writer, "Eats greens every day at noon")
    assert _nearest(reader, "salad for lunch")[0] == "Eats greens every day at noon"
    assert _index(reader).loads == 1


def test_a_removed_vector_reaches_older_matrices_without_a_reload(
    url: str, opened: list[Userlore]
) -> None:
    reader, writer = _open(url, opened), _open(url, opened)
    greens = _write(writer, "Eats greens every day at noon")
    _write(writer, "Filler note about trains")
    assert _nearest(reader, "salad for lunch")[0] == "Eats greens every day at noon"
    with writer.memory.store.transaction("u1") as session:
        _index(writer).drop(session, "record", "u1", greens)
    assert "Eats greens every day at noon" not in _nearest(reader, "salad for lunch")
    assert _index(reader).loads == 1
    assert _index(reader).reconciles == 1


def test_scope_matrix_replaces_known_ids_and_appends_new_ones() -> None:
    eye = np.eye(4, dtype=np.float32)
    held = ScopeMatrix(1, ["a", "b"], eye[:2])
    held.apply(2, [("b", eye[2]), *[(f"n{i}", eye[3]) for i in range(40)]])
    assert held.size == 42 and held.generation == 2
    assert held.top(eye[2], 1) == [("b", 1.0)]
    assert held.top(eye[0], 1) == [("a", 1.0)]
    held.apply(2, [("b", eye[2])])  # the same delta twice: no new row
    assert held.size == 42


def test_batched_records_get_vectors(url: str, opened: list[Userlore]) -> None:
    from userlore.understanding import BatchItem, govern_upsert_batch

    lore = _open(url, opened)
    items = [
        BatchItem(CandidateInput(kind="note", content=text, canonical_key=f"note/{n}"))
        for n, text in enumerate(["Eats greens every day at noon", "Filler note about trains"])
    ]
    govern_upsert_batch(lore.memory.store, "u1", items)
    assert _nearest(lore, "salad for lunch")[0] == "Eats greens every day at noon"


def test_opening_loads_large_scopes_in_the_background(
    url: str, opened: list[Userlore], monkeypatch: pytest.MonkeyPatch
) -> None:
    import time

    from userlore.store.vectors import matrices as vectors_module

    writer = _open(url, opened)
    for n in range(3):
        _write(writer, f"Filler note number {n} about trains")
    monkeypatch.setattr(vectors_module, "WARM_MIN_VECTORS", 3)
    reader = _open(url, opened)
    deadline = time.monotonic() + 20
    while _index(reader).loads == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _index(reader).loads == 1  # loaded before any read asked
    _nearest(reader, "trains")
    assert _index(reader).loads == 1
