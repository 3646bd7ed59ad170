"""Values blind18 stored in held-out text, read by shape and data (issue 29, blindfix18a).

A PIN said in tone-marked romanised syllables after a Han credential word ("提款卡个密碼係 sâm
kiú yit pat", ``detectors/romanised_codes``), a bank account's branch part before the account
the floor named ("局號 0311247 帳號 0582963", ``detectors/account_parts``) and Scotland's CHI
number after its acronym in Gaelic (``data/id_aliases.yaml``: the NHS number's check). No rule
names a held-out language. ``blindfix18a_held_parts.jsonl`` was written after the rules and
scored on main's rules first: held-out secret 0/6 caught, regulated 3/6; covered secret 0/2,
regulated 4/4. Held-out rows are withheld from quoting by design; their benign rows' numbers
are redacted by design too (``detectors/uncovered``), so only covered benign rows must be kept.
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.sensitivity import redact

CASES = data_sets.rows("blindfix18a_held_parts.jsonl")
KNOWN = {
    # The code said twice, the second time after a correction far from its word.
    "held_parts-nan-secret-001",
}


def test_every_sensitive_row_is_redacted_and_withheld() -> None:
    sensitive = [c for c in CASES if c["class"] != "benign"]
    unexpected, stale = value_sets.unexpected_and_stale(sensitive, KNOWN)
    assert (unexpected, stale) == (set(), set())


def test_covered_near_misses_are_kept() -> None:
    benign = [c for c in CASES if c["class"] == "benign" and c["group"] == "covered"]
    assert value_sets.failures(benign) == []


@pytest.mark.parametrize(
    ("text", "part", "kept"),
    [
        ("提款卡个密碼係 sâm kiú yit pat", "sâm kiú", False),
        ("我忘了密码 so sad lol haha", "so sad", True),  # no tone mark: no code's syllables
        ("局號 0311247 帳號 0582963", "0311247", False),
        ("paid 12 May from account number 0582963", "12 May", True),  # words between: no part
    ],
)
def test_twins_differ_by_shape(text: str, part: str, kept: bool) -> None:
    assert (part in redact(text)) is kept
