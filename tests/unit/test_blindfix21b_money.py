"""blind21's own money: earnings named by their payout, a price paid without a currency, and
an amount beside any locale's currency in text no rule reads (issue 29, blindfix21b).

Three classes, each with two sets written before the rules that read them:

- ``earnings``: what a platform pays the user out ("my Deliveroo payout this week was £312.40",
  "propinas", "Auszahlung", "versement", "repasse", "进账 1.35w", "収益"), read by
  ``fee_income``'s and ``money_forms``' data; a gig's counted jobs ("312 deliveries") are counts.
  First run on main 8/23 caught (benign 1/14 changed); second set's first sight 20/23 (0/13);
- ``paid_bare``: a price paid for a thing of the user's with no currency ("paguei 4.299 no meu
  notebook"): ``money`` read it, but the own-money gate never opened on a spending verb. First
  run 4/17 (0/16); second set 16/17 (0/15);
- ``uncovered_amounts`` (held out, languages not in blind21): a number beside a currency sign,
  a tender ISO code or any locale's name of a currency ("380 dollars", "US$ 485"),
  ``detectors/uncovered_tender``. First run 17/25 (2/10 benign changed); second set 22/23
  (2/9: news prices, redacted as a sign's price already was). A currency's name counts from
  three digits (a coffee's "35 lira" stays, as on main); a sign or a code whatever the size.

Held-out rows are checked for the floor only (the gate withholds their language by design).
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact

SETS = (
    "blindfix21b_earnings.jsonl",
    "blindfix21b_earnings2.jsonl",
    "blindfix21b_paid_bare.jsonl",
    "blindfix21b_paid_bare2.jsonl",
    "blindfix21b_uncovered_amounts.jsonl",
    "blindfix21b_uncovered_amounts2.jsonl",
)
_SMALL_SUM = "two digits beside a currency's name: kept as a thing's price is, by design"
_NEWS_PRICE = "a news price in a language no rule reads: the floor cannot tell it from pay"
KNOWN = {
    "earnings-en-benign-001": "'Deliveroo' unknown to English: read as a misread covered "
    "sentence and '£10.50' counted as four digits, as on main",
    "paid_bare2-ja-money-002": "カメラ is one of money's others' words (a camera's price)",
    "uncovered_amounts-nl-money-001": "Dutch words known to the covered lists: a possible "
    "misread covered sentence, its small sums kept",
    "uncovered_amounts2-vi-money-001": "'đô la': a currency name of two words, no word of it "
    "two locales give",
    "uncovered_amounts-vi-benign-001": "'480 mét mỗi' redacted: as on main",
    "uncovered_amounts-sw-benign-002": _NEWS_PRICE,
    "uncovered_amounts-tl-benign-002": _NEWS_PRICE,
    "uncovered_amounts2-sv-benign-001": "'45 kronor': Swedish's own CLDR name, as on main",
    "uncovered_amounts2-id-money-001": _SMALL_SUM,
    "uncovered_amounts2-mg-money-001": _SMALL_SUM,
}


def _fails(case: value_sets.Case) -> bool:
    """A covered row by the gate and the floor; a held-out one by the floor alone."""
    if case["group"] == "covered":
        return value_sets.row_fails(case)
    return value_sets.uncovered_fails(case)


test_every_item_of_the_set, test_known_miss = value_sets.set_tests(SETS, KNOWN, fails=_fails)

# blind21's rows of this scope; the sums in number words of languages CLDR neither spells out
# nor names a currency in ("dritenti dala", "ʻelua haneli kālā") stay, no language-free data
# reaching them.
BLIND21 = ("b21c-en-money-001", "b21c-zh-money-001", "b21c-pt-money-004")
BLIND21_HELD = ("b21h-tet-money-001", "b21h-ln-money-001")
_NO_DATA = "number words of a language no CLDR data spells out, beside no locale's currency"
BLIND21_WORDS = (
    "b21h-srn-money-002",
    "b21h-ln-money-002",
    "b21h-tn-money-002",
    "b21h-haw-money-002",
)


def _blind21(case_id: str) -> value_sets.Case:
    rows = data_sets.rows("blind21_covered.jsonl", "blind21_heldout.jsonl")
    return next(c for c in rows if c["id"] == case_id)


@pytest.mark.parametrize("case_id", BLIND21 + BLIND21_HELD)
def test_blind21_money_now_kept_out(case_id: str) -> None:
    assert not _fails(_blind21(case_id))


@pytest.mark.parametrize(
    "case_id",
    [
        pytest.param(case, marks=pytest.mark.xfail(strict=True, reason=_NO_DATA))
        for case in BLIND21_WORDS
    ],
)
def test_blind21_sums_in_words_known(case_id: str) -> None:
    assert not _fails(_blind21(case_id))


@pytest.mark.parametrize(
    ("text", "quotable"),
    [
        ("my Uber payout this week was $412.60 after fees", False),
        ("Uber's average payout is $18 an hour, says a survey", True),  # a market's figure
        ("I did 212 deliveries this month, payout is on Friday", True),  # a count
        ("paguei 2.399 no meu celular", False),
        ("2.399 pessoas compraram o celular", True),  # a count of people
        ("o celular custa 2.399 na loja", True),  # a shop's price
        ("这个月接私单进账 1.8w", False),
        ("进账记录一共 18 笔", True),  # a count of entries
    ],
)
def test_twins_differ_by_whose_amount(text: str, quotable: bool) -> None:
    assert quote_verdict(text).quotable is quotable


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Nilimkopesha dada yangu 420 dollars mwezi uliopita", False),  # held out, a sum lent
        ("Watu 420 walikuja kwenye harusi jana", True),  # a count: no currency beside it
        ("Ninunua simu mpya aina ya Galaxy A54 wiki hii", True),  # a model's number
    ],
)
def test_held_out_amount_needs_a_currency(text: str, kept: bool) -> None:
    assert (redact(text) == text) is kept
