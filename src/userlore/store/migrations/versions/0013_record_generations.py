"""Record generations: a per-scope counter every change of a record bumps (issue 23 item 5).

In-memory structures over a scope's records (the posting index of
:mod:`userlore.store.posting_index`, the always-eligible profile cache) stay current by
generation, as the vector matrices do: a reader holding generation *g* loads only the records
changed after *g*. Triggers keep the counter, so no write path (governed writes, imports, moves,
purges, a later process) can forget it:

* ``memory_record_generations(scope, generation, reset)``: ``generation`` rises by one per
  inserted, updated or deleted record row. A new row starts at a random value (a scope purged
  and written again never passes for the one a reader held); ``reset`` changes on a hard
  delete, after which readers rebuild (a delta of changed rows cannot say which went away), and
  the row itself goes when the scope's last record does (no residue after a purge).
* ``memory_record_changes(seq, scope, generation)``: the generation of each record row's last
  change (one row per live record; deleted with the record).

SQLite only: PostgreSQL keeps its own retrieval path (``tsvector`` + GIN) and reads no
generation.

Revision ID: 0013_record_generations
Revises: 0012_lg_field_vectors
Create Date: 2026-12-05 06:10:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0013_record_generations"
down_revision: str | None = "0012_lg_field_vectors"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _bump(scope: str) -> str:
    return (
        "INSERT INTO memory_record_generations(scope, generation, reset) "
        f"SELECT {scope}, s, s FROM (SELECT abs(random() % 1000000000) + 1 AS s) WHERE true "
        "ON CONFLICT(scope) DO UPDATE SET generation = generation + 1; "
    )


def _changed(row: str) -> str:
    return (
        "INSERT OR REPLACE INTO memory_record_changes(seq, scope, generation) "
        f"SELECT {row}.seq, {row}.scope, generation FROM memory_record_generations "
        f"WHERE scope = {row}.scope; "
    )


_REMOVED = (
    "UPDATE memory_record_generations SET generation = generation + 1, "
    "reset = abs(random() % 1000000000) + 1 WHERE scope = old.scope; "
    "DELETE FROM memory_record_changes WHERE seq = old.seq; "
    "DELETE FROM memory_record_generations WHERE scope = old.scope "
    "AND NOT EXISTS (SELECT 1 FROM memory_records WHERE scope = old.scope); "
)

_SQLITE = (
    "CREATE TABLE memory_record_generations (scope VARCHAR(200) PRIMARY KEY, "
    "generation INTEGER NOT NULL, reset INTEGER NOT NULL)",
    "CREATE TABLE memory_record_changes (seq INTEGER PRIMARY KEY, scope VARCHAR(200) NOT NULL, "
    "generation INTEGER NOT NULL)",
    "CREATE INDEX ix_memory_record_changes_delta ON memory_record_changes (scope, generation)",
    "CREATE TRIGGER memory_records_gen_ai AFTER INSERT ON memory_records BEGIN "
    + _bump("new.scope")
    + _changed("new")
    + "END",
    # A row moved to another scope left the old one: that scope's readers rebuild.
    "CREATE TRIGGER memory_records_gen_au AFTER UPDATE ON memory_records BEGIN "
    + _bump("new.scope")
    + _changed("new")
    + "UPDATE memory_record_generations SET generation = generation + 1, "
    "reset = abs(random() % 1000000000) + 1 WHERE scope = old.scope AND old.scope != new.scope; "
    "DELETE FROM memory_record_generations WHERE scope = old.scope AND old.scope != new.scope "
    "AND NOT EXISTS (SELECT 1 FROM memory_records WHERE scope = old.scope); "
    "END",
    "CREATE TRIGGER memory_records_gen_ad AFTER DELETE ON memory_records BEGIN " + _REMOVED + "END",
)


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    for statement in _SQLITE:
        op.execute(statement)
    # Scopes written before this revision start at a random generation like a new one.
    op.execute(
        "INSERT INTO memory_record_generations(scope, generation, reset) "
        "SELECT scope, abs(random() % 1000000000) + 1, 0 FROM memory_records GROUP BY scope"
    )
    op.execute("UPDATE memory_record_generations SET reset = generation")


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    for trigger in ("ai", "au", "ad"):
        op.execute(f"DROP TRIGGER IF EXISTS memory_records_gen_{trigger}")
    op.execute("DROP TABLE IF EXISTS memory_record_changes")
    op.execute("DROP TABLE IF EXISTS memory_record_generations")
