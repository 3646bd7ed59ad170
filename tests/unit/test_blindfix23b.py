"""blind23's identifiers and money: insurance cards named by their own word, slang for the
user's money, pay written with k/w/万 suffixes, a million's shape in a language no rule reads,
and the example values standards publish (issue 29, blindfix23b).

Five classes, each with two sets written before the rules that read them (first run on the
unmodified branch, then the second set at first sight on the fixed one; sensitive caught,
benign wrong):

- ``insurance_ids``: "健保卡號碼 0008 3271 6645": the health and social insurance cards' words
  in traditional characters, Taiwan's 健保卡, the German KVNR, the SUS card's full name
  (``unvalidated_ids.yaml``); a card's validity in years is a count (``quote_cues.yaml``).
  24/27 (2/15) -> 27/27 (0/15); second 16/16 (0/9).
- ``money_slang``: "le RSA me verse 607,75 balles": the user as the payer's object ("me verse",
  "zahlt mir", "me pagan", "pays me": ``said_values.yaml``' ``paid_to_me``), "マン" for 万, and
  a slang unit that names things of a kind ("607 balles de tennis") is a count.
  27/29 (2/17) -> 29/29 (1/17); second 11/15 (0/8) -> 13/15 (0/8).
- ``pay_suffix``: "我base是28k": English pay words inside CJK text
  (``money_forms.yaml``' ``code_switched_pay``), Chinese and Japanese pay words by period,
  and "2w" touching a CJK character. 15/21 (1/13) -> 21/21 (1/13); second 11/11 (0/5).
- ``heldout_magnitudes`` (held out): "MK 1.2 miliyoni", "1,2 miljovnna", "miliyan 4.5": a
  number with a decimal part or a currency before it, beside a word shaped like a million's
  (a stem three CLDR locales' long compact words share: ``uncovered_magnitudes``).
  12/13 (7/8) -> 13/13 (7/8); second 5/6 (3/4).
- ``example_values``: "Beispiel-IBAN DE89 3704 0044 0532 0130 00": the standards' and
  registries' example IBANs beside an example word (``benign_values.yaml``' ``specimen_ids``);
  a test card touching CJK text. 8/8 (11/16) -> 8/8 (1/16); second 3/3 (0/8). A
  published example said to be the user's own ("meine echte ist DE89 …", "la mía es ES91 …")
  is theirs (``benign_shapes.yaml``' ``own_real``).

Held-out rows are checked for the floor only (the gate withholds their language by design).
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact

SETS = tuple(
    f"blindfix23b_{name}{n}.jsonl"
    for name in (
        "insurance_ids",
        "money_slang",
        "pay_suffix",
        "heldout_magnitudes",
        "example_values",
    )
    for n in ("", "2")
)
_POPULATION = (
    "a population with a CLDR magnitude word in a language no rule reads: redacted as on main"
)
KNOWN = {
    "money_slang-de-benign-001": "'wir haben 3 Mäuse im Keller': a slang unit after 'wir haben'",
    "money_slang2-es-money-001": "'por media jornada': 'media' (an average) reads as no one's "
    "money; the gate withholds it (religion: 'pagan')",
    "money_slang2-de-money-001": "'mir zahlt die Firma …': the company named reads as the "
    "money's owner; the gate withholds it (quote_money)",
    "example_values-zh-benign-001": "'是真的吗' (is it real?): 真的 is the floor's word for "
    "the user's real value, so the example IBAN is read as one",
    "pay_suffix-es-benign-001": "'¿un televisor 4K vale la pena?' is identified as Romanian",
    "heldout_magnitudes-sw-benign-001": _POPULATION,
    "heldout_magnitudes-tl-benign-001": _POPULATION,
    "heldout_magnitudes-fi-benign-001": _POPULATION,
    "heldout_magnitudes-hu-benign-001": _POPULATION,
    "heldout_magnitudes-id-benign-001": _POPULATION,
    "heldout_magnitudes-lt-benign-001": _POPULATION,
    "heldout_magnitudes-yo-benign-001": _POPULATION,
    "heldout_magnitudes2-sw-benign-001": _POPULATION,
    "heldout_magnitudes2-fi-benign-001": "'680 000 ihmistä': a grouped number in a language no "
    "rule reads, redacted as on main",
    "heldout_magnitudes2-id-benign-001": _POPULATION,
    "heldout_magnitudes2-zu-money-001": "'1.1 wezigidi': a million's word no other language's "
    "shares a stem with",
}


def _fails(case: value_sets.Case) -> bool:
    """A covered row by the gate and the floor; a held-out one by the floor alone."""
    if case["group"] == "covered":
        return value_sets.row_fails(case)
    return value_sets.uncovered_fails(case)


test_every_item_of_the_set, test_known_miss = value_sets.set_tests(SETS, KNOWN, fails=_fails)

BLIND23 = (
    "b23c-zh-regulated-002",
    "b23c-zh-money-004",
    "b23c-fr-money-003",
    "b23c-de-benign-001",
    "b23h-ny-money-02",
    "b23h-se-money-02",
    "b23h-ny-benign-05",
)


@pytest.mark.parametrize("case_id", BLIND23)
def test_blind23_rows_now_right(case_id: str) -> None:
    rows = data_sets.rows("blind23_covered.jsonl", "blind23_heldout.jsonl")
    assert not _fails(next(c for c in rows if c["id"] == case_id))


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("健保卡號碼 0008 3271 6645", False),
        ("健保卡號碼有幾碼？", True),
        ("la tarjeta sanitaria se renueva cada 5 años", True),
        ("le RSA me verse 607,75 balles", False),
        ("j'ai acheté 607 balles de tennis", True),
        ("il me reste 45 balles de mon salaire", False),
        ("我base是28k", False),
        ("マンション3つ見学した", True),
        ("手取り18マンしかない", False),
        ("Ndili ndi ngongole ya MK 1.2 miliyoni", False),
        ("Anthu pafupifupi 20 miliyoni amakhala ku Malawi", True),  # a whole count: stays
        ("Beispiel-IBAN DE89 3704 0044 0532 0130 00", True),
        ("meine IBAN ist DE89 3704 0044 0532 0130 00", False),  # no example word: the floor's
    ],
)
def test_twins(text: str, kept: bool) -> None:
    assert (redact(text) == text) is kept


def test_a_test_card_beside_chinese_is_quoted() -> None:
    assert quote_verdict("测试卡号4242 4242 4242 4242在沙盒里一直失败").quotable
