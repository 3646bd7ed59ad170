"""The approximate index behind a large scope's matrix (issue 24, item 4).

Recall against exact search is a benchmark figure (``benchmarks/ann.py``); here the behaviour:
a deleted row is never returned, a replaced row answers as its new vector, the index switches on
at the threshold and is built off the request path (exact until then, changes made during the
build included), scopes never share an index, and without the library every search is exact.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from sqlalchemy import Engine, create_engine

from userlore.store import ann_index, vector_matrix
from userlore.store.ann_index import AnnIndex
from userlore.store.engine import setup
from userlore.store.vector_matrix import ScopeMatrix
from userlore.store.vectors import PendingText, VectorIndex

Vector = npt.NDArray[np.float32]
DIMS = 32

pytestmark = pytest.mark.skipif(not ann_index.available(), reason="usearch not installed")


def _unit(rows: Vector) -> Vector:
    out: Vector = (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)
    return out


def _data(n: int, seed: int = 0) -> Vector:
    return _unit(np.random.default_rng(seed).standard_normal((n, DIMS)).astype(np.float32))


def _ready(held: ScopeMatrix, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not held.ann_ready and time.monotonic() < deadline:
        time.sleep(0.01)
    assert held.ann_ready


def _exact(matrix: Vector, query: Vector, k: int) -> list[int]:
    return [int(i) for i in np.argsort(-(matrix @ query), kind="stable")[:k]]


def test_above_the_threshold_search_goes_through_the_index() -> None:
    data = _data(400)
    held = ScopeMatrix(1, [f"r{i}" for i in range(400)], data, ann_above=100)
    _ready(held)
    overlap = 0
    for i in range(0, 400, 8):
        found = held.top(data[i], 10)
        assert found[0] == (f"r{i}", pytest.approx(1.0, abs=1e-5))  # a stored row finds itself
        assert [s for _, s in found] == sorted((s for _, s in found), reverse=True)
        overlap += len({rid for rid, _ in found} & {f"r{j}" for j in _exact(data, data[i], 10)})
    assert held.ann_searches == 50
    assert overlap / 500 >= 0.9


def test_a_search_for_most_of_the_rows_is_exact() -> None:
    data = _data(300)
    held = ScopeMatrix(1, [f"r{i}" for i in range(300)], data, ann_above=50)
    _ready(held)
    everything = held.top(data[0], 2**31 - 1)  # the planner ranks every record this way
    assert [rid for rid, _ in everything] == [f"r{j}" for j in _exact(data, data[0], 300)]
    assert len(held.top(data[0], 200)) == 200
    assert held.ann_searches == 0
    big = ScopeMatrix(1, [f"r{i}" for i in range(2000)], _data(2000), ann_above=50)
    _ready(big)
    assert len(big.top(data[0], 10)) == 10
    assert big.ann_searches == 1


def test_below_the_threshold_no_index_is_built_and_search_is_exact() -> None:
    data = _data(150)
    held = ScopeMatrix(1, [f"r{i}" for i in range(150)], data, ann_above=250)
    time.sleep(0.1)
    assert not held.ann_ready
    assert [rid for rid, _ in held.top(data[3], 5)] == [f"r{j}" for j in _exact(data, data[3], 5)]
    assert held.ann_searches == 0
    more = _data(150, seed=1)
    held.apply(2, [(f"n{i}", v) for i, v in enumerate(more)])  # crosses the threshold
    _ready(held)
    assert held.top(more[7], 3)[0][0] == "n7"
    assert held.ann_searches == 1
    held.apply(3, [], removed=[f"n{i}" for i in range(100)])  # 200 rows: exact again
    assert held.top(data[3], 1)[0][0] == "r3"
    assert held.ann_searches == 1


def test_a_removed_row_is_never_returned() -> None:
    data = _data(300)
    ids = [f"r{i}" for i in range(300)]
    held = ScopeMatrix(1, ids, data, ann_above=50)
    _ready(held)
    # The last row, rows in the middle (the last row moves into their place), a row twice.
    gone = ["r299", "r0", "r150", "r151", "r7", "r7", "absent"]
    held.apply(2, [], removed=gone)
    assert held.size == 295
    for i in (299, 0, 150, 151, 7):
        found = {rid for rid, _ in held.top(data[i], 10)}
        assert f"r{i}" not in found
    # Every remaining row still finds itself, with its own vector, after the moves.
    for i in (298, 1, 149, 152, 8):
        assert held.top(data[i], 1)[0] == (f"r{i}", pytest.approx(1.0, abs=1e-5))
    assert held.ann_searches == 10


def test_a_replaced_row_answers_as_its_new_vector() -> None:
    data = _data(300)
    held = ScopeMatrix(1, [f"r{i}" for i in range(300)], data, ann_above=50)
    _ready(held)
    held.apply(2, [("r5", -data[5])])
    assert held.top(-data[5], 1) == [("r5", pytest.approx(1.0, abs=1e-5))]
    assert "r5" not in {rid for rid, _ in held.top(data[5], 10)}
    held.apply(3, [("r5", data[5])])  # back again: the same label replaced twice
    assert held.top(data[5], 1)[0][0] == "r5"


def test_changes_made_while_the_index_builds_are_in_it(monkeypatch: pytest.MonkeyPatch) -> None:
    copied, go = threading.Event(), threading.Event()

    class Paused(AnnIndex):
        def add(self, labels: Any, vectors: Vector) -> None:
            super().add(labels, vectors)
            if not copied.is_set():  # after the first chunk: the test changes rows meanwhile
                copied.set()
                assert go.wait(10)

    monkeypatch.setattr(vector_matrix, "AnnIndex", Paused)
    monkeypatch.setattr(vector_matrix, "_BUILD_CHUNK", 32)
    data = _data(300)
    held = ScopeMatrix(1, [f"r{i}" for i in range(300)], data, ann_above=50)
    assert copied.wait(10)
    assert held.top(data[3], 1)[0][0] == "r3"  # exact while building
    assert held.ann_searches == 0
    fresh = _data(2, seed=9)
    # r1 was in the copied chunk; r100 is not copied yet; r299 moves into r2's row.
    held.apply(2, [("r1", fresh[0]), ("new", fresh[1])], removed=["r2", "r100"])
    go.set()
    _ready(held)
    assert held.top(fresh[0], 1)[0][0] == "r1"
    assert held.top(fresh[1], 1)[0][0] == "new"
    assert held.top(data[299], 1)[0][0] == "r299"
    for i in (1, 2, 100):
        assert f"r{i}" not in {rid for rid, _ in held.top(data[i], 10)}
    assert held.ann_searches == 6


def test_without_the_library_every_search_is_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ann_index, "available", lambda: False)
    data = _data(200)
    held = ScopeMatrix(1, [f"r{i}" for i in range(200)], data, ann_above=50)
    time.sleep(0.1)
    assert not held.ann_ready
    assert [rid for rid, _ in held.top(data[4], 5)] == [f"r{j}" for j in _exact(data, data[4], 5)]
    assert held.ann_searches == 0


def test_a_closed_matrix_drops_its_index() -> None:
    held = ScopeMatrix(1, [f"r{i}" for i in range(100)], _data(100), ann_above=50)
    _ready(held)
    held.close()
    assert not held.ann_ready
    held.apply(2, [("x", _data(1, seed=3)[0])])  # no new build for a matrix out of the cache
    time.sleep(0.1)
    assert not held.ann_ready


# -- through VectorIndex on a SQLite file --------------------------------------------------------


class _Given:
    """Embeddings that return the vectors a test names by text (``"a:3"``: row 3 of ``a``)."""

    def __init__(self, rows: dict[str, Vector]) -> None:
        self.rows = rows

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._one(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._one(text)

    def _one(self, text: str) -> list[float]:
        name, at = text.split(":")
        return [float(x) for x in self.rows[name][int(at)]]


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    made = create_engine(f"sqlite:///{tmp_path / 'ann.db'}")
    setup(made)
    made.dispose()  # new connections of a plain engine: foreign keys off (no records needed)
    yield made
    made.dispose()


def _put(index: VectorIndex, engine: Engine, scope: str, texts: list[str]) -> None:
    now = datetime.now(UTC)
    with engine.begin() as conn:
        index.write(conn, {("record", scope, t): PendingText(t, 1, now) for t in texts})


def test_scopes_never_share_an_index(engine: Engine) -> None:
    rows = {"a": _data(250, seed=1), "b": _data(250, seed=2)}
    index = VectorIndex(_Given(rows), model="given")  # type: ignore[arg-type]
    index.ann_above = 200
    index.attach(engine)
    for name in rows:
        _put(index, engine, name, [f"{name}:{i}" for i in range(250)])
    with engine.connect() as conn:
        for name, other in (("a", "b"), ("b", "a")):
            index.search(conn, name, "record", rows[name][0], 1)
            held = index._cache[(name, "record")]
            _ready(held)
            before = held.ann_searches
            for i in range(0, 250, 10):
                found = index.search(conn, name, "record", rows[other][i], 10)
                assert len(found) == 10
                assert all(rid.startswith(f"{name}:") for rid, _ in found)
            assert held.ann_searches == before + 25
    assert index._cache[("a", "record")] is not index._cache[("b", "record")]


def test_a_drop_reaches_the_index_without_a_reload(engine: Engine) -> None:
    rows = {"a": _data(250, seed=1)}
    index = VectorIndex(_Given(rows), model="given")  # type: ignore[arg-type]
    index.ann_above = 200
    index.attach(engine)
    _put(index, engine, "u", [f"a:{i}" for i in range(250)])
    with engine.connect() as conn:
        index.search(conn, "u", "record", rows["a"][0], 1)
    held = index._cache[("u", "record")]
    _ready(held)
    with engine.begin() as conn:
        index.drop(conn, "record", "u", "a:17")
    with engine.connect() as conn:
        before = held.ann_searches
        found = index.search(conn, "u", "record", rows["a"][17], 10)
    assert "a:17" not in {rid for rid, _ in found}
    assert index._cache[("u", "record")] is held and held.ann_ready
    assert (index.loads, index.reconciles) == (1, 1)
    assert held.ann_searches == before + 1


def test_opening_builds_a_large_scope_index_before_any_read(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    from userlore.store.vectors import matrices as vectors_module

    rows = {"a": _data(250, seed=1)}
    writer = VectorIndex(_Given(rows), model="given")  # type: ignore[arg-type]
    writer.attach(engine)
    _put(writer, engine, "u", [f"a:{i}" for i in range(250)])
    monkeypatch.setattr(vectors_module, "WARM_MIN_VECTORS", 200)
    monkeypatch.setattr(vectors_module, "_CACHE_BYTES", 1)  # the largest scope still loads
    reader = VectorIndex(_Given(rows), model="given")  # type: ignore[arg-type]
    reader.ann_above = 200
    reader.attach(engine)
    stop = reader.warm(engine)
    try:
        deadline = time.monotonic() + 20
        while reader.loads == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        _ready(reader._cache[("u", "record")])
    finally:
        stop()
    with engine.connect() as conn:
        assert reader.search(conn, "u", "record", rows["a"][5], 1)[0][0] == "a:5"
    assert reader._cache[("u", "record")].ann_searches == 1


def test_a_process_that_exits_during_a_build_exits_cleanly(tmp_path: Path) -> None:
    # A daemon thread still inside usearch's native add when the interpreter finalises makes
    # the process abort ("terminate called without an active exception", exit 134): at exit
    # the build stops after its chunk in flight and is waited for.
    import subprocess
    import sys

    script = tmp_path / "exit_mid_build.py"
    script.write_text(
        "import time\n"
        "import numpy as np\n"
        "from userlore.store.vector_matrix import ScopeMatrix\n"
        "rows = np.random.default_rng(0).standard_normal((40000, 384)).astype(np.float32)\n"
        "rows /= np.linalg.norm(rows, axis=1, keepdims=True)\n"
        "held = ScopeMatrix(1, [f'r{i}' for i in range(len(rows))], rows, ann_above=1000)\n"
        "time.sleep(1.0)  # the build is inside a native add now\n"
        "assert not held.ann_ready\n"
        "print('exiting mid-build', flush=True)\n"
    )
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "exiting mid-build" in done.stdout
    assert "terminate called" not in done.stderr


def test_a_scope_past_the_cache_budget_stays_held_beside_smaller_reads(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A plan reads a scope's record vectors and then its (here empty) evidence vectors. With the
    # record matrix alone past the budget, the evidence read used to evict it: every plan
    # reloaded the whole scope and the index build never finished (found at 1M records).
    from userlore.store.vectors import matrices as vectors_module

    rows = {"a": _data(250, seed=1), "b": _data(20, seed=2)}
    index = VectorIndex(_Given(rows), model="given")  # type: ignore[arg-type]
    index.ann_above = 200
    index.attach(engine)
    _put(index, engine, "u", [f"a:{i}" for i in range(250)])
    _put(index, engine, "v", [f"b:{i}" for i in range(20)])
    monkeypatch.setattr(vectors_module, "_CACHE_BYTES", 1)
    with engine.connect() as conn:
        for _ in range(3):
            assert index.search(conn, "u", "record", rows["a"][3], 1)[0][0] == "a:3"
            index.search(conn, "u", "evidence", rows["a"][3], 1)
        held = index._cache[("u", "record")]
        _ready(held)
        assert index.loads == 2  # the record matrix and the empty evidence one, once each
        # A smaller scope still obeys the budget: it is not kept beside the largest.
        assert index.search(conn, "v", "record", rows["b"][4], 1)[0][0] == "b:4"
        assert ("v", "record") not in index._cache
        assert index.search(conn, "u", "record", rows["a"][7], 1)[0][0] == "a:7"
    assert index._cache[("u", "record")] is held and held.ann_ready
