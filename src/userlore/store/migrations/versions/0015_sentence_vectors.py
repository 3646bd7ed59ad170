"""One vector per sentence of an evidence item of several sentences (issue 23, multihop11).

A turn's one vector is diluted by its greetings and its other sentences: "What martial arts has
John done?" is far from "John: Hey! Long week. I'm doing kickboxing now, loving it." The
sentences of an item with more than one go to ``memory_sentence_vectors`` as
``<item_id>#<n>`` (the speaker prefix kept), stamped with the scope generation like every vector
and cascading with their item; the planner scores an item by the best of its whole vector and
its sentences'. Row-level security covers the table on PostgreSQL like the other scoped tables.

Revision ID: 0015_sentence_vectors
Revises: 0014_scope_text_stats
Create Date: 2026-12-06 08:40:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015_sentence_vectors"
down_revision: str | None = "0014_scope_text_stats"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TABLE = "memory_sentence_vectors"
_BOUND = "current_setting('userlore.scope', true)"
_RULE = f"(coalesce({_BOUND}, '') = '' OR scope = {_BOUND})"


def upgrade() -> None:
    op.create_table(
        _TABLE,
        sa.Column("scope", sa.String(200), nullable=False),
        sa.Column("sentence_id", sa.String(60), nullable=False),
        sa.Column("source_item_id", sa.String(40), nullable=False),
        sa.Column("model", sa.String(200), nullable=False),
        sa.Column("dims", sa.Integer(), nullable=False),
        sa.Column("vector", sa.LargeBinary(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("generation", sa.Integer(), nullable=False, server_default="0"),
        sa.PrimaryKeyConstraint("scope", "sentence_id"),
        sa.ForeignKeyConstraint(
            ["scope", "source_item_id"],
            ["knowledge_source_items.scope", "knowledge_source_items.id"],
            name="fk_sentence_vectors_item",
            ondelete="CASCADE",
        ),
    )
    op.create_index(f"ix_{_TABLE}_delta", _TABLE, ["scope", "generation"])
    op.create_index(f"ix_{_TABLE}_item", _TABLE, ["scope", "source_item_id"])
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(f"ALTER TABLE {_TABLE} ENABLE ROW LEVEL SECURITY")
    op.execute(f"ALTER TABLE {_TABLE} FORCE ROW LEVEL SECURITY")
    op.execute(f"CREATE POLICY userlore_scope ON {_TABLE} USING {_RULE} WITH CHECK {_RULE}")


def downgrade() -> None:
    op.drop_table(_TABLE)
