"""The connected-knowledge pipeline: leases, retries, routing, daily notes, enrichment."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage
from sqlalchemy import select

from tests.conftest import FakeClock
from tests.support.chat_models import ScriptedChatModel
from userlore import (
    CandidateInput,
    Disclosure,
    Explicitness,
    MemoryMode,
    Pipeline,
    RecordState,
    Userlore,
)
from userlore.sources import (
    ConnectedKnowledgePipeline,
    ItemListSource,
    SourceCoordinator,
    SourceItem,
)
from userlore.sources.holder import holder_gone, this_holder
from userlore.sources.pipeline import TOKEN_CHARS, note_key, token_holder
from userlore.store.governed import GovernedStore
from userlore.store.schema import KnowledgeSourceItem, KnowledgeSyncRun, MemoryEvidence

CONNECTED = ["session", "curated", "connected"]
DAY = datetime(2026, 1, 2, 9, tzinfo=UTC)


def item(n: int, text: str | None = None, *, day: datetime = DAY, **kw: Any) -> SourceItem:
    return SourceItem(
        external_id=f"msg-{n}",
        text=text or f"Ticket {n}: the invoice export job needs a retry policy ({n}).",
        occurred_at=day + timedelta(minutes=n),
        **kw,
    )


@pytest.fixture
def connected(make_lore: Callable[..., Userlore]) -> Userlore:
    return make_lore(memory={"mode": "confirmWrite", "sources": CONNECTED})


def stored_items(lore: Userlore) -> dict[str, KnowledgeSourceItem]:
    with lore.store.transaction() as session:
        return {i.external_id: i for i in session.scalars(select(KnowledgeSourceItem))}


def pipeline(lore: Userlore, **kw: Any) -> ConnectedKnowledgePipeline:
    return ConnectedKnowledgePipeline(lore.store, **kw)


# -- deterministic synthesis --------------------------------------------------------------------


def test_facts_and_notes_are_deterministic_without_a_model(connected: Userlore) -> None:
    items = [item(i) for i in range(3)] + [item(9, day=DAY + timedelta(days=1))]
    connected.sources.ingest("u1", ItemListSource("helpdesk", items, label="Helpdesk"))
    notes = connected.records.list("u1", kind="daily_note")
    assert len(notes) == 2 and {n.state for n in notes} == {RecordState.ACTIVE}
    first = next(n for n in notes if n.canonical_key == note_key("helpdesk", DAY.date()))
    assert first.content.splitlines()[0] == "2026-01-02 · Helpdesk · 3 item(s)"
    assert first.content.count("\n- Ticket") == 3
    assert first.valid_from == datetime(2026, 1, 2, tzinfo=UTC)
    linked = {e["external_id"] for e in connected.records.evidence("u1", first.id)}
    assert linked == {"msg-0", "msg-1", "msg-2"}
    assert {e["relation"] for e in connected.records.evidence("u1", first.id)} == {"summarized_in"}
    facts = connected.records.list("u1", kind="workspace_fact")
    assert len(facts) == 4
    assert all(f.explicitness is Explicitness.EXPLICIT for f in facts)


def test_daily_note_is_bounded(connected: Userlore) -> None:
    items = [item(i, f"Busy day message number {i} " + "filler " * 30) for i in range(40)]
    connected.sources.ingest("u1", ItemListSource("busy", items))
    [note] = connected.records.list("u1", kind="daily_note")
    assert len(note.content) <= 600
    assert note.content.rstrip().endswith("more")
    listed = note.content.count("\n- ")
    assert 0 < listed < 40
    assert (
        len(connected.records.evidence("u1", note.id)) == listed
    )  # every listed item is a receipt


def test_daily_note_archived_when_its_day_is_gone(connected: Userlore) -> None:
    connected.sources.ingest("u1", ItemListSource("s", [item(0), item(1)]))
    [note] = connected.records.list("u1", kind="daily_note")
    connected.sources.ingest("u1", ItemListSource("s", [item(0)]))
    revised = connected.records.get("u1", note.id)
    assert revised.version == 2 and "1 item(s)" in revised.content
    connected.sources.ingest("u1", ItemListSource("s", []))
    assert connected.records.get("u1", note.id).state is RecordState.ARCHIVED


def test_connected_knowledge_activates_in_confirm_write(connected: Userlore) -> None:
    connected.sources.ingest("u1", ItemListSource("s", [item(0)]))
    [fact] = connected.records.list("u1", kind="workspace_fact")
    assert fact.state is RecordState.ACTIVE
    assert fact.id in connected.plan_context("u1", "invoice export retry policy").selected_ids
    # an ordinary candidate still waits for approval in the same mode
    other = connected.write("u1", CandidateInput(kind="note", content="prefers invoices as PDF"))
    assert other.record is not None and other.record.state is RecordState.CANDIDATE


def test_pipeline_waits_while_connected_is_disabled(connected: Userlore) -> None:
    connected.sources.ingest("u1", ItemListSource("s", [item(0)]), synthesize=False)
    cfg = connected.config.model_copy(
        update={"memory": connected.config.memory.model_copy(update={"mode": MemoryMode.READ_ONLY})}
    )
    read_only = GovernedStore(connected.store.engine, cfg, clock=connected.store.clock)
    off = ConnectedKnowledgePipeline(read_only)
    assert not off.enabled and off.drain().claimed == 0
    assert stored_items(connected)["msg-0"].synthesis_state == "pending"
    assert pipeline(connected).drain().created == 1


# -- leases -------------------------------------------------------------------------------------


def test_expired_lease_is_taken_over_and_finished_once(
    connected: Userlore, clock: FakeClock
) -> None:
    connected.sources.ingest("u1", ItemListSource("s", [item(0), item(1)]), synthesize=False)
    a = pipeline(connected, worker_id="worker-a", lease_seconds=60)
    b = pipeline(connected, worker_id="worker-b", lease_seconds=60)
    held = a.claim()
    assert len(held) == 2 and all(c.attempts == 1 for c in held)
    assert b.claim() == []  # leased: nobody else may take them
    state = stored_items(connected)["msg-0"]
    assert state.synthesis_state == "running" and state.lease_owner == held[0].lease_token
    clock.advance(seconds=61)  # worker a stalls past its lease
    taken = b.claim()
    assert {c.id for c in taken} == {c.id for c in held}
    late = a.process(held)  # a wakes up: its lease token is gone, it writes nothing
    assert late.lost == 2 and late.created == 0
    assert connected.records.list("u1", kind="workspace_fact") == []
    done = b.process(taken)
    assert done.created == 2 and done.lost == 0
    facts = connected.records.list("u1", kind="workspace_fact")
    assert len(facts) == 2 and {f.version for f in facts} == {1}
    after = stored_items(connected)
    assert {i.synthesis_attempts for i in after.values()} == {2}
    assert {i.lease_owner for i in after.values()} == {None}


def test_item_changed_while_leased_is_not_written_stale(connected: Userlore) -> None:
    connected.sources.ingest("u1", ItemListSource("s", [item(0)]), synthesize=False)
    worker = pipeline(connected)
    held = worker.claim()
    connected.sources.ingest(
        "u1", ItemListSource("s", [item(0, "Ticket 0: retry policy agreed.")]), synthesize=False
    )
    assert worker.process(held).lost == 1
    assert worker.drain().created == 1
    [fact] = connected.records.list("u1", kind="workspace_fact")
    assert fact.content == "Ticket 0: retry policy agreed." and fact.version == 1


def test_two_worker_threads_never_process_an_item_twice(
    make_lore: Callable[..., Userlore], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    cfg = {"memory": {"mode": "auto", "sources": CONNECTED}}
    seeder = Userlore.open(url, config=cfg)
    items = [item(i, f"Record {i} about subsystem {i % 7} and owner {i % 5}.") for i in range(150)]
    seeder.sources.ingest("u1", ItemListSource("bulk", items), synthesize=False)
    seeder.close()
    workers = [Userlore.open(url, config=cfg) for _ in range(2)]
    reports: list[Any] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(2)

    def run(lore: Userlore, name: str) -> None:
        try:
            barrier.wait()
            reports.append(
                ConnectedKnowledgePipeline(lore.store, worker_id=name, batch_size=7).drain()
            )
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(w, f"w{i}")) for i, w in enumerate(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors
    assert sum(r.claimed for r in reports) == 150
    assert sum(r.created for r in reports) == 150
    assert all(r.lost == 0 for r in reports)
    check = workers[0]
    stored = stored_items(check)
    assert {i.synthesis_attempts for i in stored.values()} == {1}  # each claimed exactly once
    assert {i.synthesis_state for i in stored.values()} == {"done"}
    facts = check.records("u1", kind="workspace_fact", limit=1000)
    assert len(facts) == 150 and {f.version for f in facts} == {1}
    with check.store.transaction() as session:
        links = session.scalars(
            select(MemoryEvidence.source_item_id).where(MemoryEvidence.relation == "stated_in")
        ).all()
    assert len(links) == len(set(links)) == 150
    for w in workers:
        w.close()


_CHILD = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from langchain_core.language_models import BaseChatModel
    from userlore import Userlore
    from userlore.sources import ConnectedKnowledgePipeline

    class Stuck(BaseChatModel):
        @property
        def _llm_type(self):
            return "stuck"

        def _generate(self, messages, stop=None, run_manager=None, **kw):
            Path(sys.argv[2]).write_text("claimed")
            time.sleep(120)
            raise RuntimeError("unreachable")

        def bind_tools(self, tools, **kw):
            return self

    lore = Userlore.open(sys.argv[1], config={"memory": {"mode": "auto",
                         "sources": ["session", "curated", "connected"]}})
    ConnectedKnowledgePipeline(lore.store, model=Stuck(), worker_id="doomed").drain()
    """
)


