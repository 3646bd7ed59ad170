"""A code said one digit at a time, after its credential or lock word (issue 29, blind13).

"la clave de la caja fuerte: uno, nueve, ocho, cuatro", "暗証番号：七・四・〇・九", "PIN:
２・０・１・９". The spoken view reads the words as ``1984``, and the rules that take a run of
four digits for a code let a year-shaped one go ("built in 1984"); but nobody says a year digit
by digit, so a run said one digit at a time is a code wherever a credential cue
(``quote_cues.yaml``) or a lockable thing (``lock_cues.yaml``) stands before it in the sentence.
Two forms: digit words, one word per digit (found through the spoken view, so every language
the normaliser reads counts), and single digits or CJK numerals each set off by a list mark
(``・``, ``、``, ``,``; the folded view reads ``・`` as ``.``), which the normaliser does not
join.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.cue_data import cues
from userlore.policy.detectors.common import _Hit, has_digit
from userlore.policy.detectors.lock_codes import lock_cues
from userlore.policy.findings import _SECRET
from userlore.policy.normalize import Folded
from userlore.policy.radio_digits import radio_words
from userlore.policy.spelling import DIGIT_WORDS

__all__ = ["said_digits"]

RULE: Final = "said_digits"

_MIN_DIGITS: Final = 4
_RADIO: Final = radio_words()  # "niner", "fife": a radio form is a digit word here too
_VIEW_RUN = re.compile(r"\d{4,12}")
_WORD = re.compile(r"[^\W\d_]+")
# Single digits or CJK numerals, each set off by a list mark: "一.九.八.四", "7、4、0、9".
_LISTED = re.compile(
    r"(?<![\d.])[0-9〇零一二三四五六七八九幺O](?:\s?[.,、，·]\s?[0-9〇零一二三四五六七八九幺O]){3,11}(?![\d])"
)
_LIST_MARKS: Final = ("、", ".", ",", "，", "·")
_BEFORE: Final = 60
_SENTENCE_END = re.compile(r"[!?。！？\n]|\.(?=\s)")


def said_digits(folded: str, spoken: Folded) -> Iterator[_Hit]:
    """Secret hits, in ``folded``'s positions, for the codes said one digit at a time after a
    credential or lock word (see the module docstring); ``spoken`` is ``folded``'s spoken view."""
    runs = list(_word_runs(folded, spoken)) if spoken.text != folded else []
    if (not folded.isascii() or has_digit(folded)) and any(m in folded for m in _LIST_MARKS):
        runs.extend(m.span() for m in _LISTED.finditer(folded) if _separated(m.group(0)))
    if not runs:
        return
    lowered = folded.lower()
    if len(lowered) != len(folded):
        return
    starts = [m.end() for m in cues().credential_cues(lowered)]
    if not starts:
        starts = []
    starts.extend(m.end() for m in lock_cues().things.finditer(lowered))
    for start, end in runs:
        if any(
            0 <= start - cue <= _BEFORE and _SENTENCE_END.search(folded, cue, start) is None
            for cue in starts
        ):
            yield (_SECRET, RULE, start, end, None)


def _word_runs(folded: str, spoken: Folded) -> Iterator[tuple[int, int]]:
    """Runs of the spoken view said as one digit word per digit ("uno, nueve, ocho, cuatro")."""
    for m in _VIEW_RUN.finditer(spoken.text):
        start, end = spoken.span(m.start(), m.end())
        words = _WORD.findall(folded, start, end)
        if len(words) == len(m.group(0)) and all(
            w.lower() in DIGIT_WORDS or w.lower() in _RADIO for w in words
        ):
            yield start, end


def _separated(run: str) -> bool:
    """Every digit set off by a mark (not "1.984" or "3,14159")."""
    digits = [c for c in run if not c.isspace() and c not in ".,、，·"]
    return len(digits) >= _MIN_DIGITS and len(run.replace(" ", "")) == 2 * len(digits) - 1
