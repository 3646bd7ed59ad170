"""The user's rent or loan payment said as a bare number, beside their own money (issue 29,
blindfix8a).

``money`` and ``financial`` read an amount by its currency or by a salary word; blind8 stated a
salary with its currency and then the rent without one ("je gagne 2 300 € net par mois et mon
loyer est de 890", "ganho R$ 4.200,00 por mês e pago 1.300 de aluguel"): the salary was
redacted, the rent stored. Here a number of three digits or more (or a grouped one, or a
Chinese or Japanese amount in 万/千) beside a payment word (rent, mortgage, Miete, loyer,
alquiler, aluguel, 房租, 家賃…: ``data/second_amounts.yaml``) is the user's money when its
sentence is the user's: a first-person word or a personal money noun, and not someone else's,
a price or an average (``money``'s own tests, reused), or a listing's asking rent.

A salary negotiation (blindfix9a) says the user's money as bare numbers too ("they offered 52,
I'll ask for 60k"): :func:`negotiation_amounts` takes every amount of a text with a negotiation
word, two amounts or more, and a pay word or a "k"/"mil"/"万" amount.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from userlore.policy.cue_data import Cues, alternation, cues, flat
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit, is_year
from userlore.policy.detectors.cue_sections import gate_words, sections
from userlore.policy.detectors.money import _MONEY_NOUNS, _others_money, _personal
from userlore.policy.detectors.priced_things import thing_priced
from userlore.policy.findings import _REGULATED
from userlore.policy.first_person import first_person
from userlore.policy.literal_gate import LiteralGate
from userlore.policy.spoken import word_amount

__all__ = ["negotiation_amounts", "negotiation_terms", "second_amounts"]

# A bare amount: grouped thousands, three to six digits, or a CJK amount in 万 and 千.
_BARE = re.compile(
    r"(?<![A-Za-z0-9_.,])(?:\d{1,3}(?:[.,\u00a0 ]\d{3})+|\d{3,6}"
    r"|\d{1,4}万(?:\d{1,4}千?)?\d?|\d{1,4}千\d?)"  # "1万2", "8千5": a CJK magnitude, a digit after
    r"(?:[.,]\d{2})?(?![\w]|[.,]\d)"
)
_NEAR: Final = 28
_WORD = re.compile(r"(?<![^\W\d_])[^\W\d_]{4,}(?![^\W\d_])")  # a Latin word, for a number word
_SENTENCE = re.compile(r"[.!?。！？\n](?!\d)")
# What a payment costs is the user's payment, not a price ("la hipoteca me cuesta 480").
_COSTS = re.compile(r"(?i)(?<!\w)(?:costs?|kostet|co[uû]te|cuesta|custa)(?!\w)")
# "son" before a number is Spanish "are" ("el alquiler son 950"), never French "his", which
# stands before a noun (blindfix9a).
_SON_NUMBER = re.compile(r"(?i)(?<!\w)son(?=\s+\d)")


@dataclass(frozen=True, slots=True)
class _Payments:
    words: re.Pattern[str]
    literals: LiteralGate
    non_ascii: re.Pattern[str]
    listing: re.Pattern[str]
    benefits: frozenset[str]


@functools.cache
def _payments() -> _Payments:
    raw: dict[str, Any] = data_yaml("second_amounts.yaml")
    terms = flat(raw["payments"])
    return _Payments(
        words=re.compile(alternation(terms)),
        literals=LiteralGate(t.strip("*") for t in terms if t.isascii()),
        # Without the compound mark: "\\*bürgergeld" was a literal star (blindfix18b).
        non_ascii=re.compile("|".join(re.escape(t.strip("*")) for t in terms if not t.isascii())),
        listing=re.compile(alternation([str(w).casefold() for w in raw["listing"]])),
        benefits=frozenset(str(w).strip("*") for w in raw["payments"]["benefits"]),
    )


def _sentence(t: str, lo: int, hi: int) -> tuple[int, int]:
    """The bounds of the sentence of ``t`` that holds ``t[lo:hi]``."""
    start = max((m.end() for m in _SENTENCE.finditer(t, 0, lo)), default=0)
    end_m = _SENTENCE.search(t, hi)
    return start, end_m.start() if end_m else len(t)


# Parts of a sentence: someone else's sum after a comma is not the user's, nor the reverse
# ("my half of rent went up to £975, my flatmate's share stayed at £850").
_PART = re.compile(r"[,;，；]\s?")


def _part(t: str, sentence: tuple[int, int], lo: int, hi: int) -> str:
    """The part of ``sentence`` (its bounds in ``t``) that holds ``t[lo:hi]``."""
    start, end = sentence
    begin = max((m.end() for m in _PART.finditer(t, start, lo)), default=start)
    end_m = _PART.search(t, hi, end)
    return t[begin : end_m.start() if end_m else end]


def second_amounts(t: str, lowered: str) -> Iterator[_Hit]:
    """Regulated hits for a bare amount beside a payment word in the user's own sentence."""
    p = _payments()
    if not p.literals.search(lowered) and (lowered.isascii() or not p.non_ascii.search(lowered)):
        return
    c = cues()
    seen: set[int] = set()
    for word in p.words.finditer(lowered):
        lo, hi = max(0, word.start() - _NEAR), min(len(t), word.end() + _NEAR)
        if any(word.group(0).endswith(b) for b in p.benefits):
            # A benefit's amounts are said apart: its rate, then what reaches the user ("…
            # auf 563 erhöht, aber bei mir kommen nur 498 an"; blindfix18b): its sentence, when
            # the user is in it (a rate alone, "… went up to 393 for single claimants", stays).
            bounds = _sentence(t, word.start(), word.end())
            restated = _restated(t, lowered, word)
            if restated or first_person().speaker.search(t, *bounds):
                lo, hi = bounds
        else:
            restated = False
        found = [m.span() for m in _BARE.finditer(t, lo, hi) if not is_year(m.group(0))]
        # The same, said as one number word ("pago seiscientos de alquiler"): the spoken view
        # reads a lone number word as no value.
        found += [w.span() for w in _WORD.finditer(lowered, lo, hi) if word_amount(w.group(0))]
        for start, end in found:
            if start in seen or t[end : end + 2].strip().startswith("%"):
                continue
            if (restated and _users_restated(t, (start, end), word.span(), c)) or _users(
                t, (start, end), word.span(), p, c
            ):
                seen.add(start)
                yield (_REGULATED, "financial_figure", start, end, "financial")


