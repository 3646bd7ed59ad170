"""A share of the user's money said as a bare number (issue 29, blindfix13b).

A sentence that states the user's money with a currency gives its parts without one: "ich krieg
812 € im Monat, davon gehen 480 für die WG weg", "je touche 1 900 € par mois et j'en mets 250 de
côté", "我每个月工资 9000 元，其中 2000 存起来". ``every_amount`` takes a sentence's further
amounts only with a currency, a magnitude or thousands. Here, in a sentence that already holds
the user's money, a bare number of two to six digits is the user's too when its part of the
sentence holds a word of a share or of where the money goes (``data/amount_shares.yaml``); not a
percentage, a count ("40 Stunden"), a time, nor a part whose subject is someone else.

:func:`listed_amounts` reads a list of the user's sums whose later items leave the currency out
("j'ai prêté 60 balles à mon coloc et 40 à sa copine", "I owe Visa $2,300 and Amex 900",
"田中に5,000円、佐藤に3000貸した"; blind20, blindfix20a): the next bare number after the user's
amount, past a joining word or mark and at most a few words, is the user's too.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.cue_data import alternation, cues, flat
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit, is_year, overlaps
from userlore.policy.detectors.every_amount import part_bounds, sentence_bounds, user_money
from userlore.policy.detectors.money import counted
from userlore.policy.findings import _REGULATED
from userlore.policy.first_person import first_person

__all__ = ["amount_shares", "listed_amounts"]

# A bare number: two to six digits, cents after it, not inside a longer number, a time or an id.
_SMALL = re.compile(r"(?<![\w.,:/-])\d{2,6}(?:[.,]\d{2})?(?![\w:/-]|[.,]\d|\s?%)")


@functools.cache
def _shares() -> re.Pattern[str]:
    raw: dict[str, dict[str, list[str]]] = data_yaml("amount_shares.yaml")
    return re.compile(alternation(flat(raw["shares"])))


def amount_shares(t: str, lowered: str, hits: list[_Hit]) -> Iterator[_Hit]:
    """Bare numbers that are a share of the user's money in its sentence."""
    money, named = user_money(hits)
    if not money or len(lowered) != len(t):
        return
    c = cues()
    shares = _shares()
    speaker = first_person().speaker
    for lo, hi in sorted({sentence_bounds(t, h[2], h[3]) for h in money}):
        for m in _SMALL.finditer(t, lo, hi):
            if overlaps(named, m.start(), m.end()) or counted(t, m.end(), c.counts):
                continue
            p_lo, p_hi = part_bounds(t, m.start(), m.end())
            p_lo = max(lo, p_lo)
            part = lowered[p_lo : min(hi, p_hi)]
            if shares.search(part) is None:
                continue  # a year too ("其中 2000 存起来" is a sum): only beside a share word
            # Someone else named before the number is the part's subject ("…, 600 davon spart
            # meine Schwester" is the user's to give; "my sister spends 600 of it" is not).
            subject = lowered[p_lo : m.start()]
            if c.others.search(subject) and not speaker.search(c.others.sub(" ", subject)):
                continue
            named.append(m.span())
            yield (_REGULATED, "financial_figure", m.start(), m.end(), "financial")


_LISTED_GAP: Final = 40  # characters from the user's amount to the next one of the list
_SLOT_WORDS: Final = 3  # words between the joining word and the number ("y la luz otros 90")
_SLOT_CJK: Final = 8  # characters of a CJK slot ("，借给小李 300")
_CJK: Final = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
# A measure after the number is no sum ("and the flat is 55 m²").
_MEASURE = re.compile(r"\s?(?:m²|m2|qm|km|kg|cm|mm|ml|min|h|g|l|m)(?![^\W\d_])")
# A year after a preposition is a date ("…, and in 2020 …"), a year with no word before it too.
# A number after "since" or "for" is a time ("wohne seit 12 Jahren", "há 3 anos").
_SINCE = re.compile(
    r"(?i)(?:^|\s)(?:seit|since|desde|depuis|há|hace|for|pendant|durante|vor|il y a|ago)\s*$"
)
_DATED = re.compile(r"(?i)(?:^|\s)(?:in|en|im|em|dans|seit|since|desde|depuis|at|um|à|a)\s*$")


@functools.cache
def _not_sums() -> tuple[frozenset[str], tuple[str, ...]]:
    """The units after a number that make it a time or a measure: Latin words, CJK prefixes."""
    raw: dict[str, dict[str, list[str]]] = data_yaml("amount_shares.yaml")
    units = [str(u).casefold() for u in flat(raw["not_sums"])]
    return frozenset(u for u in units if u.isascii() or not _CJK.match(u)), tuple(
        u for u in units if _CJK.match(u)
    )


@functools.cache
def _joins() -> re.Pattern[str]:
    raw: dict[str, object] = data_yaml("amount_shares.yaml")
    words = flat(raw["joins"])  # type: ignore[arg-type]
    marks = "".join(re.escape(str(m)) for m in raw["join_marks"])  # type: ignore[attr-defined]
    return re.compile(rf"{alternation(words)}|[{marks}]")


def listed_amounts(t: str, lowered: str, hits: list[_Hit]) -> Iterator[_Hit]:
    """The bare numbers that continue a list of the user's own sums (see the module docstring)."""
    money, named = user_money(hits)
    if not money or len(lowered) != len(t):
        return
    c = cues()
    for h in money:
        end = h[3]
        _, hi = sentence_bounds(t, h[2], end)
        while True:
            m = _SMALL.search(t, end, min(hi, end + _LISTED_GAP))
            if m is None or any(ch.isdigit() for ch in t[end : m.start()]):
                break
            if not _listed(t, lowered, end, m, c.counts, c.others):
                break
            if not overlaps(named, m.start(), m.end()):
                named.append(m.span())
                yield (_REGULATED, "financial_figure", m.start(), m.end(), "financial")
            end = m.end()  # a third item continues the same list


def _listed(
    t: str,
    lowered: str,
    end: int,
    m: re.Match[str],
    counts: frozenset[str],
    others: re.Pattern[str],
) -> bool:
    """``m`` is the next item of the list after ``t[:end]``: a joining word or mark before it,
    few words between, no count, measure or date, and no one else's subject in its slot."""
    gap = lowered[end : m.start()]
    joins = list(_joins().finditer(gap))
    if not joins:
        return False
    slot = gap[joins[-1].end() :]
    if len(slot.split()) > _SLOT_WORDS or len(_CJK.findall(slot)) > _SLOT_CJK:
        return False
    words, cjk_units = _not_sums()
    if counted(t, m.end(), counts | words):
        return False  # "and 30 minutes later", "y el piso tiene 85 metros"
    rest = t[m.end() : m.end() + 4].lstrip()
    if _MEASURE.match(t, m.end()) or rest.startswith(cjk_units):
        return False
    if _SINCE.search(slot) or (is_year(m.group(0)) and (not slot.strip() or _DATED.search(slot))):
        return False  # "und wohne seit 12 …", "and in 2020 …""
    # Someone else as the subject of the item ("and my sister owes 900"), not as its
    # recipient ("and 150 to my niece", "y a mi ahijada 50").
    who = list(others.finditer(slot))
    return not who or not slot[who[-1].end() :].strip()
