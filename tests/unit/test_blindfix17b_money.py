"""blind17's misses of the user's own money, each as a class (issue 29, blindfix17b).

Three classes, each with fresh items written before the rules changed and a second set written
after the first fix: what the user paid for a thing of theirs (``paid_own_thing``: "paid 389
quid for my Kindle Scribe", "Paguei R$ 12.490 no meu carro", "24万8千円もした"), state
benefits the user receives with a bare second amount (``own_benefits``: "mon APL à 187", "mein
Bürgergeld ist 563 Euro und das Wohngeld 220"), both in the seven covered languages with twins
where the money is a shop's price, a public rate or someone else's; and held-out sums in words
(``words_before_currency``: a magnitude and a currency loaned in another script, Santali "ᱦᱟᱡᱟᱨ
ᱴᱟᱠᱟ", which is read; number words under a thousand before a currency name, "troes cents
euros", which stay, as a price in words does: see ``HELD_OUT_KNOWN``). First
runs and final rates: ``docs/benchmarks.md``, "Issue 29: blind17's own money (blindfix17b)".
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.detectors.uncovered_money import uncovered_money
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact

COVERED_SETS = (
    "blindfix17b_paid.jsonl",
    "blindfix17b_paid2.jsonl",
    "blindfix17b_benefits.jsonl",
    "blindfix17b_benefits2.jsonl",
)
HELD_OUT_SETS = ("blindfix17b_words.jsonl", "blindfix17b_words2.jsonl")

KNOWN: dict[str, str] = {
    "bf17b-paid-ja-money-003": "このカメラ: 'カメラ' is a price's word to the others' test",
    "bf17b-paid2-de-money-002": "'die Couch hat mich … gekostet': no 'my', as a padlock's price",
    "bf17b-benefits-en-money-001": "'covers 90': two digits beside no payment word",
    "bf17b-benefits-es-money-003": "'me han subido … a 658': no first-person word the rule reads",
    "bf17b-benefits-ja-benign-001": "児童手当は…月1万円: a public rate read as the user's (main)",
    "bf17b-benefits2-zh-money-001": "房贷还要还2000: '2000' reads as a year",
}
# Held-out items left: a sum under a thousand in one word, in round hundreds or under a
# hundred before a currency name stays, as a price in words does (a ticket's "osem eur", which
# blindfix8 keeps); hundreds and then tens or units are read since blindfix18b ("dwieście
# pięćdziesiąt złotych"); and Cantonese Han numerals (兩萬八) with no money cue the Chinese rules
# read.
_UNDER_A_THOUSAND = "under a thousand in one word or round hundreds: stays, as a price does"
HELD_OUT_KNOWN: dict[str, str] = {
    "bf17b-words-gl-money-001": _UNDER_A_THOUSAND,
    "bf17b-words-oc-money-001": _UNDER_A_THOUSAND,
    "bf17b-words-lij-money-001": _UNDER_A_THOUSAND,
    "bf17b-words-fur-money-001": _UNDER_A_THOUSAND,
    "bf17b-words-sc-money-001": _UNDER_A_THOUSAND,
    "bf17b-words-co-money-001": _UNDER_A_THOUSAND,
    "bf17b-words-pcd-money-001": _UNDER_A_THOUSAND,
    "bf17b-words-lad-money-001": _UNDER_A_THOUSAND,
    "bf17b-words-lb-money-001": _UNDER_A_THOUSAND,
    "bf17b-words-yue-money-001": "兩萬八 in Cantonese: no money cue the Chinese rules read",
    "bf17b-words2-it-money-001": _UNDER_A_THOUSAND,
    "bf17b-words2-ca-money-001": _UNDER_A_THOUSAND,
    "bf17b-words2-nl-money-001": _UNDER_A_THOUSAND,
    "bf17b-words2-af-money-001": _UNDER_A_THOUSAND,
    "bf17b-words2-sv-money-001": _UNDER_A_THOUSAND,
    "bf17b-words2-pl-money-001": _UNDER_A_THOUSAND,
    "bf17b-words2-cs-money-001": _UNDER_A_THOUSAND,
    "bf17b-words2-hu-money-001": _UNDER_A_THOUSAND,
    "bf17b-words2-tr-money-001": _UNDER_A_THOUSAND,
}

# Held-out near-misses the floor changes: a count of seats beside a price (:mod:`.uncovered`'s
# value rule, as on main).
HELD_OUT_BENIGN_REDACTED = {"bf17b-words-gl-benign-001"}


@pytest.mark.parametrize("name", COVERED_SETS)
def test_every_item_of_the_covered_classes(name: str) -> None:
    rows = data_sets.rows(name)
    failing = set(value_sets.failures(rows))
    assert failing - set(KNOWN) == set(), sorted(failing - set(KNOWN))


@pytest.mark.parametrize("name", HELD_OUT_SETS)
def test_held_out_money_in_words_is_redacted(name: str) -> None:
    rows = data_sets.rows(name)
    failing = set(value_sets.failures(rows, covered_benign=False))
    assert failing - set(HELD_OUT_KNOWN) == set(), sorted(failing - set(HELD_OUT_KNOWN))
    benign = [r for r in rows if r["class"] == "benign"]
    changed = {str(r["id"]) for r in benign if redact(str(r["text"])) != r["text"]}
    assert changed == HELD_OUT_BENIGN_REDACTED & {str(r["id"]) for r in rows}


_ALL = {str(r["id"]): r for name in (*COVERED_SETS, *HELD_OUT_SETS) for r in data_sets.rows(name)}


@pytest.mark.parametrize(
    "case_id",
    [pytest.param(k, marks=pytest.mark.xfail(strict=True, reason=v)) for k, v in KNOWN.items()]
    + [
        pytest.param(k, marks=pytest.mark.xfail(strict=True, reason=v))
        for k, v in HELD_OUT_KNOWN.items()
    ],
)
def test_known_misses(case_id: str) -> None:
    case = _ALL[case_id]
    if case["class"] == "benign":
        value_sets.quoted_and_kept(case)
    else:
        value_sets.withheld_and_redacted(case)


@pytest.mark.parametrize(
    ("text", "own"),
    [
        ("paid 389 quid for my Kindle Scribe, can I get the difference back?", True),
        ("the Kindle Scribe is on sale for 389 quid this week", False),  # the shop's price
        ("Paguei R$ 12.490 no meu carro usado", True),
        ("meu primo pagou R$ 12.490 no carro dele", False),  # the cousin's money
        ("先月買ったMacBook、24万8千円もしたのに", True),
        ("友達が買ったMacBookは24万8千円もしたらしい", False),
        ("Mein Bürgergeld ist 563 Euro und das Wohngeld 220", True),
        ("Das Kindergeld beträgt seit Januar 255 Euro pro Kind", False),  # a public rate
        ("mon APL est de 187 et mon loyer 640", True),
        ("le montant moyen de l'APL est de 187 euros selon la CAF", False),
    ],
)
def test_twins_differ_by_whose_money(text: str, own: bool) -> None:
    assert (redact(text) != text) is own
    assert quote_verdict(text).quotable is not own


def test_a_loanword_in_another_script_reads_as_its_source() -> None:
    def said(text: str) -> list[str]:
        return [text[h[2] : h[3]] for h in uncovered_money(text)]

    # Santali in Ol Chiki and Limbu say Bengali's "hajar taka": read through anyascii.
    assert said("ᱤᱧᱟᱜ ᱢᱟᱦᱤᱱᱟ ᱛᱟᱞᱟᱵ ᱜᱮᱞ ᱦᱟᱡᱟᱨ ᱴᱟᱠᱟ, ᱱᱳᱟ ᱨᱮ ᱪᱮᱫ ᱞᱮᱠᱟ ᱪᱟᱞᱟᱳᱜ?") == ["ᱜᱮᱞ ᱦᱟᱡᱟᱨ ᱴᱟᱠᱟ"]
    assert said("ᤀᤠᤱ ᤔᤠᤸᤗᤡ ᤔᤠᤳ ᤜᤠᤈᤠᤖ ᤋᤠᤁᤠ ᤗᤠᤶ") == ["ᤔᤠᤳ ᤜᤠᤈᤠᤖ ᤋᤠᤁᤠ"]
    # A count of people in thousands is no sum: no currency after the magnitude.
    assert said("ᱱᱚᱣᱟ ᱜᱟᱹᱣᱟ ᱨᱮ ᱵᱟᱨ ᱦᱟᱡᱟᱨ ᱦᱚᱲ ᱢᱮᱱᱟᱜᱼᱟ") == []
