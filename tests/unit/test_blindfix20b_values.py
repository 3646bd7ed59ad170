"""blind20's held-out value quoted into a plan, held-out values stored, and a covered password
after a correction (issue 29, blindfix20b).

Four classes, each with a fresh set (and a second one written after the first fix):

* ``misread_amounts`` / ``relative_money``: a relative of a covered language (a creole, Ladino)
  that the identifier reads as covered or not, with the user's own amount under four digits
  ("Yo ta gana 15 mil pesos kada mes"). The gate reads an amount before any CLDR locale's
  currency name as a value of a misread segment, and an earning verb in any person beside a
  first-person word as own money. Checked here for the plan (withheld); the floor keeps a sum
  under a thousand beside a currency name in text no rule reads (a thing's price), by design.
  First run on main: withheld 17/22 and 24/24; the second set's first sight 20/20.
* ``corrected_passwords``: a password after a correction or an aside ("… no, la permanente,
  es Tortilla.Sin.Cebolla77"), shaped as capitalised words joined by one joiner. First run on
  main: 7/20 secrets, 2/13 benign; the second set's first sight 17/17, 9/11 (then a copula
  before the value: 16/17, 1/11, as main's 1/11).
* ``heldout_ids``: grouped digit runs and checksummed ids in held-out text, in a segment that
  may be a misread covered sentence or one the model places in no language (``zxx``). First run
  on main: 17/18; the second set's first sight 12/13 (main 9/13); flagged benign as on main.
"""

from __future__ import annotations

import pytest

from tests.support import value_sets
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact

PLAN_SETS = (
    "blindfix20b_misread_amounts.jsonl",
    "blindfix20b_misread_amounts2.jsonl",
    "blindfix20b_relative_money.jsonl",
)
PLAN_KNOWN: dict[str, str] = {}  # 'debe yo', 'saca yo': read since blindfix20d's money verbs
FLOOR_SETS = (
    "blindfix20b_corrected_passwords.jsonl",
    "blindfix20b_corrected_passwords2.jsonl",
    "blindfix20b_heldout_ids.jsonl",
    "blindfix20b_heldout_ids2.jsonl",
)
FLOOR_KNOWN = {
    "corrected_passwords-en-benign-003": "an example's shape after 'like': flagged on main too",
    "corrected_passwords-es-benign-002": "a shape asked about: flagged on main too",
    "corrected_passwords2-es-benign-002": "a recommended shape after 'es': withheld on main too",
    "corrected_passwords2-ja-secret-001": "after 「、」 and no copula: not read as a value",
    # Held-out benign the floor changed on main already (times, scores, phone, census).
    "heldout_ids-id-benign-001": "train times '07 15 30': flagged on main too",
    "heldout_ids-pl-benign-001": "a ticket's price '25 zł': flagged on main too",
    "heldout_ids-hu-benign-001": "a score '2-2': flagged on main too",
    "heldout_ids-ceb-benign-001": "a score '98-95': flagged on main too",
    "heldout_ids-sw-benign-002": "a free hotline: flagged on main too",
    "heldout_ids-tl-benign-002": "a census figure: flagged on main too",
    "heldout_ids2-kea-benign-001": "a census figure: flagged on main too",
    "heldout_ids2-mfe-benign-001": "a free hotline: flagged on main too",
}


def _plan_fails(case: value_sets.Case) -> bool:
    """A sensitive row quoted, or a covered near-miss withheld or changed (a held-out one is
    withheld by design)."""
    text = str(case["text"])
    if case["class"] != "benign":
        return quote_verdict(text).quotable
    return case["group"] == "covered" and value_sets.row_fails(case)


def _floor_fails(case: value_sets.Case) -> bool:
    if case["group"] == "held_out" and case["class"] == "benign":
        return value_sets.uncovered_fails(case)
    return value_sets.row_fails(case)


test_every_item_of_the_plan_set, test_known_plan_miss = value_sets.set_tests(
    PLAN_SETS, PLAN_KNOWN, fails=_plan_fails
)
test_every_item_of_the_floor_set, test_known_floor_miss = value_sets.set_tests(
    FLOOR_SETS, FLOOR_KNOWN, fails=_floor_fails
)


@pytest.mark.parametrize(
    ("text", "quotable"),
    [
        ("Mi gana 600 soles cada mes na chacra, pues no alcanza", False),
        ("Mi primo gana 900 euros al mes en Lidl, ¿es normal?", True),  # another's pay
        ("Yo ta gana 15 mil pesos kada mes na tienda, y el alkiler 5 mil", False),
        ("La entrada del museo cuesta 15 euros los domingos", True),  # a public price
    ],
)
def test_twins_differ_by_whose_amount(text: str, quotable: bool) -> None:
    assert quote_verdict(text).quotable is quotable


@pytest.mark.parametrize(
    ("text", "stored"),
    [
        ("la contraseña del banco... bueno, la nueva, es Playa.Roca.Azul31", False),
        ("la contraseña del banco... bueno, la nueva, es más larga que la anterior", True),
        ("le mot de passe, enfin le nouveau, je l'ai noté chez Marie-Claire-Anne", True),
        ("le mot de passe du wifi, enfin celui des invités, est Pomme-Velo-Nuage", False),
        ("Kuv daim npav Thaib tus lej yog 1795419629871, siv rau daim ntawv visa", False),
        ("O le numera o le afifi o 1Z 999 AA1 01 2345 6784, o fea o iai?", True),  # a parcel
    ],
)
def test_twins_differ_by_what_follows(text: str, stored: bool) -> None:
    assert (redact(text) == text) is stored
