"""The per-scope matrices held in memory: cached by generation, brought up to date by deltas
(new rows, removed ids), loaded whole once, evicted least recently used, warmed in the background
for large scopes."""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable

import numpy as np
from sqlalchemy import Connection, Engine, bindparam, func, select

from userlore.store.schema import VectorGeneration
from userlore.store.vector_matrix import ScopeMatrix, room_for
from userlore.store.vectors.codec import TABLES, Vector, VectorKind, unpack

__all__ = ["WARM_MIN_VECTORS", "ScopeMatrices"]

log = logging.getLogger("userlore.store.vectors")

_CACHE_BYTES = 512 * 1024 * 1024
"""Most bytes of per-scope matrices kept in memory besides the largest one, which is held even
past it (least recently used scopes go first)."""

_GENERATION = select(VectorGeneration.generation, VectorGeneration.reset).where(
    VectorGeneration.scope == bindparam("scope")
)
"""A scope's ``(generation, reset)``, composed once: every vector search reads it."""

_LOAD_CHUNK = 4096
"""Rows a whole-scope load copies at a time (a few MB of blobs held at once)."""

WARM_MIN_VECTORS = 20_000
"""Scopes this large are loaded in the background when a database opens (:meth:`warm`)."""


class ScopeMatrices:
    """The matrix cache of :class:`~userlore.store.vectors.VectorIndex` (its read side).

    A mixin: :class:`VectorIndex` sets these attributes in its ``__init__``.
    """

    model: str
    dims: int | None
    pgvector: bool
    ann_above: int | None
    loads: int
    reconciles: int
    _cache: OrderedDict[tuple[str, str], ScopeMatrix]
    _loading: dict[tuple[str, str], threading.Lock]
    _lock: threading.Lock

    def _matrix(self, conn: Connection, scope: str, kind: VectorKind) -> ScopeMatrix | None:
        """``scope``'s matrix as of its current generation: cached, updated by the rows newer
        than the cached generation (after a removal, also by the ids no longer stored), or
        (first read) loaded whole, once: a read that finds a load in flight (another read,
        :meth:`warm`) waits for it."""
        key: tuple[str, VectorKind] = (scope, kind)
        known = self._generation(conn, key)
        return None if known is None else self._matrix_at(conn, key, known)

    def _matrix_at(
        self, conn: Connection, key: tuple[str, VectorKind], known: tuple[int, int]
    ) -> ScopeMatrix | None:
        """:meth:`_matrix` with the scope's generation already read (``(generation, reset)``):
        a search of several kinds reads it once."""
        scope, kind = key
        held = self._current(key, *known)
        if held is None:
            with self._loader(key):
                again = self._generation(conn, key)  # what the load this read waited for saw
                if again is None:
                    return None
                known = again
                held = self._current(key, *known)
                if held is None:
                    stale = self._removed_since(key, *known)
                    if stale is not None:
                        held = self._reconcile(conn, key, stale, known[0])
                    else:
                        held = self._load(conn, key, known[0])
        if held.generation < known[0]:
            table, id_column = TABLES[kind]
            delta = conn.execute(
                select(id_column, table.vector).where(
                    table.scope == scope,
                    table.model == self.model,
                    table.generation > held.generation,
                )
            ).all()
            held.apply(known[0], [(str(r[0]), unpack(r[1])) for r in delta])
        return held

    def _generation(self, conn: Connection, key: tuple[str, str]) -> tuple[int, int] | None:
        known = conn.execute(_GENERATION, {"scope": key[0]}).one_or_none()
        if known is None:  # no vectors of any kind: drop whatever the scope had
            with self._lock:
                gone = [self._cache.pop((key[0], kind), None) for kind in TABLES]
            for matrix in gone:
                if matrix is not None:
                    matrix.close()
            return None
        return int(known[0]), int(known[1])

    def _current(self, key: tuple[str, str], generation: int, reset: int) -> ScopeMatrix | None:
        """The cached matrix if deltas can bring it to ``generation`` (no removal since it)."""
        with self._lock:
            held = self._cache.get(key)
            if held is None or not reset <= held.generation <= generation:
                return None
            self._cache.move_to_end(key)
            return held

    def _removed_since(
        self, key: tuple[str, str], generation: int, reset: int
    ) -> ScopeMatrix | None:
        """The cached matrix if vectors were removed since it (``held < reset <= current``).

        Every row written since then is stamped above the held generation, in this generation
        series or, for a purged and refilled scope, a new one (it starts at its ``reset``), so
        the newer rows plus the ids no longer stored bring it up to date.
        """
        with self._lock:
            held = self._cache.get(key)
            if held is None or not held.generation < reset <= generation:
                return None
            return held

    def _reconcile(
        self, conn: Connection, key: tuple[str, VectorKind], held: ScopeMatrix, generation: int
    ) -> ScopeMatrix:
        """Bring a matrix past a removal: drop ids no longer stored, take the newer rows.

        Reads the scope's ids, not its vectors, so a removal in a large scope costs the next
        read an id scan instead of a reload of the matrix and a rebuild of its index.
        """
        table, id_column = TABLES[key[1]]
        # The primary key alone (an index-only scan): a model filter would read every row's
        # vector. The database holds one model's vectors; a reindex rewrites them all.
        stored = {str(r[0]) for r in conn.execute(select(id_column).where(table.scope == key[0]))}
        delta = conn.execute(
            select(id_column, table.vector).where(
                table.scope == key[0],
                table.model == self.model,
                table.generation > held.generation,
            )
        ).all()
        held.apply(
            generation,
            [(str(r[0]), unpack(r[1])) for r in delta],
            removed=[item_id for item_id in held.ids() if item_id not in stored],
        )
        with self._lock:
            self.reconciles += 1
            if key in self._cache:
                self._cache.move_to_end(key)
        return held

    def _loader(self, key: tuple[str, str]) -> threading.Lock:
        with self._lock:
            return self._loading.setdefault(key, threading.Lock())

    def _load(self, conn: Connection, key: tuple[str, VectorKind], generation: int) -> ScopeMatrix:
        ids, buffer = self._read_whole(conn, key)
        if buffer is None:
            buffer = np.zeros((0, self.dims or 1), dtype=np.float32)
        held = ScopeMatrix(generation, ids, buffer, ann_above=self.ann_above, adopt=True)
        dropped: list[ScopeMatrix] = []
        with self._lock:
            self.loads += 1  # counted once the matrix is there to search
            replaced = self._cache.get(key)
            if replaced is not None:
                dropped.append(replaced)
            self._cache[key] = held
            self._cache.move_to_end(key)
            dropped.extend(self._evict())
        for old in dropped:
            old.close()  # stops its index build, frees the index
        return held

    def _evict(self) -> list[ScopeMatrix]:
        """Under the lock: take least recently used matrices out until those left, the largest
        one aside, fit :data:`_CACHE_BYTES`; returns them (the caller closes them).

        The largest is exempt because it alone may exceed the budget (:meth:`warm` loads it
        regardless): counting it let any second matrix of the same process, even the empty
        evidence matrix every plan reads, evict a 1M-vector scope and stop its index build, so
        each plan reloaded the whole scope (``docs/benchmarks.md``, "The plan at 1M records").
        """
        sizes = {key: held.nbytes for key, held in self._cache.items()}
        if len(sizes) < 2:
            return []
        largest = max(sizes, key=lambda key: sizes[key])
        total = sum(sizes.values()) - sizes[largest]
        evicted: list[ScopeMatrix] = []
        for key in list(self._cache):  # least recently used first
            if total <= _CACHE_BYTES:
                break
            if key != largest:
                evicted.append(self._cache.pop(key))
                total -= sizes[key]
        return evicted

    def _read_whole(
        self, conn: Connection, key: tuple[str, VectorKind]
    ) -> tuple[list[str], Vector | None]:
        """Every stored vector of ``key``: the ids, and a buffer with room whose first rows are
        the vectors (``None`` when there are none).

        The first read of a large scope (issue 30, cold start): the count first (the scope's
        index alone), so each chunk of rows is copied once, straight into the buffer; the
        driver's rows are read as they come, without a result row object per vector, and no
        whole-scope list of rows or joined copy is ever held.
        """
        table, id_column = TABLES[key[1]]
        expected = conn.execute(
            select(func.count()).select_from(table).where(table.scope == key[0])
        ).scalar_one()
        result = conn.execute(
            select(id_column, table.vector).where(table.scope == key[0], table.model == self.model)
        )
        ids: list[str] = []
        buffer: Vector | None = None
        try:
            while chunk := result.cursor.fetchmany(_LOAD_CHUNK):
                block = np.frombuffer(b"".join(row[1] for row in chunk), dtype="<f4")
                block = block.reshape(len(chunk), -1)
                at, end = len(ids), len(ids) + len(chunk)
                if buffer is None:
                    buffer = np.empty((room_for(max(expected, end)), block.shape[1]), np.float32)
                elif end > buffer.shape[0]:  # rows the count did not see: grow, as a put would
                    grown = np.empty((room_for(2 * end), buffer.shape[1]), np.float32)
                    grown[:at] = buffer[:at]
                    buffer = grown
                buffer[at:end] = block
                ids.extend(row[0] for row in chunk)
        finally:
            result.close()
        return ids, buffer

    def warm(self, engine: Engine) -> Callable[[], None]:
        """Load the largest scopes' matrices in a background thread, so opening a database
        does not stall the first read of a large scope (that read waits for the load in flight
        at most, never loads twice). Returns the function that stops it (``Userlore.close``).

        Only scopes of at least :data:`WARM_MIN_VECTORS` vectors, within the cache budget (the
        largest one always: a scope past the approximate index's threshold then builds it); not
        for an in-memory SQLite database (one shared connection) or pgvector (SQL searches).
        """
        memory = engine.dialect.name == "sqlite" and engine.url.database in (None, "", ":memory:")
        if memory or self.pgvector:
            return lambda: None
        stop = threading.Event()
        thread = threading.Thread(
            target=self._warm, args=(engine, stop), name="userlore-vectors-warm", daemon=True
        )
        thread.start()

        def close() -> None:
            stop.set()
            thread.join(timeout=30)

        return close

    def _warm(self, engine: Engine, stop: threading.Event) -> None:
        budget = _CACHE_BYTES
        warmed = False
        try:
            with engine.connect() as conn:
                for kind, (table, _) in TABLES.items():
                    largest = conn.execute(
                        select(table.scope, func.count(), func.max(table.dims))
                        .where(table.model == self.model)
                        .group_by(table.scope)
                        .having(func.count() >= WARM_MIN_VECTORS)
                        .order_by(func.count().desc())
                        .limit(16)
                    ).all()
                    for scope, count, dims in largest:
                        budget -= int(count) * int(dims) * 4
                        # The largest scope is loaded even past the budget (its first read
                        # would load it anyway); its approximate index builds from there.
                        if stop.is_set() or (budget < 0 and warmed):
                            return
                        warmed = True
                        self._matrix(conn, str(scope), kind)
                        conn.rollback()  # end the read transaction: writers' WAL can checkpoint
        except Exception:  # warming is an optimisation: a read loads what it needs itself
            log.debug("warming vector matrices failed", exc_info=True)

    def clear(self) -> None:
        """Drop every in-memory matrix (the next search reloads)."""
        with self._lock:
            dropped = list(self._cache.values())
            self._cache.clear()
        for old in dropped:
            old.close()
