"""A database created by the first released schema upgrades in place to the current one."""

from __future__ import annotations

from typing import Any

import pytest
from alembic import command
from sqlalchemy import text

from userlore import RecordState, Userlore
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
        record = lore.get("mem_old_1")
        assert record.state is RecordState.ACTIVE and record.value == "bullets"
        assert [v.version for v in lore.history("mem_old_1")] == [1]
        plan = lore.plan_context(scope="u1", query="how should answers look")
        assert plan.selected_ids == ("mem_old_1",)
        updated = lore.update("mem_old_1", "Always answer in numbered lists.")
        assert updated.version == 2
    finally:
        lore.close()
