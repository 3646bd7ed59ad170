"""A code said as a list of words after the word "code", in text no rule here reads.

blind11 (issue 29) stored PINs said word by word after a word for "code" in languages no rule
reads and CLDR does not spell out, or in a form its spell-outs do not match: "kodea bost,
zazpi, bat, zero", "kode is een-nege-drie-ses", "קאָד … : פֿיר, זיבן, צוויי, אַכט". The floor
cannot tell number words from other words there, so in a segment of an uncovered language a
list of :data:`MIN_ITEMS` single words or more (joined by commas or hyphens, none
capitalised: not a list of names) in the clause after a word for "code"
(``policy/data/code_words.yaml``: the word's consonant frame in each script, no language
named) is redacted. A shorter list ("siyah, beyaz, gri" after a dress code) stays; a longer
list of words after a dress code does not (``docs/safety.md``). The acronym cues (PIN, OTP…)
are :mod:`.uncovered_cued`'s.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterator
from typing import Final

from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit
from userlore.policy.findings import _SECRET
from userlore.policy.language import COVERED_LANGUAGES, segments

__all__ = ["code_lists"]

_RULE: Final = "credential_uncovered_language"
MIN_ITEMS: Final = 4
"""Words in the list: a PIN or a lock's code has four digits or more."""
MAX_ITEM_LETTERS: Final = 12
_WORD = r"(?:[^\W\d_]|[\u0300-\u036f\u0591-\u05c7\u0900-\u0dff])+"
# Single words joined by commas (of any script) or hyphens.
_LIST = re.compile(rf"{_WORD}(?:(?:\s*[,،、，]\s*|-){_WORD}){{{MIN_ITEMS - 1},}}")
_SEP = re.compile(r"\s*[,،、，]\s*|-")
_CLAUSE_END = re.compile(r"[.!?;。！？؟\n]")
# Combining marks a word for "code" may carry inside its frame (Hebrew points, Latin accents).
_POINTED = re.compile(r"[\u0300-\u036f\u0591-\u05c7]")


@functools.cache
def _frames() -> re.Pattern[str]:
    frames = "|".join(str(f) for f in data_yaml("code_words.yaml")["frames"])
    return re.compile(rf"(?i)(?<![^\W\d_])(?:[הושבל]?)(?:{frames})")


def _cue_ends(t: str) -> list[int]:
    """Where each word for "code" in ``t`` ends, matched with combining marks stripped (the
    Hebrew script's points: "קאָד" is "קאד")."""
    if t.isascii() or _POINTED.search(t) is None:
        return [m.end() for m in _frames().finditer(t)]  # no mark to strip: one pass
    kept = [i for i, ch in enumerate(t) if not unicodedata.combining(ch)]
    plain = "".join(t[i] for i in kept)
    return [kept[m.end() - 1] + 1 for m in _frames().finditer(plain)]


def code_lists(t: str) -> Iterator[_Hit]:
    """Lists of words after a word for "code" in ``t``'s uncovered segments."""
    if "-" not in t and "," not in t and "،" not in t and "、" not in t and "，" not in t:
        return
    # The lists first (a regular expression): the segments' languages only where one stands.
    lists = [(at, m) for at in _cue_ends(t) for m in _lists_after(t, at)]
    if not lists:
        return
    found = [
        s for s in segments(t) if s.language is not None and s.language not in COVERED_LANGUAGES
    ]
    for at, m in lists:
        if any(s.start < at <= s.end for s in found):
            yield (_SECRET, _RULE, m.start(), m.end(), None)


def _lists_after(t: str, at: int) -> Iterator[re.Match[str]]:
    """The first list of words in the clause after a cue ending at ``at``, if any."""
    stop = _CLAUSE_END.search(t, at)
    end = stop.start() if stop else len(t)
    for m in _LIST.finditer(t, at, end):
        items = _SEP.split(m.group(0))
        if all(len(w) <= MAX_ITEM_LETTERS and not w[0].isupper() for w in items):
            yield m
            return
