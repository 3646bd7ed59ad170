"""National ids in their printed forms after their id word, valid or not (issue 29, blind12).

The registry walk (``registry``) and the cued rules take an id that validates, or one whose
module names it; blind12 stored a Uruguayan cédula printed "4.512.093-6" (python-stdnum has no
module for it) and a Mexican RFC whose check character does not validate. A user who pastes a
number after its own id word ("mi cédula es …", "RFC para la factura: …", "meine Steuer-ID ist
…") has given that id, mistyped or not. Here the first id-shaped value within the clause after
an id word of ``data/unvalidated_ids.yaml`` is regulated: digits printed with thousands' dots and a
check part ("4.512.093-6", "V-12.345.678"), digits in groups ("2345 6789 0123", "65 170839 J
004"), a run of seven to thirteen digits, or capitals mixed with four digits or more
("GOMA850612KJ3"). Not an id: a date, an amount, anything after an order or tracking word, an
IETF "RFC 7231" (too short).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.cue_data import literal_alternation
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.check_parts import _NOT_AN_ID
from userlore.policy.detectors.common import _Hit, _is_placeholder
from userlore.policy.detectors.cued_values import _DATE
from userlore.policy.findings import _REGULATED
from userlore.policy.literal_gate import LiteralGate

__all__ = ["unvalidated_ids"]

_REACH: Final = 40
# A sentence's end; not an abbreviation's dot ("Aufenthaltstitel Nr. für …": blindfix17a).
_STOP = re.compile(r"[!?\n。！？;]|(?<![Nn]r)(?<![Nn]o)(?<![Nn][º°])\.(?!\d)(?=\s|$)")
# Capitals and digits in up to six groups joined by one space, dot, dash or slash.
# A CJK character may touch it ("社保号是608213579，", "番号はAB12345678CDです"): no other word
# character, nor an id's separator, may.
_WORD_NOT_CJK = r"(?![\u3040-\u30ff\u3400-\u9fff])\w"
_VALUE = re.compile(
    rf"(?<![.\-/])(?<!{_WORD_NOT_CJK})[A-Z0-9]{{1,20}}(?:[ .\-/][A-Z0-9]{{1,16}}){{0,5}}"
    rf"(?!{_WORD_NOT_CJK}|[.\-/][A-Za-z0-9])"
)
_DOTTED = re.compile(r"(?:[A-Z]-?)?\d{1,3}(?:\.\d{3}){1,3}(?:-[0-9Kk])?")
_MONEY_AFTER = re.compile(
    r"\s*(?:[€$£¥￥円元]|pesos?|euros?|d[oó]lar|reais|dollars?|eur|usd)", re.IGNORECASE
)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
# A form's name between the word and its id ("my A-number on the I-765, it's A 087 …":
# blindfix24b) is no other number.
_FORM_NAME = re.compile(r"(?<![\w-])[A-Z]{1,3}-\d{1,4}(?![\w-])")
_MIN_CHARS: Final = 7
_MAX_CHARS: Final = 20


@functools.cache
def _words() -> tuple[LiteralGate, LiteralGate, re.Pattern[str], frozenset[str]]:
    raw = data_yaml("unvalidated_ids.yaml")
    words = [str(w) for key in ("ids", "insurance_ids") for ws in raw[key].values() for w in ws]
    dotted = [str(w) for w in raw["dotted_only"]]
    acronyms = [w for w in [*words, *dotted] if len(w.rstrip(".")) <= 4 and w.upper() == w]
    others = [w.casefold() for w in words if w not in acronyms]
    alts = literal_alternation(acronyms)
    rest = literal_alternation([w for w in others if w.isascii() or not _CJK.search(w)])
    cjk = literal_alternation([w for w in others if not w.isascii() and _CJK.search(w)])
    pattern = re.compile(
        rf"(?<![A-Za-z])(?:{alts})(?![A-Za-z])|(?i:(?<![^\W\d_])(?:{rest})(?![^\W\d_]))"
        rf"|(?:{cjk})"  # CJK words anywhere: no space sets them off
    )
    # Acronyms in capitals on the caller's text ("sin", "ci", "run" are in every other line
    # lower-cased), the other words on the lowered text.
    return LiteralGate(acronyms), LiteralGate(others), pattern, frozenset(dotted)


def unvalidated_ids(t: str, lowered: str) -> Iterator[_Hit]:
    """The printed id after each id word of the data file (see the module docstring)."""
    yield from _card_parts(t)
    acronyms, words, pattern, dotted_only = _words()
    if not acronyms.search(t) and not words.search(lowered):
        return
    for w in pattern.finditer(t):
        end = min(len(t), w.end() + _REACH)
        stop = _STOP.search(t, w.end(), end)
        hi = stop.start() if stop else end
        for v in _VALUE.finditer(t, w.end(), hi):
            value = v.group(0)
            if not _id_shaped(value):
                continue
            if w.group(0) in dotted_only and _DOTTED.fullmatch(value) is None:
                break
            if (
                _DATE.fullmatch(value)
                or _is_placeholder(value)
                or _NOT_AN_ID.search(t, w.end(), v.start())
                or _MONEY_AFTER.match(t, v.end())
                or any(ch.isdigit() for ch in _FORM_NAME.sub("", t[w.end() : v.start()]))
            ):
                break
            yield (_REGULATED, "national_id", v.start(), v.end(), "government_id")
            break


def _id_shaped(value: str) -> bool:
    """Seven to twenty letters and digits, with six digits or more (four beside letters)."""
    compact = re.sub(r"[ .\-/]", "", value)
    if not _MIN_CHARS <= len(compact) <= _MAX_CHARS:
        return False
    digits = sum(ch.isdigit() for ch in compact)
    letters = len(compact) - digits
    return digits >= 6 or (letters >= 1 and digits >= 4 and len(compact) >= 8)


@functools.cache
def _cards() -> tuple[tuple[str, ...], re.Pattern[str]]:
    raw = data_yaml("unvalidated_ids.yaml")
    parts = literal_alternation([str(w) for w in raw["card_parts"]])
    return tuple(str(w) for w in raw["card_words"]), re.compile(
        rf"(?<!保険者)(?:{parts})\s*[はが:：]?\s*(?P<v>\d{{1,8}})(?!\d)"
    )


def _card_parts(t: str) -> Iterator[_Hit]:
    """The numbers after a health-insurance card's part words where the card is named."""
    words, parts = _cards()
    if t.isascii() or not any(w in t for w in words):
        return
    for m in parts.finditer(t):
        yield (_REGULATED, "national_id", m.start("v"), m.end("v"), "government_id")
