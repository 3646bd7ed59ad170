"""Incremental, idempotent ingestion; the change ledger and watermarks; recorded sync runs."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import func, select

from tests.conftest import FakeClock
from userlore import (
    InvalidInputError,
    MemoryDisabledError,
    RecordState,
    Userlore,
)
from userlore.errors import SourceSyncError
from userlore.sources import ItemListSource, KnowledgeIngestionService, PullResult, SourceItem
from userlore.sources.pipeline import fact_key
from userlore.store.schema import (
    KnowledgeSourceChange,
    KnowledgeSourceItem,
    KnowledgeSourceState,
    MemoryRecord,
    MemoryRecordVersion,
)

CONNECTED = ["session", "curated", "connected"]


def item(n: int, text: str | None = None, **kw: Any) -> SourceItem:
    return SourceItem(
        external_id=f"doc-{n}",
        text=text or f"Design review {n}: the staging cluster runs on port {8000 + n}.",
        title=kw.pop("title", f"Review {n}"),
        occurred_at=kw.pop("occurred_at", datetime(2026, 1, 1 + n % 3, 10, tzinfo=UTC)),
        **kw,
    )


@pytest.fixture
def connected(make_lore: Callable[..., Userlore]) -> Userlore:
    return make_lore(memory={"mode": "confirmWrite", "sources": CONNECTED})


def facts(lore: Userlore, scope: str = "u1") -> list[Any]:
    return lore.records.list(scope, kind="workspace_fact")


def table_count(lore: Userlore, model: Any) -> int:
    with lore.store.transaction() as session:
        return int(session.scalar(select(func.count()).select_from(model)) or 0)


def test_first_sync_stores_items_ledger_and_facts(connected: Userlore) -> None:
    src = ItemListSource("notes:team", [item(i) for i in range(5)], label="Team notes")
    report = connected.sources.ingest("u1", src)
    assert report.status == "succeeded"
    assert report.counts.as_dict() == {
        "seen": 5,
        "added": 5,
        "modified": 0,
        "deleted": 0,
        "unchanged": 0,
        "skipped": 0,
        "blocked": 0,
        "truncated": 0,
        "pending": 0,  # every item was synthesized before the sync returned
        "running": 0,
    }
    assert report.synthesis is not None and report.synthesis.created == 5
    changes = connected.sources.changes("u1")
    assert [c.change_type for c in changes] == ["added"] * 5
    assert [c.sequence for c in changes] == sorted(c.sequence for c in changes)
    recs = facts(connected)
    assert len(recs) == 5 and {r.state for r in recs} == {RecordState.ACTIVE}
    assert all(r.pipeline.value == "connected_knowledge" for r in recs)
    # the fact is the item's own text, dated by the item
    fact = next(r for r in recs if "port 8001" in r.content)
    assert fact.content.startswith("Review 1\n") and fact.valid_from == item(1).occurred_at
    [evidence] = connected.records.evidence("u1", fact.id)
    assert evidence["external_id"] == "doc-1" and evidence["relation"] == "stated_in"


def test_resync_same_pull_creates_nothing(connected: Userlore) -> None:
    src = ItemListSource("notes:team", [item(i) for i in range(5)])
    connected.sources.ingest("u1", src)
    before = {
        m: table_count(connected, m)
        for m in (KnowledgeSourceItem, KnowledgeSourceChange, MemoryRecord, MemoryRecordVersion)
    }
    again = connected.sources.ingest("u1", src)
    assert again.counts.unchanged == 5 and again.counts.changed == 0
    assert again.synthesis is not None and again.synthesis.claimed == 0
    after = {m: table_count(connected, m) for m in before}
    assert after == before
    assert len(connected.sources.sync_runs("u1")) == 2


def test_modified_item_one_ledger_entry_one_new_version(connected: Userlore) -> None:
    items = [item(i) for i in range(4)]
    connected.sources.ingest("u1", ItemListSource("notes:team", items))
    head = connected.sources.ledger.head("u1")
    fact_before = next(r for r in facts(connected) if "port 8002" in r.content)

    items[2] = item(2, "Design review 2: the staging cluster moved to port 9443.")
    report = connected.sources.ingest("u1", ItemListSource("notes:team", items))

    assert report.counts.modified == 1 and report.counts.unchanged == 3
    [change] = connected.sources.changes("u1", after_sequence=head)
    assert (change.change_type, change.external_id) == ("modified", "doc-2")
    assert report.synthesis is not None and report.synthesis.revised == 1
    fact_after = connected.records.get("u1", fact_before.id)
    assert fact_after.version == 2 and "9443" in fact_after.content
    assert fact_after.state is RecordState.ACTIVE
    history = connected.records.history("u1", fact_before.id)
    assert [(v.version, v.live) for v in history] == [(1, False), (2, True)]
    assert "port 8002" in history[0].content
    assert len(facts(connected)) == 4  # still one fact per item


def test_deleted_item_archives_its_fact(connected: Userlore) -> None:
    items = [item(i) for i in range(3)]
    connected.sources.ingest("u1", ItemListSource("notes:team", items))
    gone = next(r for r in facts(connected) if "port 8001" in r.content)
    report = connected.sources.ingest("u1", ItemListSource("notes:team", [items[0], items[2]]))
    assert report.counts.deleted == 1
    assert connected.sources.changes("u1")[-1].change_type == "deleted"
    assert report.synthesis is not None and report.synthesis.archived >= 1
    archived = connected.records.get("u1", gone.id)
    assert archived.state is RecordState.ARCHIVED and archived.valid_until is not None
    plan = connected.plan_context("u1", "staging cluster port 8001")
    assert gone.id not in plan.selected_ids
    # the item stays as evidence of the archived fact, marked deleted and hidden by default
    gone_item = connected.records.evidence("u1", gone.id)[0]["source_item_id"]
    assert connected.sources.item("u1", gone_item).deleted_at is not None
    assert gone_item not in {i.id for i in connected.sources.items("u1")}
    assert gone_item in {i.id for i in connected.sources.items("u1", include_deleted=True)}


def test_deleted_then_back_is_added_again(connected: Userlore) -> None:
    items = [item(0), item(1)]
    connected.sources.ingest("u1", ItemListSource("s", items))
    connected.sources.ingest("u1", ItemListSource("s", items[:1]))
    report = connected.sources.ingest("u1", ItemListSource("s", items))
    assert report.counts.added == 1
    assert [c.change_type for c in connected.sources.changes("u1")][-1] == "added"
    active = [r for r in facts(connected) if r.state is RecordState.ACTIVE]
    assert len(active) == 2


def test_cursor_persists_and_delta_pulls(connected: Userlore) -> None:
    class DeltaSource:
        kind = "delta"
        label = "delta"
        source_instance_id = "delta:1"

        def __init__(self) -> None:
            self.cursors: list[str | None] = []

        def pull(self, cursor: str | None) -> PullResult:
            self.cursors.append(cursor)
            n = int(cursor or 0)
            return PullResult(
                items=[item(n)],
                complete=False,
                cursor=str(n + 1),
                deleted=["doc-0"] if n == 2 else [],
            )

    src = DeltaSource()
    for _ in range(3):
        connected.sources.ingest("u1", src)
    assert src.cursors == [None, "1", "2"]
    with connected.store.transaction() as session:
        state = session.get(KnowledgeSourceState, ("u1", "delta:1"))
        assert state is not None and state.cursor == "3" and state.kind == "delta"
    # delta pulls never delete what they did not mention; explicit deletions do
    kinds = [(c.external_id, c.change_type) for c in connected.sources.changes("u1")]
    assert kinds == [
        ("doc-0", "added"),
        ("doc-1", "added"),
        ("doc-2", "added"),
        ("doc-0", "deleted"),
    ]


def test_failed_run_is_recorded_and_cursor_not_advanced(connected: Userlore) -> None:
    class Broken:
        kind = "broken"
        label = "broken"
        source_instance_id = "broken:1"
        fail = True

        def pull(self, cursor: str | None) -> PullResult:
            def items() -> Iterator[SourceItem]:
                yield item(0)
                if self.fail:
                    raise OSError("disk went away")
                yield item(1)

            return PullResult(items=items(), cursor="next")

    src = Broken()
    service = KnowledgeIngestionService(connected.store, chunk_size=1)
    with pytest.raises(SourceSyncError) as err:
        service.sync("u1", src)
    [run] = connected.sources.sync_runs("u1")
    assert run.id == err.value.run_id
    assert run.status == "failed" and run.error and "disk went away" in run.error
    assert run.finished_at is not None and run.counts["seen"] == 1
    with connected.store.transaction() as session:
        assert session.get(KnowledgeSourceState, ("u1", "broken:1")) is None
    src.fail = False
    ok = connected.sources.ingest("u1", src)
    assert ok.counts.added == 1 and ok.counts.unchanged == 1  # the first item was kept


def test_items_are_normalized_and_bounded(connected: Userlore) -> None:
    long_text = "word " * 10_000
    src = ItemListSource(
        "bounds",
        [
            SourceItem("long", long_text, title="T" * 2_000),
            SourceItem("   ", "no id"),
            SourceItem("empty", " \n\t "),
            SourceItem("dup", "first"),
            SourceItem("dup", "second"),
            SourceItem(
                "ctrl",
                "bell\x07 and\r\nwindows\x00 lines\n\n\n\nend",
                meta={"ok": "v", "nested": {"x": 1}, "bad key!": "x", "n": 3},
            ),
        ],
    )
    report = connected.sources.ingest("u1", src, synthesize=False)
    assert report.counts.added == 3 and report.counts.skipped == 3
    assert report.counts.truncated == 1
    assert any("repeated an external id" in w for w in report.warnings)
    stored = {i.external_id: i for i in connected.sources.items("u1")}
    assert len(stored["long"].text) <= 20_000 and stored["long"].text.endswith("…")
    assert stored["long"].title is not None and len(stored["long"].title) <= 300
    assert stored["dup"].text == "first"
    assert stored["ctrl"].text == "bell and\nwindows lines\n\nend"
    assert stored["ctrl"].meta == {"n": 3, "ok": "v"}


def test_source_instance_ids_are_namespaced_by_scope(connected: Userlore) -> None:
    # A source id is only a name within a scope: another scope using the same name (a planted
    # or guessed ``markdown:<path>``) gets its own items and cursor and cannot block this one.
    src = ItemListSource("shared:1", [item(0)])
    connected.sources.ingest("alice", src)
    planted = ItemListSource("shared:1", [item(0, text="Mallory's text")])
    connected.sources.ingest("mallory", planted)
    again = connected.sources.ingest("alice", ItemListSource("shared:1", [item(0), item(1)]))
    assert again.status == "succeeded" and again.counts.added == 1
    alice = {i.external_id: i.text for i in connected.sources.items("alice")}
    assert "Mallory's text" not in alice.values() and len(alice) == 2
    mallory = connected.sources.items("mallory")
    assert [i.text for i in mallory] == ["Mallory's text"]
    assert {i.id for i in mallory}.isdisjoint(i.id for i in connected.sources.items("alice"))
    assert all(c.scope == "mallory" for c in connected.sources.changes("mallory"))


def test_connected_sources_must_be_enabled(make_lore: Callable[..., Userlore]) -> None:
    src = ItemListSource("s", [item(0)])
    default = make_lore("auto")  # memory.sources defaults to session + curated
    with pytest.raises(MemoryDisabledError, match="connected"):
        default.sources.ingest("u1", src)
    for mode in ("off", "readOnly"):
        lore = make_lore(memory={"mode": mode, "sources": CONNECTED})
        with pytest.raises(MemoryDisabledError):
            lore.sources.ingest("u1", src)
        assert table_count(lore, KnowledgeSourceItem) == 0


def test_bad_adapter_identity_is_refused(connected: Userlore) -> None:
    with pytest.raises(InvalidInputError):
        connected.sources.ingest("u1", ItemListSource("", [item(0)]))
    bad = ItemListSource("ok", [item(0)])
    bad.kind = "Bad Kind!"  # type: ignore[misc]
    with pytest.raises(InvalidInputError):
        connected.sources.ingest("u1", bad)
    assert table_count(connected, KnowledgeSourceItem) == 0


def test_watermarks_are_per_consumer_and_monotonic(connected: Userlore) -> None:
    connected.sources.ingest("u1", ItemListSource("s", [item(i) for i in range(3)]))
    views = connected.sources
    assert views.watermark("u1", "indexer") == 0
    assert len(views.pending_changes("u1", "indexer")) == 3
    first = views.changes("u1")[0].sequence
    assert views.advance_watermark("u1", "indexer", first) == first
    assert views.advance_watermark("u1", "indexer", 0) == first  # never backwards
    assert [c.external_id for c in views.pending_changes("u1", "indexer")] == ["doc-1", "doc-2"]
    assert views.watermark("u1", "exporter") == 0  # consumers are independent
    head = views.ledger.head("u1")
    with pytest.raises(InvalidInputError):
        views.advance_watermark("u1", "indexer", head + 1)
    with pytest.raises(InvalidInputError):
        views.advance_watermark("u1", "", 1)
    assert views.advance_watermark("u1", "indexer", head) == head
    assert views.pending_changes("u1", "indexer") == []


def test_changes_after_sequence_and_by_source(connected: Userlore) -> None:
    connected.sources.ingest("u1", ItemListSource("a", [item(0)]))
    connected.sources.ingest("u1", ItemListSource("b", [item(1), item(2)]))
    all_changes = connected.sources.changes("u1")
    assert len(all_changes) == 3
    after = connected.sources.changes("u1", after_sequence=all_changes[0].sequence)
    assert [c.source_instance_id for c in after] == ["b", "b"]
    only_a = connected.sources.changes("u1", source_instance_id="a")
    assert [c.external_id for c in only_a] == ["doc-0"]
    with pytest.raises(InvalidInputError):
        connected.sources.changes("u1", after_sequence=-1)


def test_source_listing_counts_and_latest_run(connected: Userlore, clock: FakeClock) -> None:
    connected.sources.ingest("u1", ItemListSource("a", [item(0), item(1)], label="Alpha"))
    clock.advance(minutes=1)
    connected.sources.ingest("u1", ItemListSource("a", [item(0)], label="Alpha"), synthesize=False)
    [state] = connected.sources.sources("u1")
    assert (state.label, state.kind, state.items, state.pending) == ("Alpha", "memory", 1, 1)
    assert state.latest_run is not None and state.latest_run.counts["deleted"] == 1
    assert connected.sources.get("u1", "a").items == 1


def test_fact_key_is_stable_per_item(connected: Userlore) -> None:
    connected.sources.ingest("u1", ItemListSource("s", [item(0)]))
    [fact] = facts(connected)
    assert fact.canonical_key == fact_key("s", "doc-0")
    assert fact_key("s", "doc-0") != fact_key("s", "doc-1") != fact_key("t", "doc-0")


async def test_async_twins(connected: Userlore) -> None:
    report = await connected.sources.aingest("u1", ItemListSource("s", [item(0)]), synthesize=False)
    assert report.counts.added == 1
    drained = await connected.sources.async_pending("u1")
    assert drained.created == 1
