"""Episodic recall: a full-text index over what users said and what sources hold.

A source item (a redacted user turn, an adapter's item) gets one ``episodic_items`` row holding
its scope-prefixed index text (``store/text.search_text``), so the planner can find what was said
even when no extraction rule made a record of it. ``seq`` gives FTS5 the stable integer rowid
that string-keyed source items lack. SQLite: an external-content FTS5 table fed by triggers, as
for records. PostgreSQL: a generated ``tsvector`` column with GIN, and the row-level security
policy of migration 0004. Existing items are indexed here; assistant, system and tool turns are
not (episodic recall is about what the user said). An index on the items' ``(scope,
occurred_at)`` serves temporal questions.

Revision ID: 0009_episodic
Revises: 0004_row_level_security
Create Date: 2026-12-02 06:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from userlore.store.episodic_index import episodic_indexed
from userlore.store.text import search_text

revision: str = "0009_episodic"
down_revision: str | None = "0007_work_queue"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_FTS_SQLITE = (
    "CREATE VIRTUAL TABLE episodic_items_fts USING fts5("
    "search_text, content='episodic_items', content_rowid='seq', "
    "tokenize='porter unicode61 remove_diacritics 2')",
    "CREATE TRIGGER episodic_items_fts_ai AFTER INSERT ON episodic_items BEGIN "
    "INSERT INTO episodic_items_fts(rowid, search_text) VALUES (new.seq, new.search_text); END",
    "CREATE TRIGGER episodic_items_fts_ad AFTER DELETE ON episodic_items BEGIN "
    "INSERT INTO episodic_items_fts(episodic_items_fts, rowid, search_text) "
    "VALUES ('delete', old.seq, old.search_text); END",
    "CREATE TRIGGER episodic_items_fts_au AFTER UPDATE OF search_text ON episodic_items BEGIN "
    "INSERT INTO episodic_items_fts(episodic_items_fts, rowid, search_text) "
    "VALUES ('delete', old.seq, old.search_text); "
    "INSERT INTO episodic_items_fts(rowid, search_text) VALUES (new.seq, new.search_text); END",
)
_FTS_POSTGRES = (
    "ALTER TABLE episodic_items ADD COLUMN search_tsv tsvector "
    "GENERATED ALWAYS AS (to_tsvector('english', search_text)) STORED",
    "CREATE INDEX ix_episodic_search_tsv ON episodic_items USING GIN (search_tsv)",
    "ALTER TABLE episodic_items ENABLE ROW LEVEL SECURITY",
    "ALTER TABLE episodic_items FORCE ROW LEVEL SECURITY",
    "CREATE POLICY userlore_scope ON episodic_items USING "
    "(coalesce(current_setting('userlore.scope', true), '') = '' "
    "OR scope = current_setting('userlore.scope', true)) WITH CHECK "
    "(coalesce(current_setting('userlore.scope', true), '') = '' "
    "OR scope = current_setting('userlore.scope', true))",
)


def upgrade() -> None:
    op.create_table(
        "episodic_items",
        sa.Column("seq", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("scope", sa.String(length=200), nullable=False),
        sa.Column("item_id", sa.String(length=40), nullable=False),
        sa.Column("search_text", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["scope", "item_id"],
            ["knowledge_source_items.scope", "knowledge_source_items.id"],
            name="fk_episodic_item",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("seq"),
        sa.UniqueConstraint("item_id"),
    )
    op.create_index("ix_episodic_scope", "episodic_items", ["scope"])
    # A temporal question reads the items of one window of the scope.
    op.create_index("ix_items_scope_time", "knowledge_source_items", ["scope", "occurred_at"])
    dialect = op.get_bind().dialect.name
    for statement in {"sqlite": _FTS_SQLITE, "postgresql": _FTS_POSTGRES}.get(dialect, ()):
        op.execute(statement)
    _backfill()


def _backfill() -> None:
    """Index the items stored before this migration (the triggers fill the FTS table)."""
    bind = op.get_bind()
    items = sa.table(
        "knowledge_source_items",
        sa.column("id", sa.String),
        sa.column("scope", sa.String),
        sa.column("title", sa.Text),
        sa.column("text", sa.Text),
        sa.column("meta", sa.JSON),
    )
    index = sa.table(
        "episodic_items",
        sa.column("scope", sa.String),
        sa.column("item_id", sa.String),
        sa.column("search_text", sa.Text),
    )
    rows = bind.execute(
        sa.select(items.c.id, items.c.scope, items.c.title, items.c.text, items.c.meta)
    ).all()
    batch: list[dict[str, str]] = []
    for item_id, scope, title, body, meta in rows:
        if not episodic_indexed(meta if isinstance(meta, dict) else None):
            continue
        batch.append(
            {"scope": scope, "item_id": item_id, "search_text": search_text(scope, title, body)}
        )
    if batch:
        bind.execute(sa.insert(index), batch)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TABLE IF EXISTS episodic_items_fts")
    op.drop_index("ix_items_scope_time", table_name="knowledge_source_items")
    op.drop_index("ix_episodic_scope", table_name="episodic_items")
    op.drop_table("episodic_items")
