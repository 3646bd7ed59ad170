"""``userlore reindex``: re-embed every record and evidence item with the configured model.

Run it after changing the embedding model (opening a database whose vectors another model made
is an :class:`~userlore.errors.EmbeddingMismatchError`), or after turning embeddings on for a
database written without them. One transaction: the database holds the old model's vectors or
the new model's, never a mix.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Connection, delete, func, select, text

from userlore.embeddings import EmbeddingsSpec, resolve_embeddings
from userlore.errors import ConfigError
from userlore.store.engine import create_store_engine, default_database_url, setup
from userlore.store.schema import (
    EmbeddingModel,
    EvidenceVector,
    FieldVector,
    KnowledgeSourceItem,
    MemoryRecord,
    RecordVector,
    SentenceVector,
)
from userlore.store.vectors import PendingText, VectorIndex, mark_removed
from userlore.store.vectors.index import with_sentences

__all__ = ["ReindexReport", "reindex"]

BATCH = 64
"""Texts per model call."""


@dataclass(frozen=True, slots=True)
class ReindexReport:
    """What a reindex wrote: the model, its dimensions and the vectors per kind."""

    model: str
    dims: int | None
    records: int
    evidence: int
    sentences: int = 0
    """Sentence vectors of evidence items of several sentences (beside their whole vector)."""


def reindex(
    url: str | None,
    embeddings: EmbeddingsSpec,
    *,
    batch: int = BATCH,
    progress: Callable[[int, int | None], None] | None = None,
) -> ReindexReport:
    """Drop every stored vector and embed every record and evidence item again.

    A ``UserloreStore`` item's further indexed fields (``memory_field_vectors``) are dropped
    too, not embedded: the next put of the item embeds them with the new model.

    Args:
        url: The database (``None``: the embedded SQLite file).
        embeddings: The model to embed with (an ``Embeddings``, ``"provider:model"``, ``"local"``).
        batch: Texts per model call.
        progress: Called with ``(texts embedded so far, total)`` after each batch.

    Raises:
        ConfigError: no embeddings given, or unusable.
        EmbeddingError: the model failed (nothing was changed).
    """
    model = resolve_embeddings(embeddings)
    if model is None:
        raise ConfigError("reindex needs embeddings: 'local' or 'provider:model'")
    engine = create_store_engine(url or default_database_url())
    try:
        setup(engine)
        index = VectorIndex(model)
        index.attach_pgvector(engine)
        now = datetime.now(UTC)
        counts = {"record": 0, "evidence": 0, "sentence": 0}
        with engine.begin() as conn:
            total = sum(
                conn.execute(select(func.count()).select_from(table)).scalar_one()
                for table in (MemoryRecord, KnowledgeSourceItem)
            )
            # Every vector table: a store item's further fields are embedded again at its next
            # put (their texts come from the store's index config, which a reindex does not know).
            for table in (
                RecordVector,
                EvidenceVector,
                SentenceVector,
                FieldVector,
                EmbeddingModel,
            ):
                conn.execute(delete(table))
            mark_removed(conn, None)
            if index.pgvector:  # the column is sized for the old model: re-added at first write
                for name in ("memory_record_vectors", "memory_evidence_vectors"):
                    conn.execute(text(f"ALTER TABLE {name} DROP COLUMN IF EXISTS embedding"))
            for chunk in _chunks(_texts(conn, now), batch):
                index.write(conn, chunk)
                for kind, _, _ in chunk:
                    counts[kind] += 1
                if progress is not None:
                    progress(counts["record"] + counts["evidence"], total)
        return ReindexReport(
            index.model, index.dims, counts["record"], counts["evidence"], counts["sentence"]
        )
    finally:
        engine.dispose()


def _texts(conn: Connection, now: datetime) -> Iterator[tuple[tuple[str, str, str], PendingText]]:
    records = select(
        MemoryRecord.scope, MemoryRecord.id, MemoryRecord.content, MemoryRecord.version
    )
    for scope, rid, content, version in conn.execute(records.order_by(MemoryRecord.seq)).all():
        yield ("record", scope, rid), PendingText(content, version, now)
    items = select(KnowledgeSourceItem.scope, KnowledgeSourceItem.id, KnowledgeSourceItem.text)
    for scope, iid, body in conn.execute(items.order_by(KnowledgeSourceItem.created_at)).all():
        yield from with_sentences(
            "evidence", scope, iid, PendingText(body, 0, now, fresh=True)
        ).items()


def _chunks(
    pairs: Iterator[tuple[tuple[str, str, str], PendingText]], size: int
) -> Iterator[dict[tuple[str, str, str], PendingText]]:
    chunk: dict[tuple[str, str, str], PendingText] = {}
    for key, pending in pairs:
        chunk[key] = pending
        if len(chunk) >= size:
            yield chunk
            chunk = {}
    if chunk:
        yield chunk
