"""One scope's vectors in memory, updated in place as the scope changes (issue 30, item 6).

A :class:`ScopeMatrix` holds unit rows in a buffer with room to grow, so the write path's
changes reach it as small deltas (append a row, replace a row) instead of a reload of the whole
scope. It remembers the scope generation it reflects; :class:`~userlore.store.vectors.VectorIndex`
loads the rows stamped with a newer one and applies them here.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["ScopeMatrix"]

Vector = npt.NDArray[np.float32]


class ScopeMatrix:
    """Unit rows of one (scope, kind) and their ids; safe to search while it is updated.

    Args:
        generation: The scope generation the rows reflect.
        ids: One id per row.
        matrix: ``(len(ids), dims)`` unit rows.
    """

    def __init__(self, generation: int, ids: Sequence[str], matrix: Vector) -> None:
        self.generation = generation
        self._ids = list(ids)
        self._rows = {item_id: i for i, item_id in enumerate(self._ids)}
        # Room for an eighth more rows: the puts after a load append without copying.
        room = len(self._ids) + max(16, len(self._ids) // 8)
        self._buffer = np.empty((room, matrix.shape[1]), dtype=np.float32)
        self._buffer[: len(self._ids)] = matrix
        self._lock = threading.Lock()

    @property
    def size(self) -> int:
        """How many rows the matrix holds."""
        return len(self._ids)

    @property
    def nbytes(self) -> int:
        """Bytes held, spare room included (what the cache budget counts)."""
        return int(self._buffer.nbytes)

    @property
    def dims(self) -> int:
        return int(self._buffer.shape[1])

    def apply(self, generation: int, rows: Iterable[tuple[str, Vector]]) -> None:
        """Take in the rows written up to ``generation``: replace known ids, append new ones.

        Applying the same rows twice is harmless (a reader may race another one to the delta).
        """
        with self._lock:
            for item_id, vector in rows:
                at = self._rows.get(item_id)
                if at is None:
                    at = len(self._ids)
                    self._grow(at + 1, vector.shape[0])
                    self._ids.append(item_id)
                    self._rows[item_id] = at
                self._buffer[at] = vector
            self.generation = max(self.generation, generation)

    def _grow(self, needed: int, dims: int) -> None:
        if needed <= self._buffer.shape[0]:
            return
        if self._ids and dims != self._buffer.shape[1]:
            raise ValueError("a delta row's size differs from the matrix's")
        # Doubling keeps appends amortised O(dims): a put never copies the scope's matrix.
        room = np.empty((max(needed, 2 * self._buffer.shape[0], 16), dims), dtype=np.float32)
        room[: len(self._ids)] = self._buffer[: len(self._ids)]
        self._buffer = room

    def top(self, query: Vector, k: int) -> list[tuple[str, float]]:
        """The ``k`` rows most similar to ``query``: ``(id, cosine)``, best first."""
        with self._lock:
            count = len(self._ids)
            if count == 0 or k <= 0:
                return []
            scores = self._buffer[:count] @ query
            if k < count:
                best = np.argpartition(-scores, k)[:k]
                best = best[np.argsort(-scores[best], kind="stable")]
            else:
                best = np.argsort(-scores, kind="stable")
            return [(self._ids[i], float(scores[i])) for i in best]
