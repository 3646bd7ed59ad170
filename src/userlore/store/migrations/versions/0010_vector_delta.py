"""Vector deltas: a reader's matrix takes in only what changed since it was loaded.

Every stored vector carries the scope ``generation`` its write made (indexed with the scope), so
a reader that holds generation *g* loads the rows newer than *g* and updates its matrix in place
instead of reloading the scope. ``memory_vector_generations.reset`` is the generation of the
scope's last removal of a vector: a matrix older than it reloads whole, since a delta of rows
cannot say which rows went away. Existing vectors get generation 0 (a first load reads them).

Revision ID: 0010_vector_delta
Revises: 0009_episodic
Create Date: 2026-12-03 19:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_vector_delta"
down_revision: str | None = "0009_episodic"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_VECTORS = ("memory_record_vectors", "memory_evidence_vectors")


def upgrade() -> None:
    for table in _VECTORS:
        op.add_column(
            table,
            sa.Column("generation", sa.Integer(), nullable=False, server_default="0"),
        )
        op.create_index(f"ix_{table}_delta", table, ["scope", "generation"])
    op.add_column(
        "memory_vector_generations",
        sa.Column("reset", sa.Integer(), nullable=False, server_default="0"),
    )


def downgrade() -> None:
    op.drop_column("memory_vector_generations", "reset")
    for table in _VECTORS:
        op.drop_index(f"ix_{table}_delta", table_name=table)
        op.drop_column(table, "generation")
