"""Origin said by a people's name in the speaker's own frame (issue 29, blindfix20c).

blind20 quoted "en tant que Kabyle née à Tizi, je veux apprendre à mes enfants le tamazight":
the vocabularies hold a few peoples as bare terms, and a people's name alone is as often its
language's or its country's ("I'm learning Yoruba"). Here any people of the data
(``data/people_frames.yaml``: peoples, ethnic groups and indigenous nations in the covered
languages) counts inside a frame that makes it the speaker's: "as a Kurd, I …", "en tant que
Peule, j'…", "como aimara me …", "als Jesidin suche ich", "作为藏族，我…", "アイヌとして…たい".
"As a developer" names no people; "as a teacher of Kurdish history" opens no frame with one.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any, Final

from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit
from userlore.policy.findings import _SPECIAL
from userlore.policy.literal_gate import LiteralGate

__all__ = ["people_frames"]

_ETHNICITY: Final = "ethnicity"
_CJK_START: Final = 0x2E80  # CJK radicals onwards: scripts that write no space after a name


def _name(name: str) -> str:
    """A name as a pattern: a Latin one ends at its word's end ("Rom" is not "Roman"); Chinese
    and Japanese write the next word on (アイヌとして)."""
    latin = name[-1].isascii() or ord(name[-1]) < _CJK_START
    return re.escape(name) + (r"(?![^\W_])" if latin else "")


@functools.cache
def _frames() -> tuple[LiteralGate, re.Pattern[str]]:
    """The cheap gate and every frame with its language's peoples, one alternation."""
    raw: dict[str, Any] = data_yaml("people_frames.yaml")
    frames = []
    for lang, forms in raw["frames"].items():
        names = sorted({str(n) for n in raw["peoples"][lang]}, key=len, reverse=True)
        alt = "(?:" + "|".join(_name(n) for n in names) + ")"
        frames += [str(f).replace("{people}", alt) for f in forms]
    gate = LiteralGate(str(w).casefold() for w in raw["gate"])
    return gate, re.compile("|".join(f"(?:{f})" for f in frames), re.IGNORECASE)


def people_frames(t: str, lowered: str) -> Iterator[_Hit]:
    """The speaker's origin by a people's name in a frame (see the module docstring)."""
    gate, frames = _frames()
    if not gate.search(lowered):
        return
    for m in frames.finditer(t):
        yield (_SPECIAL, _ETHNICITY, m.start(), m.end(), _ETHNICITY)
