"""Genetic data and criminal records are special categories of their own, gated by consent."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from userlore import ConsentCategory, Userlore
from userlore.extract.explicit import extract_statements
from userlore.models import Disclosure, Sensitivity
from userlore.policy.findings import SPECIAL_CATEGORIES
from userlore.policy.sensitivity import classify

SCOPE = "user:lee"


def test_the_new_categories_can_be_granted() -> None:
    assert {"genetic", "criminal_record"} <= {c.value for c in ConsentCategory}
    assert {c.value for c in ConsentCategory} == SPECIAL_CATEGORIES


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("I carry the BRCA1 mutation.", "genetic"),
        ("My 23andMe results say I'm APOE4 positive.", "genetic"),
        ("我携带BRCA1基因突变。", "genetic"),
        ("I was convicted of fraud in 2015.", "criminal_record"),
        ("I have a record for shoplifting.", "criminal_record"),
        ("I served two years.", "criminal_record"),
        ("I'm on probation.", "criminal_record"),
        ("我有犯罪记录。", "criminal_record"),
        ("我以前坐过牢。", "criminal_record"),  # a past clause: the past is the fact
        ("我在缓刑期。", "criminal_record"),
        ("I'm hard of hearing.", "health"),
        ("我是视障人士。", "health"),
    ],
)
def test_a_first_person_statement_becomes_a_note_of_its_category(text: str, category: str) -> None:
    notes = [s for s in extract_statements(text) if s.kind == "note"]
    assert [n.canonical_key.split("/")[1] for n in notes] == [category]


@pytest.mark.parametrize(
    "text",
    [
        "I have a record of all the meetings.",
        "I served two years as team lead.",
        "I'm on probation at my new job.",
        "I served in the army for two years.",
        "My client was convicted of fraud.",
        "My sister carries the BRCA1 mutation.",
        "我没有犯罪记录。",
        "我哥哥坐过牢。",
        "I'm doing a blind taste test.",
    ],
)
def test_near_misses_are_not_flagged(text: str) -> None:
    assert not classify(text).categories


@pytest.mark.parametrize(
    ("text", "category", "word"),
    [
        ("I carry the BRCA1 mutation.", "genetic", "BRCA1"),
        ("I was convicted of fraud in 2015.", "criminal_record", "convicted"),
    ],
)
def test_consent_opens_and_closes_the_category(
    make_lore: Callable[..., Userlore], text: str, category: str, word: str
) -> None:
    lore = make_lore("auto")
    [record] = lore.observe(SCOPE, "user", text).candidates
    assert record.sensitivity is Sensitivity.SPECIAL
    assert record.disclosure is Disclosure.ASK_BEFORE_REFERENCE
    assert record.sensitivity_category == category
    query = f"tell me about me and {word}"

    def shown() -> bool:
        plan = lore.plan_context(SCOPE, query)
        return record.id in {s.id for s in plan.selected} and word in plan.text

    assert not shown()
    for other in ConsentCategory:
        if other.value != category:
            lore.consent.grant(SCOPE, other)
    assert not shown()  # every other category's consent leaves it closed
    lore.consent.grant(SCOPE, category)
    assert shown()
    lore.consent.revoke(SCOPE, category)
    assert not shown()
