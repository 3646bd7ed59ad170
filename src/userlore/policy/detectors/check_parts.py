"""Identifiers given in parts, and identifiers of countries the registry walk does not know
(issue 29).

A check part named apart from its number ("numéro de sécu : 1 85 07 75 113 042 clé 43", "mi
DNI es 48291037 y la letra es la F", "身份证 … 校验码 6") is a piece of the identifier: where an
identifier rule already took the number, or the number and its part together validate under a
stdnum module named just before them ("mi RUT es 16.482.937 dígito verificador 5"), the part
is taken too. An id word of a country stdnum has no module for (a Moroccan CIN, a Pakistani
CNIC, a Sri Lankan NIC, a Hong Kong HKID) takes the letter-and-digit value after it, as
``national_ids``' generic national-id words do. Words in ``data/check_parts.yaml``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.cue_data import literal_alternation
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit, _is_placeholder
from userlore.policy.detectors.registry import _ID_WORDS, _keyword_before, _valid_under
from userlore.policy.findings import _REGULATED
from userlore.policy.literal_gate import LiteralGate

__all__ = ["check_parts"]

_FILE: Final = "check_parts.yaml"


@functools.cache
def _words() -> tuple[LiteralGate, re.Pattern[str], re.Pattern[str]]:
    raw = data_yaml(_FILE)
    check = [w.lower() for words in raw["check_words"].values() for w in words]
    ids = [str(w) for w in raw["unlisted_ids"]]
    gate = LiteralGate([*check, *(w.lower() for w in ids)])
    alts = literal_alternation(check)
    # The part: a copula or article may stand between ("la clé c'est 01", "最后一位是8").
    part = re.compile(
        rf"(?<![a-zà-ÿ])(?:{alts})(?![a-zà-ÿ])"
        r"(?:\s*[:：=]?\s*(?:(?:es|est|is|ist|é|c'est|son|sind|are|la|el|o|a|the|de)\s+)*|是|は|：)?"
        r"(?P<v>\d{1,2}|[a-z])(?![a-z0-9])"
    )
    unlisted = re.compile(rf"(?<![A-Za-z])(?:{literal_alternation(ids)})(?![A-Za-z])")
    return gate, part, unlisted


# The number before a check part: digit groups, maybe a letter prefix (a NIE's "Y").
_NUMBER_BEFORE = re.compile(
    r"(?P<n>[A-Z]{0,6}\d{2,}(?:[ .\-]\d{2,})*[A-Z]?\d*)(?P<gap>[^.!?\n。！？A-Za-z0-9]{0,8}"
    r"(?:(?:y|and|et|und|e|com|with|avec|mit|con)\s+)?(?:(?:la|le|el|o|a|the|der|die|os|los)\s+)?"
    r"[^.!?\n。！？A-Za-z0-9]{0,6}(?:前\d+位)?)$"
)
# A value after an unlisted country's id word: letters then digits, digits then a letter,
# grouped digits ("BK482913", "912345678V", "35202-4829137-5", "K482913(7)").
_UNLISTED_VALUE = re.compile(
    r"(?<![A-Za-z0-9])(?:[A-Z]{1,3}\d{5,9}|\d{9,12}[VXvx]?|\d{5}-\d{7}-\d|\d{9}[A-Z]{2}\d{3})"
    r"(?![A-Za-z0-9])"
)
_NOT_AN_ID: Final = re.compile(
    r"(?i)(?:order|tracking|invoice|pedido|commande|colis|bestell|rechnung|注文|订单|单号|ticket)"
)
_REACH: Final = 40
_LONG_DIGITS = re.compile(r"\d[\d .\-]{4,}\d")


def check_parts(t: str, lowered: str, hits: list[_Hit]) -> Iterator[_Hit]:
    """Check parts named after an identifier, and ids after an unlisted country's id word."""
    gate, part, unlisted = _words()
    if not gate.search(lowered):
        return
    ids = [(h[2], h[3]) for h in hits if h[0] is _REGULATED and h[4] == "government_id"]
    cued = [(h[2], h[3]) for h in hits if h[1] == "cued_identifier"]
    # A part needs a number before it: an id a rule took, or digits enough to complete one.
    numbered = bool(ids or cued) or _LONG_DIGITS.search(t) is not None
    for m in part.finditer(lowered) if numbered else ():
        start = m.start()
        if not t[m.start("v")].isdigit() and not t[m.start("v")].isupper():
            continue  # a check letter is a capital ("la letra es la F"), not "a", "e" or "o"
        before = _NUMBER_BEFORE.search(t, max(0, start - 40), start)
        if before is None:
            continue
        n_start, n_end = before.span("n")
        taken = any(s < n_end and n_start < e for s, e in (*ids, *cued))
        if not taken:
            compact = re.sub(r"[ .\-]", "", before.group("n")).upper()
            head = t[max(0, n_start - 40) : n_start]
            value = t[m.start("v") : m.end("v")].upper()
            mods = _valid_under(compact + value) if 8 <= len(compact) + len(value) <= 22 else ()
            if not any(_keyword_before(mod, head) for mod in mods) and not (
                mods and _ID_WORDS.search(head) and any(mod.country for mod in mods)
            ):
                continue
            yield (_REGULATED, "national_id", n_start, n_end, "government_id")
        yield (_REGULATED, "national_id", m.start("v"), m.end("v"), "government_id")
    for w in unlisted.finditer(t):
        end = min(len(t), w.end() + _REACH)
        stop = re.search(r"[.!?\n。！？]", t[w.end() : end])
        v = _UNLISTED_VALUE.search(t, w.end(), w.end() + stop.start() if stop else end)
        if v is None or _is_placeholder(v.group(0)):
            continue
        if _NOT_AN_ID.search(t, w.end(), v.start()):
            continue
        yield (_REGULATED, "national_id", v.start(), v.end(), "government_id")
