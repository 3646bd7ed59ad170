"""An uncovered language read as a covered one (issue 29, gate4): the gate vouches for a
covered language only when the identifier is sure of it or the segment's words are known to it.

"parola de la email este Vulpe_Rosie9" is Romanian; py3langid ranks Spanish first (0.42) with
Romanian close behind (0.16), and the Spanish rules found no password word, so it was quoted.
Now an unsure covered verdict with a word its language does not know reads as the uncovered
language behind it, and is withheld by language. No Romanian word is written anywhere: the
held-out sets (``tests/data/gate4_misread*.jsonl``, 30 Latin-script languages outside the
seven) stand for every language nobody wrote rules for.
"""

from __future__ import annotations

import pytest

from tests.support import data_sets
from userlore.policy.known_words import READ_AS_COVERED
from userlore.policy.language import identify, segments
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact

HELD_OUT = [
    c
    for name in ("gate4_misread.jsonl", "gate4_misread2.jsonl")
    for c in data_sets.rows(name)
    if c["lang"] not in READ_AS_COVERED  # Galician is read as Portuguese: a documented risk
]


def test_the_romanian_password_is_withheld_and_redacted() -> None:
    text = "parola de la email este Vulpe_Rosie9"
    assert [s.language for s in segments(text)] == ["ro"]
    assert not quote_verdict(text).quotable
    assert "Vulpe_Rosie9" not in redact(text)


@pytest.mark.parametrize("case", HELD_OUT, ids=lambda c: str(c["id"]))
def test_no_held_out_item_is_quoted(case: dict[str, object]) -> None:
    assert not quote_verdict(str(case["text"])).quotable


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("comprei 3 quilos de laranja", "pt"),  # Portuguese read as Spanish: a covered tie
        ("Sorry, I misspoke - I use Emacs, not Vim.", "en"),  # a rare word, no foreign rival
        ("tengo ahorrados 15.400 euros", "es"),  # Basque close behind, every word Spanish
        ("User takes sertraline daily", "en"),
    ],
)
def test_a_covered_segment_stays_covered(text: str, language: str) -> None:
    assert [s.language for s in segments(text) if s.language] == [language]


def test_the_floors_whole_turn_guard_reads_the_identifier_unvouched() -> None:
    # The floor asks whether a whole turn is a covered message quoting foreign names (their
    # words unknown by design): it reads the identifier's plain verdict.
    text = "parola de la email este Vulpe_Rosie9"
    assert identify(text) == "ro"
    assert identify(text, vouch=False) == "es"
