"""Codes told around their cue, past where ``cued_values`` reads (issue 29).

``cued_values`` takes the value-like runs in the credential cue's own sentence, up to the
first comma, and no year said after other words. Three ways of telling a code cross that:

- the cue says the code is a year ("la clave del cajero es el año en que nació mi vieja,
  1958"): a year word after the cue, no negation between, makes the next year the code;
- a change said after a comma ("mon code de carte, je l'ai changé en 2580"): four to eight
  digits right after a change phrase, or right before one ("auf 3812 geändert");
- a code in pieces over two sentences ("密码是 4 8 0。后面再加 27"): where ``said_values``
  marks a piece that is a word ("再加"), the digits right after it are the piece;
- a value said again in digits ("…, mil novecientos treinta y ocho, o sea 1938"): ``redact``
  reads its own output again, so the digits right after a redaction marker and a word that
  restates ("o sea", "i.e.", "d.h.", "つまり") or a bracket are the value the marker hid; a
  year too, however far from the cue (blind16 b16c-es-secret-003). The marker is the
  evidence: "at three, i.e. 15:00" has none.
- a code's reading in quotes before its digits ("暗証番号は「いちごいちえ」で覚えてる、つまり1515",
  "密码用谐音记的，“要我发发”，也就是1488"; blindfix21a): once the digits are a marker, a
  quoted run of letters right after a credential cue and before that marker, in one sentence,
  is the same value said as a mnemonic (a goroawase, a homophone): it says the digits to
  whoever reads it.

Words are data (``data/told_codes.yaml``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from userlore.policy.cue_data import cues, literal_alternation
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit, has_decimal, is_year
from userlore.policy.findings import _SECRET

__all__ = ["told_codes"]

_WINDOW: Final = 90
_SENTENCE_END = re.compile(r"[!?。！？\n]|(?<!\.\.)\.(?!\d)(?=\s|$)")
_STATEMENT_END = re.compile(r"[!。！\n]|(?<!\.\.)\.(?!\d)(?=\s|$)")
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
_RUN = r"\d(?:[ \-.]?\d){3,7}"
_PIECE_DIGITS = re.compile(r"\s{0,2}(\d(?:[ \-]?\d){1,7})(?!\d)")
# A quoted run of letters (a digit in it makes it a value the other rules read), then a
# redaction marker a few characters on in the same sentence.
_READING = re.compile(
    # An opening quote (an apostrophe inside "l'immeuble" opens none), letters and spaces.
    r"(?:[「『“„«]|(?<![A-Za-z\u00c0-\u024f0-9])[\"'‘])([^\W\d_][^\d「」『』“”\"'‘’„«»\n。.!?！？=:@_/\-]{1,23}?)"
    r"(?:[」』”»]|[\"'’“](?![A-Za-z\u00c0-\u024f0-9]))"
    # Then the marker, nothing between that assigns or quotes ("username="…" password=").
    r"[^\n。!?！？\[=:\"'“”「」]{0,16}?\[REDACTED:[\w-]+\]"
)
_READING_REACH: Final = 24
"""How far after a credential cue a reading's quote may open ("暗証番号は「", "PIN, 'two")."""


@dataclass(frozen=True, slots=True)
class _Words:
    year: re.Pattern[str]
    negation: re.Pattern[str]
    change_before: re.Pattern[str]
    change_after: re.Pattern[str]
    restated: re.Pattern[str]


@functools.cache
def _words() -> _Words:
    raw: dict[str, Any] = data_yaml("told_codes.yaml")
    return _Words(
        year=re.compile(literal_alternation(raw["year_words"])),
        negation=re.compile(
            rf"(?<![^\W\d_])(?:{literal_alternation(raw['negations'])})(?![^\W\d_])"
        ),
        change_before=re.compile(
            rf"(?:{literal_alternation(raw['change_before'])})\s*({_RUN})(?!\d)"
        ),
        change_after=re.compile(
            rf"(?<!\d)({_RUN})\s*(?:{literal_alternation(raw['change_after'])})"
        ),
        restated=re.compile(
            # A counter glued to the marker stays ("[…]年、要するに1995").
            r"\[redacted:[\w-]+\][^\W\d_]{0,2}\s*[,，、]?\s*"
            rf"(?:(?:{literal_alternation(raw['restated'])})\s*[,:：]?\s*|[(（=]\s*)"
            r"(\d(?:[ \-.]?\d){2,11})(?![\d.,]\d)"
        ),
    )


def told_codes(t: str, lowered: str, hits: list[_Hit]) -> Iterator[_Hit]:
    """The codes told in the ways of the module docstring."""
    if "[REDACTED:" in t:  # its digits gone, a reading has none left
        yield from _readings(t, lowered)
    if not has_decimal(t):
        return
    yield from _piece_digits(t, hits)
    if "[REDACTED:" in t:
        for m in _words().restated.finditer(lowered):
            yield (_SECRET, "told_code", m.start(1), m.end(1), None)
    c = cues()
    found = c.credential_cues(lowered)
    if not found:
        return
    w = _words()
    for cue in found:
        if c.identifier.fullmatch(cue.group(0)) is not None:
            continue  # an account's or a card's number is the identifier rules'
        stop = _SENTENCE_END.search(t, cue.end(), min(len(t), cue.end() + _WINDOW))
        hi = stop.start() if stop else min(len(t), cue.end() + _WINDOW)
        said = w.year.search(lowered, cue.end(), hi)
        if said is not None and w.negation.search(lowered, cue.end(), said.start()) is None:
            year = _YEAR.search(t, said.end(), hi)
            if year is not None:
                yield (_SECRET, "told_code", year.start(), year.end(), None)
        # A cue asked about ("code de la CB ? je l'ai changé en 7140"): the answer goes on.
        stop = _STATEMENT_END.search(t, cue.end(), min(len(t), cue.end() + _WINDOW))
        hi = stop.start() if stop else min(len(t), cue.end() + _WINDOW)
        for pattern in (w.change_before, w.change_after):
            for m in pattern.finditer(lowered, cue.end(), hi):
                if not is_year(m.group(1)):
                    yield (_SECRET, "told_code", m.start(1), m.end(1), None)


def _piece_digits(t: str, hits: list[_Hit]) -> Iterator[_Hit]:
    """The digits right after a piece ``said_values`` marked on a word, or a spaced run the
    piece cut after its first digit."""
    for hit in hits:
        if hit[1] != "password_in_pieces":
            continue
        m = _PIECE_DIGITS.match(t, hit[3])
        if m is None:
            continue
        if t[hit[3] - 1].isdigit():
            if m.start(1) > hit[3]:  # "4" of "4 8 0": the rest of the run
                yield (_SECRET, "password_in_pieces", hit[2], m.end(1), None)
        else:  # "再加" of "再加 27": the digits after the word
            yield (_SECRET, "password_in_pieces", m.start(1), m.end(1), None)


def _readings(t: str, lowered: str) -> Iterator[_Hit]:
    """A quoted reading of a code between its cue and the marker that hid its digits."""
    for cue in cues().credential_cues(lowered):
        m = _READING.search(t, cue.end(), min(len(t), cue.end() + _READING_REACH + 64))
        if m is None or m.start() - cue.end() > _READING_REACH:
            continue
        yield (_SECRET, "told_code", m.start(1), m.end(1), None)
