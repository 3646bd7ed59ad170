"""Whether any of many literal words occurs in a text, without scanning a big alternation.

Python's ``re`` tries every alternative of ``w1|w2|...`` at every position, so a gate of a few
hundred words costs about 0.1 ms a sentence, and the floor runs several on every stored value.
:class:`LiteralGate` asks the text's one shared scan for every gate's words
(:mod:`userlore.policy.cue_view`) instead; :class:`GatedPattern` scans a trie of a pattern's
literals (``br(?:other|ead)|...``: at each position the engine follows one branch a character).
The same answers as ``re.search`` of the alternation (performance only, issue 30).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from re import _constants, _parser  # type: ignore[attr-defined]
from typing import Any, Final, TypeAlias

from userlore.policy import cue_view

__all__ = ["GatedPattern", "LiteralGate", "required_literals"]

_Node: TypeAlias = dict[str, "_Node"]


class LiteralGate:
    """``re.compile("|".join(map(re.escape, words))).search(text) is not None``, faster.

    ``pattern`` is that alternation (``words``, longest first), for callers that need the match;
    :meth:`search` asks which registered words the text's shared scan found (``word in text``
    for each, so "does any occur" has the same answer).
    """

    __slots__ = ("_always", "_pattern", "_set", "words")

    def __init__(self, words: Iterable[str]) -> None:
        ordered = sorted(set(words), key=len, reverse=True)
        self.words = tuple(ordered)
        self._pattern: re.Pattern[str] | None = None
        self._always = "" in self.words  # the empty word stands in every text
        self._set = cue_view.register(w for w in ordered if w)

    @property
    def pattern(self) -> re.Pattern[str]:
        """The alternation of the words, compiled on first use (:meth:`search` never needs it)."""
        if self._pattern is None:
            self._pattern = re.compile("|".join(map(re.escape, self.words)) or r"(?!x)x")
        return self._pattern

    def search(self, text: str) -> bool:
        """Whether any word occurs in ``text``: a lookup in the text's shared scan
        (:mod:`userlore.policy.cue_view`), which every other gate's question reuses."""
        return self._always or not self._set.isdisjoint(cue_view.found(text))


_ASCII: Final = tuple(map(chr, range(128)))


def _ascii_can_match(literal: str) -> bool:
    """Whether every character of ``literal`` matches some ASCII character ignoring case, so
    that the literal may stand in an ASCII text (``re``'s own case rules: "ſ" matches "s")."""
    return all(
        ch.isascii() or any(re.fullmatch(re.escape(ch), a, re.IGNORECASE) for a in _ASCII)
        for ch in literal
    )


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


_MAX_PREFIXES = 256  # literals one alternative may expand to ("[ée]" doubles them)


def required_literals(pattern: re.Pattern[str]) -> frozenset[str] | None:
    r"""Literals one of which stands in every text ``pattern`` matches in, or None.

    Read from the compiled pattern's own parse, never written by hand: each alternative's
    literal prefix (characters and small classes of characters, past zero-width assertions),
    stopping at the first item that is not a literal. An alternative that starts with no
    literal gives the literal run that starts at a later item of its sequence, the longest
    one (every item of a sequence is matched, so a match holds one of that run's literals:
    ``(?:^|\s)['‘]`` needs a quote). None when no item of some alternative starts a literal.
    A pattern that ignores case needs them found ignoring case too (the engine's own rules:
    :class:`GatedPattern` compiles its trie with the pattern's flag).
    """
    tree = _parser.parse(pattern.pattern, pattern.flags)
    out: set[str] = set()
    for alternative in _alternatives(list(tree)):
        prefixes, _ = _prefixes(alternative)
        if "" in prefixes:
            later = [_prefixes(alternative[i:])[0] for i in range(1, len(alternative))]
            runs = [found for found in later if "" not in found]
            if not runs:
                return None
            prefixes = max(runs, key=lambda found: min(map(len, found)))
        out |= prefixes
    return frozenset(out)


_Item: TypeAlias = tuple[Any, Any]


def _alternatives(items: list[_Item]) -> list[list[_Item]]:
    if len(items) == 1 and items[0][0] is _constants.BRANCH:
        return [list(alt) for alt in items[0][1][1]]
    return [items]


