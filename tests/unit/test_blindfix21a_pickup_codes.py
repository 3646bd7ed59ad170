"""A locker's or a printer's code and a PIN's quoted reading are secrets (issue 29, blindfix21a).

blind21 stored "快递柜取件码是 38 0715" (and quoted it into a plan), "… a 'secure print' release
number before it prints, mine is 90417" and the reading of "暗証番号は「いちごいちえ」で覚えてる、
つまり1515". The classes: a device's pickup or release code (取件码, 释放码, code de retrait,
secure print: credential cues in ``data/quote_cues.yaml``; "mine is", "el mío es", "我的是"
after a comma restate the cue's value, ``data/cue_restatements.yaml``), and a code's quoted
reading between its cue and the digits it stands for (``detectors/told_codes``).
``blindfix21a_pickup_codes.jsonl`` was written before the rules (main: pickup codes 14/18,
readings 2/5 caught, benign 1/15 withheld); ``…pickup_codes2.jsonl`` is the second set (first
sight on this branch: 12/12 caught, 0/8 benign withheld).
"""

from __future__ import annotations

import pytest

from tests.support import value_sets
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact

SETS = ("blindfix21a_pickup_codes.jsonl", "blindfix21a_pickup_codes2.jsonl")
KNOWN = {
    # "compte" is the gate's account cue; "48 casiers" a count its units do not list (as on main).
    "pickup_codes-fr-benign-002": "a shopping centre's lockers counted after 'compte'",
}

test_every_code_is_withheld, test_known_miss = value_sets.set_tests(SETS, KNOWN)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("快递柜取件码是 38 0715，帮我记一下，晚上下班去拿", "38 0715"),
        ("the printer wants a 'secure print' release number, mine is 90417", "90417"),
        ("ゆうちょの暗証番号は「いちごいちえ」で覚えてる、つまり1515ね", "いちごいちえ"),
    ],
)
def test_blind21_codes_are_redacted(text: str, value: str) -> None:
    assert value not in redact(text)
    assert not quote_verdict(text).quotable


@pytest.mark.parametrize(
    ("text", "changed"),
    [
        ("丰巢柜的取件码 5521 08", True),
        ("丰巢快递单号 SF1402938475612 查不到", False),  # a parcel's tracking number
        ("my print release PIN is 7731", True),
        ("the printer model is HP LaserJet M404dn", False),
        ("暗証番号は「いいふろ」で覚えた、1126だよ", True),
        ("語呂合わせで「いいふろ」は11月26日、いい風呂の日", False),  # a mnemonic for a date
    ],
)
def test_twins_differ_by_what_the_number_opens(text: str, changed: bool) -> None:
    assert (redact(text) != text) is changed
