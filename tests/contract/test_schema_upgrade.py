"""A database created by the first released schema upgrades in place to the current one."""

from __future__ import annotations

from typing import Any

import pytest
from alembic import command
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from userlore import CandidateInput, RecordState, Userlore
from userlore.store.engine import (
    alembic_config,
    create_store_engine,
    current_revision,
    head_revision,
    setup,
)
from userlore.store.text import search_text

FIRST_RELEASE = "0001_initial"
WHEN = "2026-01-05 09:00:00"


def _database(backend: str, request: pytest.FixtureRequest, tmp_path: Any) -> str:
    if backend == "sqlite":
        return f"sqlite:///{tmp_path / 'old.db'}"
    return str(request.getfixturevalue("postgres_databases").fresh(migrated=False))


def test_first_release_upgrades_with_data_intact(
    backend: str, request: pytest.FixtureRequest, tmp_path: Any
) -> None:
    url = _database(backend, request, tmp_path)
    engine = create_store_engine(url)
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), FIRST_RELEASE)
    assert current_revision(engine) == FIRST_RELEASE
    row = {
        "id": "mem_old_1",
        "scope": "u1",
        "path": "",
        "memory_type": "procedural",
        "kind": "style",
        "canonical_key": "style/format",
        "content_key": "k" * 32,
        "content": "Always answer in bullet points.",
        "value": "bullets",
        "search_text": search_text(
            "u1", "Always answer in bullet points.", "bullets", "style/format", ""
        ),
        "explicitness": "explicit",
        "durability": "durable",
        "importance": 0.8,
        "confidence": 0.9,
        "disclosure": "normal",
        "sensitivity": "none",
        "pipeline": "user_understanding",
        "producer": "explicit",
        "state": "active",
        "user_state": "auto",
        "version": 1,
        "stability": 0.0,
        "policy_rev": 1,
        "evidence_count": 0,
        "created_at": WHEN,
        "updated_at": WHEN,
    }
    columns = ", ".join(row)
    values = ", ".join(f":{name}" for name in row)
    with engine.begin() as conn:
        conn.execute(text(f"INSERT INTO memory_records ({columns}) VALUES ({values})"), row)
        conn.execute(
            text(
                "INSERT INTO memory_record_versions (record_id, scope, version, content, value, "
                "created_at) VALUES ('mem_old_1', 'u1', 1, :c, 'bullets', :w)"
            ),
            {"c": row["content"], "w": WHEN},
        )
    assert setup(engine) == head_revision()
    engine.dispose()

    lore = Userlore.open(url, config={"memory": {"mode": "auto"}})
    try:
        record = lore.records.get("u1", "mem_old_1")
        assert record.state is RecordState.ACTIVE and record.value == "bullets"
        assert [v.version for v in lore.records.history("u1", "mem_old_1")] == [1]
        plan = lore.plan_context(scope="u1", query="how should answers look")
        assert plan.selected_ids == ("mem_old_1",)
        updated = lore.records.update("u1", "mem_old_1", "Always answer in numbered lists.")
        assert updated.version == 2
    finally:
        lore.close()


def _insert(conn: Any, table: str, row: dict[str, Any]) -> None:
    columns = ", ".join(row)
    values = ", ".join(f":{name}" for name in row)
    conn.execute(text(f"INSERT INTO {table} ({columns}) VALUES ({values})"), row)


def _record(rid: str, scope: str, content: str, **extra: Any) -> dict[str, Any]:
    return {
        "id": rid,
        "scope": scope,
        "path": "",
        "memory_type": "semantic",
        "kind": "note",
        "content_key": rid.ljust(32, "k"),
        "content": content,
        "search_text": search_text(scope, content, None, None, ""),
        "explicitness": "explicit",
        "durability": "durable",
        "importance": 0.5,
        "confidence": 0.8,
        "disclosure": "normal",
        "sensitivity": "none",
        "pipeline": "user_understanding",
        "producer": "tool",
        "state": "active",
        "user_state": "auto",
        "version": 1,
        "stability": 0.0,
        "policy_rev": 1,
        "evidence_count": 0,
        "created_at": WHEN,
        "updated_at": WHEN,
        **extra,
    }


