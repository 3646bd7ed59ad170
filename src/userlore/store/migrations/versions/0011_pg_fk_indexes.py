"""An index under every composite foreign key's referencing columns.

PostgreSQL indexes the referenced side of a foreign key (the ``(scope, id)`` unique keys) but
not the referencing side: deleting a source item or a record, or purging a scope, checked
each referencing table with a scan of the whole scope. Five keys had no index that starts
with their columns; nullable references get a partial index (most rows hold no reference, so
a fresh insert pays nothing for it). Both dialects: SQLite checks its foreign keys the same way.

Revision ID: 0011_pg_fk_indexes
Revises: 0010_vector_delta
Create Date: 2026-12-05 03:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011_pg_fk_indexes"
down_revision: str | None = "0010_vector_delta"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# (index, table, referencing columns, nullable reference column or None)
_INDEXES: tuple[tuple[str, str, tuple[str, str], str | None], ...] = (
    ("ix_changes_scope_item", "knowledge_source_changes", ("scope", "source_item_id"), None),
    (
        "ix_records_scope_supersedes",
        "memory_records",
        ("scope", "supersedes_record_id"),
        "supersedes_record_id",
    ),
    (
        "ix_traces_scope_parent",
        "memory_trace_events",
        ("scope", "parent_trace_id"),
        "parent_trace_id",
    ),
    ("ix_decisions_scope_record", "review_decisions", ("scope", "record_id"), None),
    ("ix_relations_scope_to", "memory_relations", ("scope", "to_record_id"), None),
)


def upgrade() -> None:
    for name, table, columns, nullable in _INDEXES:
        where = sa.text(f"{nullable} IS NOT NULL") if nullable else None
        op.create_index(name, table, list(columns), postgresql_where=where, sqlite_where=where)


def downgrade() -> None:
    for name, table, _, _ in reversed(_INDEXES):
        op.drop_index(name, table_name=table)
