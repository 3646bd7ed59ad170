"""One vector per indexed field of a ``UserloreStore`` item (issue 30, B3).

LangGraph's stores embed each indexed field (``IndexConfig.fields`` or a put's ``index=[...]``)
separately and score an item by its best field. A record keeps its one vector in
``memory_record_vectors`` (the first indexed text: what the planner reads); the other texts of
a store item go to ``memory_field_vectors`` as ``<record_id>#<n>``, stamped with the scope
generation like every vector, and cascade with their record. Row-level security covers the
table on PostgreSQL like the other scoped tables.

Revision ID: 0012_lg_field_vectors
Revises: 0011_pg_fk_indexes
Create Date: 2026-12-05 03:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012_lg_field_vectors"
down_revision: str | None = "0011_pg_fk_indexes"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TABLE = "memory_field_vectors"
_BOUND = "current_setting('userlore.scope', true)"
_RULE = f"(coalesce({_BOUND}, '') = '' OR scope = {_BOUND})"


def upgrade() -> None:
    op.create_table(
        _TABLE,
        sa.Column("scope", sa.String(200), nullable=False),
        sa.Column("field_id", sa.String(60), nullable=False),
        sa.Column("record_id", sa.String(40), nullable=False),
        sa.Column("model", sa.String(200), nullable=False),
        sa.Column("dims", sa.Integer(), nullable=False),
        sa.Column("vector", sa.LargeBinary(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("generation", sa.Integer(), nullable=False, server_default="0"),
        sa.PrimaryKeyConstraint("scope", "field_id"),
        sa.ForeignKeyConstraint(
            ["scope", "record_id"],
            ["memory_records.scope", "memory_records.id"],
            name="fk_field_vectors_record",
            ondelete="CASCADE",
        ),
    )
    op.create_index(f"ix_{_TABLE}_delta", _TABLE, ["scope", "generation"])
    op.create_index(f"ix_{_TABLE}_record", _TABLE, ["scope", "record_id"])
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(f"ALTER TABLE {_TABLE} ENABLE ROW LEVEL SECURITY")
    op.execute(f"ALTER TABLE {_TABLE} FORCE ROW LEVEL SECURITY")
    op.execute(f"CREATE POLICY userlore_scope ON {_TABLE} USING {_RULE} WITH CHECK {_RULE}")


def downgrade() -> None:
    op.drop_table(_TABLE)
