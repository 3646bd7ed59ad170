"""The write path end to end: a turn, its evidence, its explicit statements, governed."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from userlore import InvalidInputError, RecordState, Userlore, WriteAction
from userlore.store.schema import KnowledgeSourceItem, MemoryRecord


def test_explicit_instruction_becomes_candidate_with_receipt(lore: Userlore) -> None:
    result = lore.observe(
        scope="u1", role="user", session_key="s1", content="Please always answer in bullet points."
    )
    [rec] = result.candidates
    assert rec.state is RecordState.CANDIDATE and rec.explicitness.value == "explicit"
    assert rec.canonical_key == "style/format" and rec.value == "bullets"
    [receipt] = lore.records.evidence("u1", rec.id)
    assert receipt["source_item_id"] == result.source_item_id
    assert "bullet points" in receipt["text"]


def test_chinese_instruction(auto_lore: Userlore) -> None:
    result = auto_lore.observe(scope="u1", role="user", content="以后请用中文回答。")
    assert [(r.canonical_key, r.value) for r in result.candidates] == [
        ("style/language", "chinese")
    ]


def test_assistant_turns_and_questions_are_not_statements(lore: Userlore) -> None:
    assert (
        lore.observe(
            scope="u1", role="assistant", content="I will always answer in bullet points."
        ).outcomes
        == ()
    )
    assert (
        lore.observe(
            scope="u1", role="user", content="Should I always answer in bullet points?"
        ).outcomes
        == ()
    )
    assert lore.records.list("u1") == []


def test_negated_mention_is_not_a_positive(lore: Userlore) -> None:
    result = lore.observe(scope="u1", role="user", content="I don't use vim anymore.")
    assert all((r.value or "").lower() != "vim" for r in result.candidates)


def test_repeated_statement_reinforces(lore: Userlore) -> None:
    first = lore.observe(scope="u1", role="user", content="Never suggest jest.")
    second = lore.observe(scope="u1", role="user", content="Never suggest jest.")
    assert [o.action for o in second.outcomes] == [WriteAction.REINFORCED]
    assert first.candidates[0].id == second.candidates[0].id
    assert second.candidates[0].evidence_count == 2
    assert len(lore.records.list("u1")) == 1


def test_secret_in_turn_is_refused_and_redacted(auto_lore: Userlore) -> None:
    key = "sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78St90"
    result = auto_lore.observe(
        scope="u1", role="user", content=f"Always use this key for the API: {key}"
    )
    assert all(
        o.action in (WriteAction.REFUSED, WriteAction.SKIPPED) or o.record is not None
        for o in result.outcomes
    )
    with auto_lore.store.transaction() as s:
        texts = [i.text for i in s.scalars(select(KnowledgeSourceItem))]
        texts += [r.content for r in s.scalars(select(MemoryRecord))]
    assert texts and all(key not in t for t in texts)
    assert key not in auto_lore.plan_context(scope="u1", query="API key").text


def test_turn_id_makes_replays_idempotent(lore: Userlore) -> None:
    for _ in range(3):
        lore.observe(scope="u1", role="user", content="I use pnpm.", turn_id="t-1")
    with lore.store.transaction() as s:
        assert s.scalar(select(func.count()).select_from(KnowledgeSourceItem)) == 1
    [rec] = lore.records.list("u1")
    assert rec.evidence_count == 1


@pytest.mark.parametrize(
    ("role", "content"), [("robot", "hi"), ("user", ""), ("user", " "), ("user", "x" * 40_000)]
)
def test_bad_turns_are_refused_whole(lore: Userlore, role: str, content: str) -> None:
    with pytest.raises(InvalidInputError):
        lore.observe(scope="u1", role=role, content=content)
    with lore.store.transaction() as s:
        assert s.scalar(select(func.count()).select_from(KnowledgeSourceItem)) == 0


def test_instruction_reaches_next_plan(auto_lore: Userlore) -> None:
    auto_lore.observe(scope="u1", role="user", content="Always answer in bullet points.")
    plan = auto_lore.plan_context(scope="u1", query="Explain Kubernetes operators")
    assert "bullet points" in plan.text and plan.sections.get("instructions")
