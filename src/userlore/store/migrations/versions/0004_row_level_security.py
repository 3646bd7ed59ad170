"""PostgreSQL row-level security keyed on the scope: a second wall behind the scope filters.

Every table with a ``scope`` column gets one policy, forced on the table owner too: when the
transaction has bound ``userlore.scope`` (the governed store does for each single-scope unit of
work, ``SET LOCAL``), only rows of that scope are visible and only rows of that scope may be
written. When nothing is bound the policy allows every row, so workers that claim across scopes,
migrations and maintenance keep working; see ``docs/postgres.md`` for what this does and does not
protect against. SQLite has no row-level security: nothing to do there.

Revision ID: 0004_row_level_security
Revises: 0003_scoped_references
Create Date: 2026-12-02 02:30:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0004_row_level_security"
down_revision: str | None = "0003_scoped_references"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SCOPED_TABLES = (
    "consent_grants",
    "facet_observations",
    "knowledge_consumer_watermarks",
    "knowledge_source_changes",
    "knowledge_source_items",
    "knowledge_source_state",
    "knowledge_sync_runs",
    "memory_evidence",
    "memory_record_versions",
    "memory_records",
    "memory_relations",
    "memory_trace_events",
    "review_decisions",
)

_BOUND = "current_setting('userlore.scope', true)"
_RULE = f"(coalesce({_BOUND}, '') = '' OR scope = {_BOUND})"


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for table in SCOPED_TABLES:
        op.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
        op.execute(f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY")
        op.execute(f"CREATE POLICY userlore_scope ON {table} USING {_RULE} WITH CHECK {_RULE}")


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for table in SCOPED_TABLES:
        op.execute(f"DROP POLICY IF EXISTS userlore_scope ON {table}")
        op.execute(f"ALTER TABLE {table} NO FORCE ROW LEVEL SECURITY")
        op.execute(f"ALTER TABLE {table} DISABLE ROW LEVEL SECURITY")
