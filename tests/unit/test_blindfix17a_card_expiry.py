"""A card's expiry after its number (issue 29, blindfix17a).

blind17 stored "meine Kreditkarte (Visa) 4127 5730 0819 6640, Ablauf 09/28" with the card
redacted and its expiry kept. A month and year in the clause after a card number some rule
named goes with the card, whatever word stands between (no language named); an expiry alone
is no value. ``blindfix17a_card_expiry.jsonl`` (first run on main 4/14 caught, benign 3/10
withheld or flagged) and ``…2.jsonl`` (written after the fix, first sight 13/13, benign 0/8).
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.sensitivity import redact

SETS = ("blindfix17a_card_expiry.jsonl", "blindfix17a_card_expiry2.jsonl")
KNOWN = {
    # A bill's amount ("Rechnung … über 49 € ist bezahlt"): the money rules', not this class.
    "card_expiry-de-benign-002",
}


@pytest.mark.parametrize("name", SETS)
def test_every_item_of_the_set(name: str) -> None:
    unexpected, stale = value_sets.unexpected_and_stale(data_sets.rows(name), KNOWN)
    assert (unexpected, stale) == (set(), set())


@pytest.mark.xfail(strict=True, reason="a known miss (KNOWN): passing is news")
@pytest.mark.parametrize("case_id", sorted(KNOWN))
def test_known_miss(case_id: str) -> None:
    cases = [c for c in data_sets.rows(*SETS) if c["id"] == case_id]
    assert value_sets.failures(cases) == []


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
