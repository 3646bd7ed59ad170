"""Membership of a named party or union, said by the speaker (issue 29, blindfix12b).

The per-language vocabularies read a party membership by a word for "party" or by a few names
behind their own prepositions; "estoy afiliada a Podemos desde hace años" passed. Here each
language's first-person forms of belonging (``data/party_membership.yaml``: "estoy afiliada a",
"ich bin … Mitglied bei den", "j'ai ma carte au", "me filiei ao", "I joined the") are read
around any party's or union's name of the data, in whichever language the sentence is: a party
is a political opinion, a union a trade-union membership. Someone else's membership has no
first-person form; a denial ("no estoy afiliada", "I'm not a member of") states none.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit
from userlore.policy.findings import _SPECIAL
from userlore.policy.literal_gate import LiteralGate

__all__ = ["party_membership"]

_CATEGORIES = (("parties", "political_opinion"), ("unions", "trade_union"))
_EXACT_BELOW = 5  # a shorter name (an acronym: "PS", "PT", "IU") is matched only as written
_NEGATION = re.compile(
    r"(?i)\b(?:not|never|no longer|no|nunca|jamás|nicht|kein\w*|nie|pas|plus|jamais|não|nao)\b"
    r"|不|没|ない|ません"
)
_NEGATION_BEFORE = 14  # characters before a form a denial reaches ("ya no estoy afiliada")


@dataclass(frozen=True, slots=True)
class _Forms:
    gate: LiteralGate
    names: LiteralGate  # every name (lower-cased) or a nameless form's literal: one must occur
    exact_names: LiteralGate  # the names matched only as written, searched in the text itself


def _name(name: str, exact: frozenset[str]) -> str:
    body = re.escape(name)
    if len(name) < _EXACT_BELOW or name in exact:
        body = f"(?-i:{body})"
    return body + (r"(?![^\W_])" if name[-1].isascii() and name[-1].isalnum() else "")


@functools.cache
def _patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """(category, every form with its names): one big alternation each, ~1.5 s to compile, so
    built only when a text opens both gates (few do), not on a new process's first turn."""
    raw: dict[str, Any] = data_yaml("party_membership.yaml")
    exact = frozenset(str(n) for n in raw["exact"])
    forms = [str(f) for fs in raw["forms"].values() for f in fs]
    patterns = []
    for key, category in _CATEGORIES:
        names = sorted({str(n) for ns in raw[key].values() for n in ns}, key=len, reverse=True)
        alt = "(?:" + "|".join(_name(n, exact) for n in names) + ")"
        joined = "|".join(f"(?:{f.replace('{name}', alt)})" for f in forms)
        patterns.append((category, re.compile(joined, re.IGNORECASE)))
    return tuple(patterns)


@functools.cache
def _forms() -> _Forms:
    raw: dict[str, Any] = data_yaml("party_membership.yaml")
    exact = frozenset(str(n) for n in raw["exact"])
    names = [str(n) for key, _ in _CATEGORIES for ns in raw[key].values() for n in ns]
    cjk_names = [n for n in names if not n.isascii()]
    # A Latin gate word at a word's start only (searched in " " + the text): "member" stands in
    # "remember", in most chat turns.
    words = [str(w).casefold() for w in raw["gate"]]
    gate = LiteralGate([*(f" {w}" if w.isascii() else w for w in words), *cjk_names])
    # Every form names a party or a union, but a few Chinese and Japanese ones (我入党,
    # 組合の執行委員): their literals (``nameless``) stand for a name. A text with a form's word
    # and no name (most English turns have "been") is not read further.
    as_written = [n for n in names if len(n) < _EXACT_BELOW or n in exact]
    folded = [n.lower() for n in names if n not in as_written]
    nameless = [str(w) for w in raw["nameless"]]
    return _Forms(gate, LiteralGate([*folded, *nameless]), LiteralGate(as_written))


def party_membership(t: str, lowered: str) -> Iterator[_Hit]:
    """The speaker's membership of a named party or union (see the module docstring)."""
    forms = _forms()
    if not forms.gate.search(" " + lowered):
        return
    if not forms.names.search(lowered) and not forms.exact_names.search(t):
        return
    for category, pattern in _patterns():
        for m in pattern.finditer(t):
            before = t[max(0, m.start() - _NEGATION_BEFORE) : m.start()]
            if _NEGATION.search(m.group(0)) or _NEGATION.search(before):
                continue
            yield (_SPECIAL, category, m.start(), m.end(), category)
