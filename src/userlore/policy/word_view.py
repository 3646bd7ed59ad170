"""An ASCII text's letter runs, split once and shared by the rules that read its words.

Five of the uncovered-language rules (:mod:`~userlore.policy.detectors.uncovered`,
``uncovered_money``, ``uncovered_shapes``, ``uncovered_cued``, ``unread_values``) each split the
same text into words before their cheap tests, with their own expressions; on an ASCII text
every one of those splits is its runs of letters (``[A-Za-z]+``: their other characters are
marks and letters of other scripts, or apostrophes that a test splits at again). Here the runs
are found once a text and remembered for the last few texts, so each rule reads them instead
(issue 30, floorcost14).
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["letter_runs", "lower_runs"]

_LETTERS: Final = re.compile(r"[A-Za-z]+")
_MEMO: Final[dict[str, tuple[str, ...]]] = {}
_LOWER_MEMO: Final[dict[str, tuple[str, ...]]] = {}
_MEMO_SIZE: Final = 8  # a classify call's texts: the caller's, the folded one and their views


def letter_runs(text: str) -> tuple[str, ...]:
    """The runs of ASCII letters of ``text``, in order and in their own case.

    For an ASCII text these are its words as ``[^\\W\\d_]+`` splits them (the only letters
    an ASCII text holds are ASCII ones)."""
    runs = _MEMO.get(text)
    if runs is None:
        runs = tuple(_LETTERS.findall(text))
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()  # a dict's operations are atomic: a racing thread at worst splits again
        _MEMO[text] = runs
    return runs


def lower_runs(text: str) -> tuple[str, ...]:
    """:func:`letter_runs` in lower case (an ASCII word's casefold): for set tests of words."""
    runs = _LOWER_MEMO.get(text)
    if runs is None:
        runs = tuple(map(str.lower, letter_runs(text)))
        if len(_LOWER_MEMO) >= _MEMO_SIZE:
            _LOWER_MEMO.clear()
        _LOWER_MEMO[text] = runs
    return runs
