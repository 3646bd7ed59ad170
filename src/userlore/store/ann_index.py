"""An approximate (HNSW) index over one scope's vectors, for the SQLite/numpy path (issue 24).

Exact numpy search costs one pass over the scope's matrix per query: about linear past a few
hundred thousand vectors. Above a threshold a :class:`~userlore.store.vector_matrix.ScopeMatrix`
also keeps one of these, built in the background and then updated with every delta the matrix
takes, and answers from it. The graph is `usearch <https://github.com/unum-cloud/usearch>`_
(Apache-2.0; a wheel with run-time SIMD dispatch, so one build runs on any x86-64 or arm64 CPU).

The graph stores its vectors as int8 (a quarter of float32: 1M × 384 is 0.4 GB beside the
matrix's 1.5 GB) and inserts with a small ``ef_construction``: four to five times faster to build
than float32 at 128 on this project's 2-core machine. What that costs in order is taken back by
asking it for more candidates than ``k`` (:func:`candidates`) and re-scoring them against the
matrix's float32 rows (measured: recall@10 0.92 from the graph's own order, ≥ 0.99 re-scored;
``docs/benchmarks.md``, "Approximate vectors on SQLite").

Labels are the matrix's row numbers, so a hit maps back to an id without another lookup. One
index per (scope, kind), never shared: a scope's search cannot meet another scope's vectors.
If usearch cannot be imported, :func:`available` is false and every search stays exact.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["AnnIndex", "available"]

Vector = npt.NDArray[np.float32]
Labels = npt.NDArray[np.uint64]

_UsearchIndex: Any
try:  # optional at run time: without it every search is exact numpy
    from usearch.index import Index as _UsearchIndex
except ImportError:  # pragma: no cover - the tests monkeypatch `available` instead
    _UsearchIndex = None

CONNECTIVITY = 16
"""Edges per node (HNSW ``M``): usearch's default."""
EXPANSION_ADD = 64
"""Candidates kept while inserting (``ef_construction``)."""
EXPANSION_SEARCH = 96
"""Candidates kept while searching (``ef_search``), at least :func:`candidates`."""
STORED = "i8"
"""How the graph stores vectors (the caller re-scores candidates in float32)."""


def candidates(k: int) -> int:
    """How many candidates to ask the graph for, to re-score and keep ``k``."""
    return max(2 * k, k + 10)


def available() -> bool:
    """Whether the ANN library imported (else exact search everywhere)."""
    return _UsearchIndex is not None


class AnnIndex:
    """An HNSW graph of unit vectors scored by inner product (= cosine), labelled by row.

    Not thread-safe by itself: :class:`~userlore.store.vector_matrix.ScopeMatrix` serialises
    changes and searches under its lock.

    Args:
        dims: Vector dimensions.
        threads: Threads usearch may use for a batch :meth:`add` (0: all cores).

    Raises:
        RuntimeError: usearch is not installed (check :func:`available` first).
    """

    def __init__(self, dims: int, threads: int = 1) -> None:
        if _UsearchIndex is None:
            raise RuntimeError("usearch is not installed: approximate search is unavailable")
        self._index: Any = _UsearchIndex(
            ndim=dims,
            metric="ip",
            dtype=STORED,
            connectivity=CONNECTIVITY,
            expansion_add=EXPANSION_ADD,
            expansion_search=EXPANSION_SEARCH,
        )
        self._threads = threads

    def __len__(self) -> int:
        return len(self._index)

    @property
    def nbytes(self) -> int:
        """Bytes the graph and its copy of the vectors hold (counted in the cache budget)."""
        return int(self._index.memory_usage)

    def add(self, labels: Sequence[int] | Labels, vectors: Vector) -> None:
        """Insert rows; a label already present is replaced (removed, then inserted)."""
        keys = np.asarray(labels, dtype=np.uint64)
        if not len(keys):
            return
        present = [int(k) for k in keys if self._index.contains(int(k))]
        if present:
            self._index.remove(present)
        self._index.add(
            keys, np.ascontiguousarray(vectors, dtype=np.float32), threads=self._threads
        )

    def remove(self, labels: Sequence[int]) -> None:
        """Drop rows (absent labels are ignored)."""
        present = [int(k) for k in labels if self._index.contains(int(k))]
        if present:
            self._index.remove(present)

    def search(self, query: Vector, k: int) -> Labels:
        """Labels of about the ``k`` nearest rows by the int8 copy (the caller re-scores)."""
        if k <= 0 or not len(self._index):
            return np.empty(0, dtype=np.uint64)
        found = self._index.search(np.asarray(query, dtype=np.float32), k, exact=False, threads=1)
        keys: Labels = np.asarray(found.keys, dtype=np.uint64)
        return keys

    def tune(self, count: int) -> None:
        """Keep at least ``count`` candidates per search (a large ``k``)."""
        wanted = max(EXPANSION_SEARCH, count)
        if self._index.expansion_search != wanted:
            self._index.expansion_search = wanted
