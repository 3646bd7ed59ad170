# Over 400 lines: the whole record model in one place, table by table (DESIGN.md, one record model).
"""SQLAlchemy 2.0 typed schema of the whole record model (DESIGN.md "One record model").

Every table carries ``scope`` and every query filters by it. Every reference between rows is a
composite foreign key on ``(scope, id)`` (parents carry ``UNIQUE(scope, id)``), so no row can
point into another scope whatever a caller sends: the database refuses it on every backend. Text
columns hold enum values as plain strings so both SQLite and PostgreSQL read them without native
enum types. The schema is created
only by migrations (``store/migrations``); these classes are the typed view the code uses.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKeyConstraint,
    Index,
    Integer,
    LargeBinary,
    PrimaryKeyConstraint,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

__all__ = [
    "Base",
    "ConsentGrant",
    "EmbeddingModel",
    "EpisodicItem",
    "EvidenceVector",
    "FacetObservation",
    "KnowledgeConsumerWatermark",
    "KnowledgeSourceChange",
    "KnowledgeSourceItem",
    "KnowledgeSourceState",
    "KnowledgeSyncRun",
    "MemoryEvidence",
    "MemoryRecord",
    "MemoryRecordVersion",
    "MemoryRelation",
    "MemoryTraceEvent",
    "RecordVector",
    "ReviewDecision",
    "UTCDateTime",
    "VectorGeneration",
]


class UTCDateTime(TypeDecorator[datetime]):
    """Timezone-aware UTC datetimes on every backend (SQLite stores naive text)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


JSONType = JSON().with_variant(JSONB(), "postgresql")


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {
        datetime: UTCDateTime(),
        dict[str, Any]: JSONType,
    }


def _record_fk(column: str, name: str) -> ForeignKeyConstraint:
    """``(scope, column)`` references a record of the same scope."""
    return ForeignKeyConstraint(
        ["scope", column], ["memory_records.scope", "memory_records.id"], name=name
    )


def _item_fk(column: str, name: str) -> ForeignKeyConstraint:
    """``(scope, column)`` references a source item of the same scope."""
    return ForeignKeyConstraint(
        ["scope", column],
        ["knowledge_source_items.scope", "knowledge_source_items.id"],
        name=name,
    )


class MemoryRecord(Base):
    """The unit of understanding. ``seq`` is the FTS rowid; ``id`` the public identifier."""

    __tablename__ = "memory_records"

    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    id: Mapped[str] = mapped_column(String(40), unique=True)
    scope: Mapped[str] = mapped_column(String(200))
    path: Mapped[str] = mapped_column(String(500), default="")
    memory_type: Mapped[str] = mapped_column(String(20))
    kind: Mapped[str] = mapped_column(String(40))
    canonical_key: Mapped[str | None] = mapped_column(String(300))
    content_key: Mapped[str] = mapped_column(String(64))
    content: Mapped[str] = mapped_column(Text)
    value: Mapped[str | None] = mapped_column(Text)
    search_text: Mapped[str] = mapped_column(Text)
    """Tokenizer-friendly text the full-text index reads (CJK split, scope token added)."""
    explicitness: Mapped[str] = mapped_column(String(20))
    durability: Mapped[str] = mapped_column(String(20))
    importance: Mapped[float] = mapped_column(Float)
    confidence: Mapped[float] = mapped_column(Float)
    disclosure: Mapped[str] = mapped_column(String(30))
    sensitivity: Mapped[str] = mapped_column(String(20))
    sensitivity_category: Mapped[str | None] = mapped_column(String(40))
    valid_from: Mapped[datetime | None]
    valid_until: Mapped[datetime | None]
    review_after: Mapped[datetime | None]
    conflict_group: Mapped[str | None] = mapped_column(String(300))
    pipeline: Mapped[str] = mapped_column(String(30))
    producer: Mapped[str] = mapped_column(String(20))
    state: Mapped[str] = mapped_column(String(20))
    state_before_delete: Mapped[str | None] = mapped_column(String(20))
    user_state: Mapped[str] = mapped_column(String(20), default="auto")
    version: Mapped[int] = mapped_column(Integer, default=1)
    supersedes_record_id: Mapped[str | None] = mapped_column(String(40))
    stability: Mapped[float] = mapped_column(Float, default=0.0)
    policy_rev: Mapped[int] = mapped_column(Integer, default=0)
    """Revision of the sensitivity rules this content last passed; the planner re-checks older."""
    evidence_count: Mapped[int] = mapped_column(Integer, default=0)
    author_agent_id: Mapped[str | None] = mapped_column(String(200))
    author_client: Mapped[str | None] = mapped_column(String(200))
    author_device: Mapped[str | None] = mapped_column(String(200))
    author_instance: Mapped[str | None] = mapped_column(String(200))
    thread_id: Mapped[str | None] = mapped_column(String(200))
    run_id: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]

    __table_args__ = (
        UniqueConstraint("scope", "id", name="uq_records_scope_id"),
        ForeignKeyConstraint(
            ["scope", "supersedes_record_id"],
            ["memory_records.scope", "memory_records.id"],
            name="fk_records_supersedes",
        ),
        Index(
            "ix_records_scope_supersedes",
            "scope",
            "supersedes_record_id",
            postgresql_where=text("supersedes_record_id IS NOT NULL"),
            sqlite_where=text("supersedes_record_id IS NOT NULL"),
        ),
        Index("ix_records_scope_state", "scope", "state"),
        Index("ix_records_scope_key", "scope", "canonical_key"),
        Index("ix_records_scope_content_key", "scope", "content_key"),
        Index("ix_records_scope_kind", "scope", "kind", "state"),
        # Never two live values for one key in a scope: enforced by the database, not only code.
        Index(
            "ux_records_one_active_per_key",
            "scope",
            "canonical_key",
            unique=True,
            sqlite_where=text("state = 'active' AND canonical_key IS NOT NULL"),
            postgresql_where=text("state = 'active' AND canonical_key IS NOT NULL"),
        ),
    )


