"""Codes told without the usual shape (issue 29, blindfix18a).

blind18 stored or quoted four: a password drawn as a conclusion after the clause that says how
it was made ("vault pass is the name of our first dog plus the street number, so Biscuit42!"),
a hex token after its cue and a long owner phrase ending in a colon ("token de la API de Holded
para el script de facturas: 8b2e…"), a hotel safe's digits set one by one further on in the
sentence ("ich hab 2-5-8-0 eingestellt") and a padlock's three digits in words ("o código do
cadeado … é três, sete, zero"). ``blindfix18a_told_code.jsonl`` (first run on main: sensitive
15/25 caught, benign 1/10 withheld) and ``…2.jsonl`` (written after the fix: first sight
sensitive 12/16, benign 0/8) hold them in the seven covered languages with benign twins (a
safe's manual, its price and weight, a weak password talked about).
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact

SETS = ("blindfix18a_told_code.jsonl", "blindfix18a_told_code2.jsonl")
KNOWN = {
    # A capitalised word with only "!!" after it reads as prose ("Wow!!"), not a password.
    "told_code-en-secret-002",
    # Three digits in words with no "code" or "combination" word: a lock's price or size too.
    "told_code2-de-secret-001",
    "told_code2-pt-secret-001",
}


@pytest.mark.parametrize("name", SETS)
def test_every_item_of_the_set(name: str) -> None:
    unexpected, stale = value_sets.unexpected_and_stale(data_sets.rows(name), KNOWN)
    assert (unexpected, stale) == (set(), set())


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("my vault pass is the dog's name plus the year, so Rex2019!", False),
        ("the login page is slow, they said a fix is due in v2, so React18 upgrade first", True),
        ("Der Tresor lässt sich nicht öffnen, ich hab 2-5-8-0 eingestellt.", False),
        ("Der Tresor wiegt 18 kg, passt der in den Schrank?", True),
        ("o código do cadeado da mala é 370", False),
        ("o cadeado da mala custou 370 reais", True),
    ],
)
def test_twins_differ_by_whether_a_code_is_told(text: str, kept: bool) -> None:
    """The floor keeps the twin that tells no code; the gate withholds the one that does."""
    assert (redact(text) == text) is kept
    if not kept:
        assert not quote_verdict(text).quotable
