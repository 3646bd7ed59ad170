"""Credential-shaped tokens and bank accounts in text no rule reads (issue 29, blindfix21a).

blind21 stored "… huaʻōlelo huna … ʻo Pueo_Mauna84" (the ʻokina, a Common modifier letter,
cut the sentence into runs and the token's piece was read as French: ``scripts._script`` now
lets such letters join the run) and "bankbuku fu Hakrinbank 2371480915" (a creole read as a
covered sentence misread keeps all but unmistakable values: an unbroken run of nine to
eighteen digits after a bank's stem, ``data/uncovered_cues.yaml``, is one). Codes said as
number words of a language CLDR's spell-out rules do not cover (Hawaiian, Tswana, Māori,
Samoan, Yoruba, Tongan) are not read: no rule names a held-out language's words, and Unicode
gives none (``unicode-rbnf`` has 87 locales, none of these). ``blindfix21a_heldout_tokens.jsonl``
was written before the rules (main: tokens 6/7, accounts 5/6, number words 1/6); the second
set's first sight on this branch: 4/5 secrets, 3/3 accounts.
"""

from __future__ import annotations

import pytest

from tests.support import value_sets
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact

SETS = ("blindfix21a_heldout_tokens.jsonl", "blindfix21a_heldout_tokens2.jsonl")
_NO_CLDR = "number words of a language CLDR does not spell out"
KNOWN = {
    "number_words-yo-secret-001": _NO_CLDR,
    "number_words-mi-secret-001": _NO_CLDR,
    "number_words-sm-secret-001": _NO_CLDR,
    "number_words-haw-secret-001": _NO_CLDR,
    "number_words-tn-secret-001": _NO_CLDR,
    "number_words2-to-secret-001": _NO_CLDR,
    "bank_account-ht-benign-001": "a bank's phone line in four-digit groups: redacted, fail closed",
}

test_every_value_is_redacted, test_known_miss = value_sets.set_tests(
    SETS, KNOWN, fails=value_sets.uncovered_fails
)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (
            "ʻO ka huaʻōlelo huna o koʻu leka uila ʻo Pueo_Mauna84, mai haʻi aku i kekahi",
            "Pueo_Mauna84",
        ),
        ("Seni a moni na mi bankbuku fu Hakrinbank 2371480915, grantangi", "2371480915"),
    ],
)
def test_blind21_values_are_redacted(text: str, value: str) -> None:
    assert value not in redact(text)
    assert not quote_verdict(text).quotable


@pytest.mark.parametrize(
    ("text", "changed"),
    [
        ("Poti a moni na mi bankbuku fu DSB 3904417256, tangi", True),
        ("Benki ya CRDB ilianzishwa mwaka 1996 na ina matawi 260", False),  # a year, a count
        ("ʻO koʻu ʻōlelo huna ʻo Manō_Kai77", True),
        ("Ko e hingoa ʻo e faile ko e lipooti_foʻou", False),  # a file's name, no digit
    ],
)
def test_twins_differ_by_shape(text: str, changed: bool) -> None:
    assert (redact(text) != text) is changed
