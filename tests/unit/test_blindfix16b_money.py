"""blind16's misses of the user's own money, each as a class (issue 29, blindfix16b).

Three classes, each with fresh items written before the rules changed:
``tests/data/blindfix16b_own_sums.jsonl`` holds money the user lends, gives or is owed
(``given_money``: "借给我表哥八千五", "a minha mesada para o meu filho", "mon ex me doit encore
1 200 €") and savings plans and loans by their names (``product_money``: a PEL, a consignado,
car finance) in the seven covered languages, with twins where the money is someone else's or
a public figure; ``tests/data/blindfix16b_said_money.jsonl`` holds money said in words in
held-out text (a magnitude of a language the identifier did not guess, "rébu", "тыһыынча";
a dialect's spelling one edit off, "Dusend"). ``tests/data/blindfix16b_second.jsonl`` was
written after the first fix. First runs and the final rates: ``docs/benchmarks.md``, "Issue 29:
blind16's own money (blindfix16b)".
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.detectors.uncovered_money import uncovered_money
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact

KNOWN = {
    # "them" (the bonds) reads as other people: the clause is someone else's money.
    "bf16b-product_money-en-money-001",
    # On main too: "laut Stiftung Warentest … ab 10.000 €" is read as the user's Bauspar money.
    "bf16b-product_money-de-benign-001",
}
# Held-out items left (language-free reading only): a magnitude with no currency and no
# number word CLDR spells ("үс мөлүйүөн"), a multiplier and currency of a language with no
# CLDR data ("senk mil goud"), a feminine numeral CLDR does not list ("dair mil"), and a
# spelling two edits from any magnitude ("doezend").
HELD_OUT_KNOWN = {
    "bf16b-said_money-sah-money-002",
    "bf16b-said_money-ht-money-001",
    "bf16b-said_money-cy-money-001",
    "bf16b-said_money-li-money-001",
}
# Held-out near-misses the floor changes: "the pound's fell again against the dollar" (a
# three-word run read as a value, as on main).
HELD_OUT_BENIGN_REDACTED = {"bf16b-said_money-sco-benign-001"}


@pytest.mark.parametrize("name", ["blindfix16b_own_sums.jsonl", "blindfix16b_second.jsonl"])
def test_every_item_of_the_covered_classes(name: str) -> None:
    rows = [r for r in data_sets.rows(name) if r["group"] == "covered"]
    failing = set(value_sets.failures(rows))
    assert failing - KNOWN == set(), sorted(failing - KNOWN)
    assert failing >= {k for k in KNOWN if any(r["id"] == k for r in rows)}  # a fix shows


@pytest.mark.parametrize("name", ["blindfix16b_said_money.jsonl", "blindfix16b_second.jsonl"])
def test_held_out_money_in_words_is_redacted(name: str) -> None:
    rows = [r for r in data_sets.rows(name) if r["group"] == "held_out"]
    missed, redacted_benign = value_sets.held_out_misses(rows)
    held = {r["id"] for r in rows}
    assert missed == HELD_OUT_KNOWN & held
    assert redacted_benign == HELD_OUT_BENIGN_REDACTED & held


@pytest.mark.parametrize(
    ("text", "own"),
    [
        ("I lent my cousin 2,400 last spring", True),
        ("my cousin lent his friend 2,400 last spring", False),  # the cousin's money
        ("我借给表哥八千五", True),
        ("我表哥借给他同学八千五", False),
        ("弟に30万円貸した", True),
        ("兄が友達に30万円貸したらしい", False),
        ("mon ex me doit encore 1 200 €", True),
        ("son ex lui doit encore 1 200 €", False),
        ("Mon PEL est à 31 250 €", True),
        ("le plafond du PEL est de 61 200 €", False),  # a ceiling set by law
    ],
)
def test_twins_differ_by_whose_money(text: str, own: bool) -> None:
    assert (redact(text) != text) is own
    assert quote_verdict(text).quotable is not own


def test_a_magnitude_is_read_in_the_language_that_says_it() -> None:
    def said(text: str) -> list[str]:
        return [text[h[2] : h[3]] for h in uncovered_money(text)]

    # Sundanese read as Javanese, Sakha as Kyrgyz: the word's own languages are read too.
    assert said("Abdi gaduh hutang ka Kang Asep lima ratus rébu") == ["lima ratus rébu"]
    assert said("Доҕорбор Айаалга биэс тыһыынча солкуобай иэстээхпин") == [
        "биэс тыһыынча солкуобай"
    ]
    # One edit from a magnitude, before a currency name: with its multiplier.
    assert said("Ik heff noch dörtig Dusend Euro Schulden op dat Huus") == ["dörtig Dusend Euro"]
    assert said("De Euro is siet 2002 dat Geld in Düütschland") == []  # no amount