_RESTATED_GAP: Final = 10  # " c'est ", " is now ": a copula, no more


def _restated(t: str, lowered: str, word: re.Match[str]) -> bool:
    """The benefit named by ``word`` was named before in a sentence of the user's: a bare
    number after it restates the user's own figure ("je touche … 210 d'APL... non pardon, l'APL
    c'est 198"; blindfix19d). Language-free: the same word, said again."""
    for before in re.compile(re.escape(word.group(0))).finditer(lowered, 0, word.start()):
        if first_person().speaker.search(t, *_sentence(t, before.start(), before.end())):
            return True
    return False


def _users_restated(t: str, amount: tuple[int, int], word: tuple[int, int], c: Cues) -> bool:
    """A restated benefit's amount: just after the word ("l'APL c'est 198", not "…-Regelsatz
    für Kinder ist 357", a public rate), in its sentence, not someone else's."""
    if not 0 <= amount[0] - word[1] <= _RESTATED_GAP:
        return False
    lo, hi = min(amount[0], word[0]), max(amount[1], word[1])
    if _SENTENCE.search(t, min(amount[1], word[1]), max(amount[0], word[0])):
        return False
    bounds = _sentence(t, lo, hi)
    return not _others_money(_SON_NUMBER.sub(" ", _part(t, bounds, lo, hi)), c)


def _users(t: str, amount: tuple[int, int], word: tuple[int, int], p: _Payments, c: Cues) -> bool:
    """The amount beside the payment word is the user's: one sentence, the user's, no listing,
    and no one else's money in its part of the sentence."""
    lo, hi = min(amount[0], word[0]), max(amount[1], word[1])
    if _SENTENCE.search(t, min(amount[1], word[1]), max(amount[0], word[0])):
        return False  # another sentence's number
    bounds = _sentence(t, lo, hi)
    sentence = t[bounds[0] : bounds[1]]
    own = first_person().speaker.search(sentence) is not None or _personal(sentence)
    own = own or _MONEY_NOUNS.search(sentence) is not None
    if not own or p.listing.search(sentence.casefold()) is not None or thing_priced(sentence):
        return False
    return not _others_money(_SON_NUMBER.sub(" ", _COSTS.sub(" ", _part(t, bounds, lo, hi))), c)


# -- a salary negotiation ---------------------------------------------------------------------

_NEGOTIATION: Final = ("negotiation", "pay")


def negotiation_terms() -> list[str]:
    """The negotiation words (for the late hook's shared gate); a pay word counts only beside
    one."""
    return gate_words("second_amounts.yaml", ("negotiation",))


_AMOUNT = re.compile(
    r"(?<![A-Za-z0-9_.,/:\-])(?:\d{1,3}(?:[.,]\d{3})+|\d{1,7})(?:[.,]\d{1,2})?"
    r"(?:\s?(?:k|K|mil|tsd|万|千)(?![A-Za-z]))?(?![A-Za-z0-9_%:/]|[.,]\d)"
)
_SUFFIXED = re.compile(r"\s?(?:k|K|mil|tsd|万|千)$")


def negotiation_amounts(t: str, lowered: str) -> Iterator[_Hit]:
    """Every amount of a salary negotiation that is the user's: two or more of them, with a
    negotiation word and a pay word (or a "k"/"mil"/"万" amount)."""
    d = sections("second_amounts.yaml", _NEGOTIATION)
    if not d["negotiation"].find(lowered):
        return
    amounts = [
        m
        for m in _AMOUNT.finditer(t)
        if not is_year(m.group(0))
        and (len(m.group(0)) >= 2 or _SUFFIXED.search(m.group(0)) is not None)
        and (_SUFFIXED.search(m.group(0)) or sum(ch.isdigit() for ch in m.group(0)) >= 2)
    ]
    if len(amounts) < 2:
        return
    suffixed = any(_SUFFIXED.search(m.group(0)) for m in amounts)
    if not suffixed and not d["pay"].find(lowered):
        return
    if _others_money(t, cues()):
        return
    for m in amounts:
        yield (_REGULATED, "financial_figure", m.start(), m.end(), "financial")
