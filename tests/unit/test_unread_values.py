"""Values in a segment whose language no rule and no CLDR spell-out reads (issue 29, blind13).

``tests/data/unread_values.jsonl`` holds fresh items of each class (``family``) in languages
no earlier round's rules name (``split`` ``held_out``: Fijian, Kirundi, Guarani), written
before ``detectors/unread_values.py``: money in words beside a currency word, money in figures
beside a local currency mark, an account or id number after its loanword, a code said as a
list, and benign twins (counts, times, prices asked, currencies named, tracking and order
numbers). Every row is withheld from plans by the language gate; these tests read the floor.
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.detectors.unread_values import _is_loanword, _is_unit, unread_values
from userlore.policy.sensitivity import redact

CASES = data_sets.rows("unread_values.jsonl")
FAMILIES = sorted({str(c["family"]) for c in CASES} - {"benign"})
# Left (docs/benchmarks.md, blindfix13c): currency words no CLDR locale shares ("diranta",
# "chemadhora", Hawaiian "kālā", "w'amafaranga"); turns the identifier reads as a language
# CLDR has number words for, with no magnitude word of any language beside the currency
# ("daou vil", "rihun rua", "rua na udolu", "zikwi zana": left to uncovered_money, which
# keeps a price under a thousand); a Macanese turn read as Portuguese.
KNOWN = {
    "money_words": {
        "uv-money_words-ny-02",
        "uv-money_words-sn-01",
        "uv-money_words-tn-01",
        "uv-money_words-wo-01",
        "uv-money_words-br-01",
        "uv-money_words-haw-01",
        "uv-money_words-tet-01",
        "uv-money_words-st-01",
        # "tusintit qulit koruuninik": read by blindfix16b only as a misspelt magnitude before
        # an inflected currency name, two loose readings the merge made exact ("trail naïve").
        "uv-money_words-kl-01",
        "uv-money_words-fj-01",
        "uv-money_words-rn-02",
    },
    # "…, renda sã 950 pataca": caught since blindfix20a (a list's next sum after a comma).
    "money_figures": set(),
}
# Benign rows the floor redacts: order numbers of four digits or more (rules before this
# round) and a clause naming two currencies ("change rands into dollars": recall first).
FLAGGED = {"uv-benign-wo-b2", "uv-benign-jv-b2", "uv-benign-tn-b1"}


@pytest.mark.parametrize("family", FAMILIES)
def test_every_item_of_the_family(family: str) -> None:
    cases = [c for c in CASES if c["family"] == family]
    assert set(value_sets.failures(cases)) == KNOWN.get(family, set())


def test_the_benign_rows_the_floor_redacts() -> None:
    benign = [c for c in CASES if c["class"] == "benign"]
    assert {str(c["id"]) for c in benign if redact(str(c["text"])) != c["text"]} == FLAGGED


@pytest.mark.parametrize(
    ("word", "unit"),
    [
        ("dola", True),  # shared by many locales' names of dollars
        ("tālā", True),  # the tala, marks dropped
        ("krónur", True),  # a plural form
        ("makwacha", True),  # a class prefix before "kwacha"
        ("دینارە", True),  # an ending other than the name's ("دیناری")
        ("Naf", True),  # a lettered symbol ("NAf.")
        ("Burundi", False),  # a place in a currency's name
        ("Gdańsk", False),  # a capitalised name takes no affix ("dansk" of "dansk krone")
        ("library", False),  # a frequent covered word ("libra" with an affix by chance)
        ("Bank", False),  # a word of a fund's name, no tender currency's
        ("mahina", False),
    ],
)
def test_currency_words_of_every_locale(word: str, unit: bool) -> None:
    assert _is_unit(word) is unit


@pytest.mark.parametrize(
    ("word", "loan"),
    [("kuenta", True), ("sédula", True), ("konto", True), ("nomber", False), ("track", False)],
)
def test_account_and_id_loanwords(word: str, loan: bool) -> None:
    assert _is_loanword(word) is loan


@pytest.mark.parametrize(
    "text",
    [
        "Ni kiasi gani cha dola elfu mbili na mia tano kwa mwezi?",  # a question
        "Dola ilipanda tena wiki hii sokoni",  # the currency opens its clause
        "Tunaondoka saa mbili asubuhi, tuko watu watano",  # no currency
    ],
)
def test_no_money_where_none_is_stated(text: str) -> None:
    assert list(unread_values(text)) == []
