"""Stored embeddings and the per-scope matrices that score them (issue 13).

Every record version and every evidence item (an observed turn or a source item, already
redacted) gets one unit vector, written by the one write path: :meth:`VectorIndex.stage` queues
the text inside the unit of work and all queued texts are embedded in **one** batched call just
before the transaction commits; if the model fails, the whole write rolls back
(:class:`~userlore.errors.EmbeddingError`), so a record never exists half-indexed by its own
write.

Vectors are float32 little-endian bytes with the model name and dimensions beside them; the
``embedding_model`` row names the database's one model, and a different configured model is an
:class:`~userlore.errors.EmbeddingMismatchError`, never garbage scores (``userlore reindex``
re-embeds). Reads score with numpy over a per-scope matrix held in memory
(:class:`~userlore.store.vector_matrix.ScopeMatrix`). Every vector write, by any process, bumps
the scope's generation and stamps its rows with it; a reader whose matrix is older loads only the
newer rows and updates the matrix in place (append, replace), so a write never costs the next
read a reload. Removing a vector moves the scope's ``reset`` mark: an older matrix compares its
ids with the stored ones and drops the missing (no reload of the vectors). A scope of
:attr:`VectorIndex.ann_above` vectors or more is searched through an approximate (HNSW) index
that the matrix keeps in step with those deltas (:mod:`userlore.store.ann_index`).
On PostgreSQL with the ``vector`` extension the vectors are also kept in a ``vector`` column with
an HNSW index and searched in SQL (:func:`pgvector_ddl`, :func:`pgvector_search`).
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, cast

import numpy as np
import numpy.typing as npt
from langchain_core.embeddings import Embeddings
from sqlalchemy import Connection, Engine, Table, TextClause, delete, event, func, select, text
from sqlalchemy.orm import Session

from userlore.embeddings import model_name
from userlore.errors import EmbeddingError, EmbeddingMismatchError
from userlore.store.concurrency import dialect_insert
from userlore.store.schema import (
    EmbeddingModel,
    EvidenceVector,
    FieldVector,
    RecordVector,
    VectorGeneration,
)
from userlore.store.vector_matrix import ANN_ABOVE, ScopeMatrix

__all__ = [
    "WARM_MIN_VECTORS",
    "PendingText",
    "VectorIndex",
    "VectorKind",
    "bump",
    "mark_removed",
    "pack",
    "pgvector_ddl",
    "pgvector_scope_size",
    "pgvector_search",
    "pgvector_tuning",
    "unpack",
]

VectorKind = Literal["record", "evidence", "field"]
"""``field``: a store item's further indexed texts, ``<record_id>#<n>`` (:class:`FieldVector`)."""
log = logging.getLogger(__name__)
Vector = npt.NDArray[np.float32]

_PENDING = "userlore.vectors.pending"
_CACHE_BYTES = 512 * 1024 * 1024
"""Most bytes of per-scope matrices kept in memory (least recently used scopes go first)."""

_MODEL = cast(Table, EmbeddingModel.__table__)
_GENERATIONS = cast(Table, VectorGeneration.__table__)

_TABLES: dict[VectorKind, tuple[Any, Any]] = {
    "record": (RecordVector, RecordVector.record_id),
    "evidence": (EvidenceVector, EvidenceVector.source_item_id),
    "field": (FieldVector, FieldVector.field_id),
}


def pack(vector: Vector) -> bytes:
    """A vector as the stored float32 little-endian bytes."""
    return np.asarray(vector, dtype="<f4").tobytes()


def unpack(blob: bytes) -> Vector:
    """Stored bytes back as a float32 vector."""
    return np.frombuffer(blob, dtype="<f4").astype(np.float32)


