"""The explicit extractor's scoring constants, regex builders and index-preserving normalization."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final, TypeAlias

from userlore.models import MemoryType

# --------------------------------------------------------------------------------------------
# Scoring constants
# --------------------------------------------------------------------------------------------

_CONF_EXPLICIT = 0.9
_CONF_STANDING = 0.95
_CONF_PLAIN_DIRECTIVE = 0.85  # an imperative without "always"/"from now on"
_CONF_WEAK = 0.8  # a looser frame ("I'm Sam", "don't use X", "I want short answers")
_CONF_HEDGED = 0.6

_IMPORTANCE = {
    "instruction": 0.85,
    "style": 0.8,
    "veto": 0.85,
    "identity": 0.7,
    "tooling": 0.7,
    "preference": 0.6,
    "goal": 0.6,
    "channel": 0.6,
    "note": 0.6,  # a special-category fact about the user (``match_special``)
}
_STANDING_BONUS = 0.05  # instructions, style and vetoes said with "always"/"from now on"

_MEMORY_TYPE = {
    "instruction": MemoryType.PROCEDURAL,
    "style": MemoryType.PROCEDURAL,
    "tooling": MemoryType.PROCEDURAL,
    "identity": MemoryType.IDENTITY,
    "preference": MemoryType.SEMANTIC,
    "veto": MemoryType.SEMANTIC,
    "goal": MemoryType.SEMANTIC,
    "channel": MemoryType.SEMANTIC,
    "note": MemoryType.SEMANTIC,
}

_MAX_CLAUSE_CHARS = 400  # longer "clauses" are prose, not statements; also bounds regex work
_MAX_STATEMENTS = 64
_SLUG_CHARS = 40

_I = re.IGNORECASE
_CJK_CLASS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK = re.compile(f"[{_CJK_CLASS}]")


class LazyPattern:
    """``re.compile(pattern, flags)``, compiled on its first use.

    The extractor's patterns took ~0.13 s of CPU to compile at import, in every process that
    imports the facade, whether it extracts or not (tidy21). The first call of a method
    compiles the pattern and puts the compiled pattern's bound methods on the instance, so a
    later call is the compiled pattern's own method: the same answers, no wrapper on the way.
    """

    def __init__(self, pattern: str, flags: int) -> None:
        self.pattern = pattern
        self._flags = flags
        _CREATED.append(self)

    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern; its methods replace this object's from now on."""
        rx = re.compile(self.pattern, self._flags)
        self.__dict__.update({name: getattr(rx, name) for name in _METHODS})
        return rx

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled().search(string, pos, endpos)

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled().match(string, pos, endpos)

    def fullmatch(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> re.Match[str] | None:
        return self.compiled().fullmatch(string, pos, endpos)

    def finditer(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> Iterator[re.Match[str]]:
        return self.compiled().finditer(string, pos, endpos)

    def findall(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> list[Any]:
        return self.compiled().findall(string, pos, endpos)

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
        return self.compiled().sub(repl, string, count)

    def subn(
        self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0
    ) -> tuple[str, int]:
        return self.compiled().subn(repl, string, count)

    def split(self, string: str, maxsplit: int = 0) -> list[str | Any]:
        return self.compiled().split(string, maxsplit)


Rx: TypeAlias = "re.Pattern[str] | LazyPattern"
"""A pattern the extractor matches with: compiled, or built by :func:`_rx` to compile lazily."""

_METHODS: Final = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split")
_CREATED: list[LazyPattern] = []  # every pattern built, for the test that compiles them all


def _rx(pattern: str, flags: int = _I) -> LazyPattern:
    """A pattern of the extractor, compiled when first used (:class:`LazyPattern`)."""
    return LazyPattern(pattern, flags)


def _words(text: str) -> frozenset[str]:
    """A vocabulary written as one space-separated string (easier to scan than a list)."""
    return frozenset(text.split())


def _alt(words: Iterable[str]) -> str:
    """A regex alternation, longest first so "vs code" wins over "code"."""
    return "|".join(sorted({w for w in words}, key=lambda w: (-len(w), w)))


# --------------------------------------------------------------------------------------------
# Normalization: same-length character mapping, so every index still points into the input
# --------------------------------------------------------------------------------------------

_TRANSLATE: dict[int, int] = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)}  # fullwidth ASCII
_TRANSLATE.update(
    {
        0x2018: ord("'"),
        0x2019: ord("'"),
        0x201C: ord('"'),
        0x201D: ord('"'),
        0x00A0: ord(" "),
        0x3000: ord(" "),
        0x2014: ord("-"),
        0x2013: ord("-"),
    }
)


def _normalize(text: str) -> str:
    return text.translate(_TRANSLATE)
