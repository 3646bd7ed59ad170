# Over 400 lines: a migration is history; the initial schema is created in one revision.
"""Initial schema: the whole record model, plus the SQLite FTS5 index over records.

Revision ID: 0001_initial
Revises:
Create Date: 2026-11-29 21:14:24.646319
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001_initial"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "consent_grants",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("scope", sa.String(length=200), nullable=False),
        sa.Column("category", sa.String(length=40), nullable=False),
        sa.Column("granted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("consent_grants", schema=None) as batch_op:
        batch_op.create_index("ix_consent_scope", ["scope", "category"], unique=False)

    op.create_table(
        "facet_observations",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("scope", sa.String(length=200), nullable=False),
        sa.Column("facet_class", sa.String(length=20), nullable=False),
        sa.Column("key", sa.String(length=300), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("cue_family", sa.String(length=20), nullable=False),
        sa.Column("evidence_ref", sa.String(length=200), nullable=True),
        sa.Column("confidence", sa.Float(), nullable=False),
        sa.Column("observed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("facet_observations", schema=None) as batch_op:
        batch_op.create_index("ix_facets_scope_key", ["scope", "facet_class", "key"], unique=False)

    op.create_table(
        "knowledge_consumer_watermarks",
        sa.Column("consumer_id", sa.String(length=200), nullable=False),
        sa.Column("scope", sa.String(length=200), nullable=False),
        sa.Column("sequence", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("consumer_id", "scope"),
    )
    op.create_table(
        "knowledge_source_changes",
        sa.Column("sequence", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("scope", sa.String(length=200), nullable=False),
        sa.Column("source_instance_id", sa.String(length=300), nullable=False),
        sa.Column("source_item_id", sa.String(length=40), nullable=False),
        sa.Column("external_id", sa.String(length=500), nullable=False),
        sa.Column("change_type", sa.String(length=20), nullable=False),
        sa.Column("content_hash", sa.String(length=64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("sequence"),
    )
    with op.batch_alter_table("knowledge_source_changes", schema=None) as batch_op:
        batch_op.create_index("ix_changes_scope_seq", ["scope", "sequence"], unique=False)

    op.create_table(
        "knowledge_source_items",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("scope", sa.String(length=200), nullable=False),
        sa.Column("source_instance_id", sa.String(length=300), nullable=False),
        sa.Column("external_id", sa.String(length=500), nullable=False),
        sa.Column("content_hash", sa.String(length=64), nullable=False),
        sa.Column("title", sa.String(length=500), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column(
            "meta",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("occurred_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("pipeline", sa.String(length=30), nullable=False),
        sa.Column("blocked", sa.Boolean(), nullable=False),
        sa.Column("synthesis_state", sa.String(length=20), nullable=False),
        sa.Column("synthesis_attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("lease_owner", sa.String(length=200), nullable=True),
        sa.Column("lease_expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.String(length=1000), nullable=True),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("source_instance_id", "external_id", name="uq_source_item"),
    )
    with op.batch_alter_table("knowledge_source_items", schema=None) as batch_op:
        batch_op.create_index(
            "ix_items_scope_source", ["scope", "source_instance_id"], unique=False
        )
        batch_op.create_index(
            "ix_items_synthesis", ["synthesis_state", "lease_expires_at"], unique=False
        )

    op.create_table(
        "knowledge_source_state",
        sa.Column("source_instance_id", sa.String(length=300), nullable=False),
        sa.Column("scope", sa.String(length=200), nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("cursor", sa.Text(), nullable=True),
        sa.Column(
            "meta",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("source_instance_id"),
    )
    op.create_table(
        "knowledge_sync_runs",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("scope", sa.String(length=200), nullable=False),
        sa.Column("source_instance_id", sa.String(length=300), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column(
            "counts",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column(
            "warnings",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("error", sa.String(length=1000), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("knowledge_sync_runs", schema=None) as batch_op:
        batch_op.create_index("ix_sync_runs_scope", ["scope", "source_instance_id"], unique=False)

    op.create_table(
        "memory_records",
        sa.Column("seq", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("scope", sa.String(length=200), nullable=False),
        sa.Column("path", sa.String(length=500), nullable=False),
        sa.Column("memory_type", sa.String(length=20), nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("canonical_key", sa.String(length=300), nullable=True),
        sa.Column("content_key", sa.String(length=64), nullable=False),
        sa.Column("content", sa.Text(), nullable=False),
        sa.Column("value", sa.Text(), nullable=True),
        sa.Column("search_text", sa.Text(), nullable=False),
        sa.Column("explicitness", sa.String(length=20), nullable=False),
        sa.Column("durability", sa.String(length=20), nullable=False),
        sa.Column("importance", sa.Float(), nullable=False),
        sa.Column("confidence", sa.Float(), nullable=False),
        sa.Column("disclosure", sa.String(length=30), nullable=False),
        sa.Column("sensitivity", sa.String(length=20), nullable=False),
        sa.Column("sensitivity_category", sa.String(length=40), nullable=True),
        sa.Column("valid_from", sa.DateTime(timezone=True), nullable=True),
        sa.Column("valid_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("review_after", sa.DateTime(timezone=True), nullable=True),
        sa.Column("conflict_group", sa.String(length=300), nullable=True),
        sa.Column("pipeline", sa.String(length=30), nullable=False),
        sa.Column("producer", sa.String(length=20), nullable=False),
        sa.Column("state", sa.String(length=20), nullable=False),
        sa.Column("state_before_delete", sa.String(length=20), nullable=True),
        sa.Column("user_state", sa.String(length=20), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("supersedes_record_id", sa.String(length=40), nullable=True),
        sa.Column("stability", sa.Float(), nullable=False),
        sa.Column("policy_rev", sa.Integer(), nullable=False),
        sa.Column("evidence_count", sa.Integer(), nullable=False),
        sa.Column("author_agent_id", sa.String(length=200), nullable=True),
        sa.Column("author_client", sa.String(length=200), nullable=True),
        sa.Column("author_device", sa.String(length=200), nullable=True),
        sa.Column("author_instance", sa.String(length=200), nullable=True),
        sa.Column("thread_id", sa.String(length=200), nullable=True),
        sa.Column("run_id", sa.String(length=200), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("seq"),
        sa.UniqueConstraint("id"),
    )
    with op.batch_alter_table("memory_records", schema=None) as batch_op:
        batch_op.create_index(
            "ix_records_scope_content_key", ["scope", "content_key"], unique=False
        )
        batch_op.create_index("ix_records_scope_key", ["scope", "canonical_key"], unique=False)
        batch_op.create_index("ix_records_scope_kind", ["scope", "kind", "state"], unique=False)
        batch_op.create_index("ix_records_scope_state", ["scope", "state"], unique=False)
        batch_op.create_index(
            "ux_records_one_active_per_key",
            ["scope", "canonical_key"],
            unique=True,
            sqlite_where=sa.text("state = 'active' AND canonical_key IS NOT NULL"),
            postgresql_where=sa.text("state = 'active' AND canonical_key IS NOT NULL"),
        )

    op.create_table(
        "memory_trace_events",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("scope", sa.String(length=200), nullable=False),
        sa.Column("event_type", sa.String(length=30), nullable=False),
        sa.Column("session_key", sa.String(length=300), nullable=True),
        sa.Column("parent_trace_id", sa.String(length=40), nullable=True),
        sa.Column("reason_code", sa.String(length=60), nullable=True),
        sa.Column("feedback", sa.String(length=20), nullable=True),
        sa.Column(
            "payload",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("chars", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("memory_trace_events", schema=None) as batch_op:
        batch_op.create_index(
            "ix_traces_scope_session", ["scope", "session_key", "created_at"], unique=False
        )
        batch_op.create_index(
            "ix_traces_scope_type", ["scope", "event_type", "created_at"], unique=False
        )

    op.create_table(
        "review_decisions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("scope", sa.String(length=200), nullable=False),
        sa.Column("record_id", sa.String(length=40), nullable=False),
        sa.Column("decision", sa.String(length=20), nullable=False),
        sa.Column("producer", sa.String(length=20), nullable=False),
        sa.Column("reviewer", sa.String(length=200), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("review_decisions", schema=None) as batch_op:
        batch_op.create_index("ix_decisions_scope", ["scope", "created_at"], unique=False)

    op.create_table(
        "memory_evidence",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("scope", sa.String(length=200), nullable=False),
        sa.Column("record_id", sa.String(length=40), nullable=False),
        sa.Column("source_item_id", sa.String(length=40), nullable=False),
        sa.Column("relation", sa.String(length=30), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["record_id"],
            ["memory_records.id"],
        ),
        sa.ForeignKeyConstraint(
            ["source_item_id"],
            ["knowledge_source_items.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("record_id", "source_item_id", "relation", name="uq_evidence"),
    )
    with op.batch_alter_table("memory_evidence", schema=None) as batch_op:
        batch_op.create_index("ix_evidence_item", ["source_item_id"], unique=False)

    op.create_table(
        "memory_record_versions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("record_id", sa.String(length=40), nullable=False),
        sa.Column("scope", sa.String(length=200), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("parent_version", sa.Integer(), nullable=True),
        sa.Column("content", sa.Text(), nullable=False),
        sa.Column("value", sa.Text(), nullable=True),
        sa.Column("diff", sa.Text(), nullable=True),
        sa.Column("author_agent_id", sa.String(length=200), nullable=True),
        sa.Column("author_client", sa.String(length=200), nullable=True),
        sa.Column("author_device", sa.String(length=200), nullable=True),
        sa.Column("author_instance", sa.String(length=200), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["record_id"],
            ["memory_records.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("record_id", "version", name="uq_version"),
    )
    op.create_table(
        "memory_relations",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("scope", sa.String(length=200), nullable=False),
        sa.Column("from_record_id", sa.String(length=40), nullable=False),
        sa.Column("to_record_id", sa.String(length=40), nullable=False),
        sa.Column("relation_type", sa.String(length=30), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["from_record_id"],
            ["memory_records.id"],
        ),
        sa.ForeignKeyConstraint(
            ["to_record_id"],
            ["memory_records.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("from_record_id", "to_record_id", "relation_type", name="uq_relation"),
    )

    _create_fulltext()


_FTS_SQLITE = (
    "CREATE VIRTUAL TABLE memory_records_fts USING fts5("
    "search_text, content='memory_records', content_rowid='seq', "
    "tokenize='porter unicode61 remove_diacritics 2')",
    "CREATE TRIGGER memory_records_fts_ai AFTER INSERT ON memory_records BEGIN "
    "INSERT INTO memory_records_fts(rowid, search_text) VALUES (new.seq, new.search_text); END",
    "CREATE TRIGGER memory_records_fts_ad AFTER DELETE ON memory_records BEGIN "
    "INSERT INTO memory_records_fts(memory_records_fts, rowid, search_text) "
    "VALUES ('delete', old.seq, old.search_text); END",
    "CREATE TRIGGER memory_records_fts_au AFTER UPDATE OF search_text ON memory_records BEGIN "
    "INSERT INTO memory_records_fts(memory_records_fts, rowid, search_text) "
    "VALUES ('delete', old.seq, old.search_text); "
    "INSERT INTO memory_records_fts(rowid, search_text) VALUES (new.seq, new.search_text); END",
)


_FTS_POSTGRES = (
    "ALTER TABLE memory_records ADD COLUMN search_tsv tsvector "
    "GENERATED ALWAYS AS (to_tsvector('english', search_text)) STORED",
    "CREATE INDEX ix_records_search_tsv ON memory_records USING GIN (search_tsv)",
)


def _create_fulltext() -> None:
    """Full-text index the database keeps in sync itself, so no write path can forget it.

    SQLite: an FTS5 table fed by triggers. PostgreSQL: a generated ``tsvector`` column with GIN.
    """
    dialect = op.get_bind().dialect.name
    statements = {"sqlite": _FTS_SQLITE, "postgresql": _FTS_POSTGRES}.get(dialect, ())
    for statement in statements:
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TABLE IF EXISTS memory_records_fts")
    op.drop_table("memory_relations")
    op.drop_table("memory_record_versions")
    with op.batch_alter_table("memory_evidence", schema=None) as batch_op:
        batch_op.drop_index("ix_evidence_item")

    op.drop_table("memory_evidence")
    with op.batch_alter_table("review_decisions", schema=None) as batch_op:
        batch_op.drop_index("ix_decisions_scope")

    op.drop_table("review_decisions")
    with op.batch_alter_table("memory_trace_events", schema=None) as batch_op:
        batch_op.drop_index("ix_traces_scope_type")
        batch_op.drop_index("ix_traces_scope_session")

    op.drop_table("memory_trace_events")
    with op.batch_alter_table("memory_records", schema=None) as batch_op:
        batch_op.drop_index(
            "ux_records_one_active_per_key",
            sqlite_where=sa.text("state = 'active' AND canonical_key IS NOT NULL"),
            postgresql_where=sa.text("state = 'active' AND canonical_key IS NOT NULL"),
        )
        batch_op.drop_index("ix_records_scope_state")
        batch_op.drop_index("ix_records_scope_kind")
        batch_op.drop_index("ix_records_scope_key")
        batch_op.drop_index("ix_records_scope_content_key")

    op.drop_table("memory_records")
    with op.batch_alter_table("knowledge_sync_runs", schema=None) as batch_op:
        batch_op.drop_index("ix_sync_runs_scope")

    op.drop_table("knowledge_sync_runs")
    op.drop_table("knowledge_source_state")
    with op.batch_alter_table("knowledge_source_items", schema=None) as batch_op:
        batch_op.drop_index("ix_items_synthesis")
        batch_op.drop_index("ix_items_scope_source")

    op.drop_table("knowledge_source_items")
    with op.batch_alter_table("knowledge_source_changes", schema=None) as batch_op:
        batch_op.drop_index("ix_changes_scope_seq")

    op.drop_table("knowledge_source_changes")
    op.drop_table("knowledge_consumer_watermarks")
    with op.batch_alter_table("facet_observations", schema=None) as batch_op:
        batch_op.drop_index("ix_facets_scope_key")

    op.drop_table("facet_observations")
    with op.batch_alter_table("consent_grants", schema=None) as batch_op:
        batch_op.drop_index("ix_consent_scope")

    op.drop_table("consent_grants")
