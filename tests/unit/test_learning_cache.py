"""The facet cache end to end (seed 002 "Testing" scenarios and the userlore rules)."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import FakeClock
from userlore import (
    InvalidInputError,
    InvalidTransitionError,
    MemoryDisabledError,
    PolicyViolationError,
    RecordNotFoundError,
    RecordState,
    Userlore,
    UserState,
)
from userlore.learning import (
    CacheRebuilt,
    CandidateBuffer,
    CueFamily,
    EvidenceRef,
    FacetClass,
    FacetState,
    LearningCandidate,
)

Make = Callable[..., Userlore]


def cand(
    key: str,
    value: str,
    *,
    cue: CueFamily = CueFamily.BEHAVIORAL,
    scope: str = "u1",
    text: str | None = None,
    cls: FacetClass | None = None,
) -> LearningCandidate:
    prefix, _, name = key.partition("/")
    return LearningCandidate(
        scope=scope,
        facet_class=cls or FacetClass(prefix),
        key=name,
        value=value,
        cue_family=cue,
        evidence=EvidenceRef("heuristic", text=text or f"evidence for {key}={value}"),
    )


def strong(key: str, value: str, n: int = 3, **kw: object) -> list[LearningCandidate]:
    """Three behavioural observations: 3 × 0.7 × ln 4 ≈ 2.91, Active."""
    return [cand(key, value, text=f"turn {i} about {key}", **kw) for i in range(n)]  # type: ignore[arg-type]


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return tmp_path / "workspace" / "PROFILE.md"


@pytest.fixture
def learning_lore(auto_lore: Userlore, ws: Path) -> Userlore:
    auto_lore.learning.set_workspace(lambda scope: ws if scope == "u1" else None)
    return auto_lore


def blocks(text: str) -> dict[str, str]:
    from userlore.learning.profile_md import parse

    return {s.name: s.text for s in parse(text) if s.name is not None}


# -- seed scenarios -------------------------------------------------------------------------


def test_candidates_rebuild_publishes_cache_rebuilt(learning_lore: Userlore) -> None:
    cache = learning_lore.facets.cache
    cache.config = cache.config.model_copy(update={"event_driven": False})
    events: list[CacheRebuilt] = []
    unsubscribe = learning_lore.facets.cache.subscribe(events.append)
    cache.submit([*strong("style/verbosity", "terse"), cand("goal/ship", "ship v1")])
    assert events == []  # not event-driven: nothing until the rebuild
    published = cache.rebuild("u1")
    assert events == published and len(events) == 1
    event = events[0]
    assert (event.scope, event.added, event.evicted, event.kept, event.total_size) == (
        "u1",
        1,
        0,
        0,
        1,
    )
    assert event.observations == 4 and event.refused == 0
    assert [f.canonical_key for f in event.facets] == ["style/verbosity"]
    assert event.rebuilt_at == learning_lore.store.clock()
    # a second rebuild with nothing new keeps it
    cache.rebuild("u1")
    assert (events[-1].added, events[-1].kept, events[-1].total_size) == (0, 1, 1)
    unsubscribe()
    cache.rebuild("u1")
    assert len(events) == 2
    # the trace names ids and counts, never the user's text
    trace = learning_lore.traces.list("u1", event_type="learning")[0]
    assert trace["reason_code"] == "rebuilt"
    assert "terse" not in json.dumps(trace, default=str)


def test_profile_md_gets_the_expected_blocks(learning_lore: Userlore, ws: Path) -> None:
    learning_lore.facets.cache.submit(
        [
            *strong("style/verbosity", "terse"),
            *strong("identity/name", "Sanil"),
            *strong("tooling/package_manager", "pnpm"),
            *strong("veto/jest", "banned"),
            *strong("goal/ship_566", "ship #566 before #686"),
            *strong("channel/primary", "desktop-chat"),
        ]
    )
    text = ws.read_text()
    assert text.startswith("# User Profile\n")
    found = blocks(text)
    assert list(found) == ["style", "identity", "tooling", "vetoes", "goals", "channel"]
    assert found["style"] == "## Style\n- **verbosity**: terse\n"
    assert found["identity"] == "## Identity\n- **name**: Sanil\n"
    assert found["tooling"] == "## Tooling\n- **package_manager**: pnpm\n"
    assert found["vetoes"] == "## Vetoes\n- **jest**: banned\n"
    assert found["goals"] == "## Goals\n- ship #566 before #686\n"
    assert found["channel"] == "## Channel\n- **primary**: desktop-chat\n"
    assert "<!-- userlore:begin style -->\n## Style" in text


def test_pin_keeps_a_weak_facet_active(learning_lore: Userlore, clock: FakeClock, ws: Path) -> None:
    cache = learning_lore.facets.cache
    cache.submit([cand("style/emoji", "skip")])  # one behavioural cue: 0.7 × ln 2 ≈ 0.49
    weak = learning_lore.facets.get("u1", "style", "emoji")
    assert weak.state is FacetState.CANDIDATE and weak.record_id is None
    pinned = learning_lore.facets.pin("u1", "style", "emoji")
    assert pinned.state is FacetState.ACTIVE and pinned.user_state is UserState.PINNED
    assert pinned.record_state is RecordState.ACTIVE and pinned.stability == float("inf")
    clock.advance(days=365)  # far beyond the style half-life
    learning_lore.facets.rebuild("u1")
    still = learning_lore.facets.get("u1", "style", "emoji")
    assert still.state is FacetState.ACTIVE and still.record_state is RecordState.ACTIVE
    assert "- **emoji**: skip *(pinned)*" in ws.read_text()
    assert "skip" in learning_lore.plan_context("u1", "hello").text
    # unpinned, scoring decides again: a year-old single cue is dropped
    learning_lore.facets.unpin("u1", "style", "emoji")
    assert learning_lore.facets.get("u1", "style", "emoji").state is FacetState.DROPPED
    assert "emoji" not in ws.read_text()


def test_forget_removes_from_profile_and_blocks_re_promotion(
    learning_lore: Userlore, ws: Path
) -> None:
    learning_lore.facets.cache.submit(strong("tooling/package_manager", "pnpm"))
    assert "pnpm" in ws.read_text()
    record_id = learning_lore.facets.get("u1", "tooling", "package_manager").record_id
    assert record_id is not None
    forgotten = learning_lore.facets.forget("u1", "tooling", "package_manager")
    assert forgotten.state is FacetState.DROPPED
    assert forgotten.user_state is UserState.FORGOTTEN
    assert "pnpm" not in ws.read_text()
    assert record_id not in learning_lore.plan_context("u1", "which package manager").text
    # new evidence, explicit or not, never re-promotes it
    submitted = learning_lore.facets.cache.submit(strong("tooling/package_manager", "pnpm", n=6))
    assert submitted == 6
    result = learning_lore.observe("u1", "user", "I always use pnpm.")
    assert [o.reason for o in result.outcomes] == ["forgotten"]
    facet = learning_lore.facets.get("u1", "tooling", "package_manager")
    assert facet.state is FacetState.DROPPED
    assert learning_lore.records.get("u1", record_id).state is RecordState.ARCHIVED
    assert "pnpm" not in ws.read_text()
    assert learning_lore.facets.stats("u1")["forgotten"] == 1
    # and the refusals were traced without the value
    refusals = [
        t
        for t in learning_lore.traces.list("u1", event_type="governance")
        if t["reason_code"] == "forgotten"
    ]
    assert len(refusals) == 6 and "pnpm" not in json.dumps(refusals, default=str)


def test_list_facets_shape_and_class_filter(learning_lore: Userlore) -> None:
    learning_lore.facets.cache.submit(
        [*strong("style/verbosity", "terse"), *strong("identity/name", "Sanil")]
    )
    learning_lore.facets.cache.submit([cand("style/format", "bullets")])  # candidate state only
    everything = learning_lore.facets.list("u1")
    assert [f.canonical_key for f in everything] == ["style/verbosity", "identity/name"]
    styles = learning_lore.facets.list("u1", "style")
    assert [f.canonical_key for f in styles] == ["style/verbosity"]
    shape = styles[0].as_dict()
    assert set(shape) >= {
        "class",
        "key",
        "value",
        "state",
        "user_state",
        "stability",
        "record_id",
        "cue_families",
        "evidence_refs",
        "evidence_count",
    }
    assert shape["class"] == "style" and shape["value"] == "terse" and shape["state"] == "active"
    assert shape["cue_families"] == ["behavioral"] and len(shape["evidence_refs"]) == 3
    json.dumps(shape)  # JSON-ready
    with_candidates = learning_lore.facets.cache.list_facets(
        "u1", "style", states=[FacetState.CANDIDATE]
    )
    assert [f.canonical_key for f in with_candidates] == ["style/format"]
    with pytest.raises(InvalidInputError):
        learning_lore.facets.list("u1", "hobbies")


# -- decay and budgets through the cache ----------------------------------------------------


@pytest.mark.parametrize(
    ("cls", "half_life"),
    [("identity", 90), ("veto", 60), ("tooling", 30), ("goal", 30), ("style", 14), ("channel", 7)],
)
def test_cache_decay_per_class_half_life(
    make_lore: Make, clock: FakeClock, cls: str, half_life: int
) -> None:
    lore = make_lore("auto")
    lore.facets.cache.submit(strong(f"{cls}/thing", "value"))  # 3 × 0.7 × ln 4 ≈ 2.91
    fresh = lore.facets.get("u1", cls, "thing")
    assert fresh.state is FacetState.ACTIVE
    clock.advance(days=half_life)
    lore.facets.rebuild("u1")
    aged = lore.facets.get("u1", cls, "thing")
    assert aged.stability == pytest.approx(fresh.stability / 2)
    assert aged.state is FacetState.PROVISIONAL  # 1.46 < 1.5: out of the cache
    assert aged.record_state is RecordState.NEEDS_REVIEW
    clock.advance(days=2 * half_life)  # 3 half-lives: 0.36
    lore.facets.rebuild("u1")
    gone = lore.facets.get("u1", cls, "thing")
    assert gone.state is FacetState.DROPPED and gone.record_state is RecordState.ARCHIVED


def test_budget_with_overflow_pool_in_the_cache(make_lore: Make) -> None:
    lore = make_lore("auto")
    candidates: list[LearningCandidate] = []
    for i in range(10):  # 10 vetoes, decreasing evidence: budget 3 + overflow 5 = 8
        candidates += strong(f"veto/tool{i}", "banned", n=12 - i)
    candidates += strong("style/verbosity", "terse")
    lore.facets.cache.submit(candidates)
    active = lore.facets.cache.list_facets("u1", "veto", states=[FacetState.ACTIVE])
    assert [f.key for f in active] == [f"tool{i}" for i in range(8)]
    waiting = lore.facets.cache.list_facets("u1", "veto", states=[FacetState.PROVISIONAL])
    assert [f.key for f in waiting] == ["tool8", "tool9"]
    assert all(f.stability >= 1.5 for f in waiting)  # stable enough, but over budget
    stats = lore.facets.stats("u1")
    assert stats["active"] == 9 and stats["by_class"]["veto"]["active"] == 8
    assert lore.facets.cache.rebuild_cache("u1").total_size == 9
    # the planner honours the same budgets: all 9 fit in context
    plan = lore.plan_context("u1", "anything")
    assert len([s for s in plan.selected if s.section == "instructions"]) == 9


# -- userlore rules -------------------------------------------------------------------------


def test_explicit_statement_is_evidence_and_stays_active(make_lore: Make, clock: FakeClock) -> None:
    lore = make_lore("auto")
    events: list[CacheRebuilt] = []
    lore.facets.cache.subscribe(events.append)
    result = lore.observe("u1", "user", "From now on, keep answers short.", turn_id="t1")
    assert len(events) == 1 and events[0].total_size == 1  # event-driven rebuild
    facet = lore.facets.get("u1", "style", "verbosity")
    assert facet.value == "terse" and facet.cue_families == (CueFamily.EXPLICIT,)
    assert facet.evidence_refs == (result.source_item_id,)
    assert facet.stability == pytest.approx(1.386, abs=1e-3)  # provisional by score...
    assert facet.state is FacetState.ACTIVE  # ...but stated and accepted: it stays
    lore.observe("u1", "user", "From now on, keep answers short.", turn_id="t1")  # replay
    assert lore.facets.get("u1", "style", "verbosity").evidence_count == 1
    clock.advance(days=15)  # one style half-life and a bit: 0.66 < 0.7
    lore.facets.rebuild("u1")
    decayed = lore.facets.get("u1", "style", "verbosity")
    assert decayed.state is FacetState.CANDIDATE
    assert decayed.record_state is RecordState.NEEDS_REVIEW
    lore.observe("u1", "user", "Please keep your answers short from now on.", turn_id="t2")
    again = lore.facets.get("u1", "style", "verbosity")
    assert again.state is FacetState.ACTIVE and again.record_state is RecordState.ACTIVE


def test_new_provisional_facet_in_auto_waits_for_review(learning_lore: Userlore) -> None:
    # The governed write activates a new record in ``auto``; stability has not earned it, and
    # active -> candidate is not a legal move, so the record is paused for review instead.
    learning_lore.learning.submit(
        [cand("tooling/lang", "rust", cue=CueFamily.RECURRENCE, text=f"turn {i}") for i in range(2)]
    )  # 2 × 0.6 × ln 3 ≈ 1.32: Provisional
    facet = learning_lore.get_facet("u1", "tooling", "lang")
    assert facet.state is FacetState.PROVISIONAL
    assert facet.record_state is RecordState.NEEDS_REVIEW
    assert "rust" not in learning_lore.plan_context("u1", "which language do I use").text


def test_confirm_write_never_activates_by_stability(lore: Userlore) -> None:
    lore.facets.cache.submit(strong("identity/timezone", "PST"))
    facet = lore.facets.get("u1", "identity", "timezone")
    assert facet.state is FacetState.PROVISIONAL and facet.awaiting_approval
    assert facet.record_state is RecordState.CANDIDATE
    assert "PST" not in lore.plan_context("u1", "meeting time").text
    assert facet.record_id is not None
    lore.records.approve("u1", facet.record_id)
    lore.facets.rebuild("u1")
    approved = lore.facets.get("u1", "identity", "timezone")
    assert approved.state is FacetState.ACTIVE and not approved.awaiting_approval


def test_conflict_is_argmax_and_losers_can_re_emerge(make_lore: Make) -> None:
    lore = make_lore("auto")
    lore.facets.cache.submit(strong("tooling/package_manager", "npm"))
    first = lore.facets.get("u1", "tooling", "package_manager")
    lore.facets.cache.submit(strong("tooling/package_manager", "pnpm", n=5))
    winner = lore.facets.get("u1", "tooling", "package_manager")
    assert winner.value == "pnpm" and winner.state is FacetState.ACTIVE
    assert [v for v, _ in winner.alternatives] == ["npm"]
    assert first.record_id is not None
    assert lore.records.get("u1", first.record_id).state is RecordState.ARCHIVED
    lore.facets.cache.submit(strong("tooling/package_manager", "npm", n=8))
    back = lore.facets.get("u1", "tooling", "package_manager")
    assert back.value == "npm" and back.state is FacetState.ACTIVE
    assert len(lore.records.list("u1", RecordState.ACTIVE, kind="tooling")) == 1


def test_sensitivity_is_governed(learning_lore: Userlore, ws: Path) -> None:
    learning_lore.facets.cache.submit(
        [
            cand("identity/api_key", "sk-proj-" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7"),
            *strong("identity/health", "I have diabetes"),
        ]
    )
    assert learning_lore.traces.list("u1", event_type="governance")[0]["reason_code"] == "secret"
    with pytest.raises(RecordNotFoundError):
        learning_lore.facets.get("u1", "identity", "api_key")
    health = learning_lore.facets.get("u1", "identity", "health")
    assert health.state is FacetState.ACTIVE and health.sensitivity_category == "health"
    assert "diabetes" not in ws.read_text()  # special category: not without consent
    assert "diabetes" not in learning_lore.plan_context("u1", "diet").text
    learning_lore.consent.grant("u1", "health")
    learning_lore.facets.rebuild("u1")
    assert "diabetes" in ws.read_text()
    with pytest.raises(PolicyViolationError):
        learning_lore.facets.update(
            "u1", "identity", "token", "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
        )


def test_update_facet_overwrites_and_pins(learning_lore: Userlore, ws: Path) -> None:
    learning_lore.facets.cache.submit(strong("style/verbosity", "terse"))
    updated = learning_lore.facets.update("u1", "style", "verbosity", "detailed")
    assert updated.value == "detailed" and updated.user_state is UserState.PINNED
    assert updated.state is FacetState.ACTIVE
    learning_lore.facets.cache.submit(strong("style/verbosity", "terse", n=9))
    assert learning_lore.facets.get("u1", "style", "verbosity").value == "detailed"
    assert "- **verbosity**: detailed *(pinned)*" in ws.read_text()
    # update lifts a forget: it is the user's own decision
    learning_lore.facets.forget("u1", "style", "verbosity")
    back = learning_lore.facets.update("u1", "style", "verbosity", "terse")
    assert back.value == "terse" and back.user_state is UserState.PINNED


def test_update_facet_in_confirm_write_is_the_users_decision(lore: Userlore) -> None:
    facet = lore.facets.update("u1", "identity", "name", "Sam")
    assert facet.state is FacetState.ACTIVE and facet.record_state is RecordState.ACTIVE


def test_reset_cache_clears_auto_rows_and_keeps_pinned(learning_lore: Userlore) -> None:
    cache = learning_lore.facets.cache
    cache.config = cache.config.model_copy(update={"event_driven": False})
    cache.submit([*strong("style/verbosity", "terse"), *strong("identity/name", "Sanil")])
    cache.rebuild("u1")
    learning_lore.facets.pin("u1", "identity", "name")
    assert learning_lore.facets.reset("u1") == 1
    assert learning_lore.records.list("u1", RecordState.ACTIVE, kind="style") == []
    assert [r.value for r in learning_lore.records.list("u1", RecordState.ACTIVE)] == ["Sanil"]
    cache.rebuild("u1")  # repopulated from the evidence
    assert learning_lore.facets.get("u1", "style", "verbosity").state is FacetState.ACTIVE


def test_deleting_a_facet_record_discards_earlier_evidence(make_lore: Make) -> None:
    lore = make_lore("auto")
    lore.facets.cache.submit(strong("goal/marathon", "run a marathon"))
    record_id = lore.facets.get("u1", "goal", "marathon").record_id
    assert record_id is not None
    lore.records.forget("u1", record_id)  # seed 003 tombstone
    lore.facets.rebuild("u1")
    with pytest.raises(RecordNotFoundError):
        lore.facets.get("u1", "goal", "marathon")
    assert lore.records.list("u1", RecordState.ACTIVE) == []


def test_about_me_cites_evidence_for_each_entry(make_lore: Make) -> None:
    lore = make_lore("auto")
    lore.observe("u1", "user", "My name is Sanil and I use pnpm.")
    lore.facets.cache.submit(strong("style/verbosity", "terse"))
    about = lore.facets.about("u1")
    assert {a["canonical_key"] for a in about} == {
        "identity/name",
        "tooling/package_manager",
        "style/verbosity",
    }
    for entry in about:
        assert entry["evidence"], entry["canonical_key"]
        assert all(e["source_item_id"].startswith("src_") for e in entry["evidence"])
    name = next(a for a in about if a["key"] == "name")
    assert name["evidence"][0]["text"] == "My name is Sanil and I use pnpm."


def test_stats_count_every_state(make_lore: Make, clock: FakeClock) -> None:
    lore = make_lore("auto")
    lore.facets.cache.submit(
        [
            *strong("style/verbosity", "terse"),  # active
            cand("style/format", "bullets"),  # candidate (0.49)
            *strong("tooling/editor", "vim", n=2),  # 1.54: active
        ]
    )
    lore.facets.cache.submit([cand("goal/x", "x", cue=CueFamily.RECURRENCE)])  # 0.42: candidate
    clock.advance(days=10)
    stats = lore.facets.stats("u1")
    assert stats["total"] == 4
    assert (stats["active"], stats["provisional"], stats["candidate"], stats["dropped"]) == (
        1,
        1,
        0,
        2,
    )
    assert stats["by_class"]["style"] == {
        "active": 1,
        "provisional": 0,
        "candidate": 0,
        "dropped": 1,
    }


def test_controls_validate_and_respect_the_memory_mode(make_lore: Make) -> None:
    lore = make_lore("auto")
    with pytest.raises(RecordNotFoundError):
        lore.facets.pin("u1", "style", "nothing")
    with pytest.raises(InvalidInputError):
        lore.facets.get("u1", "style", "Bad Key")
    with pytest.raises(InvalidInputError):
        lore.facets.get("u1", "identity", "style/verbosity")
    lore.facets.cache.submit(strong("style/verbosity", "terse"))
    lore.facets.forget("u1", "style", "verbosity")
    with pytest.raises(InvalidTransitionError):
        lore.facets.pin("u1", "style", "verbosity")
    reader = make_lore("readOnly")
    with pytest.raises(MemoryDisabledError):
        reader.facets.update("u1", "style", "verbosity", "terse")
    assert reader.learning.submit(strong("style/verbosity", "terse")) == 3
    assert reader.learning.rebuild("u1") == []
    assert reader.learning.list_facets("u1") == []


def test_scopes_never_mix(make_lore: Make) -> None:
    lore = make_lore("auto")
    lore.facets.cache.submit(strong("identity/name", "Ada", scope="alice"))
    lore.facets.cache.submit(strong("identity/name", "Bob", scope="bob"))
    assert [f.value for f in lore.facets.list("alice")] == ["Ada"]
    assert [f.value for f in lore.facets.list("bob")] == ["Bob"]
    with pytest.raises(InvalidInputError):
        lore.facets.cache.submit([cand("identity/name", "x", scope="bad scope!")])


def test_evidence_must_be_in_scope_and_present(make_lore: Make) -> None:
    lore = make_lore("auto")
    other = lore.observe("bob", "user", "hello there")
    assert other.source_item_id is not None
    foreign = LearningCandidate(
        "u1",
        FacetClass.STYLE,
        "verbosity",
        "terse",
        CueFamily.EXPLICIT,
        EvidenceRef("turn", source_item_id=other.source_item_id),
    )
    missing = LearningCandidate(
        "u1", FacetClass.STYLE, "verbosity", "terse", CueFamily.EXPLICIT, EvidenceRef("turn")
    )
    lore.facets.cache.config = lore.facets.cache.config.model_copy(update={"event_driven": False})
    lore.facets.cache.submit([foreign, missing])
    assert lore.facets.cache.rebuild("u1")[0].refused == 2
    with pytest.raises(RecordNotFoundError):
        lore.facets.get("u1", "style", "verbosity")


def test_buffer_is_bounded_and_thread_safe() -> None:
    buf = CandidateBuffer(capacity=50)
    assert CandidateBuffer().capacity == 1024

    def push(n: int) -> None:
        for i in range(100):
            buf.push(cand("style/verbosity", f"v{n}-{i}"))

    threads = [threading.Thread(target=push, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(buf) == 50 and buf.dropped == 350
    drained = buf.drain()
    assert len(drained) == 50 and len(buf) == 0
    with pytest.raises(InvalidInputError):
        CandidateBuffer(capacity=0)


def test_periodic_rebuild_runs_and_stops(make_lore: Make) -> None:
    lore = make_lore("auto")
    cache = lore.facets.cache
    cache.config = cache.config.model_copy(update={"event_driven": False})
    cache.submit(strong("style/verbosity", "terse"))
    fired = threading.Event()
    cache.subscribe(lambda event: fired.set())
    cache.start(interval_secs=0.01)
    try:
        assert cache.running
        assert fired.wait(5.0)
    finally:
        lore.close()  # stops the thread too
    assert not cache.running
    with pytest.raises(InvalidInputError):
        cache.start(interval_secs=0)


def test_a_failing_subscriber_does_not_break_the_rebuild(make_lore: Make) -> None:
    lore = make_lore("auto")
    seen: list[int] = []

    def broken(event: CacheRebuilt) -> None:
        raise RuntimeError("boom")

    lore.facets.cache.subscribe(broken)
    lore.facets.cache.subscribe(lambda e: seen.append(e.total_size))
    lore.facets.cache.submit(strong("style/verbosity", "terse"))
    assert seen == [1]


async def test_async_twins(make_lore: Make) -> None:
    lore = make_lore("auto")
    lore.facets.cache.submit(strong("style/verbosity", "terse"))
    facets = await lore.facets.alist("u1")
    assert [f.value for f in facets] == ["terse"]
    pinned = await lore.facets.apin("u1", "style", "verbosity")
    assert pinned.pinned
    assert (await lore.facets.astats("u1"))["pinned"] == 1


def test_learning_is_not_built_until_used(make_lore: Make) -> None:
    lore = make_lore("auto")
    lore.observe("u1", "user", "Call me Sam.")
    assert "learning" not in lore.__dict__
    # the observation was still recorded: the cache finds it when first used
    assert lore.facets.get("u1", "identity", "name").cue_families == (CueFamily.EXPLICIT,)


def test_public_surface_is_pinned() -> None:
    import userlore.learning

    assert sorted(userlore.learning.__all__) == sorted(
        [
            "CLASS_BUDGETS",
            "CUE_WEIGHTS",
            "HALF_LIFE_DAYS",
            "OVERFLOW_POOL",
            "CacheRebuilt",
            "CandidateBuffer",
            "CueFamily",
            "EvidenceRef",
            "Facet",
            "FacetCache",
            "FacetClass",
            "FacetState",
            "LearningCandidate",
            "LearningConfig",
            "ProfileMdRenderer",
            "write_connected_accounts",
        ]
    )
    from userlore.api.facets import Facets

    for name in ("list", "get", "update", "pin", "unpin", "forget", "reset", "rebuild", "stats"):
        assert callable(getattr(Facets, name)) and callable(getattr(Facets, f"a{name}"))
    assert callable(Facets.about) and callable(Facets.aabout)


def test_submit_is_all_or_nothing(make_lore: Make) -> None:
    lore = make_lore("auto")
    with pytest.raises(InvalidInputError):
        lore.facets.cache.submit([cand("style/verbosity", "terse"), "not a candidate"])  # type: ignore[list-item]
    assert len(lore.facets.cache.buffer) == 0


def test_forgetting_evidence_that_has_no_record_yet(make_lore: Make) -> None:
    lore = make_lore("auto")
    lore.facets.cache.submit([cand("veto/jest", "banned")])  # a candidate: observations only
    assert lore.facets.get("u1", "veto", "jest").record_id is None
    gone = lore.facets.forget("u1", "veto", "jest")
    assert gone.user_state is UserState.FORGOTTEN and gone.state is FacetState.DROPPED
    assert gone.record_state is RecordState.ARCHIVED
    lore.facets.cache.submit(strong("veto/jest", "banned", n=5))
    assert lore.facets.get("u1", "veto", "jest").state is FacetState.DROPPED
    assert lore.records.list("u1", RecordState.ACTIVE) == []
    unforgotten = lore.facets.unpin("u1", "veto", "jest")  # lifts the forget
    assert unforgotten.user_state is UserState.AUTO
    lore.facets.cache.submit(strong("veto/jest", "banned"))
    assert lore.facets.get("u1", "veto", "jest").state is FacetState.ACTIVE
