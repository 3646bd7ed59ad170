"""blind20's covered own money that the floor stored, as four classes (issue 29, blindfix20a).

``given_money``: the user's money by what it cost them or what they were given, left, paid or
granted ("grandma left me $23,500", "el ingreso mínimo vital que me dan es de 658 euros", "mir
wurde ein Zuschuss von 2.300 € bewilligt", "祖母から200万円もらった"); ``benefit_names``: a benefit
paid to the user by its scheme's name (IMV, Bürgergeld, Carer's Allowance, BPC, 低保, 生活保護);
``note_slang``: notes and sums by their slang names ("nen Fuffi und nen Zwanni", "a tenner",
"un billete de cincuenta", "两张毛爷爷", "諭吉が2枚"); ``elided_amounts``: a list of the user's sums
whose later items leave the currency out ("j'ai prêté 60 balles à mon coloc et 40 à sa copine").
Twins: news prices, someone else's inheritance, "cost me 2 hours", counts and times after an
amount. First runs and final rates: ``docs/benchmarks.md``, "Issue 29: blind20's covered own
money (blindfix20a)".
"""

from __future__ import annotations

import pytest

from tests.support import value_sets
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact

SETS = (
    "blindfix20a_given_money.jsonl",
    "blindfix20a_given_money2.jsonl",
    "blindfix20a_benefits.jsonl",
    "blindfix20a_benefits2.jsonl",
    "blindfix20a_note_slang.jsonl",
    "blindfix20a_note_slang2.jsonl",
    "blindfix20a_elided.jsonl",
    "blindfix20a_elided2.jsonl",
)

KNOWN: dict[str, str] = {
    "bf20a-benefits-en-money-002": "'Child Benefit comes to £102 … for us': 'us' alone, a rate",
    "bf20a-benefits-ja-money-003": "'失業保険は日額6,200円だった': a daily rate, whose unsaid",
    "bf20a-benefits-en-benign-001": "'Universal Credit': 'credit' is a personal money noun; main",
    "bf20a-benefits2-fr-benign-001": "'l'AAH est revalorisée à 1 016 €': read as uncovered; main",
    "bf20a-benefits2-ja-benign-001": "'児童手当は…月1万円に増えた': a public rate redacted; main",
    "bf20a-given2-en-benign-001": "'the city paid $2.3 million': the gate's 'paid' cue; main",
    "bf20a-slang-pt-money-004": "'uma prata': also silver ('prata de lei'), not a unit here",
}

test_every_item, test_known_misses = value_sets.set_tests(SETS, KNOWN)


@pytest.mark.parametrize(
    ("text", "own"),
    [
        ("grandma left me $23,500 in the will", True),
        ("her grandmother left her $50,000 in the will", False),  # someone else's inheritance
        ("hearing aids arrived, they cost me £3,850", True),
        ("that form cost me 2 hours on the phone", False),  # a time, no sum
        ("El candado me costó 15 euros.", False),  # a padlock's price (gate4)
        ("la reforma del baño me costó 4.300 euros", True),
        ("el ingreso mínimo vital que me dan es de 658 euros", True),
        ("el IMV sube a 658 euros en 2025, dice el BOE", False),  # a public rate
        ("ich schulde meinem Kumpel noch nen Fuffi und nen Zwanni", True),
        ("er schuldet ihr einen Fuffi", False),  # his debt
        ("彼は友達に諭吉を2枚借りたらしい", False),  # his loan
        ("財布に諭吉が2枚しかない", True),
    ],
)
def test_twins_differ_by_whose(text: str, own: bool) -> None:
    assert (redact(text) != text) is own
    assert quote_verdict(text).quotable is not own


@pytest.mark.parametrize(
    ("text", "gone", "kept"),
    [
        ("j'ai prêté 60 balles à mon coloc et 40 à sa copine", ["60", "40"], []),
        ("I lent £50 to Sam and 30 minutes later he was gone", ["50"], ["30 minutes"]),
        ("mi hipoteca son 620 € y el piso tiene 85 metros", ["620"], ["85 metros"]),
        ("ich zahle 450 € Miete und wohne seit 12 Jahren dort", ["450"], ["12 Jahren"]),
        ("我房租 2800 元，住了 18 个月", ["2800"], ["18 个月"]),
        ("I owe Visa $2,300 and my sister owes 900", ["2,300"], ["900"]),  # her debt
    ],
)
def test_a_list_goes_on_but_a_count_stays(text: str, gone: list[str], kept: list[str]) -> None:
    red = redact(text)
    assert not [v for v in gone if v in red]
    assert [v for v in kept if v in red] == kept
