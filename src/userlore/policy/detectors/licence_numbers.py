"""Driving-licence numbers by their words, a little farther than an id's filler, and the UK
licence by its shape (issue 29, blindfix24b).

The contextual rule (``national_ids``) takes a licence number only right after its word; blind24
stored "DVLA wants my licence number … It's the long one on the front, MORGA753116SM9IJ". Here,
after a licence word of ``data/licence_numbers.yaml`` in any covered language, the first
licence-shaped value within :data:`REACH` characters (the same line) is regulated: letters and
digits of seven to eighteen characters with four digits or more ("B072RRE2I55", "Y4829137",
"L-482913 7"), or eight to eighteen digits unseparated or in groups of four ("04829137562",
"3012 4829 1375"; in any grouping right after the word and its filler, "carteira de
motorista: 0482 9137 562"; not a phone number's groups farther on). Not a value after a
plate's, a product key's or an order's word, nor a year, a date or a placeholder. The UK
licence's sixteen characters (surname, birth date with the month plus 50 for a woman,
initials, check letters) are so specific a print that their shape alone is enough, with no
word.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.cue_data import literal_alternation
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit, _is_placeholder, is_year
from userlore.policy.detectors.registry import _NEG_BEFORE
from userlore.policy.findings import _REGULATED
from userlore.policy.literal_gate import LiteralGate

__all__ = ["licence_numbers"]

REACH: Final = 100
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
_VALUE = re.compile(r"(?<![\w\-/.])[A-Z0-9](?:[A-Z0-9]|[ \-](?=[A-Z0-9])){5,22}(?![\w/]|[.,]\d)")
_GROUPS_OF_FOUR = re.compile(r"\d{4}(?: \d{4}){1,4}")
_UK_LICENCE = re.compile(
    r"(?<![A-Za-z0-9])[A-Z9]{5}\d[0156]\d[0-3]\d\d[A-Z9]{2}\d[A-Z]{2}(?![A-Za-z0-9])"
)
# Right after the word: a filler of its number's words ("licence number: ", "CNH é ").
_NEAR = re.compile(
    r"[\s:：#=.\-°º]*(?:(?:number|no|nr|nummer|numéro|número|n°|nº|é|es|est|ist|is|:)\s*)*"
)
_MIN_CHARS: Final = 7
_MAX_CHARS: Final = 18
_MIN_DIGITS: Final = 4
_MIN_BARE_DIGITS: Final = 8


@functools.cache
def _words() -> tuple[LiteralGate, re.Pattern[str], re.Pattern[str]]:
    raw = data_yaml("licence_numbers.yaml")
    words = [str(w).casefold() for ws in raw["words"].values() for w in ws]
    latin = literal_alternation([w for w in words if not _CJK.search(w)])
    cjk = literal_alternation([w for w in words if _CJK.search(w)])
    pattern = re.compile(rf"(?<![^\W\d_])(?:{latin})(?![^\W\d_])|(?:{cjk})")
    others = literal_alternation([str(w).casefold() for w in raw["not_licence"]])
    return (
        LiteralGate(words),
        pattern,
        re.compile(rf"(?<![^\W\d_])(?:{others})(?![^\W\d_])"),
    )


def _licence_shaped(value: str, *, near: bool) -> bool:
    """Letters and digits of a licence's length; digits alone unseparated or in groups of four,
    in any grouping when ``near`` the word (a phone number is printed in groups too)."""
    compact = re.sub(r"[ \-]", "", value)
    if not _MIN_CHARS <= len(compact) <= _MAX_CHARS:
        return False
    digits = sum(ch.isdigit() for ch in compact)
    if digits == len(compact):
        grouped = near or (
            "-" not in value and (" " not in value or _GROUPS_OF_FOUR.fullmatch(value) is not None)
        )
        return digits >= _MIN_BARE_DIGITS and grouped
    return digits >= _MIN_DIGITS and not _is_placeholder(value)


def licence_numbers(t: str, lowered: str) -> Iterator[_Hit]:
    """The licence number after each licence word, and a UK licence anywhere (see above)."""
    for m in _UK_LICENCE.finditer(t):
        yield (_REGULATED, "drivers_license", m.start(), m.end(), "government_id")
    gate, pattern, others = _words()
    if not gate.search(lowered):
        return
    for w in pattern.finditer(lowered):
        line_end = t.find("\n", w.end())
        hi = min(len(t), w.end() + REACH, len(t) if line_end < 0 else line_end)
        for v in _VALUE.finditer(t, w.end(), hi):
            value = v.group(0).rstrip(" -")
            near = _NEAR.fullmatch(lowered, w.end(), v.start()) is not None
            if not _licence_shaped(value, near=near) or is_year(value):
                continue
            between = lowered[w.end() : v.start()]
            if others.search(between) or _NEG_BEFORE.search(t, w.end(), v.start()):
                break
            yield (
                _REGULATED,
                "drivers_license",
                v.start(),
                v.start() + len(value),
                "government_id",
            )
            break
