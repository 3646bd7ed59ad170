"""Values a segment that may be a misread covered sentence still gives away by how they are
printed (issue 29): a sum with a magnitude word many languages share, an id or an account in
groups of digits, an account's unbroken run after a bank's word. :mod:`.uncovered` redacts
them in text of a language no rule reads; none of them is a covered sentence's count, date or
price.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.registry import _NEG_BEFORE
from userlore.policy.detectors.uncovered_magnitudes import _magnitude_languages

__all__ = ["printed_values", "shared_magnitude_amounts"]

# Three groups of digits or more joined by spaces or hyphens, ten digits or more: an account or
# an id as it is printed ("1001 8473 9216", "34-8127465-3"; blind20), which no covered sentence's
# count, date or price is.
_GROUPED_RUN = re.compile(r"(?<![\w.,:/\-])\d{1,8}(?:[ \-]\d{1,8}){2,}(?![\w\-]|[.,]\d)")
_GROUPED_RUN_DIGITS: Final = 10
# An account's number printed as one run, and how far before it its bank's word may stand.
_UNBROKEN_RUN = re.compile(r"(?<![\w.,:/\-])\d{9,18}(?![\w\-]|[.,]\d)")
_BANK_REACH: Final = 32


@functools.cache
def _bank_stems() -> re.Pattern[str]:
    """A word holding a covered language's stem for a bank (``data/uncovered_cues.yaml``)."""
    stems = "|".join(map(re.escape, data_yaml("uncovered_cues.yaml")["bank_stems"]))
    return re.compile(rf"(?i)[^\W\d_]*(?:{stems})[^\W\d_]*")


_GROUPED_RUN_MOST: Final = 16  # a card's; an order's "114-2836475-0019283" is longer
_PHONE_GROUP: Final = 3


# Digits, then a word: perhaps a magnitude ("12 mil", "3 Mio"), read whatever the language.
_DIGITS_THEN_WORD = re.compile(r"(?<![\w.,])\d{1,3}(?:[.,]\d{1,2})?\s?([^\W\d_]{3,})(?!\w)")
_SHARED_MAGNITUDE: Final = 4


def shared_magnitude_amounts(text: str) -> Iterator[tuple[int, int]]:
    """Digits before a word that :data:`_SHARED_MAGNITUDE` languages or more spell a thousand
    or more with (CLDR: "mil", "million", "mln", "tusen"): a sum of a thousand or more whatever
    the segment's language, as four digits are ("12 mil skudu", "25 mil goud"; blind20)."""
    index = _magnitude_languages()
    for m in _DIGITS_THEN_WORD.finditer(text):
        if len(index.get(m.group(1).casefold(), ())) >= _SHARED_MAGNITUDE:
            yield m.span()


def printed_values(text: str) -> Iterator[tuple[int, int]]:
    """Spans of :func:`shared_magnitude_amounts`, of grouped runs of ten to sixteen digits
    (:data:`_GROUPED_RUN`), and of unbroken runs a bank's word stands before (blindfix21a)."""
    yield from shared_magnitude_amounts(text)
    for m in _GROUPED_RUN.finditer(text):
        before = text[: m.start()].split()[-1:]
        if before and any(ch.isdigit() for ch in before[0]):
            continue  # the tail of a longer code ("1Z 999 AA1 01 2345 6784", a parcel's)
        if _NEG_BEFORE.search(text[max(0, m.start() - 40) : m.start()]):
            continue  # an order's, a parcel's or a phone's number, as the registry walk reads
        groups = re.split(r"[ \-]", m.group(0))
        if max(map(len, groups)) <= _PHONE_GROUP:
            continue  # "081 920 40 00": a phone number's pairs and triples
        if _GROUPED_RUN_DIGITS <= sum(map(len, groups)) <= _GROUPED_RUN_MOST:
            yield m.span()
    for m in _UNBROKEN_RUN.finditer(text):  # "Hakrinbank 2371480915" (blindfix21a)
        if _bank_stems().search(text, max(0, m.start() - _BANK_REACH), m.start()) is not None:
            yield m.span()
