"""A value corrected in the same turn takes the finding of the value it replaces.

"免許証番号は 3010 1234 5678 じゃなくて、3010 2948 1736 でした（訂正）" (blind22, issue 29): the
licence word stands before the first number, so the floor redacted it and kept the corrected
one, the user's real number. "my PIN is 4471, no wait, it's 7441", "mi DNI es 48392017K, perdón,
es 48392071K", "不是 X，是 Y", "aliás, Y": after a secret or regulated value the floor found, a
correction word of the seven languages (``data/corrections.yaml``) and then a run of the same
shape (the same length within one character, as many digits within one) is the same value,
corrected. Text that holds no such value is never touched, so a benign correction ("at 3, no
wait, at 4") stays as it was.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
from collections.abc import Iterable, Iterator
from typing import Final

from userlore.policy.cue_data import alternation
from userlore.policy.data_files import data_yaml

__all__ = ["RULE", "corrected_values", "correction_words"]

RULE: Final = "corrected_value"
_REACH: Final = 48  # characters from the value's end to its correction's start
_RUN = re.compile(r"(?<![A-Za-z\d])[A-Za-z\d]+(?:(?:[\-./]|(?<=\d)\s(?=\d))[A-Za-z\d]+)*")
_SEPARATORS = re.compile(r"[\s\-./]")
_MIN_LEN: Final = 4
_SAID = re.compile(r"\d([ \-])\d(?:\1\d)+")  # digits said one by one


@functools.cache
def _markers() -> re.Pattern[str]:
    raw: dict[str, list[str]] = data_yaml("corrections.yaml")
    return re.compile(alternation([w for words in raw.values() for w in words]))


def correction_words() -> re.Pattern[str]:
    """The correction words of the seven languages (``data/corrections.yaml``), one pattern."""
    return _markers()


def _shape(value: str) -> tuple[int, int]:
    compact = _SEPARATORS.sub("", value)
    return len(compact), sum(c.isdigit() for c in compact)


def _same_shape(value: str, other: str) -> bool:
    (n, d), (m, e) = _shape(value), _shape(other)
    if _SAID.fullmatch(value) and _SAID.fullmatch(other):
        return m == n  # a padlock's three dials, corrected ("5-1-8. Nee warte, 5-8-1"): blind24
    return m >= _MIN_LEN and e >= 1 and abs(n - m) <= 1 and abs(d - e) <= 1


def corrected_values(
    text: str, found: Iterable[tuple[int, int]]
) -> Iterator[tuple[tuple[int, int], tuple[int, int]]]:
    """Each correction of a value at one of the ``found`` spans: that span, then the span of
    the run that corrects it (a run that overlaps any found span is none).

    Linear in the spans: one pass, and the overlap test is a bisection over the spans'
    starts with their running greatest end (a long pasted log holds thousands of findings).
    """
    spans = sorted(set(found))
    if not spans or not _markers().search(text):
        return
    starts = [s for s, _ in spans]
    reach = list(itertools.accumulate((e for _, e in spans), max))
    for start, end in spans:
        value = text[start:end]
        if sum(c.isdigit() for c in value) < 1:
            continue
        window = text[end : end + _REACH]
        for run in _RUN.finditer(window):
            between = window[: run.start()].casefold()
            if not _markers().search(between):
                continue
            s, e = end + run.start(), end + run.end()
            before = bisect.bisect_left(starts, e)  # the spans that start before the run ends
            if before and reach[before - 1] > s:
                continue  # one of them ends after the run starts: they overlap
            if _same_shape(value, run.group(0)):
                yield (start, end), (s, e)
                break
