"""The governed write and the lifecycle, through the public facade."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select

from tests.conftest import FakeClock
from userlore import (
    CandidateInput,
    InvalidInputError,
    InvalidTransitionError,
    MemoryDisabledError,
    PolicyViolationError,
    Producer,
    RecordNotFoundError,
    RecordState,
    ScopeError,
    Userlore,
    UserState,
    WriteAction,
)
from userlore.store.schema import (
    KnowledgeSourceItem,
    MemoryEvidence,
    MemoryRecord,
    MemoryRecordVersion,
    MemoryTraceEvent,
)

AWS_KEY = "AKIAIOSFODNN7EXAMPLF"
GH_TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def cand(**kw: Any) -> CandidateInput:
    base: dict[str, Any] = {
        "kind": "style",
        "content": "Always answer in bullet points.",
        "canonical_key": "style/format",
        "value": "bullets",
        "evidence_text": "Always answer in bullet points, please.",
    }
    base.update(kw)
    return CandidateInput(**base)


def count(lore: Userlore, model: type[Any]) -> int:
    with lore.store.transaction() as s:
        return int(s.scalar(select(func.count()).select_from(model)) or 0)


def test_confirm_write_keeps_candidates_until_approved(lore: Userlore) -> None:
    out = lore.write("u1", cand())
    assert out.action is WriteAction.CREATED
    assert out.record is not None and out.record.state is RecordState.CANDIDATE
    approved = lore.records.approve("u1", out.record.id)
    assert approved.state is RecordState.ACTIVE
    assert approved.valid_from is not None


def test_auto_mode_activates(auto_lore: Userlore) -> None:
    out = auto_lore.write("u1", cand())
    assert out.record is not None and out.record.state is RecordState.ACTIVE


@pytest.mark.parametrize(("mode", "reason"), [("off", "memory_off"), ("readOnly", "read_only")])
def test_off_and_read_only_write_nothing(make_lore: Any, mode: str, reason: str) -> None:
    lore = make_lore(mode)
    out = lore.write("u1", cand())
    assert out.action is WriteAction.SKIPPED and out.reason == reason
    assert count(lore, MemoryRecord) == 0
    assert count(lore, KnowledgeSourceItem) == 0
    result = lore.observe(scope="u1", role="user", content="Always answer in bullet points.")
    assert result.outcomes == () and count(lore, KnowledgeSourceItem) == 0


def test_repeat_reinforces_instead_of_duplicating(lore: Userlore) -> None:
    first = lore.write("u1", cand(confidence=0.8))
    second = lore.write("u1", cand(confidence=0.8, evidence_text="I said it again: bullets!"))
    assert second.action is WriteAction.REINFORCED
    assert first.record is not None and second.record is not None
    assert second.record.id == first.record.id
    assert second.record.confidence > first.record.confidence
    assert second.record.evidence_count == 2
    assert count(lore, MemoryRecord) == 1


def test_same_evidence_twice_is_idempotent(lore: Userlore) -> None:
    lore.write("u1", cand())
    again = lore.write("u1", cand())
    assert again.record is not None and again.record.evidence_count == 1
    assert count(lore, MemoryEvidence) == 1


def test_dedupe_is_per_scope(lore: Userlore) -> None:
    a = lore.write("u1", cand())
    b = lore.write("u2", cand())
    assert a.record is not None and b.record is not None
    assert a.record.id != b.record.id
    assert [r.id for r in lore.records.list("u2")] == [b.record.id]


def test_new_value_supersedes_with_new_version_and_archives_old(lore: Userlore) -> None:
    old = lore.write("u1", cand()).record
    assert old is not None
    lore.records.approve("u1", old.id)
    new = lore.write("u1", cand(content="Answer in prose, no bullets.", value="prose")).record
    assert new is not None
    assert new.state is RecordState.CANDIDATE
    assert new.supersedes_record_id == old.id and new.version == 2
    assert lore.records.get("u1", old.id).state is RecordState.ACTIVE  # untouched until approval
    lore.records.approve("u1", new.id)
    archived = lore.records.get("u1", old.id)
    assert archived.state is RecordState.ARCHIVED and archived.valid_until is not None
    active = lore.records.list("u1", state=RecordState.ACTIVE)
    assert [r.id for r in active] == [new.id]
    history = lore.records.history("u1", new.id)
    assert [(v.record_id, v.version, v.live) for v in history] == [
        (old.id, 1, False),
        (new.id, 2, True),
    ]
    assert history[1].diff and "+prose" in history[1].diff.replace(",", "")


def test_never_two_active_values_in_auto(auto_lore: Userlore) -> None:
    for value in ("bullets", "prose", "tables"):
        auto_lore.write("u1", cand(content=f"Answer in {value}.", value=value))
    active = auto_lore.records.list("u1", state=RecordState.ACTIVE)
    assert [r.value for r in active] == ["tables"]
    assert len(auto_lore.records.list("u1", state=RecordState.ARCHIVED)) == 2


def test_update_makes_new_version_and_keeps_snapshot(auto_lore: Userlore) -> None:
    rec = auto_lore.write(
        "u1", cand(kind="note", canonical_key=None, value=None, content="Sync in Room Orion at 10")
    ).record
    assert rec is not None
    updated = auto_lore.records.update("u1", rec.id, "Sync in Room Polaris at 11")
    assert updated.version == 2 and updated.id == rec.id
    versions = auto_lore.records.history("u1", rec.id)
    assert [(v.version, v.live, v.parent_version) for v in versions] == [
        (1, False, None),
        (2, True, 1),
    ]
    assert versions[0].content == "Sync in Room Orion at 10"
    assert versions[1].diff == "-Orion +Polaris -10 +11"


@pytest.mark.parametrize(
    "text",
    [
        f"my AWS key is {AWS_KEY}",
        f"token {GH_TOKEN}",
        "my password is hunter2-Blue!",
        "card 4111 1111 1111 1111 exp 12/29",
    ],
)
def test_secret_or_regulated_never_stored(auto_lore: Userlore, text: str) -> None:
    out = auto_lore.write(
        "u1", cand(kind="note", canonical_key=None, value=None, content=text, evidence_text=text)
    )
    assert out.action is WriteAction.REFUSED
    assert out.reason in {"secret", "regulated"}
    assert count(auto_lore, MemoryRecord) == 0
    assert count(auto_lore, KnowledgeSourceItem) == 0
    refusal = auto_lore.traces.list("u1", event_type="governance")[0]
    assert refusal["reason_code"] == out.reason
    assert text not in str(refusal)


def test_reviewer_claim_cannot_lower_sensitivity(auto_lore: Userlore) -> None:
    out = auto_lore.write(
        "u1",
        cand(
            kind="note",
            canonical_key=None,
            value=None,
            content=f"deploy key: {GH_TOKEN}",
            producer=Producer.REVIEWER,
            sensitivity_claim="none",
        ),
    )
    assert out.action is WriteAction.REFUSED and out.reason == "secret"


def test_claim_can_raise_sensitivity(auto_lore: Userlore) -> None:
    out = auto_lore.write(
        "u1",
        cand(
            kind="note",
            canonical_key=None,
            value=None,
            content="a harmless line",
            sensitivity_claim="secret",
        ),
    )
    assert out.action is WriteAction.REFUSED


def test_evidence_is_stored_redacted(auto_lore: Userlore) -> None:
    turn = f"Always answer in bullet points. Also my key is {AWS_KEY}"
    out = auto_lore.write("u1", cand(evidence_text=turn))
    assert out.record is not None
    evidence = auto_lore.records.evidence("u1", out.record.id)
    assert len(evidence) == 1
    assert AWS_KEY not in evidence[0]["text"]
    assert "bullet points" in evidence[0]["text"]


def test_special_category_stored_gated(auto_lore: Userlore) -> None:
    out = auto_lore.write(
        "u1",
        cand(
            kind="identity",
            canonical_key="identity/health",
            value=None,
            content="I have type 1 diabetes.",
        ),
    )
    assert out.record is not None
    assert out.record.sensitivity.value == "special"
    assert out.record.sensitivity_category == "health"
    assert out.record.disclosure.value == "ask_before_reference"


@pytest.mark.parametrize(
    ("kw", "error"),
    [
        ({"content": ""}, InvalidInputError),
        ({"content": "   "}, InvalidInputError),
        ({"content": "x" * 5000}, InvalidInputError),
        ({"kind": "Bad Kind"}, InvalidInputError),
        ({"path": "../etc"}, InvalidInputError),
        ({"confidence": 1.5}, InvalidInputError),
    ],
)
def test_bad_input_is_typed_and_writes_nothing(
    lore: Userlore, kw: dict[str, Any], error: type[Exception]
) -> None:
    with pytest.raises(error):
        lore.write("u1", cand(**kw))
    assert count(lore, MemoryRecord) == 0
    assert count(lore, KnowledgeSourceItem) == 0


@pytest.mark.parametrize("scope", ["", " u1", "a b", "x" * 201, "u1\n", "../u1"])
def test_invalid_scope(lore: Userlore, scope: str) -> None:
    with pytest.raises(ScopeError):
        lore.write(scope, cand())
    with pytest.raises(ScopeError):
        lore.plan_context(scope=scope, query="hello")


def test_unknown_id_and_foreign_scope(lore: Userlore) -> None:
    rec = lore.write("u1", cand()).record
    assert rec is not None
    with pytest.raises(RecordNotFoundError):
        lore.records.approve("u1", "mem_nope")
    with pytest.raises(RecordNotFoundError):
        lore.records.approve("u2", rec.id)
    with pytest.raises(RecordNotFoundError):
        lore.records.get("u2", rec.id)
    assert lore.records.get("u1", rec.id).state is RecordState.CANDIDATE


def test_invalid_transitions(lore: Userlore) -> None:
    rec = lore.write("u1", cand()).record
    assert rec is not None
    lore.records.forget("u1", rec.id)
    with pytest.raises(InvalidTransitionError):
        lore.records.approve("u1", rec.id)
    with pytest.raises(InvalidTransitionError):
        lore.records.forget("u1", rec.id)
    restored = lore.records.restore("u1", rec.id)
    assert restored.state is RecordState.CANDIDATE
    lore.records.reject("u1", rec.id)
    with pytest.raises(InvalidTransitionError):
        lore.records.approve("u1", rec.id)
    with pytest.raises(InvalidTransitionError):
        lore.records.restore("u1", rec.id)


def test_forget_and_restore_round_trip(auto_lore: Userlore) -> None:
    rec = auto_lore.write("u1", cand()).record
    assert rec is not None
    gone = auto_lore.records.forget("u1", rec.id)
    assert gone.state is RecordState.DELETED
    assert [r.id for r in auto_lore.records.trash("u1")] == [rec.id]
    assert auto_lore.records.list("u1") == []
    back = auto_lore.records.restore("u1", rec.id)
    assert back.state is RecordState.ACTIVE and back.content == rec.content
    assert back.version == rec.version


def test_update_refuses_secret_and_keeps_old_version(auto_lore: Userlore) -> None:
    rec = auto_lore.write("u1", cand()).record
    assert rec is not None
    with pytest.raises(PolicyViolationError):
        auto_lore.records.update("u1", rec.id, f"use key {AWS_KEY}")
    assert auto_lore.records.get("u1", rec.id).content == rec.content
    assert count(auto_lore, MemoryRecordVersion) == 1


def test_read_only_mode_refuses_lifecycle_writes(make_lore: Any, tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'lore.db'}"
    rec = make_lore("confirmWrite", url=url).write("u1", cand()).record
    assert rec is not None
    read_only = make_lore("readOnly", url=url)
    with pytest.raises(MemoryDisabledError):
        read_only.records.approve("u1", rec.id)
    assert read_only.records.get("u1", rec.id).state is RecordState.CANDIDATE
    assert read_only.plan_context(scope="u1", query="bullet").trace_id is not None


def test_pin_and_forgotten_blocks_repromotion(auto_lore: Userlore) -> None:
    rec = auto_lore.write("u1", cand()).record
    assert rec is not None
    assert auto_lore.records.pin("u1", rec.id).user_state is UserState.PINNED
    assert auto_lore.records.unpin("u1", rec.id).user_state is UserState.AUTO
    auto_lore.store.set_user_state(None, rec.id, UserState.FORGOTTEN)
    again = auto_lore.write("u1", cand(evidence_text="bullets again"))
    assert again.action is WriteAction.SKIPPED and again.reason == "forgotten"


def test_clock_drives_timestamps(lore: Userlore, clock: FakeClock) -> None:
    rec = lore.write("u1", cand()).record
    assert rec is not None and rec.created_at == clock.now
    clock.advance(days=1)
    assert lore.records.approve("u1", rec.id).updated_at == clock.now


def test_traces_never_hold_user_text(auto_lore: Userlore) -> None:
    auto_lore.write("u1", cand(content="Always answer in haiku form."))
    auto_lore.plan_context(scope="u1", query="What is a secret recipe?", session_key="s1")
    with auto_lore.store.transaction() as s:
        payloads = [str(t.payload) for t in s.scalars(select(MemoryTraceEvent))]
    assert payloads and not any("haiku" in p or "recipe" in p for p in payloads)


async def test_async_twins_share_logic(auto_lore: Userlore) -> None:
    out = await auto_lore.awrite("u1", cand())
    assert out.record is not None
    plan = await auto_lore.aplan_context(scope="u1", query="format")
    assert out.record.id in plan.selected_ids
    forgotten = await auto_lore.records.aforget("u1", out.record.id)
    assert forgotten.state is RecordState.DELETED