class MemoryRecordVersion(Base):
    """Immutable snapshot of one version of a record (insert-only)."""

    __tablename__ = "memory_record_versions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    record_id: Mapped[str] = mapped_column(String(40))
    scope: Mapped[str] = mapped_column(String(200))
    version: Mapped[int] = mapped_column(Integer)
    parent_version: Mapped[int | None] = mapped_column(Integer)
    content: Mapped[str] = mapped_column(Text)
    value: Mapped[str | None] = mapped_column(Text)
    diff: Mapped[str | None] = mapped_column(Text)
    author_agent_id: Mapped[str | None] = mapped_column(String(200))
    author_client: Mapped[str | None] = mapped_column(String(200))
    author_device: Mapped[str | None] = mapped_column(String(200))
    author_instance: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime]

    __table_args__ = (
        UniqueConstraint("record_id", "version", name="uq_version"),
        _record_fk("record_id", "fk_versions_record"),
    )


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


class MemoryEvidence(Base):
    """Idempotent (record, source item, relation) provenance link."""

    __tablename__ = "memory_evidence"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    scope: Mapped[str] = mapped_column(String(200))
    record_id: Mapped[str] = mapped_column(String(40))
    source_item_id: Mapped[str] = mapped_column(String(40))
    relation: Mapped[str] = mapped_column(String(30), default="stated_in")
    created_at: Mapped[datetime]

    __table_args__ = (
        UniqueConstraint("record_id", "source_item_id", "relation", name="uq_evidence"),
        Index("ix_evidence_item", "source_item_id"),
        _record_fk("record_id", "fk_evidence_record"),
        _item_fk("source_item_id", "fk_evidence_item"),
    )


class MemoryRelation(Base):
    """Typed record-to-record link: supersedes, conflicts_with, derived_from."""

    __tablename__ = "memory_relations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    scope: Mapped[str] = mapped_column(String(200))
    from_record_id: Mapped[str] = mapped_column(String(40))
    to_record_id: Mapped[str] = mapped_column(String(40))
    relation_type: Mapped[str] = mapped_column(String(30))
    created_at: Mapped[datetime]

    __table_args__ = (
        UniqueConstraint("from_record_id", "to_record_id", "relation_type", name="uq_relation"),
        Index("ix_relations_scope_to", "scope", "to_record_id"),
        _record_fk("from_record_id", "fk_relations_from"),
        _record_fk("to_record_id", "fk_relations_to"),
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
        _item_fk("source_item_id", "fk_changes_item"),
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


class MemoryTraceEvent(Base):
    """Plans, feedback, corrections, remediation, governance refusals and consent changes.

    Never holds user text: only ids, versions, fixed reason codes and counts.
    """

    __tablename__ = "memory_trace_events"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    scope: Mapped[str] = mapped_column(String(200))
    event_type: Mapped[str] = mapped_column(String(30))
    session_key: Mapped[str | None] = mapped_column(String(300))
    parent_trace_id: Mapped[str | None] = mapped_column(String(40))
    reason_code: Mapped[str | None] = mapped_column(String(60))
    feedback: Mapped[str | None] = mapped_column(String(20))
    payload: Mapped[dict[str, Any]] = mapped_column(default=dict)
    chars: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime]

    __table_args__ = (
        Index("ix_traces_scope_session", "scope", "session_key", "created_at"),
        Index("ix_traces_scope_type", "scope", "event_type", "created_at"),
        Index(
            "ix_traces_scope_parent",
            "scope",
            "parent_trace_id",
            postgresql_where=text("parent_trace_id IS NOT NULL"),
            sqlite_where=text("parent_trace_id IS NOT NULL"),
        ),
        UniqueConstraint("scope", "id", name="uq_traces_scope_id"),
        ForeignKeyConstraint(
            ["scope", "parent_trace_id"],
            ["memory_trace_events.scope", "memory_trace_events.id"],
            name="fk_traces_parent",
        ),
    )


