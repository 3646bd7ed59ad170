"""The word of a letter lock: spelled letter by letter after the lock ("combo is T-A-C-O-S")
and an upper-case word given as its new value ("I changed it to BURRO"), in a text that names a
lockable thing and says its code is letters (issue 29, blind14).

The lock rules (``lock_codes``, ``dial_combos``) read digits; a word lock's code is a word, and
passed as prose. The cue is a lockable thing or a combination word (``data/lock_cues.yaml``)
with a letters word (``data/letter_combos.yaml``) in the text; then every run of three to ten
single letters joined by hyphens, dots or spaces after the first cue, and every upper-case word
of three to ten letters just after a relation or change word ("to", "es", "auf", "en",
"pra"), is the code. An acronym (``not_words``: TSA, PIN, LOL…) is not.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from userlore.policy.cue_data import CueAlternation, flat
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit
from userlore.policy.detectors.lock_codes import lock_cues
from userlore.policy.findings import _SECRET

__all__ = ["letter_combos"]

RULE: Final = "letter_combination"

# Single letters joined by one separator, all upper case, or lower case with hyphens.
_SPELLED = re.compile(
    r"(?<![\w\-.])(?:[A-Z](?:[\-. ·・][A-Z]){2,9}|[a-z](?:-[a-z]){2,9})(?![\w\-]|\.\w)"
)
_UPPER = re.compile(r"(?<![\w\-])[A-Z]{3,10}(?![\w\-])")
_WORD_BEFORE = re.compile(r"([^\W\d_]+|'s|[\u3040-\u30ff\u4e00-\u9fff]+)[\s,:]*$")
_REACH: Final = 3


@dataclass(frozen=True, slots=True)
class _Cues:
    letters: CueAlternation
    before_word: frozenset[str]
    not_words: frozenset[str]


@functools.cache
def _cues() -> _Cues:
    data = data_yaml("letter_combos.yaml")
    return _Cues(
        letters=CueAlternation(flat(data["letters"])),
        before_word=frozenset(flat(data["before_word"])),
        not_words=frozenset(str(w).casefold() for w in data["not_words"]),
    )


def letter_combos(t: str, lowered: str) -> Iterator[_Hit]:
    """Secret hits for a letter lock's spelled or upper-case word (see the module docstring)."""
    c = _cues()
    letters = c.letters.search(lowered)  # literal-gated: most texts stop here
    if letters is None or (_SPELLED.search(t) is None and _UPPER.search(t) is None):
        return
    locks = lock_cues()
    thing = locks.combination.search(lowered)
    if thing is None and locks.may_name_a_thing(lowered):
        thing = locks.things.search(lowered)
    if thing is None:
        return
    start = min(thing.start(), letters.start())
    taken: list[tuple[int, int]] = []
    for m in _SPELLED.finditer(t, start):
        taken.append(m.span())
        yield (_SECRET, RULE, m.start(), m.end(), None)
    for m in _UPPER.finditer(t, start):
        if m.group(0).casefold() in c.not_words or any(a <= m.start() < b for a, b in taken):
            continue
        if _after_relation(lowered, m.start(), c):
            yield (_SECRET, RULE, m.start(), m.end(), None)


def _after_relation(lowered: str, pos: int, c: _Cues) -> bool:
    """A relation or change word stands within :data:`_REACH` words before ``pos``."""
    hi = pos
    for _ in range(_REACH):
        before = _WORD_BEFORE.search(lowered, max(0, hi - 40), hi)
        if before is None:
            return False
        word = before.group(1)
        if word in c.before_word or any(word.endswith(w) for w in c.before_word if not w.isascii()):
            return True
        hi = before.start(1)
    return False
