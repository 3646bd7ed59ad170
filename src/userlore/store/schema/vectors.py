"""Stored embeddings (records, evidence, extra store fields), the per-scope generations readers
compare, and the one embedding model a database holds."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKeyConstraint, Index, Integer, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from userlore.store.schema.base import Base

__all__ = [
    "EmbeddingModel",
    "EvidenceVector",
    "FieldVector",
    "RecordVector",
    "SentenceVector",
    "VectorGeneration",
]


class VectorColumns:
    """The columns every vector table shares: one float32 little-endian vector of a scope.

    ``sort_order`` keeps the tables' column order what migrations 0005, 0010 and 0011 created:
    ``scope`` first, then the table's own key columns, then these.
    """

    scope: Mapped[str] = mapped_column(String(200), primary_key=True, sort_order=-1)
    model: Mapped[str] = mapped_column(String(200), sort_order=1)
    dims: Mapped[int] = mapped_column(Integer, sort_order=1)
    vector: Mapped[bytes] = mapped_column(LargeBinary, sort_order=1)
    updated_at: Mapped[datetime] = mapped_column(sort_order=1)
    generation: Mapped[int] = mapped_column(Integer, default=0, server_default="0", sort_order=1)
    """The scope generation this vector's write made (migration 0010): readers load deltas."""


class RecordVector(VectorColumns, Base):
    """The embedding of a record's current version (migration 0005), float32 little-endian."""

    __tablename__ = "memory_record_vectors"

    record_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    version: Mapped[int] = mapped_column(Integer)

    __table_args__ = (
        Index("ix_memory_record_vectors_delta", "scope", "generation"),
        ForeignKeyConstraint(
            ["scope", "record_id"],
            ["memory_records.scope", "memory_records.id"],
            name="fk_record_vectors_record",
            ondelete="CASCADE",
        ),
    )


class EvidenceVector(VectorColumns, Base):
    """The embedding of an evidence item's redacted text (an observed turn or source item)."""

    __tablename__ = "memory_evidence_vectors"

    source_item_id: Mapped[str] = mapped_column(String(40), primary_key=True)

    __table_args__ = (
        Index("ix_memory_evidence_vectors_delta", "scope", "generation"),
        ForeignKeyConstraint(
            ["scope", "source_item_id"],
            ["knowledge_source_items.scope", "knowledge_source_items.id"],
            name="fk_evidence_vectors_item",
            ondelete="CASCADE",
        ),
    )


class FieldVector(VectorColumns, Base):
    """One more indexed field of a store item (migration 0011): LangGraph's one vector per field.

    A record's first indexed text is its :class:`RecordVector` (what the planner reads); a
    ``UserloreStore`` item with several indexed fields (or a path with several texts) keeps the
    others here as ``<record_id>#<n>``, and the store's search scores a record by its best one.
    """

    __tablename__ = "memory_field_vectors"

    field_id: Mapped[str] = mapped_column(String(60), primary_key=True)
    record_id: Mapped[str] = mapped_column(String(40))

    __table_args__ = (
        Index("ix_memory_field_vectors_delta", "scope", "generation"),
        Index("ix_memory_field_vectors_record", "scope", "record_id"),
        ForeignKeyConstraint(
            ["scope", "record_id"],
            ["memory_records.scope", "memory_records.id"],
            name="fk_field_vectors_record",
            ondelete="CASCADE",
        ),
    )


class SentenceVector(VectorColumns, Base):
    """One sentence of an evidence item of several (migration 0015), as ``<item_id>#<n>``.

    A turn's one vector is diluted by its greetings and other sentences, so a short statement
    inside a long turn ("I'm doing kickboxing") scores low against a question about it; the
    planner scores an item by the best of its whole vector and these.
    """

    __tablename__ = "memory_sentence_vectors"

    sentence_id: Mapped[str] = mapped_column(String(60), primary_key=True)
    source_item_id: Mapped[str] = mapped_column(String(40))

    __table_args__ = (
        Index("ix_memory_sentence_vectors_delta", "scope", "generation"),
        Index("ix_memory_sentence_vectors_item", "scope", "source_item_id"),
        ForeignKeyConstraint(
            ["scope", "source_item_id"],
            ["knowledge_source_items.scope", "knowledge_source_items.id"],
            name="fk_sentence_vectors_item",
            ondelete="CASCADE",
        ),
    )


class VectorGeneration(Base):
    """Bumped by every vector write of a scope: readers' in-memory matrices compare it."""

    __tablename__ = "memory_vector_generations"

    scope: Mapped[str] = mapped_column(String(200), primary_key=True)
    generation: Mapped[int] = mapped_column(Integer, default=0)
    reset: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """The generation of the scope's last vector removal: an older matrix reloads whole."""


class EmbeddingModel(Base):
    """The one embedding model (name and dimensions) whose vectors this database holds."""

    __tablename__ = "embedding_model"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    model: Mapped[str] = mapped_column(String(200))
    dims: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime]