class ReviewDecision(Base):
    """An approve / edit / reject decision on a candidate (feeds the acceptance rate)."""

    __tablename__ = "review_decisions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    scope: Mapped[str] = mapped_column(String(200))
    record_id: Mapped[str] = mapped_column(String(40))
    decision: Mapped[str] = mapped_column(String(20))
    producer: Mapped[str] = mapped_column(String(20))
    reviewer: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime]

    __table_args__ = (
        Index("ix_decisions_scope", "scope", "created_at"),
        Index("ix_decisions_scope_record", "scope", "record_id"),
        _record_fk("record_id", "fk_decisions_record"),
    )


class FacetObservation(Base):
    """One piece of stability evidence for a facet (seed 002)."""

    __tablename__ = "facet_observations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    scope: Mapped[str] = mapped_column(String(200))
    facet_class: Mapped[str] = mapped_column(String(20))
    key: Mapped[str] = mapped_column(String(300))
    value: Mapped[str] = mapped_column(Text)
    cue_family: Mapped[str] = mapped_column(String(20))
    evidence_ref: Mapped[str | None] = mapped_column(String(200))
    confidence: Mapped[float] = mapped_column(Float)
    observed_at: Mapped[datetime]

    __table_args__ = (Index("ix_facets_scope_key", "scope", "facet_class", "key"),)


class ConsentGrant(Base):
    """Consent for a special category; revocation closes it (history is kept)."""

    __tablename__ = "consent_grants"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    scope: Mapped[str] = mapped_column(String(200))
    category: Mapped[str] = mapped_column(String(40))
    granted_at: Mapped[datetime]
    revoked_at: Mapped[datetime | None]

    __table_args__ = (Index("ix_consent_scope", "scope", "category"),)


class WorkItem(Base):
    """A job the turn handed off (an observation or a review), run by a worker, not the turn.

    Durable until done: a queued review survives a restart. Claimed with a lease like source
    items (``userlore.work.queue``). The payload holds redacted text only, and is cleared when
    the job is done; the row stays so the same job (``dedupe_key``) never runs twice.
    """

    __tablename__ = "work_items"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    scope: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(20))
    dedupe_key: Mapped[str] = mapped_column(String(500))
    payload: Mapped[dict[str, Any]] = mapped_column(default=dict)
    state: Mapped[str] = mapped_column(String(20), default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime | None]
    lease_owner: Mapped[str | None] = mapped_column(String(200))
    lease_expires_at: Mapped[datetime | None]
    last_error: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]

    __table_args__ = (
        UniqueConstraint("scope", "kind", "dedupe_key", name="uq_work_job"),
        Index("ix_work_due", "state", "next_attempt_at"),
        Index("ix_work_scope", "scope", "state"),
    )


class RecordVector(Base):
    """The embedding of a record's current version (migration 0005), float32 little-endian."""

    __tablename__ = "memory_record_vectors"

    scope: Mapped[str] = mapped_column(String(200), primary_key=True)
    record_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    version: Mapped[int] = mapped_column(Integer)
    model: Mapped[str] = mapped_column(String(200))
    dims: Mapped[int] = mapped_column(Integer)
    vector: Mapped[bytes] = mapped_column(LargeBinary)
    updated_at: Mapped[datetime]
    generation: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """The scope generation this vector's write made (migration 0010): readers load deltas."""

    __table_args__ = (
        Index("ix_memory_record_vectors_delta", "scope", "generation"),
        ForeignKeyConstraint(
            ["scope", "record_id"],
            ["memory_records.scope", "memory_records.id"],
            name="fk_record_vectors_record",
            ondelete="CASCADE",
        ),
    )


class EvidenceVector(Base):
    """The embedding of an evidence item's redacted text (an observed turn or source item)."""

    __tablename__ = "memory_evidence_vectors"

    scope: Mapped[str] = mapped_column(String(200), primary_key=True)
    source_item_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    model: Mapped[str] = mapped_column(String(200))
    dims: Mapped[int] = mapped_column(Integer)
    vector: Mapped[bytes] = mapped_column(LargeBinary)
    updated_at: Mapped[datetime]
    generation: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """The scope generation this vector's write made (migration 0010): readers load deltas."""

    __table_args__ = (
        Index("ix_memory_evidence_vectors_delta", "scope", "generation"),
        ForeignKeyConstraint(
            ["scope", "source_item_id"],
            ["knowledge_source_items.scope", "knowledge_source_items.id"],
            name="fk_evidence_vectors_item",
            ondelete="CASCADE",
        ),
    )


class FieldVector(Base):
    """One more indexed field of a store item (migration 0011): LangGraph's one vector per field.

    A record's first indexed text is its :class:`RecordVector` (what the planner reads); a
    ``UserloreStore`` item with several indexed fields (or a path with several texts) keeps the
    others here as ``<record_id>#<n>``, and the store's search scores a record by its best one.
    """

    __tablename__ = "memory_field_vectors"

    scope: Mapped[str] = mapped_column(String(200), primary_key=True)
    field_id: Mapped[str] = mapped_column(String(60), primary_key=True)
    record_id: Mapped[str] = mapped_column(String(40))
    model: Mapped[str] = mapped_column(String(200))
    dims: Mapped[int] = mapped_column(Integer)
    vector: Mapped[bytes] = mapped_column(LargeBinary)
    updated_at: Mapped[datetime]
    generation: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

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
