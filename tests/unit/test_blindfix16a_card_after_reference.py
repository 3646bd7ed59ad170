"""A card after an order, booking or tracking word (issue 29, blindfix16a).

blind16 stored "card got declined on the flight booking: 4485 6070 4645 7105": the card rule
dismissed any number after a reference word ("booking", "order", "注文", "pedido") as the
reference itself. A number printed as a card is printed (Luhn-valid, a card's IIN and length,
4-4-4-4, 4-6-5, 4-6-4 or 4-4-4-4-3) is a card whatever word stands before it; order and
tracking numbers are not grouped so. ``blindfix16a_card_after_reference.jsonl`` (first run on
main 3/25 caught, benign 1/12 flagged) and ``…2.jsonl`` (written after the fix, first sight
19/20 caught, benign 0/11) hold cards after reference words in the seven covered languages and
reference numbers beside them (Luhn-invalid twins, Amazon and DHL numbers, ISBNs, phones).
"""

from __future__ import annotations

import pytest

from tests.support import value_sets
from userlore.policy.sensitivity import redact

SETS = ("blindfix16a_card_after_reference.jsonl", "blindfix16a_card_after_reference2.jsonl")
KNOWN = {
    # Sixteen digits in one run after "confirmation": not printed as a card, and an order or
    # confirmation number may be written so; the reference word still dismisses it.
    "card_after_reference2-en-regulated-005",
}


test_every_item_of_the_set, test_known_miss = value_sets.set_tests(SETS, KNOWN)


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        ("card got declined on the flight booking: 4485 6070 4645 7105, why?", True),
        ("my flight booking: 4485 6070 4645 7106, when is check-in?", False),  # Luhn-invalid
        ("order 302-4819265-1183920 shipped", False),  # an order number's own grouping
        ("注文: 4171-5921-5634-5903 で払った", True),
        ("注文番号 4171-5921-5634-5904 の件", False),
    ],
)
def test_twins_differ_by_what_the_number_is(text: str, redacted: bool) -> None:
    assert (redact(text) != text) is redacted
