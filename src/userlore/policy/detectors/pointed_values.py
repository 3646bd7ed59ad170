"""A value written before its cue and pointed back at (issue 29, blindfix22a).

blind22 stored "X9kq2PzR7mTe4Lb8 <- esa es la clave del wifi …" and "ｋ７ｍ４ｘｐ２ｗ９ｒｔｅ２
←バッファローのルーターの暗号化キー": every credential rule reads a value after its cue. Here the
value comes first: a credential-shaped token (letters with digits, a symbol or a case change;
:func:`.uncovered.credential_shaped`, full-width forms folded before any rule reads a text), then
an arrow or a word that points back at it (``data/pointed_values.yaml``: "<-", "that's",
"esa es", "c'est", "das ist", "これが", "这是"), then a credential cue of ``quote_cues.yaml``
(the floor's and the gate's one reading, ``Cues.credential_cues``) within a few words. Not a
model name or a count pointed at a password word ("WPA3 ← the encryption", "8 characters <-
the minimum password length"): those are no credential shape.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.cue_data import alternation, cues, flat
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit, _is_placeholder
from userlore.policy.detectors.uncovered import credential_shaped
from userlore.policy.findings import _SECRET

__all__ = ["pointed_values"]

_FILE: Final = "pointed_values.yaml"
_CUE_REACH: Final = 36
_CUE_WORDS: Final = 4


@functools.cache
def _pointer() -> re.Pattern[str]:
    raw = data_yaml(_FILE)
    arrows = "|".join(re.escape(a) for a in sorted(raw["arrows"], key=len, reverse=True))
    words = alternation(flat(raw["pointers"]))
    return re.compile(rf"\s*(?:(?:{arrows})\s*(?:{words})?|(?:{words}))", re.IGNORECASE)


def pointed_values(t: str, lowered: str) -> Iterator[_Hit]:
    """A credential-shaped token an arrow or a pointing word ties to the cue after it."""
    if len(lowered) != len(t):
        return
    found = cues().credential_cues(lowered)
    if not found:
        return
    for cue in found:
        lo = max(0, cue.start() - _CUE_REACH - 80)
        for m in _VALUE_BEFORE.finditer(t, lo, cue.start()):
            value = m.group(1).rstrip(_TRAILING).strip("\"'")
            end = m.start(1) + len(value)
            if not _pointing(t, lowered, end, cue.start()):
                continue
            if credential_shaped(value) and not _is_placeholder(value):
                yield (_SECRET, "pointed_value", m.start(1), m.start(1) + len(value), None)


# Candidate values: a run of six printable ASCII characters or more (full-width forms are
# folded before the rules read a text) that opens a line, the text or a clause.
_VALUE_BEFORE = re.compile(
    r"(?:^|(?<=[\n(\[«\"'“「『])|(?<=[.!?。！？]\s)|(?<=\s))[«\"'“「『]?([!-~]{6,64})"
)
_TRAILING: Final = ".,;:=<>-"


def _pointing(t: str, lowered: str, start: int, cue_start: int) -> bool:
    """Between the value's end and the cue: a pointer, then at most a few words."""
    p = _pointer().match(lowered, start)
    if p is None or p.end() == start or not p.group(0).strip():
        return False
    gap = t[p.end() : cue_start]
    if len(gap) > _CUE_REACH or any(ch in gap for ch in ".!?。！？\n"):
        return False
    return len(gap.split()) <= _CUE_WORDS
