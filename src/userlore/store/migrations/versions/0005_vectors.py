"""Stored embeddings: one vector per record (current version) and per evidence item.

``memory_record_vectors`` and ``memory_evidence_vectors`` key on ``scope`` first and reference
their row through the composite ``(scope, id)`` foreign key (cascading: a purged record or item
takes its vector with it). ``memory_vector_generations`` is bumped by every vector write of a
scope, which is how readers' in-memory matrices know they are stale. ``embedding_model`` names
the one model whose vectors the database holds. Row-level security (migration 0004) covers the
scoped tables on PostgreSQL.

On PostgreSQL the ``vector`` extension is created when the server has it (in a savepoint: a
server without pgvector, like the test server, simply keeps the portable float32 bytes); the
``vector`` column and HNSW index need the dimensions and are added by
:mod:`userlore.store.vectors` once the first vector is written.

Revision ID: 0005_vectors
Revises: 0004_row_level_security
Create Date: 2026-12-02 06:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_vectors"
down_revision: str | None = "0004_row_level_security"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_SCOPED = ("memory_record_vectors", "memory_evidence_vectors", "memory_vector_generations")
_BOUND = "current_setting('userlore.scope', true)"
_RULE = f"(coalesce({_BOUND}, '') = '' OR scope = {_BOUND})"


def _vector_columns() -> list[sa.Column[object]]:
    return [
        sa.Column("model", sa.String(200), nullable=False),
        sa.Column("dims", sa.Integer(), nullable=False),
        sa.Column("vector", sa.LargeBinary(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    ]


def upgrade() -> None:
    op.create_table(
        "memory_record_vectors",
        sa.Column("scope", sa.String(200), nullable=False),
        sa.Column("record_id", sa.String(40), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        *_vector_columns(),
        sa.PrimaryKeyConstraint("scope", "record_id"),
        sa.ForeignKeyConstraint(
            ["scope", "record_id"],
            ["memory_records.scope", "memory_records.id"],
            name="fk_record_vectors_record",
            ondelete="CASCADE",
        ),
    )
    op.create_table(
        "memory_evidence_vectors",
        sa.Column("scope", sa.String(200), nullable=False),
        sa.Column("source_item_id", sa.String(40), nullable=False),
        *_vector_columns(),
        sa.PrimaryKeyConstraint("scope", "source_item_id"),
        sa.ForeignKeyConstraint(
            ["scope", "source_item_id"],
            ["knowledge_source_items.scope", "knowledge_source_items.id"],
            name="fk_evidence_vectors_item",
            ondelete="CASCADE",
        ),
    )
    op.create_table(
        "memory_vector_generations",
        sa.Column("scope", sa.String(200), primary_key=True),
        sa.Column("generation", sa.Integer(), nullable=False),
    )
    op.create_table(
        "embedding_model",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("model", sa.String(200), nullable=False),
        sa.Column("dims", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    if op.get_bind().dialect.name != "postgresql":
        return
    for table in _SCOPED:
        op.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
        op.execute(f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY")
        op.execute(f"CREATE POLICY userlore_scope ON {table} USING {_RULE} WITH CHECK {_RULE}")
    bind = op.get_bind()
    savepoint = bind.begin_nested()
    try:
        bind.exec_driver_sql("CREATE EXTENSION IF NOT EXISTS vector")
        savepoint.commit()
    except sa.exc.DBAPIError:  # no pgvector on this server: the portable bytes are used
        savepoint.rollback()


def downgrade() -> None:
    for table in ("embedding_model", *reversed(_SCOPED)):
        op.drop_table(table)
