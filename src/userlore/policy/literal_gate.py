"""Whether any of many literal words occurs in a text, without scanning a big alternation.

Python's ``re`` tries every alternative of ``w1|w2|...`` at every position, so a gate of a few
hundred words costs about 0.1 ms a sentence, and the floor runs several on every stored value.
A word can only start where its first three characters stand, so :class:`LiteralGate` looks the
text's three-character slices up in a set and tries the alternation only there: the same answer
as ``re.search`` of the alternation (performance only, issue 30).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

__all__ = ["LiteralGate"]

_HEAD: Final = 3
_META: Final = frozenset(".^$*+?{}[]\\|()")


class LiteralGate:
    """``re.compile("|".join(words)).search(text) is not None``, faster when nothing matches.

    Words are literal, longest first (as the alternation the callers built). A word shorter
    than three characters or holding a regex metacharacter turns the shortcut off: the
    alternation alone then decides, as before.
    """

    __slots__ = ("_heads", "_shortcut", "pattern")

    def __init__(self, words: Iterable[str]) -> None:
        ordered = sorted(set(words), key=len, reverse=True)
        self.pattern = re.compile("|".join(ordered) or r"(?!x)x")
        self._shortcut = bool(ordered) and all(
            len(w) >= _HEAD and _META.isdisjoint(w) for w in ordered
        )
        self._heads = frozenset(w[:_HEAD] for w in ordered)

    def search(self, text: str) -> bool:
        """Whether any word occurs in ``text``."""
        if not self._shortcut:
            return self.pattern.search(text) is not None
        heads, match = self._heads, self.pattern.match
        return any(
            text[i : i + _HEAD] in heads and match(text, i) is not None
            for i in range(len(text) - _HEAD + 1)
        )
