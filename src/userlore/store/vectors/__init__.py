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

One module per concern: ``codec`` (the vector type, tables by kind, float32 bytes), ``index``
(:class:`VectorIndex`: the model check, the write path, search), ``matrices`` (the per-scope
matrix cache), ``generations`` (what readers compare) and ``pgvector``. Import from here.
"""

from __future__ import annotations

from userlore.store.vectors.codec import PendingText, VectorKind, pack, unpack
from userlore.store.vectors.codec import literal as _literal  # noqa: F401  (the pgvector tests)
from userlore.store.vectors.generations import bump, mark_removed
from userlore.store.vectors.index import VectorIndex
from userlore.store.vectors.matrices import WARM_MIN_VECTORS
from userlore.store.vectors.pgvector import (
    pgvector_ddl,
    pgvector_scope_size,
    pgvector_search,
    pgvector_tuning,
)

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
