"""blind22's identifiers and money: an identifier named by its own word whatever its check
digit, a value corrected in the same turn, a national id printed with its country's code in
a language no rule reads, an account's balance with its owner left out, and a parcel's number
a carrier names (issue 29, blindfix22b).

Five classes, each with two sets written before the rules that read them (first run on the
unmodified branch, then the second set at first sight on the fixed one; sensitive caught,
benign changed):

- ``named_ids``: "revenue.ie keeps rejecting 8264197TA as my PPS", "TFN again ugh. 459 781
  326." The registry takes a run that fails only the check digits of the module its own
  abbreviation or name names, before it or after it in its sentence; the contextual cues take
  a failing check digit beside their word. 18/25 (2/15) -> 25/25 (0/15); second 21/23 (3/15).
- ``corrections``: "3010 1234 5678 じゃなくて、3010 2948 1736": ``detectors/corrected_values``
  gives the corrected run the finding of the value it replaces. 14/18 (0/8) -> 18/18 (0/8);
  second 14/15 (1/8).
- ``prefixed_ids`` (held out): "GHA-723918406-3" by its shape and an ISO alpha-3 code from
  CLDR, no word of the language. 4/10 (0/6) -> 10/10 (0/6); second 5/6 (2/4).
- ``implied_balance``: "cc is sitting at $6,240.17": an account's word and a state's
  (``money_forms.yaml``' ``account_state``). 20/24 (8/15) -> 24/24 (1/15); second 17/17 (3/9).
- ``parcel_numbers``: "le numéro 1Z999AA10123456784 c'est un suivi UPS ou DHL ?": a carrier
  word after the run, or farther before it, in its sentence. 4/4 (2/18) -> 4/4 (0/18); second
  2/2 (1/14).

Held-out rows are checked for the floor only (the gate withholds their language by design).
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact

SETS = tuple(
    f"blindfix22b_{name}{n}.jsonl"
    for name in ("named_ids", "corrections", "prefixed_ids", "implied_balance", "parcel_numbers")
    for n in ("", "2")
)
_UNCOVERED_SUM = (
    "a number beside a currency or a count in a language no rule reads: redacted as on main"
)
KNOWN = {
    "named_ids2-de-regulated-003": "two digits repeated break the Steuer-ID's own format: only a "
    "failing check digit is taken beside the word, so a phone number beside 'PPS' stays",
    "named_ids2-fr-benign-001": "'1 ou 2' after 'numéro de sécu': single digits beside an "
    "identifier's word, withheld by the gate as on main",
    "named_ids2-ja-benign-001": "'10 年ごと' beside マイナンバー: a count the gate reads as "
    "a value",
    "corrections2-de-benign-001": "'Gleis 7, nein, Gleis 9' is read as Nynorsk (quote_language)",
    "corrections2-ja-secret-001": "a safe's dial numbers after 金庫の番号: the floor finds the "
    "first value nowhere, so there is nothing to correct",
    "implied_balance2-en-benign-002": "'average US student loan balance': the average is two "
    "words before the balance's noun, farther than financial's statistic test reads",
    "prefixed_ids2-ha-benign-001": _UNCOVERED_SUM,
    "prefixed_ids2-yo-benign-001": _UNCOVERED_SUM,
}


def _fails(case: value_sets.Case) -> bool:
    """A covered row by the gate and the floor; a held-out one by the floor alone."""
    if case["group"] == "covered":
        return value_sets.row_fails(case)
    return value_sets.uncovered_fails(case)


test_every_item_of_the_set, test_known_miss = value_sets.set_tests(SETS, KNOWN, fails=_fails)

BLIND22 = (
    "b22c-en-regulated-003",
    "b22c-en-regulated-004",
    "b22c-ja-regulated-001",
    "b22c-en-money-002",
    "b22c-fr-benign-004",
    "b22h-ee-regulated-01",
)


@pytest.mark.parametrize("case_id", BLIND22)
def test_blind22_rows_now_right(case_id: str) -> None:
    rows = data_sets.rows("blind22_covered.jsonl", "blind22_heldout.jsonl")
    assert not _fails(next(c for c in rows if c["id"] == case_id))


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("my PPS is 8264197TA", False),  # fails the check: still the user's PPS
        ("the PPS office is open till 17:00", True),  # no run
        ("TFN? 387 204 915", False),
        ("PIN 4471, no wait, 7441", False),
        ("room 204, no wait, 240", True),  # nothing redacted to correct
        ("Nye kaad GHA-723918406-3", False),
        ("flight KQ 101 at 10:30", True),
        ("cc is at $4,312.88", False),
        ("the average credit card balance is $6,000", True),
        ("DHL 3482910577 is late", True),
    ],
)
def test_twins(text: str, kept: bool) -> None:
    assert (redact(text) == text) is kept


def test_a_correction_is_quoted_only_when_it_holds_no_value() -> None:
    assert quote_verdict("会議は 3 時じゃなくて 4 時でした").quotable
    assert not quote_verdict("暗証番号は 4826 じゃなくて 4862 でした").quotable
