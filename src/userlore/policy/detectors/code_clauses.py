"""Every value of a turn about a code, not only the first (issue 29, blind12).

``cued_values`` reads the values after a credential word up to the end of its clause: a comma
ends it. Codes are told in more than one clause: a correction ("el PIN de la tarjeta no es 4471,
es 4417"), the new and the old ("新的是 738215#，旧的 2046 作废": an old code is still a value),
a list of doors or devices ("le code du digicode c'est 47B12, et la porte du bas 1984"). After a
credential word that names a secret (not an identifier's word), the further clauses of its
sentence take their code-shaped values when the word's own clause gave one, and any clause or
next sentence does that opens with a correction or new/old word (``data/code_clauses.yaml``).
A year there is a code unless a time word stands before it ("since 2015"); a time, a date, a
count, an amount or a version is not.

A code is told in the sentence after the one that names it, too (blind24: "Voicemail keeps
asking for the PIN. It was my old house number twice, 1414 — no wait, I changed it in March to
5528", "Zahlenschloss am Spind im Fitnessstudio. Hab 5-1-8 eingestellt. Nee warte, 5-8-1.",
"家里保险柜的密码是我生日倒过来。８２７０９１。"). After a credential word or a lockable thing
(``lock_cues.yaml``) whose sentence gave no value, the next sentence takes its code-shaped values
(three digits said one by one too) when it sets or changes something (``settings`` in
``code_clauses.yaml``), holds a correction (``corrections.yaml``) or is the value alone; and each
sentence after that which opens with a correction takes them too (:func:`next_sentence_codes`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.cue_data import alternation, cues, literal_alternation
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit, is_year, named_spans
from userlore.policy.detectors.corrected_values import correction_words
from userlore.policy.detectors.cued_values import _DATE, _DIGITS, _TIME, _TOKEN, _shaped
from userlore.policy.detectors.lock_codes import lock_cues
from userlore.policy.findings import _SECRET

__all__ = [
    "clause_values",
    "code_clauses",
    "next_sentence_codes",
    "sentence_spans",
    "time_words",
]

RULE: Final = "code_clause"
_CLAUSE = re.compile(r"[,，、;；]")
_SENTENCE = re.compile(r"(?<!\d)\.(?!\d)|[!?。！？\n]")
_MAX_CLAUSES: Final = 4
_REACH: Final = 120
_GAP = re.compile(r"[\s\"'“”«»「」(（:：]*")
_MONEY = re.compile(r"[€$£¥￥円元₩₹]|\b(?:eur|usd|euros?|d[oó]lar|reais|pesos)\b", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]+")


@functools.cache
def _settings() -> re.Pattern[str]:
    raw: dict[str, list[str]] = data_yaml("code_clauses.yaml")["settings"]
    return re.compile(alternation([str(w).casefold() for ws in raw.values() for w in ws]))


@functools.cache
def _data() -> tuple[re.Pattern[str], re.Pattern[str]]:
    raw = data_yaml("code_clauses.yaml")

    def alternation(section: dict[str, list[str]]) -> str:
        return literal_alternation(
            sorted({str(w).casefold() for ws in section.values() for w in ws})
        )

    lead = r"(?:(?:and|but|y|pero|und|aber|et|e|mas|the|el|la|le|der|die|das|o|a)\s+)*"
    markers = re.compile(rf"{lead}(?:{alternation(raw['markers'])})(?![a-zß-öø-ÿ]|'[a-z])")
    time_before = re.compile(rf"(?<![^\W\d_])(?:{alternation(raw['time_before'])})\s*$")
    return markers, time_before


def code_clauses(t: str, lowered: str, hits: list[_Hit]) -> Iterator[_Hit]:
    """Values in the further clauses of a sentence about a code (see the module docstring)."""
    c = cues()
    yield from next_sentence_codes(t, lowered, hits)
    found = c.credential_cues(lowered)
    if not found:
        return
    markers, time_before = _data()
    named = named_spans(hits)
    for m in found:
        if c.identifier.fullmatch(m.group(0)) is not None:
            continue
        limit = min(len(t), m.end() + _REACH)
        boundary = _next_boundary(t, m.end(), limit)
        if boundary is None:
            continue
        pos, sentence_ended = boundary
        told = any(m.end() <= s < pos for s, _ in named)
        for _ in range(_MAX_CLAUSES):
            start = _GAP.match(t, pos)
            lo = start.end() if start else pos
            nxt = _next_boundary(t, lo, limit)
            hi = nxt[0] if nxt else limit
            opens = markers.match(lowered, lo) is not None
            if opens or (told and not sentence_ended):
                for span in clause_values(t, lowered, lo, hi, c.counts, time_before):
                    told = True
                    yield (_SECRET, RULE, *span, None)
            elif sentence_ended:
                break
            if nxt is None:
                break
            pos, ended = nxt
            sentence_ended = sentence_ended or ended


def time_words() -> re.Pattern[str]:
    """Words before a year that make it a time, not a code ("since 2015"): end-anchored."""
    return _data()[1]


def _next_boundary(t: str, lo: int, hi: int) -> tuple[int, bool] | None:
    """Where the next clause begins after ``lo`` (before ``hi``), and whether a sentence ended."""
    clause = _CLAUSE.search(t, lo, hi)
    sentence = _SENTENCE.search(t, lo, hi)
    if sentence is not None and (clause is None or sentence.start() < clause.start()):
        return sentence.end(), True
    if clause is not None:
        return clause.end(), False
    return None


def clause_values(
    t: str,
    lowered: str,
    lo: int,
    hi: int,
    counts: frozenset[str],
    time_before: re.Pattern[str],
) -> Iterator[tuple[int, int]]:
    """Code-shaped values in ``t[lo:hi]``: runs of four digits or more (or three spaced), and
    tokens that mix letters and digits; not a time, a date, a count, an amount or a version."""
    taken: list[tuple[int, int]] = []
    for d in _DIGITS.finditer(t, lo, hi):
        run = d.group(0)
        if _TIME.fullmatch(run) or _DATE.fullmatch(run) or run.count(".") >= 1:
            continue
        after = _WORD.match(t, d.end() + 1) if d.end() + 1 < len(t) else None
        if after is not None and after.group(0).casefold() in counts:
            continue
        near = t[max(lo, d.start() - 2) : min(len(t), d.end() + 8)]
        if _MONEY.search(near):
            continue
        if is_year(run) and (
            time_before.search(lowered, lo, d.start()) or t[d.end() : d.end() + 1] == "年"
        ):
            continue
        taken.append(d.span())
        yield d.span()
    for tok in _TOKEN.finditer(t, lo, hi):
        if any(s <= tok.start() < e for s, e in taken):
            continue
        word = tok.group(0).rstrip(".!?#")
        if word.isascii() and _shaped(word) and not any(ch == "." for ch in word):
            yield tok.start(), tok.start() + len(word)


NEXT_RULE: Final = "next_sentence_code"
# A sentence ends at a dot before a space too: "… the safe. 804152. That's it."
_SENTENCE_END = re.compile(r"\.(?=\s|$)|[!?。！？\n]")
# Three digits said one by one ("5-1-8", "7 2 9"): a padlock's dials; or, set on a lockable
# thing, three in a run ("Ich hab 913 eingestellt").
_SINGLES = re.compile(r"(?<![\w\-.,:/])\d([ \-])\d\1\d(?![\w\-/]|[.,:]\w)")
_THREE = re.compile(r"(?<![\w\-.,:/])\d{3}(?![\w\-/]|[.,:]\w)")
_BARE = re.compile(r"[\s\d\-.·・,，。.!?！？]*")
_MAX_NEXT: Final = 3
_WORD_BEFORE = re.compile(r"[^\W\d_]+(?=[\s#:]*$)")
_OPENING = " \t\"'“”«»「」(（—–-"


def sentence_spans(t: str) -> list[tuple[int, int]]:
    """The spans of ``t``'s sentences, in order, covering it (a dot ends one before a space
    or the end: "… the safe. 804152. That's it."; a dot between digits ends none)."""
    spans, lo = [], 0
    for m in _SENTENCE_END.finditer(t):
        spans.append((lo, m.end()))
        lo = m.end()
    if lo < len(t):
        spans.append((lo, len(t)))
    return spans


def next_sentence_codes(t: str, lowered: str, hits: list[_Hit]) -> Iterator[_Hit]:
    """Code-shaped values in the sentences after one that names a code with no value (see
    the module docstring)."""
    c = cues()
    starts = [
        m.end() for m in c.credential_cues(lowered) if c.identifier.fullmatch(m.group(0)) is None
    ]
    locks = lock_cues()
    things = []
    if locks.may_name_a_thing(lowered):
        things = [m.end() for m in locks.things.finditer(lowered)]
        starts += things
    if not starts:
        return
    sentences = sentence_spans(t)
    named = named_spans(hits)
    corrections = correction_words()
    settings = _settings()
    _, time_before = _data()
    done: set[int] = set()
    for cue_end in sorted(starts):
        at = next((i for i, (_, hi) in enumerate(sentences) if hi > cue_end), None)
        if at is None or at in done:
            continue
        lo, hi = sentences[at]
        if (
            any(lo <= s < hi for s, _ in named)
            or _SINGLES.search(t, lo, hi)
            or "[redacted:" in lowered[lo:hi]  # the floor's own re-check of a redacted text
        ):
            continue  # its own sentence told the code: the clause readings above
        done.add(at)
        for k, (s_lo, s_hi) in enumerate(sentences[at + 1 : at + 1 + _MAX_NEXT]):
            text = lowered[s_lo:s_hi]
            setting = k == 0 and settings.search(text) is not None
            if k == 0:
                takes = (
                    setting
                    or corrections.search(text) is not None
                    or _BARE.fullmatch(t, s_lo, s_hi) is not None
                )
            else:
                takes = corrections.match(text.lstrip(_OPENING)) is not None
            values = []
            if takes:
                values = [
                    *clause_values(t, lowered, s_lo, s_hi, c.counts, time_before),
                    *(m.span() for m in _SINGLES.finditer(t, s_lo, s_hi)),
                ]
                if setting and cue_end in things:
                    values += [
                        m.span()
                        for m in _THREE.finditer(t, s_lo, s_hi)
                        if not _unit_after(lowered, m.end(), locks.units)
                        and not _place_before(lowered, s_lo, m.start(), locks.places)
                        and not _MONEY.search(t[max(s_lo, m.start() - 2) : m.end() + 8])
                    ]
            elif k == 0:
                # Stated by a copula right before it ("… the safe. Mine is 804152 I think").
                values = [
                    span
                    for span in clause_values(t, lowered, s_lo, s_hi, c.counts, time_before)
                    if _stated(lowered, s_lo, span[0], locks.relations, locks.places)
                ]
            if not values:
                break
            for start, end in values:
                yield (_SECRET, NEXT_RULE, start, end, None)


def _unit_after(lowered: str, end: int, units: frozenset[str]) -> bool:
    """A count's, a size's or a time's word right after a number ("120 minutes", "3 階")."""
    after = (
        _WORD.match(lowered, end + 1)
        if lowered[end : end + 1] == " "
        else _WORD.match(lowered, end)
    )
    return after is not None and after.group(0) in units


def _place_before(lowered: str, lo: int, start: int, places: frozenset[str]) -> bool:
    """A place's word right before a number ("now I'm in 412", "Zimmer 314"): where, not a code."""
    before = _WORD_BEFORE.search(lowered, lo, start)
    return before is not None and before.group(0) in places


def _stated(
    lowered: str, lo: int, start: int, relations: frozenset[str], places: frozenset[str]
) -> bool:
    """A copula or a colon right before a value ("mine is 804152", "新的是 419263"), not after
    a place's or a number's word ("my number is 5551234", "room: 1204")."""
    gap = lowered[lo:start].rstrip()
    if gap.endswith((":", "：", "=")):
        named = _WORD_BEFORE.search(gap[:-1])
        return named is None or named.group(0) not in places
    before = _WORD_BEFORE.search(lowered, lo, start)
    if before is None:
        return False
    word = before.group(0)
    if word not in relations and not any(word.endswith(r) for r in relations if not r.isascii()):
        return False
    named = _WORD_BEFORE.search(lowered, lo, before.start())
    return named is None or named.group(0) not in places
