"""An order code in a covered sentence is no unknown language (issue 29, blindfix20c).

blind20 withheld "el pedido 2604-ES-99123 de Zara no ha llegado, redáctame la reclamación" as a
language no vocabulary covers: a Latin segment read as Spanish that holds a value is quoted only
when every word is one of Spanish's (the check for a close relative read as covered), and the
list holds "redacta" but not "redáctame". ``policy/known_words.ENCLITICS`` reads a verb with its
object pronouns written on it by its stem. ``blindfix20c_order_codes.jsonl`` (written first,
0/28 withheld on main: it held no such verb, so it missed the class), ``…order_codes2.jsonl``
(main 4/18, this branch 0/18) and ``…order_codes3.jsonl`` (first sight 2/8) hold order,
parcel, ticket and invoice codes beside requests in the seven covered languages.
"""

from __future__ import annotations

import pytest

from tests.support import special_sets, value_sets
from userlore.policy.known_words import read_by_its_words
from userlore.policy.quote_gate import quote_verdict

SETS = (
    "blindfix20c_order_codes.jsonl",
    "blindfix20c_order_codes2.jsonl",
    "blindfix20c_order_codes3.jsonl",
)
KNOWN = {
    "order_codes3-es-benign-001": "'recláma' is misspelt: no word of the list, stem or not",
    "order_codes3-es-benign-003": "the identifier reads this short line as Galician",
}


test_every_order_code_is_quoted, test_known_miss = value_sets.set_tests(
    SETS, KNOWN, fails=special_sets.family_row_fails
)


def test_blind20_order_is_quoted() -> None:
    text = "el pedido 2604-ES-99123 de Zara no ha llegado, redáctame la reclamación"
    assert quote_verdict(text).quotable


@pytest.mark.parametrize(
    ("text", "language", "known"),
    [
        ("redáctame la reclamación", "es", True),
        ("escríbemelo mañana", "es", True),  # two pronouns
        ("ayudarle con el pedido", "es", True),
        ("redáctame la reclamación", "pt", False),  # Portuguese hyphenates its pronouns
        ("xyzame la reclamación", "es", False),  # no stem of the list
    ],
)
def test_a_verb_with_its_pronouns_is_a_word(text: str, language: str, known: bool) -> None:
    assert read_by_its_words(text, language) is known
