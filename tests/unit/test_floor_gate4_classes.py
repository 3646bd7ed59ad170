"""The value classes the gate and floor still missed (issue 29, gate4), in the seven languages.

- Codes named by what they open, with no PIN or code word ("the padlock opens with 4-1-8-2",
  "门禁是五三八一"): ``detectors/lock_codes.py``.
- The user's own money without a money word: net pay, pension and savings products,
  repayments, and debts owed to a relative (the creditor being someone else does not make it
  someone else's money): ``detectors/money.py``.
- National identifiers by their format beside their own words: Japanese driving licence, RG,
  CNH, Spanish NSS, CURP: ``detectors/national_ids.py``.

The sets under ``tests/data/gate4_*.jsonl`` were written before the rules (first run) and after
them (``*2``, first sight); ``docs/benchmarks.md`` has both rates. Here every item of them must
hold: a sensitive one withheld by the gate with every value gone from the floor's redaction, a
benign near-miss (a lock's price, a room number, someone else's salary, a count) quotable and
unflagged.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.support import data_sets
from userlore.extract.time import question_window
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import classify, redact

SETS = [
    "gate4_codes.jsonl",
    "gate4_codes2.jsonl",
    "gate4_money.jsonl",
    "gate4_money2.jsonl",
    "gate4_ids.jsonl",
    "gate4_ids2.jsonl",
]


CASES = data_sets.rows(*SETS)


@pytest.mark.parametrize(
    "case", [c for c in CASES if c["class"] != "benign"], ids=lambda c: str(c["id"])
)
def test_a_value_is_withheld_and_redacted(case: dict[str, object]) -> None:
    text = str(case["text"])
    assert not quote_verdict(text).quotable
    redacted = redact(text)
    for value in case["values"]:  # type: ignore[attr-defined]
        assert value not in redacted


@pytest.mark.parametrize(
    "case", [c for c in CASES if c["class"] == "benign"], ids=lambda c: str(c["id"])
)
def test_a_near_miss_is_quotable_and_unflagged(case: dict[str, object]) -> None:
    text = str(case["text"])
    assert quote_verdict(text).quotable
    assert not classify(text).is_blocked


@pytest.mark.parametrize(
    "text",
    [
        "The safe is in room 1204 on the twelfth floor.",
        "Das Schloss Neuschwanstein hat 1869 angefangen.",
        "My phone is 0612 345 678 if you need me.",
        "The gate opens at 7:30 every morning.",
        "保险箱在1203房间。",
        "金庫は1208号室にあります。",
        "The safe weighs about 1200 pounds.",
    ],
)
def test_where_a_lock_is_or_what_it_weighs_is_no_code(text: str) -> None:
    assert not any(f.rule == "lock_code" for f in classify(text).findings)


@pytest.mark.parametrize(
    "text",
    [
        "debo casi 6.000 € a mi hermano",
        "I borrowed 5,000 from my dad and haven't paid it back",
        "je dois encore 4 000 € à mon père",
        "兄に50万円借りてる",
    ],
)
def test_a_debt_to_a_relative_is_the_users_money(text: str) -> None:
    assert any(f.rule == "financial_figure" for f in classify(text).findings)


@pytest.mark.parametrize(
    "text",
    ["My brother earns 6,000 a month.", "Ma tante gagne 2 500 € par mois.", "我哥工资一万二。"],
)
def test_a_relatives_own_money_is_theirs(text: str) -> None:
    assert not any(f.rule == "financial_figure" for f in classify(text).findings)


def test_a_lock_code_is_no_time_window() -> None:
    # A code the floor flagged never becomes a trace's time window (issue 29 item 5).
    now = datetime(2026, 12, 3, tzinfo=UTC)
    assert question_window("the safe opens with 2019, what did I do in 2019?", now) is None
