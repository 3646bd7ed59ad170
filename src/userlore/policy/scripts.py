"""The script of a letter and the runs of one script in a text (``policy.language``'s first cut).

A turn is judged part by part: Hangul is Korean, kana Japanese, Han without kana Chinese,
Cyrillic, Arabic, Devanagari and the rest none of the covered languages. Only Latin runs need
the statistical identifier. Split out of ``policy/language.py`` (floorcost7) so the word lists
and the relatives' rules can read a letter's script without importing the identifier.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

# (first code point, last code point, script) for letters outside Latin-1; checked in order.
_RANGES: Final = (
    (0x0250, 0x02B8, "Latn"),
    (0x02E0, 0x02E4, "Latn"),
    (0x0370, 0x03FF, "Grek"),
    (0x0400, 0x052F, "Cyrl"),
    (0x0530, 0x058F, "Armn"),
    (0x0590, 0x05FF, "Hebr"),
    (0x0600, 0x08FF, "Arab"),
    (0x0900, 0x097F, "Deva"),
    (0x0980, 0x0DFF, "Indic"),
    (0x0E00, 0x0EFF, "Thai"),
    (0x10A0, 0x10FF, "Geor"),
    (0x1100, 0x11FF, "Hang"),
    (0x1E00, 0x1EFF, "Latn"),
    (0x3040, 0x30FF, "Kana"),
    (0x3130, 0x318F, "Hang"),
    (0x31F0, 0x31FF, "Kana"),
    (0x3400, 0x4DBF, "Hani"),
    (0x4E00, 0x9FFF, "Hani"),
    (0xAC00, 0xD7AF, "Hang"),
    (0xF900, 0xFAFF, "Hani"),
    (0xFB50, 0xFEFF, "Arab"),
    (0xFF21, 0xFF5A, "Latn"),
    (0xFF66, 0xFF9F, "Kana"),
    (0x20000, 0x3134F, "Hani"),
)
_CJK: Final = frozenset({"Hani", "Kana"})


# Spacing modifier letters of Unicode's Common script (Scripts.txt): the ʻokina, the modifier
# apostrophe, the tone letters. They sit inside words of other scripts ("haʻi", "koʻu",
# Uzbek "oʻzbek") and split no run (blindfix21a: "ʻ" cut a Hawaiian sentence into pieces, one
# read as French); U+02B0-02B8 and U+02E0-02E4 are Latin's own.
_COMMON_MODIFIERS: Final = ((0x02B9, 0x02DF), (0x02E5, 0x02FF))


def _script(ch: str) -> str | None:
    """The script of a letter (``None`` for digits, spaces, punctuation, marks and Common
    modifier letters)."""
    if not ch.isalpha():
        return None
    o = ord(ch)
    if o < 0x0250:
        return "Latn"
    if any(lo <= o <= hi for lo, hi in _COMMON_MODIFIERS):
        return None
    for lo, hi, script in _RANGES:
        if lo <= o <= hi:
            return script
    return "Other"


def _runs(text: str, start: int, end: int) -> Iterator[tuple[int, int, str]]:
    """Runs of one script in ``text[start:end]``; neutral characters join the run before them
    (or the first run); Han and kana form one CJK run."""
    run_start, run_script = start, "Zyyy"
    for i in range(start, end):
        script = _script(text[i])
        if script is None:
            continue
        if script in _CJK:
            script = "Hani"
        if run_script == "Zyyy":
            run_script = script
        elif script != run_script:
            yield run_start, i, run_script
            run_start, run_script = i, script
    if end > run_start:
        yield run_start, end, run_script


# Han outside the Basic Multilingual Plane (extensions B to I; not the compatibility block).
_SUPPLEMENTARY_HAN: Final = re.compile("[\U00020000-\U0002ebef\U00030000-\U000323af]")


def beyond_common_han(text: str) -> bool:
    """``text`` writes a Han character outside the Basic Multilingual Plane ("𠊎", "𪜶",
    "𠢕"): a language written in Han that is not Mandarin spells its own words with such
    characters, which standard Mandarin, simplified or traditional, does not use (Unicode's
    blocks, no language named; blindfix18b)."""
    return not text.isascii() and _SUPPLEMENTARY_HAN.search(text) is not None
