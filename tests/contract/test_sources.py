"""Connected sources on every backend: ingestion, ledger, watermarks, leases, two workers."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import select

from tests.conftest import FakeClock
from userlore import RecordState, Userlore
from userlore.sources import ConnectedKnowledgePipeline, ItemListSource, SourceItem
from userlore.store.governed import GovernedStore
from userlore.store.schema import KnowledgeSourceItem

CONNECTED = {"mode": "confirmWrite", "sources": ["session", "curated", "connected"]}


def item(n: int, text: str | None = None) -> SourceItem:
    return SourceItem(
        external_id=f"e{n}",
        text=text or f"Entry {n}: the nightly backup of volume {n} finished.",
        occurred_at=datetime(2026, 1, 1, tzinfo=UTC) + timedelta(hours=n),
    )


def test_sync_modify_delete_roundtrip(make_lore: Callable[..., Userlore]) -> None:
    lore = make_lore(memory=CONNECTED)
    items = [item(i) for i in range(4)]
    assert lore.ingest(ItemListSource("s", items), scope="u1").counts.added == 4
    again = lore.ingest(ItemListSource("s", items), scope="u1")
    assert again.counts.unchanged == 4 and again.synthesis is not None
    assert again.synthesis.claimed == 0
    fact = next(r for r in lore.records("u1", kind="workspace_fact") if "volume 1" in r.content)
    items[1] = item(1, "Entry 1: the nightly backup of volume 1 failed.")
    head = lore.sources.ledger.head("u1")
    lore.ingest(ItemListSource("s", items), scope="u1")
    [change] = lore.sources.changes("u1", after_sequence=head)
    assert change.change_type == "modified"
    assert lore.get(fact.id).version == 2 and "failed" in lore.get(fact.id).content
    lore.ingest(ItemListSource("s", items[:1] + items[2:]), scope="u1")
    assert lore.get(fact.id).state is RecordState.ARCHIVED
    assert fact.id not in lore.plan_context("u1", "backup volume 1 failed").selected_ids


def test_watermarks_on_backend(make_lore: Callable[..., Userlore]) -> None:
    lore = make_lore(memory=CONNECTED)
    lore.ingest(ItemListSource("s", [item(i) for i in range(3)]), scope="u1", synthesize=False)
    seqs = [c.sequence for c in lore.sources.changes("u1")]
    assert seqs == sorted(seqs) and len(set(seqs)) == 3
    assert lore.sources.advance_watermark("u1", "idx", seqs[1]) == seqs[1]
    assert lore.sources.advance_watermark("u1", "idx", seqs[0]) == seqs[1]
    assert [c.sequence for c in lore.sources.pending_changes("u1", "idx")] == seqs[2:]


def test_leases_on_backend(make_lore: Callable[..., Userlore], clock: FakeClock) -> None:
    lore = make_lore(memory=CONNECTED)
    lore.ingest(ItemListSource("s", [item(0), item(1)]), scope="u1", synthesize=False)
    a = ConnectedKnowledgePipeline(lore.store, worker_id="a", lease_seconds=30)
    b = ConnectedKnowledgePipeline(lore.store, worker_id="b", lease_seconds=30)
    held = a.claim()
    assert len(held) == 2 and b.claim() == []
    clock.advance(seconds=31)
    taken = b.claim()
    assert len(taken) == 2
    assert a.process(held).lost == 2
    assert b.process(taken).created == 2
    assert len(lore.records("u1", kind="workspace_fact")) == 2


def test_two_workers_same_database(make_lore: Callable[..., Userlore], tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'two.db'}"
    seeder = make_lore(url=url, memory=CONNECTED)
    seeder.ingest(
        ItemListSource("bulk", [item(i) for i in range(80)]), scope="u1", synthesize=False
    )
    # Two stores on one engine: each thread works on its own pooled connection, and ids are
    # random (not the fixture's per-store sequence, which two writers would repeat).
    workers = [GovernedStore(seeder.store.engine, seeder.config) for _ in range(2)]
    reports: list[Any] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(2)

    def run(store: GovernedStore, name: str) -> None:
        try:
            barrier.wait()
            pipeline = ConnectedKnowledgePipeline(store, worker_id=name, batch_size=5)
            reports.append(pipeline.drain())
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(w, f"w{i}")) for i, w in enumerate(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors
    assert sum(r.created for r in reports) == 80 and all(r.lost == 0 for r in reports)
    with seeder.store.transaction() as session:
        attempts = session.scalars(select(KnowledgeSourceItem.synthesis_attempts)).all()
    assert set(attempts) == {1}
    facts = seeder.records("u1", kind="workspace_fact", limit=1000)
    assert len(facts) == 80 and {f.version for f in facts} == {1}


def test_items_list_newest_first_and_undated_last(make_lore: Callable[..., Userlore]) -> None:
    lore = make_lore(memory=CONNECTED)
    lore.ingest(ItemListSource("s", [item(1), item(2), item(3)]), scope="u1")
    with lore.store.transaction() as session:  # the column allows it (e.g. imported rows)
        row = session.scalars(
            select(KnowledgeSourceItem).where(KnowledgeSourceItem.external_id == "e3")
        ).one()
        row.occurred_at = None
    # PostgreSQL sorts NULL first when descending unless told otherwise; SQLite sorts it last
    assert [v.external_id for v in lore.sources.items("u1")] == ["e2", "e1", "e3"]
