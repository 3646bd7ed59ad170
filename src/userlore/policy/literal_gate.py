"""Whether any of many literal words occurs in a text, without scanning a big alternation.

Python's ``re`` tries every alternative of ``w1|w2|...`` at every position, so a gate of a few
hundred words costs about 0.1 ms a sentence, and the floor runs several on every stored value.
A word can only start where its first characters stand, so :class:`LiteralGate` looks the
text's slices of that length up in a set and tries the alternation only there: the same answer
as ``re.search`` of the alternation (performance only, issue 30).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

__all__ = ["LiteralGate"]

_HEAD: Final = 3


class LiteralGate:
    """``re.compile("|".join(map(re.escape, words))).search(text) is not None``, faster.

    A text longer than the list is asked word by word (``word in text``); a shorter one is
    scanned for the words' heads, their first three characters (fewer when a word is shorter,
    down to two; a one-character word turns the scan off), trying the alternation only there.
    """

    __slots__ = ("_head", "_heads", "_words", "pattern")

    def __init__(self, words: Iterable[str]) -> None:
        ordered = sorted(set(words), key=len, reverse=True)
        self.pattern = re.compile("|".join(map(re.escape, ordered)) or r"(?!x)x")
        self._head = min([_HEAD, *(len(w) for w in ordered)])
        self._heads = frozenset(w[: self._head] for w in ordered)
        self._words = tuple(ordered)

    def search(self, text: str) -> bool:
        """Whether any word occurs in ``text``."""
        n = self._head
        if n < 2 or len(self._words) <= len(text):
            # Fewer words than positions: a substring test each (C speed) is the cheaper way,
            # and the same answer (a literal alternation matches where a word occurs).
            return any(w in text for w in self._words)
        heads, match = self._heads, self.pattern.match
        return any(
            text[i : i + n] in heads and match(text, i) is not None
            for i in range(len(text) - n + 1)
        )