def _item(iid: str, scope: str, instance: str, external: str, body: str) -> dict[str, Any]:
    return {
        "id": iid,
        "scope": scope,
        "source_instance_id": instance,
        "external_id": external,
        "content_hash": "h" * 64,
        "text": body,
        "meta": "{}",
        "pipeline": "user_understanding",
        "blocked": False,
        "synthesis_state": "done",
        "synthesis_attempts": 0,
        "created_at": WHEN,
        "updated_at": WHEN,
    }


def test_scoped_references_migration_keeps_data_and_drops_cross_scope_links(
    backend: str, request: pytest.FixtureRequest, tmp_path: Any
) -> None:
    """0003: rows within a scope survive unchanged; links into another scope (only an import
    could have written them) are removed, and from then on the database refuses them."""
    url = _database(backend, request, tmp_path)
    engine = create_store_engine(url)
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0002_source_item_time")
    with engine.begin() as conn:
        _insert(
            conn,
            "memory_records",
            _record("mem_a", "alice", "Alice kayaks on Sundays.", evidence_count=1),
        )
        _insert(
            conn,
            "knowledge_source_items",
            _item("src_a", "alice", "conversation:alice:s1", "t1", "I kayak on Sundays."),
        )
        _insert(
            conn,
            "memory_evidence",
            {
                "scope": "alice",
                "record_id": "mem_a",
                "source_item_id": "src_a",
                "relation": "stated_in",
                "created_at": WHEN,
            },
        )
        # Mallory's imported rows pointing into Alice's scope
        _insert(
            conn,
            "memory_records",
            _record(
                "mem_m",
                "mallory",
                "Mallory's note.",
                supersedes_record_id="mem_a",
                evidence_count=1,
            ),
        )
        _insert(
            conn,
            "memory_evidence",
            {
                "scope": "mallory",
                "record_id": "mem_m",
                "source_item_id": "src_a",
                "relation": "stated_in",
                "created_at": WHEN,
            },
        )
        _insert(
            conn,
            "memory_relations",
            {
                "scope": "mallory",
                "from_record_id": "mem_m",
                "to_record_id": "mem_a",
                "relation_type": "supersedes",
                "created_at": WHEN,
            },
        )
    assert setup(engine) == head_revision()
    engine.dispose()

    lore = Userlore.open(url, config={"memory": {"mode": "auto"}})
    try:
        assert lore.records.get("alice", "mem_a").content == "Alice kayaks on Sundays."
        assert [e["source_item_id"] for e in lore.records.evidence("alice", "mem_a")] == ["src_a"]
        assert lore.records.get("alice", "mem_a").evidence_count == 1
        assert lore.plan_context(scope="alice", query="kayak").selected_ids == ("mem_a",)
        mallory = lore.records.get("mallory", "mem_m")
        assert mallory.supersedes_record_id is None and mallory.evidence_count == 0
        assert lore.records.evidence("mallory", "mem_m") == []
        # the full-text index still follows writes after SQLite rebuilt the table
        lore.write("alice", CandidateInput(kind="note", content="Alice paddles a canoe too."))
        assert len(lore.plan_context(scope="alice", query="canoe").selected_ids) == 1
        # the same source id and external id may now exist in another scope
        lore.observe("bob", "user", "Hello.", "s1", turn_id="t1")
        with pytest.raises(IntegrityError), lore.store.engine.begin() as conn:
            _insert(
                conn,
                "memory_evidence",
                {
                    "scope": "mallory",
                    "record_id": "mem_m",
                    "source_item_id": "src_a",
                    "relation": "x",
                    "created_at": WHEN,
                },
            )
    finally:
        lore.close()
