"""The record model proper: records, their versions, evidence links, relations and the
review, consent and facet history that governs them."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    Float,
    ForeignKeyConstraint,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from userlore.store.schema.base import Base, item_fk, record_fk

__all__ = [
    "ConsentGrant",
    "FacetObservation",
    "MemoryEvidence",
    "MemoryRecord",
    "MemoryRecordVersion",
    "MemoryRelation",
    "ReviewDecision",
]


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
        record_fk("record_id", "fk_versions_record"),
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
        record_fk("record_id", "fk_evidence_record"),
        item_fk("source_item_id", "fk_evidence_item"),
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
        record_fk("from_record_id", "fk_relations_from"),
        record_fk("to_record_id", "fk_relations_to"),
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
        record_fk("record_id", "fk_decisions_record"),
    )


class ConsentGrant(Base):
    """Consent for a special category; revocation closes it (history is kept)."""

    __tablename__ = "consent_grants"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    scope: Mapped[str] = mapped_column(String(200))
    category: Mapped[str] = mapped_column(String(40))
    granted_at: Mapped[datetime]
    revoked_at: Mapped[datetime | None]

    __table_args__ = (Index("ix_consent_scope", "scope", "category"),)


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
