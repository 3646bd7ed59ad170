"""A short code in a request to write fiction is the story's, not the user's (issue 29,
blindfix19a).

blind19 withheld and redacted "write a short story where the detective cracks a safe with the
code 3-7-1-9" and its French and Portuguese kin: the credential rules read a code after its cue.
``detectors/fiction_codes`` (requests as data per language in ``data/fiction_requests.yaml``)
lets such a code stand only when the request opens the turn (closes it, in Japanese), no
first-person word follows it and every digit run is short. ``blindfix19a_fiction.jsonl`` (first
run on main: benign 22/22 withheld or flagged, secret 10/14 caught) and ``…fiction2.jsonl``
(written after the fix: first sight benign 4/16, secret 14/14) hold the class in the seven
covered languages with twins that put the user's own code in the request.
"""

from __future__ import annotations

import pytest

from tests.support import value_sets
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact

SETS = ("blindfix19a_fiction.jsonl", "blindfix19a_fiction2.jsonl")
KNOWN: set[str] = set()


test_every_item_of_the_set, test_known_miss = value_sets.set_tests(SETS, KNOWN)


@pytest.mark.parametrize(
    ("text", "quotable"),
    [
        ("write a story where the thief tries the PIN 4412", True),
        ("write a story where the thief tries my PIN 4412", False),  # whose: the user's
        ("write a poem where the spy reads the card 4539 1488 0343 6467", False),  # a long run
        ("the thief tries the PIN 4412, write that down", False),  # no request opens the turn
        ("escreve um conto onde o ladrão tenta a senha 1234", True),
        ("escreve um conto onde o ladrão tenta a minha senha 1234", False),
        ("泥棒が暗証番号 3719 を試す物語を書いて", True),
        ("泥棒が私の暗証番号 3719 を試す物語を書いて", False),
    ],
)
def test_twins_differ_by_whose_code(text: str, quotable: bool) -> None:
    assert quote_verdict(text).quotable is quotable
    if quotable:
        assert redact(text) == text
