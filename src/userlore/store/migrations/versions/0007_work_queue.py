"""The durable work queue: observations and reviews handed off the user's turn.

``work_items`` holds jobs a worker (``userlore worker``) or an in-process background runner
claims with a lease and runs once. On PostgreSQL the table gets the same row-level security
policy as every other scoped table (migration 0004).

Revision ID: 0007_work_queue
Revises: 0004_row_level_security
Create Date: 2026-12-02 06:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0007_work_queue"
down_revision: str | None = "0005_vectors"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_BOUND = "current_setting('userlore.scope', true)"
_RULE = f"(coalesce({_BOUND}, '') = '' OR scope = {_BOUND})"


def upgrade() -> None:
    op.create_table(
        "work_items",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("scope", sa.String(length=200), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("dedupe_key", sa.String(length=500), nullable=False),
        sa.Column(
            "payload",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("state", sa.String(length=20), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("lease_owner", sa.String(length=200), nullable=True),
        sa.Column("lease_expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.String(length=200), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("scope", "kind", "dedupe_key", name="uq_work_job"),
    )
    with op.batch_alter_table("work_items", schema=None) as batch_op:
        batch_op.create_index("ix_work_due", ["state", "next_attempt_at"], unique=False)
        batch_op.create_index("ix_work_scope", ["scope", "state"], unique=False)
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE work_items ENABLE ROW LEVEL SECURITY")
        op.execute("ALTER TABLE work_items FORCE ROW LEVEL SECURITY")
        op.execute(f"CREATE POLICY userlore_scope ON work_items USING {_RULE} WITH CHECK {_RULE}")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP POLICY IF EXISTS userlore_scope ON work_items")
    with op.batch_alter_table("work_items", schema=None) as batch_op:
        batch_op.drop_index("ix_work_scope")
        batch_op.drop_index("ix_work_due")
    op.drop_table("work_items")
