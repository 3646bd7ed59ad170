"""A credential described, then put together: every piece is the value (issue 29, blindfix8a).

blind8, written without reading the rules, gave passwords as a description and its parts: "the
year 1987 then 42", "purple then monkey then 93 no spaces", "前四位是1987，后面再加上#66", "Luna,
luego un punto y 77", "kitsune の頭を大文字にして、後ろに８８". The pieces rule of
``said_values`` wants a piece right after each connective; here the connective only says the
value is assembled, and the pieces are whatever in the clause after the cue reads as one: a
number of two digits or more (not a count), a run that is no word, a word the text names as a
piece ("the word falcon", "das Wort Sonnenblume"), a Latin word inside Chinese or Japanese text,
or a word right beside a connective. Two pieces or more, one with a digit, make the value; the
words that describe it ("a dash", "all lowercase") stay. Data: ``data/assembled_values.yaml``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from userlore.policy.cue_data import cues
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit, blanked, has_digit, is_year
from userlore.policy.findings import _SECRET
from userlore.policy.literal_gate import LiteralGate

__all__ = ["assembled_values"]

_CJK: Final = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")


def _alternation(terms: list[str]) -> str:
    parts = []
    for term in sorted(terms, key=len, reverse=True):
        if _CJK.search(term):
            parts.append(f"(?:{term})")
        else:
            parts.append(rf"(?<![^\W_])(?:{term})(?![^\W_])")
    return "|".join(parts) or r"(?!x)x"


_GROUP = re.compile(r"\(\?:([^()]*)\)(\?)?|\[([^\]]+)\]")


def _expand(term: str) -> list[str]:
    """Every literal a fragment of plain groups and classes matches ("(?:first|last) two",
    "前[一二]位", "add(?:ed)?"), for the cheap literal gate in front of the alternation."""
    m = _GROUP.search(term)
    if m is None:
        return [term]
    if m.group(3) is not None:
        options = list(m.group(3))
    else:
        options = m.group(1).split("|") + ([""] if m.group(2) else [])
    head, tail = term[: m.start()], term[m.end() :]
    return [head + o + rest for o in options for rest in _expand(tail)]


@dataclass(frozen=True, slots=True)
class _Data:
    cues: re.Pattern[str]
    cue_words: LiteralGate
    joins: re.Pattern[str]
    join_words: LiteralGate
    namers: re.Pattern[str]
    sequence: re.Pattern[str]
    not_pieces: frozenset[str]


@functools.cache
def _data() -> _Data:
    raw: dict[str, Any] = data_yaml("assembled_values.yaml")
    extra = [str(c) for c in raw["cues"]]
    joins = [str(t) for terms in raw["joins"].values() for t in terms]
    namers = [str(t) for terms in raw["namers"].values() for t in terms]
    return _Data(
        cues=re.compile(_alternation([re.escape(c) for c in extra])),
        cue_words=LiteralGate(extra),
        joins=re.compile(_alternation(joins)),
        join_words=LiteralGate(w for t in joins for w in _expand(t)),
        namers=re.compile(rf"(?:{_alternation(namers)})[\s\"'“”«»「」:]*"),
        sequence=re.compile(_alternation([str(t) for t in raw["sequence"]])),
        not_pieces=frozenset(str(w).casefold() for w in raw["not_pieces"]),
    )


_REGION: Final = 160
# A number of two digits or more, a symbol before it allowed ("#66"), dotted or dashed.
_NUMBER = re.compile(r"(?<![A-Za-z0-9_])[#!@$%&*+]?\d{2,}(?:[.\-:/]\d+)*(?![0-9])")
_LATIN = re.compile(
    r"[^\s,;，。、．：:()（）\"“”«»「」『』\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]+"
)
_ASCII_WORD = re.compile(r"(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9._!#@-]{2,}(?![A-Za-z0-9])")
_WORD_AFTER = re.compile(r"\s*([^\W\d_]+|[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff])")
_EDGES: Final = ".,;:!?()[]{}\"'“”«»"
_MARKER = re.compile(r"\[REDACTED:[\w-]+\]")


def _anchors(lowered: str) -> list[tuple[int, int]]:
    """Credential cues of ``quote_cues.yaml`` and this file's short forms, outside compounds
    that name no secret ("password manager")."""
    c = cues()
    d = _data()
    found: list[tuple[int, int]] = []
    if c.credential_words.search(lowered):
        excluded = [m.span() for m in c.not_credential_scan.finditer(lowered)]
        found += [
            m.span()
            for m in c.credential.finditer(lowered)
            if not any(s <= m.start() < e for s, e in excluded)
        ]
    if d.cue_words.search(lowered):
        found += [m.span() for m in d.cues.finditer(lowered)]
    return sorted(set(found))


def _counted(lowered: str, end: int, counts: frozenset[str]) -> bool:
    after = _WORD_AFTER.match(lowered, end)
    return after is not None and after.group(1) in counts


_SINCE = re.compile(
    r"(?:\b(?:in|en|im|em|since|seit|desde|depuis|until|bis|hasta|até|jusqu'en)"
    r"|于|在)\s*$"
)


def _dated(lowered: str, m: re.Match[str]) -> bool:
    """A year said as when ("changed it in 2019", "seit 2020"), not as a piece."""
    return (
        is_year(m.group(0))
        and _SINCE.search(lowered, max(0, m.start() - 12), m.start()) is not None
    )


def _is_piece(word: str, d: _Data) -> bool:
    w = word.strip(_EDGES).casefold()
    return len(w) >= 3 and w not in d.not_pieces and not d.joins.fullmatch(w)


def _valued(token: str) -> bool:
    """No word of a sentence: letters with a digit or a symbol inside, or a case change."""
    core = token.strip(_EDGES)
    if len(core) < 4 or not any(ch.isalpha() for ch in core):
        return False
    if any(ch.isdigit() for ch in core):
        return True
    if any(not ch.isalnum() and ch not in "-'’" for ch in core):
        return True
    return any(ch.isupper() for ch in core[1:]) and any(ch.islower() for ch in core)


def _token_span(t: str, start: int, end: int) -> tuple[int, int]:
    while start < end and t[start] in _EDGES:
        start += 1
    while end > start and t[end - 1] in _EDGES and not (t[end - 1] == "!" and end - start > 4):
        end -= 1
    return start, end


def _pieces(t: str, lowered: str, lo: int, hi: int, d: _Data) -> list[tuple[int, int]]:
    counts = cues().counts
    spans: list[tuple[int, int]] = []
    for m in _NUMBER.finditer(t, lo, hi):
        if _counted(lowered, m.end(), counts) or _dated(lowered, m):
            continue
        spans.append(m.span())
    for m in _LATIN.finditer(t, lo, hi):
        if _valued(m.group(0)):
            spans.append(_token_span(t, *m.span()))
    for m in d.namers.finditer(lowered, lo, hi):
        word = _LATIN.match(t, m.end())
        if word is not None and word.end() <= hi and _is_piece(word.group(0), d):
            spans.append(_token_span(t, *word.span()))
    if _CJK.search(t, lo, hi):
        spans.extend(m.span() for m in _ASCII_WORD.finditer(t, lo, hi) if _is_piece(m.group(0), d))
    else:
        for j in d.sequence.finditer(lowered, lo, hi):
            before = list(_LATIN.finditer(t, max(lo, j.start() - 30), j.start()))
            if before and _is_piece(before[-1].group(0), d) and t[before[-1].end()] != ":":
                spans.append(_token_span(t, *before[-1].span()))
            for word in list(_LATIN.finditer(t, j.end(), min(hi, j.end() + 40)))[:4]:
                if _is_piece(word.group(0), d):
                    spans.append(_token_span(t, *word.span()))
                    break
                if word.group(0).strip(_EDGES).casefold() not in d.not_pieces:
                    break
    out: list[tuple[int, int]] = []
    for s, e in sorted(set(spans)):
        if e > s and not any(a <= s and e <= b for a, b in spans if (a, b) != (s, e)):
            out.append((s, e))
    return out


def _whole(value: str) -> bool:
    """A value complete by itself (a card's or an account's nine digits or more)."""
    return sum(ch.isdigit() for ch in value) > 8


def assembled_values(
    t: str, lowered: str, named: list[tuple[int, int]] | None = None
) -> Iterator[_Hit]:
    """The pieces of a credential that the text describes and puts together (see the module
    docstring), each as a secret. Pieces inside ``named`` (spans an earlier rule reported)
    are not counted: a card number before "para luego" makes no password of "para"."""
    named = named or []
    if len(lowered) != len(t) or not has_digit(t):
        return
    d = _data()
    if not d.join_words.search(lowered):
        return
    if "[REDACTED:" in t:  # a marker is no piece, and its rule name no cue
        t = _MARKER.sub(blanked, t)
        lowered = t.lower()
    anchors = _anchors(lowered)
    for i, (_, cue_end) in enumerate(anchors):
        hi = min(len(t), cue_end + _REGION)
        newline = t.find("\n", cue_end, hi)
        if newline >= 0:
            hi = newline
        if i + 1 < len(anchors) and anchors[i + 1][0] >= cue_end:
            hi = min(hi, anchors[i + 1][0])  # the next cue opens its own value
        if d.joins.search(lowered, cue_end, hi) is None:
            continue
        # A piece an earlier rule named still counts (it is part of the value) unless it is a
        # whole value of its own (a card number); only the others are reported here.
        spans = [
            (s, e)
            for s, e in _pieces(t, lowered, cue_end, hi, d)
            if not any(a < e and s < b and _whole(t[a:b]) for a, b in named)
        ]
        taken = [(s, e) for s, e in spans if any(a < e and s < b for a, b in named)]
        if len(spans) == 1 and sum(ch.isdigit() for ch in t[spans[0][0] : spans[0][1]]) >= 4:
            # One number, then something added to it ("生日0312再加两个8"): its head.
            if d.joins.search(lowered, spans[0][1], hi) is None:
                continue
        elif len(spans) < 2 or not any(any(ch.isdigit() for ch in t[s:e]) for s, e in spans):
            continue
        for s, e in spans:
            if (s, e) not in taken:
                yield (_SECRET, "assembled_value", s, e, None)
