"""Which of the floor's literal cue words occur in a text: one scan, shared by every gate.

The floor asks a text "does any of these words occur" about fifty times (each detector's
:class:`~userlore.policy.literal_gate.LiteralGate`, each cue alternation's literals), and each
question scanned the text again: about 2 µs a sentence each, ~30 scans a stored value. Here
every gate's words go into one Aho–Corasick automaton (``pyahocorasick``), a text is scanned
once, and a gate's answer is a set lookup in what the scan found (issue 30, floorcost12).

The answer is exactly ``word in text`` for each registered word (the automaton reports every
occurrence, overlapping ones too). Words are registered when a gate is built, from the gate's
own data, so a rule change moves its gate with it; a gate built after a scan rebuilds the
automaton before its first question (see :func:`found`).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Final

import ahocorasick

__all__ = ["found", "register"]

_LOCK: Final = threading.Lock()
_WORDS: set[str] = set()
_MEMO_SIZE: Final = 8  # the texts one ``classify`` asks about: the folded text, its views, lowered


class _State:
    """An automaton of the words registered when it was built, and its answers so far."""

    __slots__ = ("automaton", "memo")

    def __init__(self, words: list[str]) -> None:
        self.automaton: ahocorasick.Automaton | None = None  # none registered: none occurs
        if words:
            self.automaton = ahocorasick.Automaton()
            for word in words:
                self.automaton.add_word(word, word)
            self.automaton.make_automaton()
        self.memo: dict[str, frozenset[str]] = {}


# None: words were registered since the last build. A state is never changed once built (its
# memo only holds its own answers), so a thread that took an older one answers only for the
# gates that existed when it took it.
_state: _State | None = None


def register(words: Iterable[str]) -> frozenset[str]:
    """Add ``words`` (non-empty) to the scan; the set a gate later intersects with :func:`found`."""
    global _state
    mine = frozenset(words)
    if "" in mine:
        raise ValueError("an empty word occurs in every text: the gate must say so itself")
    with _LOCK:
        if not mine <= _WORDS:
            _WORDS.update(mine)
            _state = None
    return mine


def found(text: str) -> frozenset[str]:
    """Every registered word that occurs in ``text`` (case and all, as ``word in text``)."""
    state = _state
    if state is None:
        state = _build()
    hit = state.memo.get(text)
    if hit is not None:
        return hit
    automaton = state.automaton
    hit = frozenset([w for _, w in automaton.iter(text)]) if automaton and text else _NONE
    memo = state.memo
    if len(memo) >= _MEMO_SIZE:
        memo.clear()
    memo[text] = hit
    return hit


_NONE: Final[frozenset[str]] = frozenset()


def _build() -> _State:
    global _state
    with _LOCK:
        if _state is None:
            _state = _State(sorted(_WORDS))
        return _state
