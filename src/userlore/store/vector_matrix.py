"""One scope's vectors in memory, updated in place as the scope changes (issue 30, item 6).

A :class:`ScopeMatrix` holds unit rows in a buffer with room to grow, so the write path's
changes reach it as small deltas (append a row, replace a row, remove a row) instead of a reload
of the whole scope. It remembers the scope generation it reflects;
:class:`~userlore.store.vectors.VectorIndex` loads the rows stamped with a newer one and applies
them here.

Past :attr:`ScopeMatrix.ann_above` rows it also keeps an approximate index
(:class:`~userlore.store.ann_index.AnnIndex`, issue 24 item 4): built in a background thread
once the scope is that large (searches stay exact until it is ready, so opening a large scope
never waits for a build), then changed by every delta exactly as the rows are. A search through
it re-scores its candidates against the rows, so a replaced vector scores as its new self and a
removed one, gone from both, is never returned.
"""

from __future__ import annotations

import atexit
import logging
import threading
from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from userlore.store import ann_index
from userlore.store.ann_index import AnnIndex

__all__ = ["ANN_ABOVE", "ScopeMatrix", "room_for"]

Vector = npt.NDArray[np.float32]
log = logging.getLogger(__name__)

ANN_ABOVE = 20_000
"""Rows from which a scope is searched through its approximate index (below: exact numpy, which
costs about 2 ms at 20k × 384 and is never wrong)."""
_BUILD_CHUNK = 4096
"""Rows copied per lock hold while building: a search waits at most one small copy."""
_BUILD_THREADS = 1
"""Threads a background build uses: one, so requests keep the other core of a small machine."""
_BUILDS = threading.Semaphore(1)
_EXITING = threading.Event()
_RUNNING: set[threading.Thread] = set()
_RUNNING_LOCK = threading.Lock()


def _finish_builds() -> None:
    """At interpreter exit: no build starts another chunk, and the chunk in flight is waited
    for (a native ``add`` still running while the interpreter finalises aborts the process)."""
    _EXITING.set()
    with _RUNNING_LOCK:
        running = list(_RUNNING)
    for thread in running:
        thread.join(timeout=60)


atexit.register(_finish_builds)
"""One build at a time per process (each holds a copy of its scope's vectors)."""


