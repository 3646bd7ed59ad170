"""Masked values with their head or middle left visible (issue 29, blind15).

``stand_ins`` blanks a mask with a visible tail ("**** **** **** 0417", "DE•• … 31"); a card
shown with its issuer's first digits ("6222 **** **** 0417", "4111 11** **** 1111"), a CPF with
its middle ("***.456.789-**", "123.***.***-45") or an id with a masked run inside
("110105********1234") was read as an identifier after its cue. The class: a run of groups
(digits, mask characters or X's, or both in one group) of which one holds two mask characters
or more, with at most ten digits visible (what a card's mask shows at most: six and four).
These spans join ``public_material``'s, blanked before any rule reads the text.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["masked_spans"]

_MASK = "•*·●○◦∙＊"
_GROUP = rf"(?:\d{{0,6}}(?:[{_MASK}]{{1,12}}|[xX]{{2,12}})\d{{0,4}}[A-Z]?|\d{{1,6}})"
_RUN = re.compile(
    rf"(?<![\w{_MASK}])(?:[A-Z]{{2}}\d{{2}} ?)?{_GROUP}(?:[ .\-/]{_GROUP}){{0,7}}(?![\w{_MASK}])"
)
_MAX_VISIBLE: Final = 10


def masked_spans(text: str) -> list[tuple[int, int]]:
    """Spans of masked values with visible digits (see the module docstring)."""
    if not any(c * 2 in text for c in _MASK) and "XX" not in text and "xx" not in text:
        return []
    out = []
    for m in _RUN.finditer(text):
        run = m.group(0)
        masks = sum(c in _MASK for c in run) + len(re.findall(r"[xX]{2,}", run)) * 2
        if masks >= 2 and 0 < sum(c.isdigit() for c in run) <= _MAX_VISIBLE:
            out.append(m.span())
    return out
