"""Special-category statements from conversation: captured, gated, and planned only with consent."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from userlore import Userlore
from userlore.extract.explicit import extract_statements
from userlore.models import Disclosure, RecordState, Sensitivity

SCOPE = "user:ana"


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("I have type 2 diabetes.", "health"),
        ("Heads up: I'm epileptic, so no flashing GIFs in examples.", "health"),
        ("我是穆斯林。", "religion"),
        ("我有哮喘。", "health"),
        ("I'm a shop steward in my union.", "trade_union"),
    ],
)
def test_a_first_person_special_statement_becomes_one_note(text: str, category: str) -> None:
    notes = [s for s in extract_statements(text) if s.kind == "note"]
    assert len(notes) == 1
    assert notes[0].canonical_key.startswith(f"note/{category}/")
    assert notes[0].value is None
    assert notes[0].content in text


@pytest.mark.parametrize(
    "text",
    [
        "I research diabetes.",
        "My dog has diabetes.",
        "My brother is Muslim.",
        "What are the symptoms of asthma?",
        "If I were diabetic, what should I eat?",
        'He wrote "I am a Buddhist" in his bio.',
        "I no longer have asthma.",
        "我在研究哮喘。",
        "我朋友是穆斯林。",
    ],
)
def test_third_party_topic_and_hypothetical_mentions_are_not_captured(text: str) -> None:
    assert not [s for s in extract_statements(text) if s.kind == "note"]


def test_the_key_names_the_category_but_not_the_words() -> None:
    [note] = [s for s in extract_statements("I have type 2 diabetes.") if s.kind == "note"]
    assert "diabetes" not in note.canonical_key
    [again] = [s for s in extract_statements("i have  TYPE 2 diabetes") if s.kind == "note"]
    assert again.canonical_key == note.canonical_key


def test_consent_gates_the_captured_record(make_lore: Callable[..., Userlore]) -> None:
    lore = make_lore("auto")
    result = lore.observe(SCOPE, "user", "I have type 2 diabetes.")
    [record] = result.candidates
    assert record.kind == "note"
    assert record.state is RecordState.ACTIVE
    assert record.disclosure is Disclosure.ASK_BEFORE_REFERENCE
    assert record.sensitivity is Sensitivity.SPECIAL
    assert record.sensitivity_category == "health"

    query = "what should I eat for lunch with my diabetes"
    before = lore.plan_context(SCOPE, query)
    assert record.id not in {s.id for s in before.selected}
    assert "diabetes" not in before.text
    assert any(r.id == record.id and r.reason == "consent_required" for r in before.rejected)

    lore.consent.grant(SCOPE, "health")
    granted = lore.plan_context(SCOPE, query)
    assert record.id in {s.id for s in granted.selected}
    assert "type 2 diabetes" in granted.text

    lore.consent.revoke(SCOPE, "health")
    revoked = lore.plan_context(SCOPE, query)
    assert record.id not in {s.id for s in revoked.selected}
    assert "diabetes" not in revoked.text


def test_consent_to_another_category_does_not_open_it(make_lore: Callable[..., Userlore]) -> None:
    lore = make_lore("auto")
    [record] = lore.observe(SCOPE, "user", "我是穆斯林").candidates
    assert record.sensitivity_category == "religion"
    lore.consent.grant(SCOPE, "health")
    plan = lore.plan_context(SCOPE, "穆斯林")
    assert record.id not in {s.id for s in plan.selected}
    lore.consent.grant(SCOPE, "religion")
    assert record.id in {s.id for s in lore.plan_context(SCOPE, "穆斯林").selected}


def test_confirm_write_keeps_it_a_candidate(lore: Userlore) -> None:
    [record] = lore.observe(SCOPE, "user", "I'm bisexual.").candidates
    assert record.state is RecordState.CANDIDATE
    assert record.disclosure is Disclosure.ASK_BEFORE_REFERENCE
    assert record.sensitivity_category == "sexual_orientation"


def test_a_repeated_statement_reinforces_instead_of_duplicating(
    make_lore: Callable[..., Userlore],
) -> None:
    lore = make_lore("auto")
    first = lore.observe(SCOPE, "user", "I have asthma.").candidates[0]
    second = lore.observe(SCOPE, "user", "I have asthma").candidates[0]
    assert second.id == first.id
