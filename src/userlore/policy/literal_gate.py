"""Whether any of many literal words occurs in a text, without scanning a big alternation.

Python's ``re`` tries every alternative of ``w1|w2|...`` at every position, so a gate of a few
hundred words costs about 0.1 ms a sentence, and the floor runs several on every stored value.
:class:`LiteralGate` searches the same words as a trie (``br(?:other|ead)|...``): at each
position the engine follows one branch a character, so a position no word starts at fails on
its first character. The same answer as ``re.search`` of the alternation (performance only,
issue 30).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TypeAlias

__all__ = ["LiteralGate"]

_Node: TypeAlias = dict[str, "_Node"]


class LiteralGate:
    """``re.compile("|".join(map(re.escape, words))).search(text) is not None``, faster.

    ``pattern`` is that alternation (``words``, longest first), for callers that need the match;
    :meth:`search` asks a trie of the words instead. A word another word starts with ends its
    branch: wherever the longer one occurs, the shorter one does too, so "does any occur" has
    the same answer.
    """

    __slots__ = ("_pattern", "_trie", "words")

    def __init__(self, words: Iterable[str]) -> None:
        ordered = sorted(set(words), key=len, reverse=True)
        self.words = tuple(ordered)
        self._pattern: re.Pattern[str] | None = None
        self._trie = re.compile(_trie_pattern(ordered) if ordered else r"(?!x)x")

    @property
    def pattern(self) -> re.Pattern[str]:
        """The alternation of the words, compiled on first use (:meth:`search` never needs it)."""
        if self._pattern is None:
            self._pattern = re.compile("|".join(map(re.escape, self.words)) or r"(?!x)x")
        return self._pattern

    def search(self, text: str) -> bool:
        """Whether any word occurs in ``text``."""
        return self._trie.search(text) is not None


def _trie_pattern(words: Iterable[str]) -> str:
    """A regular expression matching where any of ``words`` starts (a trie of them)."""
    root: _Node = {}
    for word in words:
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}  # a word ends here
    return _branch(root)


def _branch(node: _Node) -> str:
    if "" in node:  # a word ends here: the longer words through this node add no answer
        return ""
    alts = [re.escape(char) + _branch(child) for char, child in sorted(node.items())]
    return alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
