"""A password's part told after its base word (issue 29, blind14): "Kaffeetasse mit drei
Ausrufezeichen am Ende", "Jabuticaba… ops, tem um @2023 no final", "Pinecone, plus 2024 at the
end", "Panda，后面加三个感叹号".

The password rules redact the base word; the rest of the value was told in words or as a short
token after it and stayed. After a secret the floor already found in a text that names a
password (``data/described_parts.yaml``), within :data:`_REACH` characters, a part is what a
join or place word (with, plus, then, am Ende, al final, à la fin, no final, 后面, 最後…) leads
to: a symbol's name with its count ("drei Ausrufezeichen", "三个感叹号", "！を三つ"), or a
token of digits or symbols ("@2023", "#99", "##"). Without a secret found first nothing is
read, so a rule about passwords ("the password needs two numbers at the end") is no value.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from userlore.policy.cue_data import CueAlternation, flat
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit
from userlore.policy.findings import _SECRET

__all__ = ["described_parts"]

RULE: Final = "password_part"
_REACH: Final = 90
_STOP = re.compile(r"\n|(?<!\.)\.(?!\.)\s+(?=[A-ZÀ-Ý])|[?!？！](?=\s|$)")
# A token of digits or symbols: "@2023", "#99", "2x", "##", "42" (a symbol-only run of 1-6);
# not a piece of a date, a time or a version ("2025-06-30", "10:30").
_TOKEN = re.compile(
    r"(?<![\w@#$%&*!?\-/.:])"
    r"(?:[@#$%&*!?_+]{0,3}\d{1,8}[A-Za-z]?[@#$%&*!?_+]{0,3}|[@#$%&*!?_+＠＃！]{1,6})"
    r"(?![\w@#$%&*!?]|[\-/.:]\d)"
)
_CJK_COUNT = r"[一二两三四五六七八九十\d]{1,2}\s*[个個つ]?\s*"


@dataclass(frozen=True, slots=True)
class _Cues:
    password: CueAlternation
    joins: CueAlternation
    parts: re.Pattern[str]


@functools.cache
def _cues() -> _Cues:
    data = data_yaml("described_parts.yaml")
    symbols = sorted(flat(data["symbols"]), key=len, reverse=True)
    counts = sorted(flat(data["counts"]), key=len, reverse=True)
    latin = "|".join(re.escape(s) for s in symbols if s.isascii() or not _cjk(s))
    cjk = "|".join(re.escape(s) for s in symbols if _cjk(s))
    count = "|".join(re.escape(c) for c in counts)
    parts = re.compile(
        rf"(?<![^\W_])(?:(?:{count}|\d{{1,2}}x?)\s+)?(?:{latin})(?![^\W_])"
        rf"|{_CJK_COUNT}(?:{cjk})|(?:{cjk}|[！!＃#＠@])を?{_CJK_COUNT}"
    )
    return _Cues(
        password=CueAlternation(flat(data["password_words"])),
        joins=CueAlternation(flat(data["joins"])),
        parts=parts,
    )


def _cjk(s: str) -> bool:
    return any("\u3040" <= ch <= "\u9fff" for ch in s)


def described_parts(t: str, lowered: str, hits: Sequence[_Hit]) -> Iterator[_Hit]:
    """Secret hits for the parts of a password told after the value the floor found."""
    secrets = [h for h in hits if h[0] is _SECRET]
    if not secrets:
        return
    c = _cues()
    cue = c.password.search(lowered)
    if cue is None:
        return
    after = [h for h in secrets if h[2] >= cue.end()]
    if not after:
        return
    start = min(h[3] for h in after)
    stop = _STOP.search(t, start)
    end = min(len(t), start + _REACH, stop.start() if stop else len(t))
    taken = [(h[2], h[3]) for h in hits]
    found: list[tuple[int, int]] = []
    for m in c.parts.finditer(lowered, start, end):
        found.append(m.span())
    for m in _TOKEN.finditer(t, start, end):
        if not any(a <= m.start() < b for a, b in found):
            found.append(m.span())
    for lo, hi in sorted(found):
        if any(a <= lo < b for a, b in taken):
            continue
        if c.joins.search(lowered, start, min(len(t), hi + 24)) is None:
            continue  # no word adds it to the value: another number of the sentence
        taken.append((lo, hi))
        yield (_SECRET, RULE, lo, hi, None)
