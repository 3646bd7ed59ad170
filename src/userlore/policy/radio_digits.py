"""Digits said the radio way: "four-one-one-niner", "tree fife", "洞幺两拐" (issue 29, blind15).

A code read out over a phone or learned from a pilot keeps its radio forms; the spoken view
read "niner" only beside English digit words and never "fife", "tree" or 拐/勾/洞, so a lockbox
code said "four-one-one-niner" reached a plan. The forms are data (``data/radio_digits.yaml``);
a run holding one is read digit by digit, and only when it is long enough to be a code: three
digit words or more in any covered language ("cuatro-uno-uno-niner"), or four CJK numerals or
more. "one tree hill" or "me too" stay words: a homograph alone does not make a radio run.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Final

from userlore.policy.data_files import data_yaml
from userlore.policy.spelling import DIGIT_WORDS

__all__ = ["cjk_radio_runs", "radio_value", "radio_words"]

_REPEATS: Final = {"double": 2, "triple": 3}
_MIN_WORDS: Final = 3


@dataclass(frozen=True, slots=True)
class _Radio:
    latin: dict[str, str]
    homographs: frozenset[str]
    cjk_run: re.Pattern[str]
    cjk: dict[str, str]


@functools.cache
def _radio() -> _Radio:
    data = data_yaml("radio_digits.yaml")
    cjk = {str(k): str(v) for k, v in data["cjk"].items()}
    marks = "".join(cjk)
    plain = "〇零一二三四五六七八九幺两兩"
    return _Radio(
        latin={str(k): str(v) for k, v in data["latin"].items()},
        homographs=frozenset(map(str, data["homographs"])),
        cjk_run=re.compile(f"[{plain}{marks}]*[{marks}][{plain}{marks}]*"),
        cjk=cjk,
    )


def radio_words() -> frozenset[str]:
    """Every Latin radio form, for the spoken view's word test and literal gate."""
    return frozenset(_radio().latin)


def radio_value(parts: list[str]) -> str | None:
    """The digits a run of digit words with a radio form spells, one word per digit ("four one
    one niner" -> ``4119``, "triple fife wun" -> ``5551``), or None when it is no code."""
    r = _radio()
    digits: list[str] = []
    repeat = 1
    radio = False
    for p in parts:
        if p in _REPEATS:
            repeat = _REPEATS[p]
            continue
        if p in r.latin:
            radio = radio or p not in r.homographs
            digit = r.latin[p]
        elif p == "oh":
            digit = "0"
        elif p in DIGIT_WORDS:
            digit = DIGIT_WORDS[p]
        else:
            return None
        digits.extend([digit] * repeat)
        repeat = 1
    words = sum(p not in _REPEATS for p in parts)
    if not radio or (words < _MIN_WORDS and len(digits) <= _MIN_WORDS):
        return None
    return "".join(digits)


_CJK_DIGIT: Final = dict(zip("〇零一二三四五六七八九幺两兩", "00123456789122", strict=True))


def cjk_radio_runs(text: str) -> list[tuple[int, int, str]]:
    """Runs of four CJK numerals or more with a military reading ("洞幺两拐" -> ``0127``)."""
    r = _radio()
    if not any(c in text for c in r.cjk):
        return []
    out = []
    for m in r.cjk_run.finditer(text):
        run = m.group(0)
        if len(run) >= 4:
            out.append((m.start(), m.end(), "".join(r.cjk.get(c) or _CJK_DIGIT[c] for c in run)))
    return out