def pgvector_ddl(dims: int) -> list[TextClause]:
    """The ``vector`` columns and HNSW (cosine) indexes, once the dimensions are known."""
    statements = []
    for table in ("memory_record_vectors", "memory_evidence_vectors"):
        statements.append(
            text(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS embedding vector({int(dims)})")
        )
        statements.append(
            text(
                f"CREATE INDEX IF NOT EXISTS ix_{table}_hnsw ON {table} "
                "USING hnsw (embedding vector_cosine_ops)"
            )
        )
    return statements


def pgvector_tuning(iterative: bool) -> TextClause:
    """Settings for one search transaction: ``ef_search`` (candidates kept) ≥ ``k``, and
    pgvector ≥ 0.8's iterative scan.

    HNSW finds ``ef_search`` nearest vectors of **every** scope, then the scope filter drops the
    others': without an iterative scan a scope whose vectors are not among the nearest overall
    would get fewer than ``k`` hits, or none. The iterative scan keeps walking the graph until
    ``k`` rows pass the filter (``relaxed_order``: the caller re-sorts by score).
    """
    iterate = ", set_config('hnsw.iterative_scan', 'relaxed_order', true)" if iterative else ""
    return text(f"SELECT set_config('hnsw.ef_search', :ef, true){iterate}")


def pgvector_search(kind: VectorKind) -> TextClause:
    """Nearest vectors of one scope by cosine distance (pgvector's ``<=>``), best first."""
    table = "memory_record_vectors" if kind == "record" else "memory_evidence_vectors"
    column = "record_id" if kind == "record" else "source_item_id"
    return text(
        f"SELECT {column} AS id, 1 - (embedding <=> CAST(:q AS vector)) AS score FROM {table} "
        "WHERE scope = :scope AND model = :model AND embedding IS NOT NULL "
        "ORDER BY embedding <=> CAST(:q AS vector) LIMIT :k"
    )


def pgvector_scope_size(kind: VectorKind) -> TextClause:
    """How many vectors ``scope`` has, counted up to ``:cap`` (an index-only scan of ≤ cap)."""
    table = "memory_record_vectors" if kind == "record" else "memory_evidence_vectors"
    return text(
        f"SELECT count(*) FROM (SELECT 1 FROM {table} WHERE scope = :scope LIMIT :cap) AS s"
    )


def _pgvector_set(kind: VectorKind) -> TextClause:
    table = "memory_record_vectors" if kind == "record" else "memory_evidence_vectors"
    column = "record_id" if kind == "record" else "source_item_id"
    return text(
        f"UPDATE {table} SET embedding = CAST(:v AS vector) WHERE scope = :scope AND {column} = :id"
    )


_EXACT_BELOW = 10_000
"""Vectors of one scope below which search is exact (numpy) even when pgvector is there."""
_EF_SEARCH = 40
"""pgvector's default ``hnsw.ef_search``; raised to ``k`` when a search asks for more."""
_EF_SEARCH_MAX = 1000
"""pgvector's largest ``hnsw.ef_search``."""


def _version(text_version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text_version.split(".")[:2] if part.isdigit())


def _literal(vector: Vector) -> str:
    return "[" + ",".join(f"{x:.7g}" for x in vector.tolist()) + "]"


@dataclass(frozen=True, slots=True)
class PendingText:
    """A text waiting to be embedded: its content, record version (0 for evidence), time."""

    text: str
    version: int
    now: datetime


_GENERATION_START = 1 << 30
"""A new generation row starts below this (random): room for a billion writes in 32 bits."""

WARM_MIN_VECTORS = 20_000
"""Scopes this large are loaded in the background when a database opens (:meth:`warm`)."""

_QUERY_CACHE = 64
"""Recent query vectors kept per index (a plan asks twice for the same query)."""


class VectorIndex:
    """One embedding model bound to the database: writes vectors and searches them.

    Args:
        embeddings: The LangChain ``Embeddings`` that makes every vector.
        model: The name recorded with the vectors (default: derived from ``embeddings``).
    """

    def __init__(self, embeddings: Embeddings, model: str | None = None) -> None:
        self.embeddings = embeddings
        self.model = model or model_name(embeddings)
        self.dims: int | None = None
        """The database's dimensions, once known (read at :meth:`attach`, set by a write)."""
        self.pgvector = False
        """Whether PostgreSQL has the ``vector`` extension (then SQL does the search)."""
        self.exact_below = _EXACT_BELOW
        """On pgvector, a scope with fewer vectors than this is scored exactly in numpy.

        One HNSW graph holds every scope and the scope filter applies to what it returns: a
        small scope's vectors may be unreachable from another scope's neighbourhood (measured:
        3 vectors beside 400 nearer ones were never returned, even at ``ef_search`` 400 with an
        iterative scan). A small scope therefore never depends on the graph, and the cached
        matrix is also the fastest exact path (``docs/postgres.md``, figures).
        """
        self.iterative_scan = False
        """Whether that pgvector (≥ 0.8) can keep scanning until a scope's ``k`` hits pass."""
        self.ann_above = ANN_ABOVE
        """Vectors of one scope from which the numpy path searches an approximate index
        (built in the background; exact until it is ready). ``None``: always exact."""
        self._cache: OrderedDict[tuple[str, str], ScopeMatrix] = OrderedDict()
        self.loads = 0
        """How many times a scope's matrix was read whole (first read, a purged scope); every
        other change reaches a held matrix as a delta."""
        self.reconciles = 0
        """How many times a removal reached a held matrix by comparing ids (no vectors read)."""
        self._loading: dict[tuple[str, str], threading.Lock] = {}
        self._lock = threading.Lock()
        # A plan embeds its query once for records and once for episodic evidence: the second
        # call is answered from here (a few recent queries, per process).
        self._queries: OrderedDict[str, Vector] = OrderedDict()

    # -- the database's model -----------------------------------------------------------------

    def attach(self, engine: Engine) -> None:
        """Check the database's recorded model against this one (at open).

        Raises:
            EmbeddingMismatchError: the database holds vectors of another model or size.
        """
        with engine.connect() as conn:
            row = conn.execute(
                select(EmbeddingModel.model, EmbeddingModel.dims).where(EmbeddingModel.id == 1)
            ).one_or_none()
        self.attach_pgvector(engine)
        if row is not None:
            self._check(row.model, row.dims)

    def attach_pgvector(self, engine: Engine) -> None:
        """Note whether the server has pgvector (then the ``vector`` column is kept and used)."""
        if engine.dialect.name != "postgresql":
            return
        with engine.connect() as conn:
            version = conn.execute(
                text("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
            ).scalar_one_or_none()
        self.pgvector = version is not None
        self.iterative_scan = version is not None and _version(version) >= (0, 8)

    def _check(self, model: str, dims: int) -> None:
        if model != self.model or (self.dims is not None and dims != self.dims):
            raise EmbeddingMismatchError(
                f"the database's vectors were made by {model!r} ({dims} dimensions) but the "
                f"configured embeddings are {self.model!r}"
                + (f" ({self.dims} dimensions)" if self.dims is not None else "")
                + "; run `userlore reindex` to re-embed with the configured model"
            )
        self.dims = dims

    def record_model(self, executor: Session | Connection, dims: int, now: datetime) -> None:
        """Record this model as the database's (first vectors), or check it matches."""
        row = executor.execute(
            select(EmbeddingModel.model, EmbeddingModel.dims).where(EmbeddingModel.id == 1)
        ).one_or_none()
        if row is not None:
            self._check(row.model, row.dims)
            if dims != row.dims:
                self._check(row.model, dims)  # same name, other size: still a mismatch
            return
        claimed = executor.execute(
            dialect_insert(executor, _MODEL)
            .values(id=1, model=self.model, dims=dims, created_at=now)
            .on_conflict_do_nothing(index_elements=["id"])
            .returning(_MODEL.c.id)
        ).first()
        if claimed is None:  # another writer recorded the first vectors' model just now
            self.record_model(executor, dims, now)
            return
        self.dims = dims
        if self.pgvector:
            for statement in pgvector_ddl(dims):
                executor.execute(statement)

    # -- writes -------------------------------------------------------------------------------

    def stage(
        self,
        session: Session,
        kind: VectorKind,
        scope: str,
        item_id: str,
        content: str,
        now: datetime,
        *,
        version: int = 0,
    ) -> None:
        """Queue ``content`` to be embedded when ``session``'s transaction commits (batched)."""
        pending: dict[tuple[str, str, str], PendingText] | None = session.info.get(_PENDING)
        if pending is None:
            pending = session.info[_PENDING] = {}
            event.listen(session, "before_commit", self._write_pending, once=True)
        pending[(kind, scope, item_id)] = PendingText(content, version, now)

    @staticmethod
    def unstage(session: Session, kind: VectorKind, scope: str, item_id: str) -> None:
        """Take back what :meth:`stage` queued for ``item_id`` (its writer asked for no vector)."""
        pending: dict[tuple[str, str, str], PendingText] | None = session.info.get(_PENDING)
        if pending is not None:
            pending.pop((kind, scope, item_id), None)

    def _write_pending(self, session: Session) -> None:
        pending: dict[tuple[str, str, str], PendingText] = session.info.pop(_PENDING, {})
        if pending:
            self.write(session, pending)

    def write(
        self,
        executor: Session | Connection,
        items: Mapping[tuple[str, str, str], PendingText],
    ) -> None:
        """Embed ``items`` (``(kind, scope, id) → text``) in one call and store the vectors."""
        keys = list(items)
        # A text queued twice (a put's record and its quote) is embedded once.
        unique = list(dict.fromkeys(items[key].text for key in keys))
        embedded = self.embed(unique)
        where = {t: i for i, t in enumerate(unique)}
        matrix = embedded[[where[items[key].text] for key in keys]]
        now = max(p.now for p in items.values())
        self.record_model(executor, int(matrix.shape[1]), now)
        # The bump comes first: its generation stamps the rows, and on PostgreSQL its row lock
        # orders this scope's writers, so generations follow commits (readers load deltas).
        generations = {scope: bump(executor, scope) for scope in sorted({k[1] for k in keys})}
        for kind, (table, id_column) in _TABLES.items():
            chosen = [(i, key) for i, key in enumerate(keys) if key[0] == kind]
            if not chosen:
                continue
            rows = []
            for i, key in chosen:
                _, scope, item_id = key
                row: dict[str, Any] = {
                    "scope": scope,
                    id_column.key: item_id,
                    "model": self.model,
                    "dims": int(matrix.shape[1]),
                    "vector": pack(matrix[i]),
                    "updated_at": items[key].now,
                    "generation": generations[scope],
                }
                if kind == "record":
                    row["version"] = items[key].version
                elif kind == "field":
                    row["record_id"] = item_id.partition("#")[0]
                rows.append(row)
            # Insert or replace in one statement: two writers of one vector never collide.
            stmt = dialect_insert(executor, table.__table__)
            replaced = {c: stmt.excluded[c] for c in rows[0] if c not in ("scope", id_column.key)}
            executor.execute(
                stmt.on_conflict_do_update(index_elements=["scope", id_column.key], set_=replaced),
                rows,
            )
            if self.pgvector and kind != "field":  # field vectors are always scored in numpy
                executor.execute(
                    _pgvector_set(kind),
                    [
                        {"v": _literal(matrix[i]), "scope": scope, "id": item_id}
                        for i, (_, scope, item_id) in chosen
                    ],
                )

    def drop(
        self, executor: Session | Connection, kind: VectorKind, scope: str, item_id: str
    ) -> None:
        """Remove one stored vector (an item its writer asked not to index)."""
        table, id_column = _TABLES[kind]
        executor.execute(delete(table).where(table.scope == scope, id_column == item_id))
        bump(executor, scope, removal=True)

    def embed(self, texts: Sequence[str]) -> Vector:
        """Unit vectors for ``texts`` in one model call.

        Raises:
            EmbeddingError: the model failed or returned vectors of the wrong count or shape.
        """
        try:
            raw = self.embeddings.embed_documents(list(texts))
        except Exception as exc:  # any provider failure: the write must not half-happen
            raise EmbeddingError(f"embedding model {self.model!r} failed: {exc}") from None
        return _unit_rows(raw, len(texts), self.model)

    def embed_query(self, query: str) -> Vector:
        """The unit vector of a query.

        Raises:
            EmbeddingError: the model failed.
            EmbeddingMismatchError: its size differs from the stored vectors'.
        """
        with self._lock:
            known = self._queries.get(query)
            if known is not None:
                self._queries.move_to_end(query)
                return known
        try:
            raw = self.embeddings.embed_query(query)
        except Exception as exc:
            raise EmbeddingError(f"embedding model {self.model!r} failed: {exc}") from None
        vector: Vector = _unit_rows([raw], 1, self.model)[0]
        if self.dims is not None and vector.shape[0] != self.dims:
            self._check(self.model, int(vector.shape[0]))
        vector.setflags(write=False)
        with self._lock:
            self._queries[query] = vector
            while len(self._queries) > _QUERY_CACHE:
                self._queries.popitem(last=False)
        return vector

    # -- reads --------------------------------------------------------------------------------

    def search(
        self, conn: Connection, scope: str, kind: VectorKind, query: Vector, k: int
    ) -> list[tuple[str, float]]:
        """The ``k`` ids of ``scope`` most similar to ``query``: ``(id, cosine)``, best first."""
        if k <= 0:
            return []
        if self.pgvector and kind != "field" and conn.dialect.name == "postgresql":
            size = conn.execute(
                pgvector_scope_size(kind), {"scope": scope, "cap": self.exact_below}
            ).scalar_one()
            if size >= self.exact_below:
                return self._pgvector_search(conn, scope, kind, query, k)
        held = self._matrix(conn, scope, kind)
        if held is None or not held.size:
            return []
        if held.dims != query.shape[0]:
            self._check(self.model, int(query.shape[0]))
        return held.top(query, k)

    def search_best(
        self, conn: Connection, scope: str, query: Vector, k: int
    ) -> list[tuple[str, float]]:
        """:meth:`search` of record vectors, each record scored by its best indexed text.

        A store item with several indexed fields has its first text as its record vector and
        the others as field vectors (``<record_id>#<n>``): its score is the best cosine of all
        of them, as LangGraph's stores score an item by its best field.
        """
        hits = self.search(conn, scope, "record", query, k)
        if not self._has_fields(conn, scope):
            return hits
        best = dict(hits)
        for field_id, cosine in self.search(conn, scope, "field", query, k):
            record_id = field_id.partition("#")[0]
            if cosine > best.get(record_id, -2.0):
                best[record_id] = cosine
        ranked = sorted(best.items(), key=lambda hit: -hit[1])
        return ranked[:k]

    def _has_fields(self, conn: Connection, scope: str) -> bool:
        """Whether ``scope`` holds field vectors (a cached matrix says so without a query)."""
        with self._lock:
            held = self._cache.get((scope, "field"))
        if held is not None and held.size:
            return True
        found = conn.execute(
            select(FieldVector.field_id).where(FieldVector.scope == scope).limit(1)
        ).first()
        return found is not None

    def drop_fields(
        self, executor: Session | Connection, scope: str, record_ids: Sequence[str], keep: set[str]
    ) -> None:
        """Remove the field vectors of ``record_ids`` not in ``keep`` (a put with fewer texts)."""
        if not record_ids:
            return
        gone = 0
        for at in range(0, len(record_ids), 500):
            stmt = delete(FieldVector).where(
                FieldVector.scope == scope, FieldVector.record_id.in_(record_ids[at : at + 500])
            )
            if keep:
                stmt = stmt.where(FieldVector.field_id.not_in(sorted(keep)))
            gone += cast(Any, executor.execute(stmt)).rowcount or 0
        if gone:
            bump(executor, scope, removal=True)

    def _pgvector_search(
        self, conn: Connection, scope: str, kind: VectorKind, query: Vector, k: int
    ) -> list[tuple[str, float]]:
        """The HNSW index, for a scope of at least :attr:`exact_below` vectors."""
        ef = min(_EF_SEARCH_MAX, max(_EF_SEARCH, k))
        conn.execute(pgvector_tuning(self.iterative_scan), {"ef": str(ef)})
        params = {"q": _literal(query), "scope": scope, "model": self.model, "k": k}
        rows = conn.execute(pgvector_search(kind), params)
        return sorted(((r.id, float(r.score)) for r in rows), key=lambda hit: -hit[1])

    def _matrix(self, conn: Connection, scope: str, kind: VectorKind) -> ScopeMatrix | None:
        """``scope``'s matrix as of its current generation: cached, updated by the rows newer
        than the cached generation (after a removal, also by the ids no longer stored), or
        (first read) loaded whole, once: a read that finds a load in flight (another read,
        :meth:`warm`) waits for it."""
        key: tuple[str, VectorKind] = (scope, kind)
        known = self._generation(conn, key)
        if known is None:
            return None
        held = self._current(key, *known)
        if held is None:
            with self._loader(key):
                known = self._generation(conn, key)  # what the load this read waited for saw
                if known is None:
                    return None
                held = self._current(key, *known)
                if held is None:
                    stale = self._removed_since(key, *known)
                    if stale is not None:
                        held = self._reconcile(conn, key, stale, known[0])
                    else:
                        held = self._load(conn, key, known[0])
        if held.generation < known[0]:
            table, id_column = _TABLES[kind]
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
        known = conn.execute(
            select(VectorGeneration.generation, VectorGeneration.reset).where(
                VectorGeneration.scope == key[0]
            )
        ).one_or_none()
        if known is None:
            with self._lock:
                gone = self._cache.pop(key, None)
            if gone is not None:
                gone.close()
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
        table, id_column = _TABLES[key[1]]
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
        table, id_column = _TABLES[key[1]]
        rows = conn.execute(
            select(id_column, table.vector).where(table.scope == key[0], table.model == self.model)
        ).all()
        if rows:
            flat = np.frombuffer(b"".join(r[1] for r in rows), dtype="<f4")
            matrix = flat.reshape(len(rows), -1)
        else:
            matrix = np.zeros((0, self.dims or 1), dtype=np.float32)
        held = ScopeMatrix(generation, [str(r[0]) for r in rows], matrix, ann_above=self.ann_above)
        dropped: list[ScopeMatrix] = []
        with self._lock:
            self.loads += 1  # counted once the matrix is there to search
            replaced = self._cache.get(key)
            if replaced is not None:
                dropped.append(replaced)
            self._cache[key] = held
            self._cache.move_to_end(key)
            total = sum(m.nbytes for m in self._cache.values())
            while total > _CACHE_BYTES and len(self._cache) > 1:
                _, evicted = self._cache.popitem(last=False)
                total -= evicted.nbytes
                dropped.append(evicted)
        for old in dropped:
            old.close()  # stops its index build, frees the index
        return held

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
                for kind, (table, _) in _TABLES.items():
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


def bump(executor: Session | Connection, scope: str, *, removal: bool = False) -> int:
    """Mark ``scope``'s vectors changed and return the new generation (one statement).

    Readers load the rows stamped with a newer generation than theirs; ``removal`` (a vector
    deleted) also makes every matrix older than this generation reload whole. A new row starts
    at a random generation, so a matrix cached before the scope was purged never passes for
    current when the scope fills again.
    """
    t = _GENERATIONS.c
    start = secrets.randbelow(_GENERATION_START)
    stmt = dialect_insert(executor, _GENERATIONS).values(scope=scope, generation=start, reset=start)
    changed: dict[str, Any] = {"generation": t.generation + 1}
    if removal:
        changed["reset"] = t.generation + 1
    done = executor.execute(
        stmt.on_conflict_do_update(index_elements=["scope"], set_=changed).returning(t.generation)
    )
    return int(done.scalar_one())


def mark_removed(executor: Session | Connection, scope: str | None) -> None:
    """Vectors of ``scope`` (of every scope: ``None``) were deleted outside :meth:`VectorIndex.drop`
    (a path purge, a reindex): every matrix of it reloads whole at its next read."""
    t = _GENERATIONS.c
    stmt = _GENERATIONS.update().values(generation=t.generation + 1, reset=t.generation + 1)
    executor.execute(stmt if scope is None else stmt.where(t.scope == scope))


def _unit_rows(raw: Sequence[Sequence[float]], count: int, model: str) -> Vector:
    try:
        matrix = np.asarray(raw, dtype=np.float32)
    except (TypeError, ValueError):
        raise EmbeddingError(f"embedding model {model!r} returned ragged vectors") from None
    if matrix.ndim != 2 or matrix.shape[0] != count or matrix.shape[1] == 0:
        raise EmbeddingError(f"embedding model {model!r} returned {matrix.shape} for {count} texts")
    if not np.isfinite(matrix).all():
        raise EmbeddingError(f"embedding model {model!r} returned non-finite values")
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    unit: Vector = (matrix / np.maximum(norms, 1e-12)).astype(np.float32)
    return unit
