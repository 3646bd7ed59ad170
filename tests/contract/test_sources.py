"""Connected sources on every backend: ingestion, ledger, watermarks, leases, two workers."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage
from sqlalchemy import select

from tests.conftest import FakeClock
from tests.support.chat_models import ScriptedChatModel
from userlore import CandidateInput, RecordState, Userlore, WriteAction
from userlore.policy.sensitivity import SensitivityLevel, classify
from userlore.sources import ConnectedKnowledgePipeline, ItemListSource, SourceItem
from userlore.sources.pipeline import fact_key
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
    assert lore.sources.ingest("u1", ItemListSource("s", items)).counts.added == 4
    again = lore.sources.ingest("u1", ItemListSource("s", items))
    assert again.counts.unchanged == 4 and again.synthesis is not None
    assert again.synthesis.claimed == 0
    fact = next(
        r for r in lore.records.list("u1", kind="workspace_fact") if "volume 1" in r.content
    )
    items[1] = item(1, "Entry 1: the nightly backup of volume 1 failed.")
    head = lore.sources.ledger.head("u1")
    lore.sources.ingest("u1", ItemListSource("s", items))
    [change] = lore.sources.changes("u1", after_sequence=head)
    assert change.change_type == "modified"
    assert (
        lore.records.get("u1", fact.id).version == 2
        and "failed" in lore.records.get("u1", fact.id).content
    )
    lore.sources.ingest("u1", ItemListSource("s", items[:1] + items[2:]))
    assert lore.records.get("u1", fact.id).state is RecordState.ARCHIVED
    assert fact.id not in lore.plan_context("u1", "backup volume 1 failed").selected_ids


def test_watermarks_on_backend(make_lore: Callable[..., Userlore]) -> None:
    lore = make_lore(memory=CONNECTED)
    lore.sources.ingest("u1", ItemListSource("s", [item(i) for i in range(3)]), synthesize=False)
    seqs = [c.sequence for c in lore.sources.changes("u1")]
    assert seqs == sorted(seqs) and len(set(seqs)) == 3
    assert lore.sources.advance_watermark("u1", "idx", seqs[1]) == seqs[1]
    assert lore.sources.advance_watermark("u1", "idx", seqs[0]) == seqs[1]
    assert [c.sequence for c in lore.sources.pending_changes("u1", "idx")] == seqs[2:]


def test_leases_on_backend(make_lore: Callable[..., Userlore], clock: FakeClock) -> None:
    lore = make_lore(memory=CONNECTED)
    lore.sources.ingest("u1", ItemListSource("s", [item(0), item(1)]), synthesize=False)
    a = ConnectedKnowledgePipeline(lore.store, worker_id="a", lease_seconds=30)
    b = ConnectedKnowledgePipeline(lore.store, worker_id="b", lease_seconds=30)
    held = a.claim()
    assert len(held) == 2 and b.claim() == []
    clock.advance(seconds=31)
    taken = b.claim()
    assert len(taken) == 2
    assert a.process(held).lost == 2
    assert b.process(taken).created == 2
    assert len(lore.records.list("u1", kind="workspace_fact")) == 2


def test_two_workers_same_database(make_lore: Callable[..., Userlore], tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'two.db'}"
    seeder = make_lore(url=url, memory=CONNECTED)
    seeder.sources.ingest(
        "u1", ItemListSource("bulk", [item(i) for i in range(80)]), synthesize=False
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
    facts = seeder.records.list("u1", kind="workspace_fact", limit=1000)
    assert len(facts) == 80 and {f.version for f in facts} == {1}


def test_items_list_newest_first_and_undated_last(make_lore: Callable[..., Userlore]) -> None:
    lore = make_lore(memory=CONNECTED)
    lore.sources.ingest("u1", ItemListSource("s", [item(1), item(2), item(3)]))
    with lore.store.transaction() as session:  # the column allows it (e.g. imported rows)
        row = session.scalars(
            select(KnowledgeSourceItem).where(KnowledgeSourceItem.external_id == "e3")
        ).one()
        row.occurred_at = None
    # PostgreSQL sorts NULL first when descending unless told otherwise; SQLite sorts it last
    assert [v.external_id for v in lore.sources.items("u1")] == ["e2", "e1", "e3"]


# -- refusals are visible; keys are identifiers -------------------------------------------------

IBAN_LIKE_EXTERNAL_ID = "e29593"
"""An external id of source ``s`` whose fact key, read as prose, passes an IBAN checksum."""


def _enrichment(summary: str, sensitivity: str) -> AIMessage:
    args = {"summary": summary, "topics": [], "sensitivity": sensitivity}
    return AIMessage(
        content="", tool_calls=[{"name": "FactEnrichment", "args": args, "id": "call_1"}]
    )


def test_a_fact_key_that_looks_like_an_iban_is_written(make_lore: Callable[..., Userlore]) -> None:
    key = fact_key("s", IBAN_LIKE_EXTERNAL_ID)
    # the regression: read as free text, this digest key passes an IBAN checksum
    assert classify(key).level is SensitivityLevel.REGULATED
    lore = make_lore(memory=CONNECTED)
    report = lore.sources.ingest("u1", ItemListSource("s", [item(29593), item(1)]))
    assert report.synthesis is not None
    assert report.synthesis.created == 2 and report.synthesis.refused == 0
    [fact] = [r for r in lore.records.list("u1", kind="workspace_fact") if r.canonical_key == key]
    assert fact.state is RecordState.ACTIVE and "volume 29593" in fact.content
    assert {i.synthesis_state for i in lore.sources.items("u1")} == {"done"}


def test_keys_are_identifiers_but_secrets_in_keys_and_text_are_refused(
    make_lore: Callable[..., Userlore],
) -> None:
    lore = make_lore("auto")

    def fact(content: str, key: str) -> CandidateInput:
        return CandidateInput(kind="workspace_fact", content=content, canonical_key=key)

    iban_key = "config.payment_ref_ba57cce86c3f63f56d0c"  # a generated digest suffix
    assert classify(iban_key).level is SensitivityLevel.REGULATED  # as prose it would be refused
    kept = lore.write("u1", fact("Payments reconcile nightly.", iban_key))
    assert kept.action is WriteAction.CREATED and kept.record is not None
    assert lore.records.get("u1", kept.record.id).canonical_key == iban_key
    token = "config.ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    secret_key = lore.write("u1", fact("The deploy token rotates monthly.", token))
    assert secret_key.action is WriteAction.REFUSED and secret_key.reason == "secret"
    in_text = lore.write("u1", fact("Pay to DE89 3704 0044 0532 0130 00 by Friday.", "pay/ref"))
    assert in_text.action is WriteAction.REFUSED and in_text.reason == "regulated"
    # a regulated identifier a caller puts in a key is still refused: only lower-case IBAN-like
    # digest runs are let through
    for key in ("iban/DE89370400440532013000", "ssn-123-45-6789", "card_4111111111111111"):
        in_key = lore.write("u1", fact("Billing reference.", key))
        assert in_key.action is WriteAction.REFUSED and in_key.reason == "regulated", key
    assert [r.canonical_key for r in lore.records.list("u1")] == [iban_key]


def test_a_refused_fact_marks_its_item_refused_with_a_reason_code(
    make_lore: Callable[..., Userlore],
) -> None:
    lore = make_lore(memory=CONNECTED)
    words = "Wire details for the supplier account."
    model = ScriptedChatModel(replies=[_enrichment(words, "regulated")])
    report = lore.sources.ingest("u1", ItemListSource("s", [item(0)]), model=model)
    assert report.status == "succeeded"  # nothing is left to do: a refusal is final
    assert report.synthesis is not None
    assert report.synthesis.refused == 1 and report.synthesis.created == 0
    assert lore.records.list("u1", kind="workspace_fact") == []
    [refused] = lore.sources.items("u1", synthesis_state="refused")
    assert refused.external_id == "e0" and refused.last_error == "refused:regulated"
    [state] = lore.sources.sources("u1")
    assert state.refused == 1 and state.pending == 0
    # an upstream edit is synthesized again, and a clean fact clears the refusal
    clean = ScriptedChatModel(replies=[_enrichment("The backup of volume 0 failed.", "none")])
    edited = item(0, "Entry 0: the nightly backup of volume 0 failed.")
    again = lore.sources.ingest("u1", ItemListSource("s", [edited]), model=clean)
    assert again.synthesis is not None and again.synthesis.created == 1
    [done] = lore.sources.items("u1")
    assert done.synthesis_state == "done" and done.last_error is None
    assert lore.sources.sources("u1")[0].refused == 0


# -- a sync reports what is still waiting --------------------------------------------------------


def test_resync_while_another_worker_holds_items_is_partial(
    make_lore: Callable[..., Userlore],
) -> None:
    lore = make_lore(memory=CONNECTED)
    items = [item(i) for i in range(5)]
    queued = lore.sources.ingest("u1", ItemListSource("s", items), synthesize=False)
    assert queued.status == "succeeded"  # ingest only: the items wait for a worker by request
    assert (queued.counts.pending, queued.counts.running) == (5, 0)
    other = ConnectedKnowledgePipeline(lore.store, worker_id="other", batch_size=3)
    held = other.claim()
    assert len(held) == 3
    report = lore.sources.ingest("u1", ItemListSource("s", items))
    assert report.status == "partial"
    assert (report.counts.pending, report.counts.running) == (0, 3)
    assert report.synthesis is not None and report.synthesis.created == 2
    [run, _] = lore.sources.sync_runs("u1")
    assert run.id == report.run_id and run.status == "partial"
    assert run.counts["running"] == 3 and run.counts["pending"] == 0
    assert other.process(held).created == 3
    final = lore.sources.ingest("u1", ItemListSource("s", items))
    assert final.status == "succeeded" and final.counts.running == 0
    assert lore.sources.sync_runs("u1")[0].status == "succeeded"
