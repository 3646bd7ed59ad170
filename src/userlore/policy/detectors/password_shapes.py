"""Passwords in shapes the prose rules do not read (issue 29).

- A word, one symbol and digits as one token ("Sonnenblume#1987", "Jagannath@2023",
  "Pelican$1990"): the shape sites ask for, typed as a correction ("hab mich vertippt, es ist
  …") or after a cue in a language no rule reads. It is a secret wherever it stands, unless
  the word is a reference ("issue#1987", "room#101") or "@" follows a lowercase name (a
  handle's or a time's "@").
- A password told as a base word and how to type it ("mon mdp … c'est chaton, tout attaché,
  avec un C majuscule, puis 59"): the word after the cue's copula, when the sentence goes on
  to say how it is typed. ``prose_parts`` takes the rest ("majuscule, puis 59").

Words are data (``data/password_shapes.yaml``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from userlore.policy.cue_data import cues, literal_alternation
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit, _is_placeholder
from userlore.policy.findings import _SECRET

__all__ = ["password_shapes"]

_TOKEN = re.compile(
    r"(?<![\w@#$%&!*./\-])(?P<word>[^\W\d_]{4,24})(?P<sym>[!@#$%&*])(?P<digits>\d{2,4})"
    r"(?![\w@#$%&!*]|[.\-/]\w)"
)
# The token's core, found first: a letter, one symbol, digits ("!" in prose has no digits after).
_CORE = re.compile(r"[!@#$%&*]\d\d")
_WINDOW: Final = 100
_SENTENCE_END = re.compile(r"[!?。！？\n]|(?<!\.\.)\.(?!\d)(?=\s|$)")
_BASE = re.compile(r"\s*([^\W\d_]{3,24})(?=\s*[,，、;]|\s+(?:\w+\s+){0,2}\w)")


@dataclass(frozen=True, slots=True)
class _Words:
    assembly: re.Pattern[str]
    copula: re.Pattern[str]
    references: frozenset[str]


@functools.cache
def _words() -> _Words:
    raw: dict[str, Any] = data_yaml("password_shapes.yaml")
    return _Words(
        assembly=re.compile(literal_alternation(raw["assembly_words"])),
        copula=re.compile(rf"(?<![^\W\d_])(?:{literal_alternation(raw['copulas'])})(?![^\W\d_])"),
        references=frozenset(str(w) for w in raw["reference_words"]),
    )


def password_shapes(t: str, lowered: str) -> Iterator[_Hit]:
    """Word-symbol-digits tokens and base words told with their typing (module docstring)."""
    if _CORE.search(t) is not None:
        yield from _tokens(t)
    found = cues().credential_cues(lowered)  # the last text's answer is kept: no second scan
    if found:
        yield from _base_words(t, lowered, found)


def _tokens(t: str) -> Iterator[_Hit]:
    refs = _words().references
    for m in _TOKEN.finditer(t):
        word = m.group("word")
        if word.casefold() in refs or _is_placeholder(m.group(0)):
            continue
        if m.group("sym") == "@" and not word[0].isupper():
            continue
        yield (_SECRET, "password_shape", m.start(), m.end(), None)


def _base_words(t: str, lowered: str, found: tuple[re.Match[str], ...]) -> Iterator[_Hit]:
    w = _words()
    c = cues()
    function_words = c.function_words
    for cue in found:
        if c.identifier.fullmatch(cue.group(0)) is not None:
            continue
        stop = _SENTENCE_END.search(t, cue.end(), min(len(t), cue.end() + _WINDOW))
        hi = stop.start() if stop else min(len(t), cue.end() + _WINDOW)
        copula = w.copula.search(lowered, cue.end(), min(hi, cue.end() + 40))
        if copula is None:
            continue
        base = _BASE.match(t, copula.end(), hi)
        if base is None or function_words.fullmatch(base.group(1).casefold()):
            continue
        if w.assembly.search(lowered, base.end(1), hi) is None:
            continue
        yield (_SECRET, "password_base_word", base.start(1), base.end(1), None)
