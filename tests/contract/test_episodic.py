"""Episodic recall and time on every backend, through the sync and the async facade."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from alembic import command
from sqlalchemy import func, select, text

from tests.conftest import FakeClock
from userlore import Userlore
from userlore.sources.base import ItemListSource, SourceItem
from userlore.store.engine import alembic_config, create_store_engine
from userlore.store.schema import EpisodicItem

PICK = "The salad sounds perfect, let's go with that one"


def plan_payload(lore: Userlore, scope: str) -> dict[str, Any]:
    payload: dict[str, Any] = lore.traces.list(scope, event_type="plan", limit=1)[0]["payload"]
    return payload


def test_snippets_are_found_filtered_and_isolated(auto_lore: Userlore) -> None:
    said = auto_lore.observe("u1", "user", PICK)
    auto_lore.observe("u1", "assistant", "Great, the salad it is")
    auto_lore.observe("u2", "user", "The salad with shrimp, please")
    health = auto_lore.observe("u1", "user", "I have diabetes, so a salad suits me")
    plan = auto_lore.plan_context("u1", "which salad did I choose?")
    assert [s.item_id for s in plan.snippets] == [said.source_item_id]
    assert "shrimp" not in plan.text and "Great, the salad" not in plan.text
    rejected = {r["id"]: r["reason"] for r in plan_payload(auto_lore, "u1")["episodic"]["rejected"]}
    assert rejected == {health.source_item_id: "consent_required"}


def test_a_record_and_its_turn_are_not_shown_twice(auto_lore: Userlore) -> None:
    said = auto_lore.observe("u1", "user", "I always use pnpm for installs")
    plan = auto_lore.plan_context("u1", "pnpm installs")
    assert said.candidates[0].id in plan.selected_ids and plan.snippets == ()


def test_ingested_items_are_episodic_and_a_temporal_question_finds_its_window(
    make_lore: Any, clock: FakeClock
) -> None:
    lore = make_lore("auto", memory={"mode": "auto", "sources": ["session", "connected"]})
    now = clock.now
    items = [
        SourceItem("a", "We settled on Postgres for billing", occurred_at=now - timedelta(days=5)),
        SourceItem("b", "We settled on MySQL for reports", occurred_at=now - timedelta(days=40)),
    ]
    lore.sources.ingest("u1", ItemListSource("notes", items), synthesize=False)
    plan = lore.plan_context("u1", "what did I decide last week?")
    assert "Postgres for billing" in plan.text and "MySQL" not in plan.text
    plan = lore.plan_context("u1", "MySQL reports")
    assert "MySQL for reports" in plan.text


def test_purging_a_scope_leaves_no_episodic_rows(auto_lore: Userlore) -> None:
    auto_lore.observe("u1", "user", PICK)
    assert auto_lore.scopes.purge("u1").residual_rows == 0
    with auto_lore.memory.store.engine.connect() as conn:
        assert conn.scalar(select(func.count()).select_from(EpisodicItem)) == 0
    assert auto_lore.plan_context("u1", "salad").snippets == ()


async def test_async_plans_take_valid_at_and_return_snippets(
    auto_lore: Userlore, clock: FakeClock
) -> None:
    first = await auto_lore.aobserve("u1", "user", "salad with feta, please")
    then = clock.now + timedelta(hours=1)
    clock.advance(days=1)
    await auto_lore.aobserve("u1", "user", "salad without onions, please")
    plan = await auto_lore.aplan_context("u1", "salad", valid_at=then)
    assert [s.item_id for s in plan.snippets] == [first.source_item_id]
    assert plan_payload(auto_lore, "u1")["valid_at"] == then.isoformat()
    expiring = await auto_lore.aobserve("u1", "user", "Please answer in English until Friday.")
    (record,) = expiring.candidates
    assert record.id in (await auto_lore.aplan_context("u1", "hello")).selected_ids
    clock.advance(days=7)
    assert record.id not in (await auto_lore.aplan_context("u1", "hello")).selected_ids


def test_the_migration_indexes_items_stored_before_it(
    backend: str, request: pytest.FixtureRequest, tmp_path: Any, clock: FakeClock
) -> None:
    if backend == "sqlite":
        url = f"sqlite:///{tmp_path / 'old.db'}"
    else:
        url = str(request.getfixturevalue("postgres_databases").fresh(migrated=False))
    engine = create_store_engine(url)
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0002_source_item_time")  # then setup() runs the rest
    item = (
        "INSERT INTO knowledge_source_items (id, scope, source_instance_id, external_id, "
        "content_hash, text, meta, pipeline, blocked, synthesis_state, synthesis_attempts, "
        "occurred_at, created_at, updated_at) VALUES (:id, 'u1', 'conversation', :id, :id, :t, "
        ":meta, 'user_understanding', false, 'done', 0, :w, :w, :w)"
    )
    when = "2026-01-05 09:00:00"
    with engine.begin() as conn:
        conn.execute(
            text(item), {"id": "src_old_1", "t": PICK, "meta": '{"role": "user"}', "w": when}
        )
        conn.execute(
            text(item),
            {
                "id": "src_old_2",
                "t": "the salad is ready",
                "meta": '{"role": "assistant"}',
                "w": when,
            },
        )
    engine.dispose()
    lore = Userlore.open(url, config={"memory": {"mode": "auto"}}, clock=clock)
    try:
        plan = lore.plan_context("u1", "salad")
        assert [s.item_id for s in plan.snippets] == ["src_old_1"]
    finally:
        lore.close()
