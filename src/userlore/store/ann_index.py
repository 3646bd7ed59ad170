"""An approximate (HNSW) index over one scope's vectors, for the SQLite/numpy path (issue 24).

Exact numpy search costs one pass over the scope's matrix per query: about linear past a few
hundred thousand vectors. Above a threshold a :class:`~userlore.store.vector_matrix.ScopeMatrix`
also keeps one of these, built in the background and then updated with every delta the matrix
takes, and answers from it. The graph is `usearch <https://github.com/unum-cloud/usearch>`_
(Apache-2.0; a wheel with run-time SIMD dispatch, so one build runs on any x86-64 or arm64 CPU).

The graph keeps float32 copies and inserts with ``ef_construction`` 64 (half pgvector's
default build cost at 128, measured without loss at recall@10 on 384-d data). Smaller copies were
measured and rejected: on tight, near-duplicate clusters (pgvector_search.py's set) int8 kept
recall@10 0.21 and float16 0.67 with 2k candidates re-scored in float32, against 0.97 for
float32 (``docs/benchmarks.md``, "Approximate vectors on SQLite"). Candidates (:func:`candidates`,
more than ``k``) are re-scored against the matrix's rows, so a score is always the exact cosine
of the stored vector.

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
EXPANSION_SEARCH = 256
"""Candidates kept while searching (``ef_search``), at least :func:`candidates`: on tight
clusters (30k, 100 per cluster) recall@10 was 0.976 at 96 with 20 candidates, 0.997 at 256 with
100, for 0.16 → 0.41 ms a search."""
STORED = "f32"
"""How the graph stores vectors: int8 and float16 lose near-duplicates (module docstring)."""


def candidates(k: int) -> int:
    """How many candidates to ask the graph for, to re-score and keep ``k``."""
    return max(10 * k, 100)


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
