"""A share of the user's money said as a bare number (issue 29, blindfix13b).

A sentence that states the user's money with a currency gives its parts without one: "ich krieg
812 € im Monat, davon gehen 480 für die WG weg", "je touche 1 900 € par mois et j'en mets 250 de
côté", "我每个月工资 9000 元，其中 2000 存起来". ``every_amount`` takes a sentence's further
amounts only with a currency, a magnitude or thousands. Here, in a sentence that already holds
the user's money, a bare number of two to six digits is the user's too when its part of the
sentence holds a word of a share or of where the money goes (``data/amount_shares.yaml``); not a
percentage, a count ("40 Stunden"), a time, nor a part whose subject is someone else.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from userlore.policy.cue_data import alternation, cues, flat
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit
from userlore.policy.detectors.every_amount import part_bounds, sentence_bounds
from userlore.policy.detectors.money import _NEXT_WORD
from userlore.policy.findings import _BLOCKING, _REGULATED
from userlore.policy.first_person import first_person

__all__ = ["amount_shares"]

# A bare number: two to six digits, cents after it, not inside a longer number, a time or an id.
_SMALL = re.compile(r"(?<![\w.,:/-])\d{2,6}(?:[.,]\d{2})?(?![\w:/-]|[.,]\d|\s?%)")


@functools.cache
def _shares() -> re.Pattern[str]:
    raw: dict[str, dict[str, list[str]]] = data_yaml("amount_shares.yaml")
    return re.compile(alternation(flat(raw["shares"])))


def amount_shares(t: str, lowered: str, hits: list[_Hit]) -> Iterator[_Hit]:
    """Bare numbers that are a share of the user's money in its sentence."""
    money = [h for h in hits if h[1] == "financial_figure"]
    if not money or len(lowered) != len(t):
        return
    named = [(h[2], h[3]) for h in hits if h[0] in _BLOCKING]
    c = cues()
    shares = _shares()
    speaker = first_person().speaker
    for lo, hi in sorted({sentence_bounds(t, h[2], h[3]) for h in money}):
        for m in _SMALL.finditer(t, lo, hi):
            if any(s < m.end() and m.start() < e for s, e in named):
                continue
            after = _NEXT_WORD.match(t, m.end())
            if after is not None and after.group(1).casefold() in c.counts:
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
