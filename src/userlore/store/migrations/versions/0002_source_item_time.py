"""Index source items by source and time: daily notes and thread context read one day or one
neighbourhood of a source, which must not scan every item the source ever had.

Revision ID: 0002_source_item_time
Revises: 0001_initial
Create Date: 2026-11-29 23:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0002_source_item_time"
down_revision: str | None = "0001_initial"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("knowledge_source_items", schema=None) as batch_op:
        batch_op.create_index(
            "ix_items_source_time",
            ["scope", "source_instance_id", "occurred_at"],
            unique=False,
        )


def downgrade() -> None:
    with op.batch_alter_table("knowledge_source_items", schema=None) as batch_op:
        batch_op.drop_index("ix_items_source_time")
