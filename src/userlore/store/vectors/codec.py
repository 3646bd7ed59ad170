"""What every part of the vector store shares: the vector type, the four vector tables by kind,
the stored float32 encoding and the unit-row check of a model's output."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from userlore.errors import EmbeddingError
from userlore.store.schema import EvidenceVector, FieldVector, RecordVector, SentenceVector

__all__ = [
    "OWNER_COLUMN",
    "PARTS",
    "TABLES",
    "PendingText",
    "Vector",
    "VectorKind",
    "literal",
    "pack",
    "unit_rows",
    "unpack",
]

VectorKind = Literal["record", "evidence", "field", "sentence"]
"""``field``: a store item's further indexed texts, ``<record_id>#<n>`` (:class:`FieldVector`);
``sentence``: the sentences of an evidence item of several, ``<item_id>#<n>``
(:class:`SentenceVector`)."""
Vector = npt.NDArray[np.float32]

TABLES: dict[VectorKind, tuple[Any, Any]] = {
    "record": (RecordVector, RecordVector.record_id),
    "evidence": (EvidenceVector, EvidenceVector.source_item_id),
    "field": (FieldVector, FieldVector.field_id),
    "sentence": (SentenceVector, SentenceVector.sentence_id),
}
"""Each kind's table and id column."""

PARTS: dict[VectorKind, VectorKind] = {"record": "field", "evidence": "sentence"}
"""A kind whose items may have further vectors (``<id>#<n>``): an item scores its best one.

Part vectors are always scored in numpy (never through pgvector's index)."""

OWNER_COLUMN: dict[VectorKind, str] = {"field": "record_id", "sentence": "source_item_id"}
"""The column of a part vector's row naming the item it is part of."""


@dataclass(frozen=True, slots=True)
class PendingText:
    """A text waiting to be embedded: its content, record version (0 for evidence), time."""

    text: str
    version: int
    now: datetime
    fresh: bool = False
    """A new item: it has no earlier part vectors a write must replace (no delete needed)."""


def pack(vector: Vector) -> bytes:
    """A vector as the stored float32 little-endian bytes."""
    return np.asarray(vector, dtype="<f4").tobytes()


def unpack(blob: bytes) -> Vector:
    """Stored bytes back as a float32 vector."""
    return np.frombuffer(blob, dtype="<f4").astype(np.float32)


def literal(vector: Vector) -> str:
    """A vector as pgvector's text literal."""
    return "[" + ",".join(f"{x:.7g}" for x in vector.tolist()) + "]"


def unit_rows(raw: Sequence[Sequence[float]], count: int, model: str) -> Vector:
    """A model's output as unit float32 rows, or :class:`EmbeddingError` for a bad shape."""
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