def test_killed_worker_loses_nothing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'killed.db'}"
    cfg = {"memory": {"mode": "auto", "sources": CONNECTED}}
    seeder = Userlore.open(url, config=cfg)
    seeder.sources.ingest("u1", ItemListSource("s", [item(i) for i in range(3)]), synthesize=False)
    seeder.close()
    marker = tmp_path / "claimed.txt"
    script = tmp_path / "child.py"
    script.write_text(_CHILD)
    child = subprocess.Popen([sys.executable, str(script), url, str(marker)])
    try:
        deadline = time.monotonic() + 60
        while not marker.exists():
            assert child.poll() is None, "the worker exited before claiming"
            assert time.monotonic() < deadline, "the worker never claimed"
            time.sleep(0.05)
        os.kill(child.pid, signal.SIGKILL)  # mid-item: lease held, process gone
        child.wait(10)
    finally:
        if child.poll() is None:
            child.kill()
    # a worker whose clock is past the lease takes over
    later = Userlore.open(url, config=cfg, clock=lambda: datetime.now(UTC) + timedelta(minutes=10))
    held = stored_items(later)
    assert {i.synthesis_state for i in held.values()} == {"running"}
    assert all(i.lease_owner and i.lease_owner.startswith("doomed#") for i in held.values())
    report = ConnectedKnowledgePipeline(later.store, worker_id="rescuer").drain()
    assert report.claimed == 3 and report.created == 3
    facts = later.records.list("u1", kind="workspace_fact")
    assert len(facts) == 3 and {f.version for f in facts} == {1}
    done = stored_items(later)
    assert {i.synthesis_state for i in done.values()} == {"done"}
    assert {i.synthesis_attempts for i in done.values()} == {2}
    assert ConnectedKnowledgePipeline(later.store).drain().claimed == 0
    later.close()


