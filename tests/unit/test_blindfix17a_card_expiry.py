"""A card's expiry after its number (issue 29, blindfix17a).

blind17 stored "meine Kreditkarte (Visa) 4127 5730 0819 6640, Ablauf 09/28" with the card
redacted and its expiry kept. A month and year in the clause after a card number some rule
named goes with the card, whatever word stands between (no language named); an expiry alone
is no value. ``blindfix17a_card_expiry.jsonl`` (first run on main 4/14 caught, benign 3/10
withheld or flagged) and ``…2.jsonl`` (written after the fix, first sight 13/13, benign 0/8).
"""

from __future__ import annotations

import pytest

from tests.support import value_sets
from userlore.policy.sensitivity import redact

SETS = ("blindfix17a_card_expiry.jsonl", "blindfix17a_card_expiry2.jsonl")
KNOWN = {
    # A bill's amount ("Rechnung … über 49 € ist bezahlt"): the money rules', not this class.
    "card_expiry-de-benign-002",
}


test_every_item_of_the_set, test_known_miss = value_sets.set_tests(SETS, KNOWN)


@pytest.mark.parametrize(
    ("text", "expiry_left"),
    [
        ("meine Kreditkarte 4127 5730 0819 6640, Ablauf 09/28", False),
        ("meine Kreditkarte läuft 09/28 ab", True),  # no card: the expiry alone stays
        ("4127 5730 0819 6641, Ablauf 09/28", True),  # Luhn fails: no card
    ],
)
def test_an_expiry_goes_with_its_card(text: str, expiry_left: bool) -> None:
    assert ("09/28" in redact(text)) is expiry_left