def _prefixes(items: list[_Item]) -> tuple[set[str], bool]:
    """(the literal prefixes of a sequence, whether they are the whole sequence)."""
    c = _constants
    current = {""}
    for op, arg in items:
        if op in (c.AT, c.ASSERT, c.ASSERT_NOT):
            continue  # zero-width: narrows a match, consumes nothing
        if op is c.LITERAL:
            current = {s + chr(arg) for s in current}
            continue
        nxt: set[str] | None = None
        complete = True
        if op is c.IN and all(o is c.LITERAL for o, _ in arg):
            nxt = {chr(a) for _, a in arg}
        elif op is c.SUBPATTERN and not ((arg[1] | arg[2]) & re.IGNORECASE):
            nxt, complete = set(), True
            for alternative in _alternatives(list(arg[3])):
                found, whole = _prefixes(alternative)
                nxt |= found
                complete = complete and whole
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT) and arg[0] >= 1:
            nxt, _ = _prefixes(list(arg[2]))  # its first repetition's literals start it
            complete = False
        elif op is c.BRANCH:
            nxt, complete = set(), True
            for alternative in arg[1]:
                found, whole = _prefixes(list(alternative))
                nxt |= found
                complete = complete and whole
        if nxt is None or "" in nxt or len(current) * len(nxt) > _MAX_PREFIXES:
            return current, False
        current = {s + x for s in current for x in nxt}
        if not complete:
            return current, False
    return current, True


class GatedPattern:
    """``pattern`` asked only where one of its :func:`required_literals` stands: a long
    alternation of words scanned at every position costs far more than a trie of them (the
    same answers; a pattern without such literals is scanned as it is).

    A whole text's question is answered by the text's shared scan (:mod:`~userlore.policy.
    cue_view`): the literals themselves, or for a pattern that ignores case and ASCII
    literals, their lower case in the lowered text of an ASCII text (where the engine's case
    rules are plain ASCII ones). Other texts and windows ask the trie of the literals.
    """

    __slots__ = ("_folded", "_gate", "_words", "pattern")

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        literals = required_literals(pattern)
        self._gate = None
        self._words: frozenset[str] | None = None
        self._folded = bool(pattern.flags & re.IGNORECASE)
        if literals is not None:
            trie = _trie_pattern(sorted(literals, key=len, reverse=True))
            self._gate = re.compile(trie, pattern.flags & (re.IGNORECASE | re.ASCII))
            if not self._folded:
                self._words = cue_view.register(literals)
            elif all(w.isascii() or not _ascii_can_match(w) for w in literals):
                # An ASCII text holds only the ASCII literals (their lower case in its lower
                # case); a literal with a letter no ASCII one matches ignoring case ("код";
                # not "ſ", "ı" or "K", which match "s", "i" and "k") never stands in one.
                self._words = cue_view.register(w.lower() for w in literals if w.isascii())

    def may_match(self, text: str, pos: int = 0, endpos: int | None = None) -> bool:
        """False only where no match can be: none of the literals stands in ``text`` (between
        ``pos`` and ``endpos``, where a match of ``pattern.finditer(text, pos, endpos)`` lies).

        A window's question is first asked of the whole text's shared scan: a literal in the
        window stands in the text, so a text without any has none in any window (issue 30:
        the special rules ask a vocabulary's terms sentence by sentence)."""
        if self._gate is None:
            return True
        words = self._words
        if words is not None:
            if not self._folded:
                if words.isdisjoint(cue_view.found(text)):
                    return False
                if pos == 0 and endpos is None:
                    return True
            elif text.isascii():
                if words.isdisjoint(cue_view.found(text.lower())):
                    return False
                if pos == 0 and endpos is None:
                    return True
        return self._gate.search(text, pos, len(text) if endpos is None else endpos) is not None

    def search(self, text: str) -> re.Match[str] | None:
        """``pattern.search(text)``."""
        return self.pattern.search(text) if self.may_match(text) else None

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        """``pattern.finditer(text)``."""
        return self.pattern.finditer(text) if self.may_match(text) else iter(())
