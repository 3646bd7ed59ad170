"""The one embedding model bound to a database: its check at open, the batched write at commit,
query embedding and the search that picks numpy, the approximate index or pgvector."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, cast

from langchain_core.embeddings import Embeddings
from sqlalchemy import Connection, Engine, Table, delete, event, select, text
from sqlalchemy.orm import Session

from userlore.embeddings import model_name
from userlore.errors import EmbeddingError, EmbeddingMismatchError
from userlore.store.bulk_rows import insert_rows
from userlore.store.concurrency import dialect_insert
from userlore.store.schema import EmbeddingModel
from userlore.store.sentences import sentence_texts
from userlore.store.vector_matrix import ANN_ABOVE, ScopeMatrix
from userlore.store.vectors.codec import (
    OWNER_COLUMN,
    PARTS,
    TABLES,
    PendingText,
    Vector,
    VectorKind,
    literal,
    pack,
    unit_rows,
    unpack,
)
from userlore.store.vectors.generations import bump
from userlore.store.vectors.matrices import ScopeMatrices
from userlore.store.vectors.pgvector import (
    EXACT_BELOW,
    pgvector_ddl,
    pgvector_scope_size,
    pgvector_set,
    pgvector_top,
    server_version,
)

__all__ = ["VectorIndex", "with_sentences"]

_PENDING = "userlore.vectors.pending"

_MODEL = cast(Table, EmbeddingModel.__table__)

_QUERY_CACHE = 64
"""Recent query vectors kept per index (a plan asks twice for the same query)."""

_PARTLESS_SCOPES = 4096
"""Scopes whose "no part vectors of a kind at this generation" is remembered (a few bytes
each)."""


def with_sentences(
    kind: VectorKind, scope: str, item_id: str, pending: PendingText
) -> dict[tuple[str, str, str], PendingText]:
    """What one vector write of ``item_id`` embeds: its text, and for evidence of several
    sentences each sentence as ``("sentence", scope, "<item_id>#<n>")`` (:func:`sentence_texts`)."""
    out: dict[tuple[str, str, str], PendingText] = {(kind, scope, item_id): pending}
    if kind == "evidence":
        for n, sentence in enumerate(sentence_texts(pending.text)):
            out[("sentence", scope, f"{item_id}#{n}")] = PendingText(sentence, 0, pending.now)
    return out


def drop_parts(
    executor: Session | Connection,
    part: VectorKind,
    scope: str,
    owners: Sequence[str],
    keep: set[str],
) -> int:
    """Delete the ``part`` vectors of ``owners`` not in ``keep``; how many went (the caller
    marks the removal)."""
    table, id_column = TABLES[part]
    owner = getattr(table, OWNER_COLUMN[part])
    gone = 0
    for at in range(0, len(owners), 500):
        stmt = delete(table).where(table.scope == scope, owner.in_(owners[at : at + 500]))
        if keep:
            stmt = stmt.where(id_column.not_in(sorted(keep)))
        gone += cast(Any, executor.execute(stmt)).rowcount or 0
    return gone


class VectorIndex(ScopeMatrices):
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
        self.exact_below = EXACT_BELOW
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
        # (scope, part kind) -> a generation at which it held no such vectors (most scopes hold
        # no field vectors; a scope of one-sentence items holds no sentence vectors).
        self._partless: OrderedDict[tuple[str, VectorKind], int] = OrderedDict()

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
        self.iterative_scan = version is not None and server_version(version) >= (0, 8)

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
        fresh: bool = False,
    ) -> None:
        """Queue ``content`` to be embedded when ``session``'s transaction commits (batched).

        Evidence of several sentences also queues each sentence (:func:`with_sentences`);
        ``fresh`` (a new item) skips the delete of sentence vectors its old text had.
        """
        pending: dict[tuple[str, str, str], PendingText] | None = session.info.get(_PENDING)
        if pending is None:
            pending = session.info[_PENDING] = {}
            event.listen(session, "before_commit", self._write_pending, once=True)
        pending.update(
            with_sentences(kind, scope, item_id, PendingText(content, version, now, fresh))
        )

    @staticmethod
    def unstage(session: Session, kind: VectorKind, scope: str, item_id: str) -> None:
        """Take back what :meth:`stage` queued for ``item_id`` (its writer asked for no vector)."""
        pending: dict[tuple[str, str, str], PendingText] | None = session.info.get(_PENDING)
        if pending is not None:
            pending.pop((kind, scope, item_id), None)
            if kind == "evidence":
                for key in [k for k in pending if k[0] == "sentence" and k[1] == scope]:
                    if key[2].partition("#")[0] == item_id:
                        del pending[key]

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
        slots = [where[items[key].text] for key in keys]
        blobs = [pack(vector) for vector in embedded]  # each text's bytes once, shared
        dims = int(embedded.shape[1])
        now = max(p.now for p in items.values())
        self.record_model(executor, dims, now)
        removed = self._drop_stale_sentences(executor, items)
        # The bump comes first: its generation stamps the rows, and on PostgreSQL its row lock
        # orders this scope's writers, so generations follow commits (readers load deltas).
        generations = {
            scope: bump(executor, scope, removal=scope in removed)
            for scope in sorted({k[1] for k in keys})
        }
        for kind, (table, id_column) in TABLES.items():
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
                    "dims": dims,
                    "vector": blobs[slots[i]],
                    "updated_at": items[key].now,
                    "generation": generations[scope],
                }
                if kind == "record":
                    row["version"] = items[key].version
                elif kind in OWNER_COLUMN:
                    row[OWNER_COLUMN[kind]] = item_id.partition("#")[0]
                rows.append(row)
            # Insert or replace in one statement: two writers of one vector never collide.
            insert_rows(
                executor,
                table.__table__,
                rows,
                on_conflict="update",
                index_elements=("scope", id_column.key),
            )
            if self.pgvector and kind not in OWNER_COLUMN:  # part vectors: always numpy
                executor.execute(
                    pgvector_set(kind),
                    [
                        {"v": literal(embedded[slots[i]]), "scope": scope, "id": item_id}
                        for i, (_, scope, item_id) in chosen
                    ],
                )

    @staticmethod
    def _drop_stale_sentences(
        executor: Session | Connection, pending: Mapping[tuple[str, str, str], PendingText]
    ) -> set[str]:
        """Delete the sentence vectors of re-embedded evidence that its new text no longer has
        (a turn edited to fewer sentences); the scopes where any went. New items have none."""
        kept: dict[str, set[str]] = {}
        items: dict[str, list[str]] = {}
        for key, text_ in pending.items():
            kind, scope, item_id = key
            if kind == "evidence" and not text_.fresh:
                items.setdefault(scope, []).append(item_id)
            elif kind == "sentence":
                kept.setdefault(scope, set()).add(item_id)
        return {
            scope
            for scope, ids in items.items()
            if drop_parts(executor, "sentence", scope, ids, kept.get(scope, set()))
        }

    def drop(
        self, executor: Session | Connection, kind: VectorKind, scope: str, item_id: str
    ) -> None:
        """Remove one stored vector (an item its writer asked not to index)."""
        table, id_column = TABLES[kind]
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
        return unit_rows(raw, len(texts), self.model)

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
        vector: Vector = unit_rows([raw], 1, self.model)[0]
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
        self,
        conn: Connection,
        scope: str,
        kind: VectorKind,
        query: Vector,
        k: int,
        *,
        exact: bool = False,
    ) -> list[tuple[str, float]]:
        """The ``k`` ids of ``scope`` most similar to ``query``: ``(id, cosine)``, best first.

        ``exact`` skips the in-process approximate index (see :meth:`ScopeMatrix.top`).
        """
        if k <= 0:
            return []
        if self.pgvector and kind not in OWNER_COLUMN and conn.dialect.name == "postgresql":
            size = conn.execute(
                pgvector_scope_size(kind), {"scope": scope, "cap": self.exact_below}
            ).scalar_one()
            if size >= self.exact_below:
                return self._pgvector_search(conn, scope, kind, query, k)
        return self._top(self._matrix(conn, scope, kind), query, k, exact)

    def _top(
        self, held: ScopeMatrix | None, query: Vector, k: int, exact: bool
    ) -> list[tuple[str, float]]:
        if held is None or not held.size:
            return []
        if held.dims != query.shape[0]:
            self._check(self.model, int(query.shape[0]))
        return held.top(query, k, exact=exact)

    def stored(
        self, conn: Connection, scope: str, kind: VectorKind, ids: Sequence[str]
    ) -> dict[str, Vector]:
        """The stored vectors of ``ids`` in ``scope`` under this model (absent ids left out).

        A read by key, so a caller can search near what it already found without embedding
        that text again (the planner's multi-hop pass, ``planner/expand.py``).
        """
        if not ids:
            return {}
        table, id_column = TABLES[kind]
        rows = conn.execute(
            select(id_column, table.vector).where(
                table.scope == scope, table.model == self.model, id_column.in_(list(ids))
            )
        )
        return {str(item_id): unpack(blob) for item_id, blob in rows}

    def search_best(
        self,
        conn: Connection,
        scope: str,
        query: Vector,
        k: int,
        *,
        exact: bool = False,
        kind: VectorKind = "record",
    ) -> list[tuple[str, float]]:
        """:meth:`search` of ``kind``, each item scored by the best of its vectors.

        A store item with several indexed fields has its first text as its record vector and
        the others as field vectors (``<record_id>#<n>``): its score is the best cosine of all
        of them, as LangGraph's stores score an item by its best field. Evidence of several
        sentences has a vector per sentence (``<item_id>#<n>``): a short statement inside a
        long turn is found by its own vector, not only by the turn's diluted one.
        """
        if k <= 0:
            return []
        part = PARTS[kind]
        # Several parts of one item may hold the first places: deeper, so k items remain.
        depth = 2 * k
        if self.pgvector and conn.dialect.name == "postgresql":
            hits = self.search(conn, scope, kind, query, k, exact=exact)
            has_parts = self._has_parts(conn, scope, part)
            parts = self.search(conn, scope, part, query, depth, exact=exact) if has_parts else []
        else:
            # One generation read for both kinds, and no part query while the scope's
            # generation is one at which it held no part vectors (every part write bumps it).
            known = self._generation(conn, (scope, kind))
            if known is None:
                return []
            hits = self._top(self._matrix_at(conn, (scope, kind), known), query, k, exact)
            parts = self._top(self._part_matrix(conn, scope, part, known), query, depth, exact)
        if not parts:
            return hits
        best = dict(hits)
        for part_id, cosine in parts:
            item_id = part_id.partition("#")[0]
            if cosine > best.get(item_id, -2.0):
                best[item_id] = cosine
        ranked = sorted(best.items(), key=lambda hit: -hit[1])
        return ranked[:k]

    def _part_matrix(
        self, conn: Connection, scope: str, part: VectorKind, known: tuple[int, int]
    ) -> ScopeMatrix | None:
        """``scope``'s ``part`` vectors at generation ``known``; ``None`` when it holds none."""
        key: tuple[str, VectorKind] = (scope, part)
        with self._lock:
            held = self._cache.get(key)
            partless = self._partless.get(key)
        if held is None:
            if partless == known[0]:
                return None
            if not self._has_parts(conn, scope, part):
                with self._lock:
                    self._partless[key] = known[0]
                    self._partless.move_to_end(key)
                    while len(self._partless) > _PARTLESS_SCOPES:
                        self._partless.popitem(last=False)
                return None
        return self._matrix_at(conn, key, known)

    def _has_parts(self, conn: Connection, scope: str, part: VectorKind) -> bool:
        """Whether ``scope`` holds ``part`` vectors (a cached matrix says so without a query)."""
        with self._lock:
            held = self._cache.get((scope, part))
        if held is not None and held.size:
            return True
        table, id_column = TABLES[part]
        found = conn.execute(select(id_column).where(table.scope == scope).limit(1)).first()
        return found is not None

    def drop_fields(
        self, executor: Session | Connection, scope: str, record_ids: Sequence[str], keep: set[str]
    ) -> None:
        """Remove the field vectors of ``record_ids`` not in ``keep`` (a put with fewer texts)."""
        if drop_parts(executor, "field", scope, record_ids, keep):
            bump(executor, scope, removal=True)

    def _pgvector_search(
        self, conn: Connection, scope: str, kind: VectorKind, query: Vector, k: int
    ) -> list[tuple[str, float]]:
        """The HNSW index, for a scope of at least :attr:`exact_below` vectors."""
        return pgvector_top(
            conn, scope, kind, query, k, model=self.model, iterative=self.iterative_scan
        )