def room_for(rows: int) -> int:
    """Rows a matrix of ``rows`` vectors allocates: an eighth more, so the puts after a load
    append without copying."""
    return rows + max(16, rows // 8)


class ScopeMatrix:
    """Unit rows of one (scope, kind) and their ids; safe to search while it is updated.

    Args:
        generation: The scope generation the rows reflect.
        ids: One id per row.
        matrix: ``(len(ids), dims)`` unit rows (copied into a buffer with room to grow).
        ann_above: Rows from which to keep and search an approximate index (``None``: never).
        adopt: ``matrix`` already is such a buffer: float32, C-ordered, its first ``len(ids)``
            rows the vectors and the rest room; kept as it is (a load fills one in place, so
            a large scope's vectors are not copied a second time).
    """

    def __init__(
        self,
        generation: int,
        ids: Sequence[str],
        matrix: Vector,
        *,
        ann_above: int | None = None,
        adopt: bool = False,
    ) -> None:
        self.generation = generation
        self._ids = list(ids)
        self._rows = dict(zip(self._ids, range(len(self._ids)), strict=True))
        if adopt:
            if (
                matrix.dtype != np.float32
                or matrix.ndim != 2
                or not matrix.flags.c_contiguous
                or not matrix.flags.writeable
                or matrix.shape[0] < len(self._ids)
            ):
                raise ValueError("an adopted buffer must be writable C-ordered float32 rows")
            self._buffer = matrix
        else:
            self._buffer = np.empty((room_for(len(self._ids)), matrix.shape[1]), dtype=np.float32)
            self._buffer[: len(self._ids)] = matrix
        self._lock = threading.Lock()
        self.ann_above = ann_above
        """Rows from which searches go through the approximate index once it is built."""
        self._ann: AnnIndex | None = None
        self._building = False
        self._touched: set[int] | None = None  # rows changed while a build copies them
        self._closed = False
        self.ann_searches = 0
        """Searches the approximate index answered (the rest were exact)."""
        with self._lock:
            start = self._should_build()
        if start:
            self._start_build()

    @property
    def size(self) -> int:
        """How many rows the matrix holds."""
        return len(self._ids)

    @property
    def nbytes(self) -> int:
        """Bytes held, spare room and the approximate index included (the cache budget)."""
        ann = self._ann
        return int(self._buffer.nbytes) + (ann.nbytes if ann is not None else 0)

    @property
    def dims(self) -> int:
        return int(self._buffer.shape[1])

    @property
    def ann_ready(self) -> bool:
        """Whether the approximate index is built (searches past :attr:`ann_above` use it)."""
        return self._ann is not None

    def ids(self) -> list[str]:
        """The ids held, in row order (a copy)."""
        with self._lock:
            return list(self._ids)

    def apply(
        self, generation: int, rows: Iterable[tuple[str, Vector]], removed: Iterable[str] = ()
    ) -> None:
        """Take in the changes up to ``generation``: drop ``removed`` ids, replace known ids,
        append new ones (the approximate index, if any, changes the same way).

        Applying the same rows twice is harmless (a reader may race another one to the delta).
        """
        with self._lock:
            for item_id in removed:
                self._remove(item_id)
            for item_id, vector in rows:
                at = self._rows.get(item_id)
                if at is None:
                    at = len(self._ids)
                    self._grow(at + 1, vector.shape[0])
                    self._ids.append(item_id)
                    self._rows[item_id] = at
                self._buffer[at] = vector
                self._changed(at)
            self.generation = max(self.generation, generation)
            start = self._should_build()
        if start:
            self._start_build()

    def _remove(self, item_id: str) -> None:
        """Drop a row by moving the last row into its place (the matrix stays dense)."""
        at = self._rows.pop(item_id, None)
        if at is None:
            return
        last = len(self._ids) - 1
        if at != last:
            moved = self._ids[last]
            self._buffer[at] = self._buffer[last]
            self._ids[at] = moved
            self._rows[moved] = at
        self._ids.pop()
        if self._ann is not None:
            self._ann.remove([last])
        self._changed(at if at != last else None)
        if self._touched is not None:
            self._touched.add(last)

    def _changed(self, at: int | None) -> None:
        """Row ``at`` holds a new vector: the index (built or building) follows."""
        if at is None:
            return
        if self._ann is not None:
            self._ann.add([at], self._buffer[at : at + 1])
        if self._touched is not None:
            self._touched.add(at)

    def _grow(self, needed: int, dims: int) -> None:
        if needed <= self._buffer.shape[0]:
            return
        if self._ids and dims != self._buffer.shape[1]:
            raise ValueError("a delta row's size differs from the matrix's")
        # Doubling keeps appends amortised O(dims): a put never copies the scope's matrix.
        room = np.empty((max(needed, 2 * self._buffer.shape[0], 16), dims), dtype=np.float32)
        room[: len(self._ids)] = self._buffer[: len(self._ids)]
        self._buffer = room

    # -- the approximate index ------------------------------------------------------------------

    def _should_build(self) -> bool:
        """Under the lock: whether to start a build now (and mark one started)."""
        if (
            self.ann_above is None
            or self._ann is not None
            or self._building
            or self._closed
            or len(self._ids) < self.ann_above
            or not ann_index.available()
        ):
            return False
        self._building = True
        self._touched = set()
        return True

    def _start_build(self) -> None:
        thread = threading.Thread(target=self._build, name="userlore-ann-build", daemon=True)
        with _RUNNING_LOCK:
            _RUNNING.add(thread)
        thread.start()

    def _build(self) -> None:
        """Index the rows chunk by chunk off the lock, then, under it, redo every row that
        changed meanwhile and install the index (searches were exact until then)."""
        try:
            with _BUILDS:
                index = AnnIndex(self.dims, threads=_BUILD_THREADS)
                with self._lock:
                    count = len(self._ids)
                for start in range(0, count, _BUILD_CHUNK):
                    with self._lock:
                        end = min(start + _BUILD_CHUNK, len(self._ids))
                        if self._closed or _EXITING.is_set() or start >= end:
                            break
                        chunk = self._buffer[start:end].copy()
                    index.add(np.arange(start, end, dtype=np.uint64), chunk)
                with self._lock:
                    if self._closed or _EXITING.is_set() or self._touched is None:
                        return
                    size = len(self._ids)
                    redo = self._touched | set(range(size, count))
                    index.remove(sorted(label for label in redo if label >= size))
                    keep = sorted(label for label in redo if label < size)
                    if keep:
                        index.add(keep, self._buffer[keep])
                    self._ann = index
        except Exception:  # the index is an optimisation: searches stay exact without it
            log.warning("building the approximate vector index failed", exc_info=True)
        finally:
            with self._lock:
                self._building = False
                self._touched = None
            with _RUNNING_LOCK:
                _RUNNING.discard(threading.current_thread())

    def close(self) -> None:
        """Stop a build in flight and drop the index (the matrix left the cache)."""
        with self._lock:
            self._closed = True
            self._ann = None

    # -- search ---------------------------------------------------------------------------------

    def top(self, query: Vector, k: int, *, exact: bool = False) -> list[tuple[str, float]]:
        """The ``k`` rows most similar to ``query``: ``(id, cosine)``, best first.

        Exact below :attr:`ann_above` rows, before the approximate index is built, when ``k``
        asks for a large part of the rows, or when ``exact`` (a ranking read in windows must
        not change order between them); otherwise the index's candidates (more than ``k``)
        re-scored against the rows, best ``k`` kept.
        """
        with self._lock:
            count = len(self._ids)
            if count == 0 or k <= 0:
                return []
            ann = self._ann
            wanted = ann_index.candidates(k)
            # A search for most of the scope (a ranking of every record) is exact: the graph
            # would visit as much and could miss some.
            approximate = self.ann_above is not None and self.ann_above <= count
            if ann is not None and approximate and not exact and wanted * 2 <= count:
                ann.tune(wanted)
                labels = ann.search(query, wanted).astype(np.intp)
                labels = labels[labels < count]
                if len(labels) >= min(k, count):
                    self.ann_searches += 1
                    scores = self._buffer[labels] @ query
                    order = np.argsort(-scores, kind="stable")[:k]
                    return [(self._ids[labels[i]], float(scores[i])) for i in order]
            scores = _scores(self._buffer[:count], query)
            if k < count:
                best = np.argpartition(-scores, k)[:k]
                best = best[np.argsort(-scores[best], kind="stable")]
            else:
                best = np.argsort(-scores, kind="stable")
            # Plain Python ints and floats, not one numpy scalar per row: the list of a ranking
            # of every row of a 100k scope takes ~31 ms instead of ~40 (measured under load).
            ids = self._ids
            return [(ids[i], v) for i, v in zip(best.tolist(), scores[best].tolist(), strict=True)]


def _scores(rows: Vector, query: Vector) -> Vector:
    """Every row's dot product with ``query``, on the calling thread.

    ``rows @ query`` hands a matrix-vector product to OpenBLAS, which splits it over its thread
    pool; on a busy machine (a server's other requests, other processes) the call then waits
    for a second thread to be scheduled: 24-27 ms p50 at 10k x 256 against 0.44 ms on one
    thread (measured under load). The product is memory-bound, so one thread loses little when
    the machine is idle, and ``einsum`` without ``optimize`` never calls BLAS.
    """
    scores: Vector = np.einsum("ij,j->i", rows, query)
    return scores
