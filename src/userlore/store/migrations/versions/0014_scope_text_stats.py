"""Per-scope full-text statistics: each scope's BM25 from its own records only (SQLite).

FTS5's ``bm25()`` takes the row count and the average length over its whole table, that is over
every scope. A scope's document frequencies were already its own (its tokens carry its prefix,
``store/text.scope_prefix``), but its scores moved when another user's records were added: a
weak side channel (a user's result order said something about other users' data) and plans that
could not be reproduced. ``fulltext_scope_stats(corpus, scope, docs, tokens)`` holds each
scope's row count and token total for the records' index (``records``) and the episodic index
(``episodic``), kept by triggers so no write path (governed writes, imports, moves, purges,
supersession, expiry) can forget them; a scope's row goes with its last indexed row.

A row's tokens are its index text's words plus its inner apostrophes: index text is words
separated by single spaces, and FTS5's ``unicode61`` splits a word only at an apostrophe
("caroline's" is two tokens), so this is the length FTS5 records in ``%_docsize``
(``tests/unit/test_scoped_bm25.py`` checks it). PostgreSQL ranks with per-scope counts already
(``store/retrieval.py``) and needs no table.

Revision ID: 0014_scope_text_stats
Revises: 0013_record_generations
Create Date: 2026-12-06 00:20:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0014_scope_text_stats"
down_revision: str | None = "0013_record_generations"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_CORPORA = (("records", "memory_records"), ("episodic", "episodic_items"))


def _tokens(t: str) -> str:
    return (
        f"(CASE WHEN {t} IS NULL OR {t} = '' THEN 0 ELSE length({t}) - "
        f"length(replace({t}, ' ', '')) + 1 + length({t}) - length(replace({t}, '''', '')) END)"
    )


def _added(corpus: str) -> str:
    return (
        "INSERT INTO fulltext_scope_stats(corpus, scope, docs, tokens) "
        f"VALUES ('{corpus}', new.scope, 1, {_tokens('new.search_text')}) "
        "ON CONFLICT(corpus, scope) DO UPDATE SET docs = docs + 1, "
        "tokens = tokens + excluded.tokens; "
    )


def _removed(corpus: str) -> str:
    return (
        "UPDATE fulltext_scope_stats SET docs = docs - 1, "
        f"tokens = tokens - {_tokens('old.search_text')} "
        f"WHERE corpus = '{corpus}' AND scope = old.scope; "
        f"DELETE FROM fulltext_scope_stats WHERE corpus = '{corpus}' AND scope = old.scope "
        "AND docs <= 0; "
    )


def _statements() -> list[str]:
    out = [
        "CREATE TABLE fulltext_scope_stats (corpus VARCHAR(20) NOT NULL, "
        "scope VARCHAR(200) NOT NULL, docs INTEGER NOT NULL, tokens INTEGER NOT NULL, "
        "PRIMARY KEY (corpus, scope))"
    ]
    for corpus, table in _CORPORA:
        out += [
            f"CREATE TRIGGER {table}_stats_ai AFTER INSERT ON {table} BEGIN "
            + _added(corpus)
            + "END",
            f"CREATE TRIGGER {table}_stats_ad AFTER DELETE ON {table} BEGIN "
            + _removed(corpus)
            + "END",
            f"CREATE TRIGGER {table}_stats_au AFTER UPDATE OF search_text, scope ON {table} "
            "WHEN old.search_text IS NOT new.search_text OR old.scope IS NOT new.scope BEGIN "
            + _removed(corpus)
            + _added(corpus)
            + "END",
            "INSERT INTO fulltext_scope_stats(corpus, scope, docs, tokens) "
            f"SELECT '{corpus}', scope, count(*), coalesce(sum({_tokens('search_text')}), 0) "
            f"FROM {table} GROUP BY scope",
        ]
    return out


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    for statement in _statements():
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    for _, table in _CORPORA:
        for trigger in ("ai", "ad", "au"):
            op.execute(f"DROP TRIGGER IF EXISTS {table}_stats_{trigger}")
    op.execute("DROP TABLE IF EXISTS fulltext_scope_stats")
