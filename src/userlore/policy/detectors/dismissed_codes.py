"""A code told, and another of its shape dismissed in a neighbouring sentence (issue 29).

"Garage keypad is 3917 now. From now on never remind me of 6402.": the floor reads 3917 by its
cue; 6402 has none in its own sentence, yet it is the old code, and an old code is still a
value (a user reuses codes, and a statement drawn from that sentence would store it).
``code_clauses`` reads a further clause or a next sentence that *opens* with a correction or
new/old word; this reads the sentence before and the two after a told code when they hold a
dismissing word anywhere (``data/dismissed_codes.yaml``: old, former, forget, never, no longer…
in the seven languages) and takes their values of the same shape as the code (digit for digit,
separators alike). Not a time, a date, a count, an amount or a year after a time word
(``code_clauses``' reading), nor a number named by a word before it (an order, a room, a train).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.cue_data import alternation, cues
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.code_clauses import clause_values, sentence_spans, time_words
from userlore.policy.detectors.common import _Hit
from userlore.policy.findings import _SECRET

__all__ = ["dismissed_codes"]

RULE: Final = "dismissed_code"
_CODE = re.compile(r"\d(?:[ \-./]?\d){2,11}")
_REACH: Final = 160
_GAP = re.compile(r"[\s#:：.\-–№°]*$")
_SUFFIX: Final = frozenset("号室番階年月日時分円元人个件次位")


@functools.cache
def _data() -> tuple[re.Pattern[str], re.Pattern[str]]:
    raw = data_yaml("dismissed_codes.yaml")

    def words(section: str) -> list[str]:
        return sorted({str(w).casefold() for ws in raw[section].values() for w in ws})

    markers = re.compile(alternation(words("markers")))
    references = re.compile(rf"(?:{alternation(words('references'))}){_GAP.pattern}")
    return markers, references


def _shape(value: str) -> str:
    return re.sub(r"\d", "9", value)


def dismissed_codes(t: str, lowered: str, hits: list[_Hit]) -> Iterator[_Hit]:
    """Values of a told code's shape in a neighbouring sentence that dismisses a code."""
    told = [
        (h[2], h[3])
        for h in hits
        if h[0] is _SECRET and _CODE.fullmatch(t[h[2] : h[3]]) is not None
    ]
    if not told:
        return
    markers, references = _data()
    counts = cues().counts
    bounds = sentence_spans(t)
    for start, end in told:
        shape = _shape(t[start:end])
        at = next(i for i, (_, hi) in enumerate(bounds) if hi > start)
        for lo, hi in bounds[max(0, at - 1) : at + 3]:
            if (lo, hi) == bounds[at] or lo > end + _REACH or hi < start - _REACH:
                continue
            if markers.search(lowered, lo, hi) is None:
                continue
            for v_lo, v_hi in clause_values(t, lowered, lo, hi, counts, time_words()):
                if _shape(t[v_lo:v_hi]) != shape or t[v_hi : v_hi + 1] in _SUFFIX:
                    continue
                if references.search(lowered, max(lo, v_lo - 16), v_lo) is not None:
                    continue
                yield (_SECRET, RULE, v_lo, v_hi, None)
