"""Talk about a credential's or an identifier's format, which states no value (issue 29,
blindfix18a).

blind18 withheld or flagged ten such turns: a length, a count or a modulus of a format ("min
length 8 or 15?", "¿cuántos dígitos…, 22?", "el módulo 97", "ISO 7064"), a count of
combinations ("10 000 combinaisons"), a company's service line ("le numéro de la SNCF c'est le
3635", "el teléfono de Renfe es 912 320 320"), an issuer's documented specimen ("like
AB123456C") and the verb "pin" ("pin urllib3 below 3"). ``blindfix18a_format_talk.jsonl``
(first run on main: benign 15/27 withheld or flagged, sensitive 8/9 caught) and ``…2.jsonl``
(written after the fix: first sight benign 1/19, sensitive 5/5) hold them in the seven covered
languages with twins that state a value.
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact

SETS = ("blindfix18a_format_talk.jsonl", "blindfix18a_format_talk2.jsonl")
KNOWN = {
    # A count whose unit stands in another clause ("… a million combinations, … only 10,000").
    "format_talk-en-benign-007",
}


@pytest.mark.parametrize("name", SETS)
def test_every_item_of_the_set(name: str) -> None:
    unexpected, stale = value_sets.unexpected_and_stale(data_sets.rows(name), KNOWN)
    assert (unexpected, stale) == (set(), set())


@pytest.mark.parametrize(
    ("text", "quotable"),
    [
        ("should the password max length be 64 or 128?", True),
        ("my password max length is 64 and mine is Tr0ub4dor&3x9", False),
        ("dame una función que valide un IBAN español con el módulo 97", True),
        ("write a regex for NI numbers like QQ123456C", True),
        ("my NI number is JT482913B", False),
        ("bump requests to 2.32.3 and pin urllib3 below 3", True),
        ("my card's pin is 4417, don't tell", False),
        ("le numéro de la SNCF c'est le 3635", True),
        ("le numéro de ma carte c'est le 3635", False),
        ("code of the ATM 4417", False),  # a credential word before an acronym still names one
    ],
)
def test_twins_differ_by_whether_a_value_is_stated(text: str, quotable: bool) -> None:
    assert quote_verdict(text).quotable is quotable
    if quotable:
        assert redact(text) == text
