"""A bank's coordinate card: its cells and their codes (issue 29, blindfix17a).

blind17 stored the second code of "tarjeta de coordenadas del banco: B4 = 7731, C2 = 0918": the
cued rule took the first value after the card's word, no rule read a cell. Where a text names
a coordinate, grid, matrix or TAN card (``policy/data/grid_cards.yaml``), every cell written
with its code is the user's secret; cells of a sheet, a paper size or a game stay.
``blindfix17a_grid_card.jsonl`` (first run on main 3/18 caught, benign 0/12) and ``…2.jsonl``
(written after the fix, first sight 14/14, benign 1/8).
"""

from __future__ import annotations

import pytest

from tests.support import value_sets
from userlore.policy.sensitivity import redact

SETS = ("blindfix17a_grid_card.jsonl", "blindfix17a_grid_card2.jsonl")
KNOWN = {
    # The gate reads "en 2019" beside "codes" as a value: a year after a preposition, as on main.
    "grid_card2-fr-benign-001",
}


test_every_item_of_the_set, test_known_miss = value_sets.set_tests(SETS, KNOWN)


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        ("tarjeta de coordenadas: B4 = 7731, C2 = 0918", True),
        ("en el Excel la celda B4 = 7731, C2 = 0918", False),  # a sheet's cells, no card
        ("乱数表のB2=4413", True),
        ("座席は B2 と C5", False),
    ],
)
def test_twins_differ_by_the_card(text: str, redacted: bool) -> None:
    assert (redact(text) != text) is redacted
