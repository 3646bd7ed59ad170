"""``store.bulk_rows.insert_rows`` stores on SQLite exactly what SQLAlchemy's insert stores.

The same bulk puts (records, versions, evidence items, their links and episodic rows, record
and evidence vectors, TTL windows, a repeated text) are written once through the driver path
and once with it turned off (every statement through ``session.execute``), and once more with
SQLite's bound-variable limit so low that each multi-row statement is split; every table must
read back row for row the same, raw, as SQLite holds it.
"""

from __future__ import annotations

import sqlite3
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from langgraph.store.base import PutOp
from sqlalchemy import text

from userlore import Userlore
from userlore.integrations.langgraph_store import UserloreStore
from userlore.store import bulk_rows
from userlore.testing.embeddings import HashingEmbeddings

TABLES = (
    "memory_records",
    "memory_record_versions",
    "memory_evidence",
    "knowledge_source_items",
    "episodic_items",
    "memory_record_vectors",
    "memory_evidence_vectors",
    "memory_field_vectors",
)


def _ops() -> list[PutOp]:
    ops = [
        PutOp(("u1", "notes"), f"k{i}", {"text": f"Note number {i} about the garden"})
        for i in range(12)
    ]
    ops.append(PutOp(("u1", "notes"), "same", {"text": "Note number 3 about the garden"}))
    ops.append(PutOp(("u1", "notes"), "ttl", {"text": "Short lived note"}, ttl=5.0))
    ops.append(PutOp(("u1", "notes"), "both", {"text": "Two fields", "title": "A title"}))
    return ops


def _dump(lore: Userlore) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of :data:`TABLES`; a vector's generation as its distance from the scope's
    current one (a database's generations start at a random number)."""
    out: dict[str, list[tuple[Any, ...]]] = {}
    with lore.memory.store.engine.connect() as conn:
        for table in TABLES:
            rows = conn.execute(text(f"SELECT * FROM {table}")).mappings().all()
            current = dict(
                conn.execute(text("SELECT scope, generation FROM memory_vector_generations")).all()
            )
            out[table] = sorted(
                (
                    tuple(
                        value - current[row["scope"]] if name == "generation" else value
                        for name, value in row.items()
                    )
                    for row in rows
                ),
                key=repr,
            )
    return out


def _written(
    make_lore: Callable[..., Userlore], variables: int | None = None
) -> dict[str, list[tuple[Any, ...]]]:
    lore = make_lore("auto")
    if variables is not None:  # the one shared in-memory connection: SQLite's own limit
        raw = lore.memory.store.engine.raw_connection()
        raw.dbapi_connection.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, variables)
        raw.close()
    index: Any = {"dims": 64, "embed": HashingEmbeddings(dims=64), "fields": ["text", "title"]}
    store = UserloreStore(lore, namespace_template=("{user_id}",), index=index)
    store.batch(_ops())
    return _dump(lore)


@pytest.fixture
def driver_calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The tables ``insert_rows`` wrote through the driver path."""
    calls: list[str] = []
    compile_plan = bulk_rows._compile

    def counting(*args: Any) -> Any:
        plan = compile_plan(*args)
        if plan is not None:
            calls.append(args[1].name)
        return plan

    monkeypatch.setattr(bulk_rows, "_PLANS", weakref.WeakKeyDictionary())
    monkeypatch.setattr(bulk_rows, "_compile", counting)
    yield calls


def test_driver_path_stores_what_sqlalchemy_stores(
    make_lore: Callable[..., Userlore],
    monkeypatch: pytest.MonkeyPatch,
    driver_calls: list[str],
) -> None:
    fast = _written(make_lore)
    assert {
        "memory_records",
        "memory_record_versions",
        "memory_evidence",
        "knowledge_source_items",
        "episodic_items",
        "memory_record_vectors",
        "memory_evidence_vectors",
        "memory_field_vectors",
    } <= set(driver_calls)
    # SQLite refuses a statement over its bound-variable limit: with room for two or three
    # rows a statement, the rows go in several statements and land the same.
    split = _written(make_lore, variables=60)
    monkeypatch.setattr(bulk_rows, "_compile", lambda *args: None)
    monkeypatch.setattr(bulk_rows, "_PLANS", weakref.WeakKeyDictionary())
    slow = _written(make_lore)
    assert all(fast[t] for t in TABLES)  # every table was written
    for table in TABLES:
        assert fast[table] == slow[table] == split[table], table


def test_a_left_out_column_with_a_client_default_takes_sqlalchemys_path(
    make_lore: Callable[..., Userlore], driver_calls: list[str]
) -> None:
    lore = make_lore("auto")
    store = lore.memory.store
    row = {
        "id": "src_x",
        "scope": "u1",
        "source_instance_id": "s",
        "external_id": "e",
        "content_hash": "h",
        "text": "Some text",
        "occurred_at": store.clock(),
        "pipeline": "connected_knowledge",
        "created_at": store.clock(),
        "updated_at": store.clock(),
    }  # meta, blocked, synthesis_state... left to their defaults
    from userlore.store.record_batch import _ITEMS

    with store.transaction("u1") as session:
        assert bulk_rows.insert_rows(session, _ITEMS, [row]) is None
    assert driver_calls == []
    with store.engine.connect() as conn:
        meta, blocked, state = conn.execute(
            text("SELECT meta, blocked, synthesis_state FROM knowledge_source_items")
        ).one()
    assert (meta, blocked, state) == ("{}", 0, "pending")


def test_on_conflict_nothing_counts_only_the_rows_inserted(
    make_lore: Callable[..., Userlore],
) -> None:
    lore = make_lore("auto")
    store = lore.memory.store
    from userlore.store.record_batch import _ITEMS

    def row(n: int) -> dict[str, Any]:
        now = store.clock()
        return {
            "id": f"src_{n}",
            "scope": "u1",
            "source_instance_id": "s",
            "external_id": f"e{n % 2}",
            "content_hash": "h",
            "title": None,
            "text": "t",
            "meta": {},
            "occurred_at": now,
            "pipeline": "connected_knowledge",
            "blocked": False,
            "synthesis_state": "done",
            "synthesis_attempts": 0,
            "created_at": now,
            "updated_at": now,
        }

    keys = ("scope", "source_instance_id", "external_id")
    with store.transaction("u1") as session:
        first = [row(0)]
        assert (
            bulk_rows.insert_rows(
                session, _ITEMS, first, on_conflict="nothing", index_elements=keys
            )
            == 1
        )
        again = [row(2), row(3)]  # e0 is held, e1 is new
        assert (
            bulk_rows.insert_rows(
                session, _ITEMS, again, on_conflict="nothing", index_elements=keys
            )
            == 1
        )
    raw = sqlite3.connect(":memory:")  # the driver's own count, for the record
    raw.execute("CREATE TABLE t (k INTEGER PRIMARY KEY)")
    assert (
        raw.executemany(
            "INSERT INTO t VALUES (?) ON CONFLICT DO NOTHING", [(1,), (1,), (2,)]
        ).rowcount
        == 2
    )