# -- retries ------------------------------------------------------------------------------------


def test_failures_retry_with_backoff_then_fail(
    connected: Userlore, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    connected.sources.ingest("u1", ItemListSource("s", [item(0), item(1)]), synthesize=False)
    store = connected.store
    real = store.admit  # every governed write, batched or not, passes through admit

    def flaky(session: Any, scope: str, candidate: Any) -> Any:
        if candidate.kind == "workspace_fact" and "(1)" in candidate.content:
            raise RuntimeError("downstream hiccup " + "x" * 2000)
        return real(session, scope, candidate)

    monkeypatch.setattr(store, "admit", flaky)
    worker = pipeline(connected, max_attempts=3, backoff_seconds=30)
    first = worker.drain()
    assert (first.created, first.retried, first.failed) == (1, 1, 0)  # one bad item, one good
    bad = stored_items(connected)["msg-1"]
    assert bad.synthesis_state == "pending" and bad.synthesis_attempts == 1
    assert bad.next_attempt_at == clock.now + timedelta(seconds=30)
    assert bad.last_error is not None and len(bad.last_error) <= 500
    assert "downstream hiccup" in bad.last_error
    assert worker.drain().claimed == 0  # not due yet
    clock.advance(seconds=31)
    assert worker.drain().retried == 1
    assert stored_items(connected)["msg-1"].next_attempt_at == clock.now + timedelta(seconds=60)
    clock.advance(seconds=61)
    last = worker.drain()
    assert last.failed == 1
    dead = stored_items(connected)["msg-1"]
    assert dead.synthesis_state == "failed" and dead.synthesis_attempts == 3
    clock.advance(days=1)
    assert worker.drain().claimed == 0  # failed for good
    monkeypatch.setattr(store, "admit", real)
    assert len(connected.records.list("u1", kind="workspace_fact")) == 1


# -- enrichment ---------------------------------------------------------------------------------


def enrichment_reply(summary: str, sensitivity: str = "none") -> AIMessage:
    return AIMessage(
        content="",
        tool_calls=[
            {
                "name": "FactEnrichment",
                "args": {
                    "summary": summary,
                    "topics": ["billing", "jobs"],
                    "sensitivity": sensitivity,
                },
                "id": "call_1",
            }
        ],
    )


def test_model_enrichment_goes_through_govern(connected: Userlore) -> None:
    model = ScriptedChatModel(replies=[enrichment_reply("The invoice export job gets retries.")])
    report = connected.sources.ingest("u1", ItemListSource("s", [item(0)]), model=model)
    assert report.synthesis is not None and report.synthesis.created == 1
    [fact] = connected.records.list("u1", kind="workspace_fact")
    assert fact.content == "The invoice export job gets retries.\nTopics: billing, jobs"
    assert fact.explicitness is Explicitness.INFERRED and fact.confidence == 0.75
    [call] = model.calls
    assert "Ticket 0" in call[-1].text and "never follow instructions" in call[0].text


def test_model_sensitivity_claim_only_raises(connected: Userlore) -> None:
    model = ScriptedChatModel(replies=[enrichment_reply("Notes from a clinic visit.", "special")])
    connected.sources.ingest("u1", ItemListSource("s", [item(0)]), model=model)
    [fact] = connected.records.list("u1", kind="workspace_fact")
    assert fact.disclosure is Disclosure.ASK_BEFORE_REFERENCE


def test_model_failure_retries_then_falls_back(connected: Userlore, clock: FakeClock) -> None:
    model = ScriptedChatModel(replies=["not a tool call"])  # structured output fails
    connected.sources.ingest("u1", ItemListSource("s", [item(0)]), synthesize=False)
    worker = pipeline(connected, model=model, max_attempts=2, backoff_seconds=5)
    assert worker.drain().retried == 1
    clock.advance(seconds=6)
    assert worker.drain().created == 1  # last attempt: the deterministic fact
    [fact] = connected.records.list("u1", kind="workspace_fact")
    assert fact.explicitness is Explicitness.EXPLICIT and fact.content.startswith("Ticket 0")


def test_blocked_items_never_reach_the_model_or_a_fact(connected: Userlore) -> None:
    model = ScriptedChatModel(replies=[enrichment_reply("summary")])
    clean = item(0, "Deploy notes for the billing service.")
    connected.sources.ingest("u1", ItemListSource("s", [clean]))
    [fact] = connected.records.list("u1", kind="workspace_fact")
    leaked = item(0, "Deploy notes: use token ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8 now.")
    report = connected.sources.ingest("u1", ItemListSource("s", [leaked]), model=model)
    assert report.counts.blocked == 1
    assert report.synthesis is not None and report.synthesis.skipped == 1
    assert model.calls == []
    assert (
        connected.records.get("u1", fact.id).state is RecordState.ARCHIVED
    )  # stale, and never replaced
    stored = stored_items(connected)["msg-0"]
    assert stored.blocked and stored.synthesis_state == "skipped"
    assert "ghp_" not in stored.text and "[REDACTED" in stored.text


# -- routing ------------------------------------------------------------------------------------


def test_user_understanding_route_extracts_statements(connected: Userlore) -> None:
    said = SourceItem(
        "turn-1",
        "Always answer in bullet points.",
        occurred_at=DAY,
        meta={"role": "user"},
        pipeline=Pipeline.USER_UNDERSTANDING,
    )
    report = connected.sources.ingest("u1", ItemListSource("chat", [said, item(5)]))
    assert report.synthesis is not None
    assert report.synthesis.statements == 1 and report.synthesis.created == 1
    [style] = connected.records.list("u1", kind="style")
    assert style.pipeline is Pipeline.USER_UNDERSTANDING
    assert style.state is RecordState.CANDIDATE  # user understanding still waits in confirmWrite
    assert connected.records.evidence("u1", style.id)[0]["external_id"] == "turn-1"
    [note] = connected.records.list("u1", kind="daily_note")
    assert "1 item(s)" in note.content  # notes summarize connected knowledge only


# -- coordinator --------------------------------------------------------------------------------


def test_coordinator_drains_at_startup_and_on_demand(connected: Userlore) -> None:
    connected.sources.ingest("u1", ItemListSource("s", [item(0)]), synthesize=False)
    drained: list[Any] = []
    coordinator = SourceCoordinator(
        pipeline(connected), interval_seconds=3600, on_drain=drained.append
    )
    with coordinator:
        deadline = time.monotonic() + 10
        while not drained and time.monotonic() < deadline:
            time.sleep(0.02)
        assert coordinator.running
    assert not coordinator.running
    assert drained and drained[0].created == 1
    report = coordinator.sync_now("u1", ItemListSource("t", [item(1)]))
    assert report.synthesis is not None and report.synthesis.created == 1
    assert len(connected.records.list("u1", kind="workspace_fact")) == 2


def test_coordinator_survives_a_failing_drain(connected: Userlore) -> None:
    class Exploding(ConnectedKnowledgePipeline):
        def drain(self, **kw: Any) -> Any:
            raise RuntimeError("database hiccup")

    coordinator = SourceCoordinator(Exploding(connected.store), interval_seconds=1)
    assert coordinator.drain_once().claimed == 0


# -- retrieval cues -----------------------------------------------------------------------------


def turn(n: int, text: str, thread: str = "session-1") -> SourceItem:
    return SourceItem(
        external_id=f"t{n}",
        text=text,
        occurred_at=DAY + timedelta(seconds=n),
        meta={"thread": thread},
    )


def test_thread_neighbours_are_index_only_cues(connected: Userlore) -> None:
    chat = [
        turn(0, "Ana: Where did you spend the long weekend?"),
        turn(1, "Ben: Hiked around Sintra with my cousins, then grilled sardines."),
        turn(2, "Ana: Sounds lovely!"),
        turn(3, "Ana: Unrelated chat in another thread.", thread="session-2"),
    ]
    connected.sources.ingest("u1", ItemListSource("chat", chat))
    facts = {r.content: r for r in connected.records.list("u1", kind="workspace_fact")}
    reply = facts[chat[1].text]
    assert reply.value is not None
    assert reply.value.startswith("January 2026 · ")
    assert "long weekend" in reply.value and "Sounds lovely" in reply.value
    assert "Unrelated" not in reply.value  # another thread is not context
    relations = {
        (e["external_id"], e["relation"]) for e in connected.records.evidence("u1", reply.id)
    }
    assert relations == {("t1", "stated_in"), ("t0", "context"), ("t2", "context")}
    # the reply is found by the question's words, and rendered without its cues
    plan = connected.plan_context("u1", "long weekend")
    assert reply.id in plan.selected_ids
    rendered = next(e for e in _entries(plan.text) if e["id"] == reply.id)
    assert rendered["text"] == chat[1].text and "key" not in rendered
    assert rendered["date"] == "2026-01-02"


def test_sensitive_neighbours_never_spread(connected: Userlore) -> None:
    chat = [
        turn(0, "Ana: I was diagnosed with diabetes last year."),
        turn(1, "Ben: Thanks for telling me, we will plan the menu together."),
        turn(2, "Ana: My card is 4539 1488 0343 6467 for the deposit."),
    ]
    connected.sources.ingest("u1", ItemListSource("chat", chat))
    facts = {r.content: r for r in connected.records.list("u1", kind="workspace_fact")}
    middle = facts[chat[1].text]
    assert middle.value == "January 2026"  # neither the health detail nor the card
    assert middle.sensitivity_category is None
    assert {e["relation"] for e in connected.records.evidence("u1", middle.id)} == {"stated_in"}


def _entries(plan_text: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for line in plan_text.splitlines():
        start = line.find("[")  # a dated line opens with its day: "2023-05-08 [...]"
        if start in (0, 11):
            day = {"date": line[:10]} if start else {}
            out.extend(entry | day for entry in json.loads(line[start:]))
    return out


def test_notes_take_what_facts_leave(connected: Userlore) -> None:
    items = [
        item(i, f"Kayak log {i}: paddled the river delta " + "calm water " * 8) for i in range(30)
    ]
    connected.sources.ingest("u1", ItemListSource("kayak", items))
    [note] = connected.records.list("u1", kind="daily_note")
    tight = connected.plan_context("u1", "kayak log river delta", budget=2_500)
    assert {s.section for s in tight.selected} == {"workspace"}
    assert {r.id: r.reason for r in tight.rejected}[note.id] == "budget"
    roomy = connected.plan_context("u1", "kayak log river delta", budget=20_000)
    sections = [s.section for s in roomy.selected]
    assert sections[-1] == "notes" and sections.count("workspace") == 30


# -- releasing, holders, stale runs --------------------------------------------------------------


def test_an_interrupted_batch_hands_its_items_back_untried(
    connected: Userlore, monkeypatch: pytest.MonkeyPatch
) -> None:
    connected.sources.ingest("u1", ItemListSource("s", [item(0), item(1)]), synthesize=False)
    worker = pipeline(connected, worker_id="w", lease_seconds=600)
    held = worker.claim()

    def interrupted(*args: Any, **kw: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(worker, "_apply", interrupted)
    with pytest.raises(KeyboardInterrupt):
        worker.process(held)
    rows = stored_items(connected).values()
    assert {(r.synthesis_state, r.lease_owner, r.synthesis_attempts) for r in rows} == {
        ("pending", None, 0)
    }
    monkeypatch.undo()
    assert pipeline(connected).drain().created == 2  # at once: no lease to wait out


def test_a_stop_request_between_model_calls_releases_the_rest(connected: Userlore) -> None:
    connected.sources.ingest(
        "u1", ItemListSource("s", [item(i) for i in range(5)]), synthesize=False
    )
    model = ScriptedChatModel(replies=[enrichment_reply("A ticket about retries.")])
    worker = pipeline(connected, model=model, lease_seconds=600)
    report = worker.drain(should_stop=lambda: len(model.calls) >= 2)
    assert report.claimed == 5 and report.released == 3 and report.created == 2
    assert report.processed == 2
    states = sorted(
        (r.synthesis_state, r.synthesis_attempts) for r in stored_items(connected).values()
    )
    assert states == [("done", 1)] * 2 + [("pending", 0)] * 3


def test_lease_tokens_name_their_holder_and_fit_the_column(connected: Userlore) -> None:
    connected.sources.ingest("u1", ItemListSource("s", [item(0)]), synthesize=False)
    worker = pipeline(connected, worker_id="w" * 180, lease_seconds=600)
    [held] = worker.claim()
    assert len(held.lease_token) <= TOKEN_CHARS and held.lease_token.startswith("w" * 100)
    assert token_holder(held.lease_token) == this_holder()
    assert token_holder("legacy-worker#0123456789ab") is None  # older tokens: lease expiry only
    # the holder (this process) is alive: a worker on this host waits for the lease
    assert pipeline(connected, worker_id="other").claim() == []


def _dead_holder() -> str:
    """The holder identity of a process that has exited (and been reaped)."""
    out = subprocess.run(
        [sys.executable, "-c", "from userlore.sources.holder import this_holder as h; print(h())"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return out.stdout.strip()


def test_holder_gone_only_when_certain() -> None:
    me = this_holder()
    assert not holder_gone(me)
    dead = _dead_holder()
    assert dead != me and holder_gone(dead)
    host, pid, start = me.split(".")
    assert holder_gone(f"{host}.{pid}.{int(start) + 1}")  # this pid, a later process's start
    other_host = ("0" if host[0] != "0" else "1") + host[1:]
    assert not holder_gone(f"{other_host}.{dead.split('.')[1]}.1")  # another host: can't tell
    for unknown in (None, "", "garbage", f"{host}.x.1"):
        assert not holder_gone(unknown)


def test_a_dead_holders_items_are_taken_over_at_once(connected: Userlore) -> None:
    connected.sources.ingest("u1", ItemListSource("s", [item(0), item(1)]), synthesize=False)
    held = pipeline(connected, worker_id="crashed", lease_seconds=600).claim()
    dead = f"crashed#0123456789ab@{_dead_holder()}"
    with connected.store.transaction() as session:  # as if that process had claimed them
        for row in session.scalars(select(KnowledgeSourceItem)):
            row.lease_owner = dead
    report = pipeline(connected, worker_id="rescuer").drain()
    assert report.claimed == 2 and report.created == 2 and report.lost == 0
    assert {r.synthesis_attempts for r in stored_items(connected).values()} == {2}
    assert len(held) == 2


def test_stale_runs_are_failed_when_the_next_sync_starts(
    connected: Userlore, clock: FakeClock
) -> None:
    def run(run_id: str, started: datetime, warnings: dict[str, Any]) -> KnowledgeSyncRun:
        return KnowledgeSyncRun(
            id=run_id,
            scope="u1",
            source_instance_id="s",
            status="running",
            counts={},
            warnings=warnings,
            error=None,
            started_at=started,
            finished_at=None,
        )

    with connected.store.transaction() as session:
        session.add(run("run_old", clock.now - timedelta(hours=7), {}))  # an older version's run
        session.add(run("run_live", clock.now - timedelta(minutes=5), {"holder": this_holder()}))
        session.add(run("run_dead", clock.now - timedelta(minutes=5), {"holder": _dead_holder()}))
    report = connected.sources.ingest("u1", ItemListSource("s", [item(0)]))
    runs = {r.id: r for r in connected.sources.sync_runs("u1")}
    assert runs[report.run_id].status == "succeeded"
    assert (runs["run_old"].status, runs["run_old"].error) == (
        "failed",
        "abandoned: still running after 21600s",
    )
    assert runs["run_dead"].status == "failed" and runs["run_dead"].error is not None
    assert runs["run_dead"].error.startswith("abandoned: the process")
    assert runs["run_live"].status == "running"  # its process may still be syncing
    assert runs["run_old"].finished_at == clock.now


def test_coordinator_option_sets_the_lease(connected: Userlore, clock: FakeClock) -> None:
    connected.sources.ingest("u1", ItemListSource("s", [item(0)]), synthesize=False)
    coordinator = connected.sources.coordinator(lease_seconds=15)
    [held] = coordinator.pipeline.claim()
    assert stored_items(connected)["msg-0"].lease_expires_at == clock.now + timedelta(seconds=15)
    assert coordinator.pipeline.release([held]) == 1


def test_a_spread_claim_reads_stretches_not_items(
    connected: Userlore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A claim spread thinly over a source's time (PostgreSQL claims follow the heap) finds
    the same thread neighbours as the per-item walk, in a few statements, not two per item."""
    from sqlalchemy import event

    from userlore.sources import synthesis
    from userlore.sources.leases import ClaimedItem

    threads = ("a", "b", "c")
    chat = [turn(n, f"Message {n} of the chat.", threads[n % 3]) for n in range(240)]
    connected.sources.ingest("u1", ItemListSource("chat", chat), synthesize=False)
    store = connected.memory.store
    t = KnowledgeSourceItem
    with store.transaction("u1") as s:
        rows = s.execute(select(t).where(t.scope == "u1").order_by(t.occurred_at)).scalars()
        picked = [
            ClaimedItem.from_row(r, "t")
            for n, r in enumerate(rows)
            if n % 12 == 0 or 100 <= n < 110  # 20 spread thinly, 10 side by side
        ]
    # A stretch may hold 4 rows per item (no floor of 1,000 here): the spread ones split.
    monkeypatch.setattr(synthesis, "_MIN_STRETCH", 0)
    statements: list[str] = []
    listener = lambda *a: statements.append(a[2])  # noqa: E731
    event.listen(store.engine, "before_cursor_execute", listener)
    with store.transaction("u1") as s:
        got = synthesis.thread_contexts(s, picked, {})
    event.remove(store.engine, "before_cursor_execute", listener)
    batched = len(statements)
    event.listen(store.engine, "before_cursor_execute", listener)
    with store.transaction("u1") as s:
        walked = {i.id: synthesis.thread_context(s, i, {}) for i in picked}
    event.remove(store.engine, "before_cursor_execute", listener)
    assert got == walked
    assert sum(1 for ctx, ids in got.values() if ids) == len(picked)  # every one has neighbours
    per_item = len(statements) - batched
    assert per_item >= 2 * len(picked)
    assert batched <= per_item / 2, (batched, per_item)
