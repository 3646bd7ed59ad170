"""Two forms of the user's money that the first amount of a sentence leaves unread (issue 29,
blindfix24c), words in ``data/own_sums.yaml``:

- a result said after the sum it totals: "Got the severance letter. 16 weeks of base, which
  they say works out to $38,770", "das macht für mich 1.180 Euro", "合计18,600元". The amount
  after a result word is the user's when its sentence or the one before names the user (a
  first-person word or a personal money noun) and is not someone else's money;
- a second amount priced with a verb, its currency or magnitude carried from the first: "Recebo
  1.320 euros … e o quarto custa 550", "J'ai acheté mon appart 238k …, je le revends 265",
  "家賃が8万5000かかる". In a sentence that already holds the user's money, the number a cost or
  sale verb prices is the user's unless its part of the sentence is someone else's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.cue_data import cues
from userlore.policy.detectors.common import _Hit, is_year, overlaps
from userlore.policy.detectors.every_amount import part_bounds, sentence_bounds, user_money
from userlore.policy.detectors.money import _BARE, _amount, _others_money, _personal, counted
from userlore.policy.detectors.own_sums import mask_compared, own_sums
from userlore.policy.findings import _REGULATED
from userlore.policy.first_person import first_person

__all__ = ["priced_amounts", "result_amounts"]

_REACH: Final = 24  # characters between a result word and its amount ("für mich", "about")
_CJK_AMOUNT = re.compile(r"\d[\d,.]*(?:万\d*千?\d*|千\d*)?(?:円|元|块|ユーロ|欧元)")


def _users(t: str, lo: int, hi: int) -> bool:
    """A sentence that names the user: a first-person word (the money rules' or the gate's
    ``self``: "für mich"), a personal money noun or money received. A word that is another
    language's "each" before a number is none ("zu je 1,50"; ``own_sums.yaml``'
    ``each_before_number``)."""
    sentence = own_sums().each_before_number.sub(" ", t[lo:hi])
    return (
        first_person().speaker.search(sentence) is not None
        or cues().self_subject.search(sentence.casefold()) is not None
        or _personal(sentence)
        # Money received, its subject left out ("Got the severance letter."): the user's.
        or own_sums().receipts.search(sentence.casefold()) is not None
    )


def result_amounts(t: str, lowered: str) -> Iterator[_Hit]:
    """The amount after a result word, in or after a sentence of the user's money."""
    if len(lowered) != len(t):
        return
    results = list(own_sums().results.finditer(lowered))
    if not results:
        return
    c = cues()
    for word in results:
        window = (word.end(), min(len(t), word.end() + _REACH))
        found = [
            m for pattern in (_amount(), _BARE, _CJK_AMOUNT) for m in pattern.finditer(t, *window)
        ]
        if not found:
            continue
        m = min(found, key=lambda f: (f.start(), -f.end()))
        if is_year(m.group(0)) or counted(t, m.end(), c.counts):
            continue
        if re.search(r"[.!?。！？\n]", t[word.end() : m.start()]):
            continue  # the result word ends before the sentence does
        lo, hi = sentence_bounds(t, m.start(), m.end())
        before = sentence_bounds(t, lo - 1, lo - 1)[0] if lo > 0 else lo
        if not (_users(t, lo, hi) or _users(t, before, lo)):
            continue
        if own_sums().unit_prices.search(lowered, lo, word.start()) and not _personal(t[lo:hi]):
            continue  # "Deux menus à 14 €, ça fait 28 €": a shop's sum
        # Whose the total is, its sum says: the sentence before the result's part ("…, which
        # they say works out to": the speaker of the result is no owner).
        p_lo = part_bounds(t, word.start(), word.end())[0]
        if _others_money(mask_compared(t[lo : p_lo if p_lo > lo else word.start()]), c):
            continue
        yield (_REGULATED, "financial_figure", m.start(), m.end(), "financial")


def priced_amounts(t: str, lowered: str, hits: list[_Hit]) -> Iterator[_Hit]:
    """The number a cost or sale verb prices, in a sentence holding the user's money."""
    money, named = user_money(hits)
    if not money or len(lowered) != len(t):
        return
    c = cues()
    priced = own_sums().priced
    for lo, hi in sorted({sentence_bounds(t, h[2], h[3]) for h in money}):
        for m in priced.finditer(lowered, lo, hi):
            group = 1 if m.start(1) >= 0 else 2
            start, end = m.span(group)
            if overlaps(named, start, end) or is_year(m.group(group)):
                continue
            if counted(t, end, c.counts):
                continue
            p_lo, p_hi = part_bounds(t, start, end)
            part = t[p_lo:p_hi]
            # The verb that prices the number is no price of someone else's ("custa", "costs").
            v_lo, v_hi = max(m.start(), p_lo) - p_lo, max(m.start(), min(start, p_hi)) - p_lo
            part = part[:v_lo] + " " * (v_hi - v_lo) + part[v_hi:]
            if _others_money(mask_compared(part), c):
                continue
            named.append((start, end))
            yield (_REGULATED, "financial_figure", start, end, "financial")
