"""Scope is part of every reference: composite ``(scope, id)`` foreign keys on both backends.

Parents get ``UNIQUE(scope, id)``; every row that points at another row (evidence, versions,
relations, review decisions, the change ledger, superseded records, parent traces) points at
``(scope, id)``, so the database itself refuses a link into another scope. Source items become
unique per ``(scope, source_instance_id, external_id)`` and source cursors are keyed by
``(scope, source_instance_id)``: another scope using the same source id can no longer plant an
item under it or block its syncs.

Rows that already link across scopes (only an import could write them, and they are exactly
what this migration forbids) are removed before the constraints are added: such evidence links,
relations, versions, review decisions and ledger rows are deleted, a cross-scope
``supersedes_record_id`` or ``parent_trace_id`` is cleared, and ``evidence_count`` is lowered by
the links removed. Nothing within one scope changes.

SQLite cannot add constraints to a table, so each table is recreated (create, copy, drop,
rename, then its indexes and triggers replayed from their own SQL, the full-text triggers of
``memory_records`` included) with foreign key enforcement off for the migration
(``store/engine.py`` checks ``PRAGMA foreign_key_check`` before committing). PostgreSQL alters
the tables in place.

Revision ID: 0003_scoped_references
Revises: 0002_source_item_time
Create Date: 2026-12-02 02:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0003_scoped_references"
down_revision: str | None = "0002_source_item_time"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# parent table -> UNIQUE(scope, id) constraint name
_PARENT_KEYS = {
    "memory_records": "uq_records_scope_id",
    "knowledge_source_items": "uq_items_scope_id",
    "memory_trace_events": "uq_traces_scope_id",
}

# child table -> [(name, local columns, referenced table)]
_FKS: dict[str, list[tuple[str, tuple[str, str], str]]] = {
    "memory_records": [
        ("fk_records_supersedes", ("scope", "supersedes_record_id"), "memory_records")
    ],
    "memory_record_versions": [("fk_versions_record", ("scope", "record_id"), "memory_records")],
    "memory_evidence": [
        ("fk_evidence_record", ("scope", "record_id"), "memory_records"),
        ("fk_evidence_item", ("scope", "source_item_id"), "knowledge_source_items"),
    ],
    "memory_relations": [
        ("fk_relations_from", ("scope", "from_record_id"), "memory_records"),
        ("fk_relations_to", ("scope", "to_record_id"), "memory_records"),
    ],
    "review_decisions": [("fk_decisions_record", ("scope", "record_id"), "memory_records")],
    "knowledge_source_changes": [
        ("fk_changes_item", ("scope", "source_item_id"), "knowledge_source_items")
    ],
    "memory_trace_events": [
        ("fk_traces_parent", ("scope", "parent_trace_id"), "memory_trace_events")
    ],
}

# The 0001 single-column foreign keys (restored by downgrade).
_OLD_FKS: dict[str, list[tuple[str, str, str]]] = {
    "memory_record_versions": [("record_id", "memory_records", "id")],
    "memory_evidence": [
        ("record_id", "memory_records", "id"),
        ("source_item_id", "knowledge_source_items", "id"),
    ],
    "memory_relations": [
        ("from_record_id", "memory_records", "id"),
        ("to_record_id", "memory_records", "id"),
    ],
}

_SAME_SCOPE = "SELECT 1 FROM {parent} p WHERE p.id = {child}.{column} AND p.scope = {child}.scope"


def _missing(child: str, column: str, parent: str) -> str:
    return f"NOT EXISTS ({_SAME_SCOPE.format(parent=parent, child=child, column=column)})"


def _remove_cross_scope_rows() -> None:
    """Delete or clear every existing reference that does not stay within its scope."""
    evidence_bad = (
        f"({_missing('memory_evidence', 'record_id', 'memory_records')} OR "
        f"{_missing('memory_evidence', 'source_item_id', 'knowledge_source_items')})"
    )
    statements = [
        "UPDATE memory_records SET evidence_count = evidence_count - ("
        "SELECT count(*) FROM memory_evidence WHERE memory_evidence.record_id = memory_records.id"
        f" AND {evidence_bad}) WHERE EXISTS (SELECT 1 FROM memory_evidence WHERE "
        f"memory_evidence.record_id = memory_records.id AND {evidence_bad})",
        f"DELETE FROM memory_evidence WHERE {evidence_bad}",
        "DELETE FROM memory_relations WHERE "
        f"{_missing('memory_relations', 'from_record_id', 'memory_records')} OR "
        f"{_missing('memory_relations', 'to_record_id', 'memory_records')}",
        "DELETE FROM memory_record_versions WHERE "
        f"{_missing('memory_record_versions', 'record_id', 'memory_records')}",
        "DELETE FROM review_decisions WHERE "
        f"{_missing('review_decisions', 'record_id', 'memory_records')}",
        "DELETE FROM knowledge_source_changes WHERE "
        f"{_missing('knowledge_source_changes', 'source_item_id', 'knowledge_source_items')}",
        "UPDATE memory_records SET supersedes_record_id = NULL WHERE supersedes_record_id IS NOT "
        f"NULL AND {_missing('memory_records', 'supersedes_record_id', 'memory_records')}",
        "UPDATE memory_trace_events SET parent_trace_id = NULL WHERE parent_trace_id IS NOT NULL "
        f"AND {_missing('memory_trace_events', 'parent_trace_id', 'memory_trace_events')}",
    ]
    for statement in statements:
        op.execute(statement)


def upgrade() -> None:
    # First a data statement: on SQLite it opens the transaction the table rebuilds then run in.
    _remove_cross_scope_rows()
    if op.get_bind().dialect.name == "sqlite":
        _upgrade_sqlite()
    else:
        _upgrade_postgres()


def _new_constraints(table: str) -> list[sa.Constraint]:
    out: list[sa.Constraint] = []
    if table in _PARENT_KEYS:
        out.append(sa.UniqueConstraint("scope", "id", name=_PARENT_KEYS[table]))
    for name, local, parent in _FKS.get(table, []):
        out.append(
            sa.ForeignKeyConstraint(list(local), [f"{parent}.scope", f"{parent}.id"], name=name)
        )
    return out


def _upgrade_sqlite() -> None:
    for table in (
        "memory_records",
        "knowledge_source_items",
        "memory_trace_events",
        "memory_record_versions",
        "memory_evidence",
        "memory_relations",
        "review_decisions",
        "knowledge_source_changes",
    ):
        drop = {"uq_source_item"} if table == "knowledge_source_items" else set()
        extra = _new_constraints(table)
        if table == "knowledge_source_items":
            extra.append(
                sa.UniqueConstraint(
                    "scope", "source_instance_id", "external_id", name="uq_source_item"
                )
            )
        _sqlite_rebuild(table, extra, drop_uniques=drop)
    _sqlite_rebuild(
        "knowledge_source_state",
        [sa.PrimaryKeyConstraint("scope", "source_instance_id", name="pk_source_state")],
        primary_key=("scope", "source_instance_id"),
    )


def _sqlite_rebuild(
    table: str,
    constraints: list[sa.Constraint],
    *,
    drop_uniques: set[str] | frozenset[str] = frozenset(),
    primary_key: tuple[str, ...] | None = None,
    old_fks: Sequence[tuple[str, str, str]] = (),
) -> None:
    """Recreate ``table`` with its columns, kept unique constraints and indexes, no old foreign
    keys, plus ``constraints``; rows are copied unchanged."""
    bind = op.get_bind()
    insp = sa.inspect(bind)
    columns = insp.get_columns(table)
    pk = primary_key or tuple(insp.get_pk_constraint(table)["constrained_columns"])
    uniques = [
        u
        for u in insp.get_unique_constraints(table)
        if u["name"] not in drop_uniques
        and u["name"] not in {c.name for c in constraints if c.name}
    ]
    items: list[Any] = [
        sa.Column(
            c["name"],
            c["type"],
            nullable=c["nullable"] and c["name"] not in pk,
            primary_key=primary_key is None and c["name"] in pk,
        )
        for c in columns
    ]
    items += [sa.UniqueConstraint(*u["column_names"], name=u["name"]) for u in uniques]
    items += [sa.ForeignKeyConstraint([col], [f"{ref}.{rcol}"]) for col, ref, rcol in old_fks]
    items += constraints
    # Indexes and triggers (the full-text triggers of memory_records) go with the old table;
    # their own SQL is replayed verbatim after the rename, partial-index conditions included.
    dependents = [
        sql
        for (sql,) in bind.exec_driver_sql(
            "SELECT sql FROM sqlite_master WHERE tbl_name = ? AND type IN ('index', 'trigger') "
            "AND sql IS NOT NULL ORDER BY type, name",
            (table,),
        )
    ]
    temp = f"_new_{table}"
    op.create_table(temp, *items)
    names = ", ".join(f'"{c["name"]}"' for c in columns)
    for statement in (
        f'INSERT INTO "{temp}" ({names}) SELECT {names} FROM "{table}"',
        f'DROP TABLE "{table}"',
        f'ALTER TABLE "{temp}" RENAME TO "{table}"',
        *dependents,
    ):
        bind.exec_driver_sql(statement)


def _upgrade_postgres() -> None:
    insp = sa.inspect(op.get_bind())
    for table in _OLD_FKS:
        for fk in insp.get_foreign_keys(table):
            op.drop_constraint(str(fk["name"]), table, type_="foreignkey")
    for table, name in _PARENT_KEYS.items():
        op.create_unique_constraint(name, table, ["scope", "id"])
    op.drop_constraint("uq_source_item", "knowledge_source_items", type_="unique")
    op.create_unique_constraint(
        "uq_source_item", "knowledge_source_items", ["scope", "source_instance_id", "external_id"]
    )
    pk = str(insp.get_pk_constraint("knowledge_source_state")["name"])
    op.drop_constraint(pk, "knowledge_source_state", type_="primary")
    op.create_primary_key(
        "pk_source_state", "knowledge_source_state", ["scope", "source_instance_id"]
    )
    for table, fks in _FKS.items():
        for name, local, parent in fks:
            op.create_foreign_key(name, table, parent, list(local), ["scope", "id"])


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for table in (
            "knowledge_source_changes",
            "review_decisions",
            "memory_relations",
            "memory_evidence",
            "memory_record_versions",
            "memory_trace_events",
            "knowledge_source_items",
            "memory_records",
        ):
            extra: list[sa.Constraint] = []
            if table == "knowledge_source_items":
                extra.append(
                    sa.UniqueConstraint("source_instance_id", "external_id", name="uq_source_item")
                )
            _sqlite_rebuild(
                table,
                extra,
                drop_uniques={_PARENT_KEYS.get(table, ""), "uq_source_item"},
                old_fks=_OLD_FKS.get(table, ()),
            )
        _sqlite_rebuild(
            "knowledge_source_state",
            [sa.PrimaryKeyConstraint("source_instance_id")],
            primary_key=("source_instance_id",),
        )
        return
    for table, fks in _FKS.items():
        for name, _local, _parent in fks:
            op.drop_constraint(name, table, type_="foreignkey")
    for table, name in _PARENT_KEYS.items():
        op.drop_constraint(name, table, type_="unique")
    op.drop_constraint("uq_source_item", "knowledge_source_items", type_="unique")
    op.create_unique_constraint(
        "uq_source_item", "knowledge_source_items", ["source_instance_id", "external_id"]
    )
    op.drop_constraint("pk_source_state", "knowledge_source_state", type_="primary")
    op.create_primary_key(
        "knowledge_source_state_pkey", "knowledge_source_state", ["source_instance_id"]
    )
    for table, old in _OLD_FKS.items():
        for column, parent, remote in old:
            op.create_foreign_key(None, table, parent, [column], [remote])
