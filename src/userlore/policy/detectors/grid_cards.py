"""The cells of a bank's coordinate card and their codes (issue 29, blind17).

blind17 stored "las coordenadas de mi tarjeta de coordenadas del banco: B4 = 7731, C2 = 0918":
the cued rule redacted the first code after the card's word and no rule read the second. A
coordinate (grid, matrix, TAN) card holds a code in each cell, and a bank asks for a few at a
time; every cell written with its code ("B4 = 7731", "C3 es 4409", "A-3 は 58", "Position B7:
330912") in a text that names such a card (``data/grid_cards.yaml``) is the user's secret. A
cell with no card named ("B2 = A1 + C1" in a sheet, "A3 = 297 x 420 mm") stays.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.detectors.common import _Hit
from userlore.policy.detectors.cue_sections import sections
from userlore.policy.findings import _SECRET

__all__ = ["grid_cards"]

_FILE: Final = "grid_cards.yaml"
# A cell (a capital letter, an optional dash, one or two digits), a sign or a copula, then its
# code of two to eight digits; a kana or CJK character may touch either end.
_CELL = re.compile(
    r"(?<![A-Za-z0-9])[A-Z]-?\d{1,2}\s?(?:[=:：]|\s(?:is|es|é|ist|est|是|は)\s|は|是)\s?"
    r"(?P<code>\d{2,8})(?![\d.,]\d|[A-Za-z0-9])"
)


def grid_cards(t: str, lowered: str) -> Iterator[_Hit]:
    """Every cell's code in a text that names a coordinate card."""
    if not sections(_FILE, ("card_words",))["card_words"].find(lowered):
        return
    for m in _CELL.finditer(t):
        yield (_SECRET, "grid_card_code", m.start("code"), m.end("code"), None)
