"""Connected knowledge: redacted source items, their full-text rows, the change ledger, its
consumers' watermarks, sync runs and per-source cursors."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    ForeignKeyConstraint,
    Index,
    Integer,
    PrimaryKeyConstraint,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from userlore.store.schema.base import Base, item_fk

__all__ = [
    "EpisodicItem",
    "KnowledgeConsumerWatermark",
    "KnowledgeSourceChange",
    "KnowledgeSourceItem",
    "KnowledgeSourceState",
    "KnowledgeSyncRun",
]


class KnowledgeSourceItem(Base):
    """Normalized, content-addressed, redacted evidence from conversations and adapters."""

    __tablename__ = "knowledge_source_items"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    scope: Mapped[str] = mapped_column(String(200))
    source_instance_id: Mapped[str] = mapped_column(String(300))
    external_id: Mapped[str] = mapped_column(String(500))
    content_hash: Mapped[str] = mapped_column(String(64))
    title: Mapped[str | None] = mapped_column(String(500))
    text: Mapped[str] = mapped_column(Text)
    meta: Mapped[dict[str, Any]] = mapped_column(default=dict)
    occurred_at: Mapped[datetime | None]
    pipeline: Mapped[str] = mapped_column(String(30))
    blocked: Mapped[bool] = mapped_column(Boolean, default=False)
    synthesis_state: Mapped[str] = mapped_column(String(20), default="pending")
    synthesis_attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime | None]
    lease_owner: Mapped[str | None] = mapped_column(String(200))
    lease_expires_at: Mapped[datetime | None]
    last_error: Mapped[str | None] = mapped_column(String(1000))
    deleted_at: Mapped[datetime | None]
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]

    __table_args__ = (
        UniqueConstraint("scope", "id", name="uq_items_scope_id"),
        # Per scope: another scope using the same source instance id cannot plant or block items.
        UniqueConstraint("scope", "source_instance_id", "external_id", name="uq_source_item"),
        Index("ix_items_scope_source", "scope", "source_instance_id"),
        Index("ix_items_synthesis", "synthesis_state", "lease_expires_at"),
        # migration 0002: daily notes and thread context read one day / neighbourhood of a source
        Index("ix_items_source_time", "scope", "source_instance_id", "occurred_at"),
        # migration 0009: a temporal question reads the scope's items of one window
        Index("ix_items_scope_time", "scope", "occurred_at"),
    )


class EpisodicItem(Base):
    """Full-text index row of one source item a user said or a source holds (migration 0009).

    ``seq`` is the FTS rowid: source items have string keys, and an external-content FTS5 index
    needs a stable integer. Deleting the item deletes this row (``ON DELETE CASCADE``).
    """

    __tablename__ = "episodic_items"

    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    scope: Mapped[str] = mapped_column(String(200))
    item_id: Mapped[str] = mapped_column(String(40), unique=True)
    search_text: Mapped[str] = mapped_column(Text)

    __table_args__ = (
        ForeignKeyConstraint(
            ["scope", "item_id"],
            ["knowledge_source_items.scope", "knowledge_source_items.id"],
            name="fk_episodic_item",
            ondelete="CASCADE",
        ),
        Index("ix_episodic_scope", "scope"),
    )


class KnowledgeSourceChange(Base):
    """Ordered added/modified/deleted ledger; ``sequence`` is the consumers' watermark."""

    __tablename__ = "knowledge_source_changes"

    sequence: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    scope: Mapped[str] = mapped_column(String(200))
    source_instance_id: Mapped[str] = mapped_column(String(300))
    source_item_id: Mapped[str] = mapped_column(String(40))
    external_id: Mapped[str] = mapped_column(String(500))
    change_type: Mapped[str] = mapped_column(String(20))
    content_hash: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime]

    __table_args__ = (
        Index("ix_changes_scope_seq", "scope", "sequence"),
        Index("ix_changes_scope_item", "scope", "source_item_id"),
        item_fk("source_item_id", "fk_changes_item"),
    )


class KnowledgeConsumerWatermark(Base):
    """Monotonic per-consumer checkpoint into the change ledger."""

    __tablename__ = "knowledge_consumer_watermarks"

    consumer_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    scope: Mapped[str] = mapped_column(String(200), primary_key=True)
    sequence: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime]


class KnowledgeSyncRun(Base):
    """One ingestion run: counts, warnings, failure and timing."""

    __tablename__ = "knowledge_sync_runs"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    scope: Mapped[str] = mapped_column(String(200))
    source_instance_id: Mapped[str] = mapped_column(String(300))
    status: Mapped[str] = mapped_column(String(20))
    counts: Mapped[dict[str, Any]] = mapped_column(default=dict)
    warnings: Mapped[dict[str, Any]] = mapped_column(default=dict)
    error: Mapped[str | None] = mapped_column(String(1000))
    started_at: Mapped[datetime]
    finished_at: Mapped[datetime | None]

    __table_args__ = (Index("ix_sync_runs_scope", "scope", "source_instance_id"),)


class KnowledgeSourceState(Base):
    """Persistent cursor per (scope, source instance): each scope names its own sources."""

    __tablename__ = "knowledge_source_state"

    scope: Mapped[str] = mapped_column(String(200), primary_key=True)
    source_instance_id: Mapped[str] = mapped_column(String(300), primary_key=True)
    kind: Mapped[str] = mapped_column(String(40))
    cursor: Mapped[str | None] = mapped_column(Text)
    meta: Mapped[dict[str, Any]] = mapped_column(default=dict)
    updated_at: Mapped[datetime]

    __table_args__ = (PrimaryKeyConstraint("scope", "source_instance_id", name="pk_source_state"),)
