"""The user's tax figures: a refund, an amount owed, a deduction (issue 29, blindfix12b).

``money`` reads an amount beside a money noun (salary, savings, debt); a tax return names none,
and often no currency either ("Für die Steuererklärung: Werbungskosten 1.842,60 EUR, Erstattung
voraussichtlich 911 EUR", "No IRPF deste ano tenho 1.387,42 de restituição", "确定申告で還付金が
48,310円"). Here every amount of a sentence with a word of a person's income tax
(``data/tax_figures.yaml``) is the user's: an implied subject is the user's, and a tax figure
is money either way. Not a law's figure (a threshold, an allowance, a bracket, a rate), nor a
sentence about someone else or a topic (the gate's own ``about_others``), nor a count or a year.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from userlore.policy.cue_data import alternation, cues, flat
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit, has_decimal
from userlore.policy.detectors.every_amount import sentence_amounts, sentence_bounds
from userlore.policy.findings import _BLOCKING, _REGULATED
from userlore.policy.literal_gate import LiteralGate

__all__ = ["tax_figures"]


@dataclass(frozen=True, slots=True)
class _Words:
    literals: LiteralGate  # the cheap gate: any tax word's core, lower-cased
    tax: re.Pattern[str]
    law: re.Pattern[str]
    numbered: re.Pattern[str]  # "line 12", "casilla 0595": a form's number, not an amount


@functools.cache
def _words() -> _Words:
    raw: dict[str, Any] = data_yaml("tax_figures.yaml")
    tax = flat(raw["tax"])
    return _Words(
        literals=LiteralGate(t.strip("*") for t in tax),
        tax=re.compile(alternation(tax)),
        law=re.compile(alternation(flat(raw["law"]))),
        numbered=re.compile(rf"(?:{alternation(flat(raw['numbered']))})\s?(?:n[º°o.]\s?)?$"),
    )


# A tax figure often has neither currency nor thousands ("me devolvió 455,20 del IRPF", "I owe
# the state 388"): in a tax sentence a number of three digits or more, or one with cents after a
# comma, is one too (not a percentage; "bis 31.07." is a date, and a dot's cents are a date's
# too often to count without a currency).
_PLAIN = re.compile(r"(?<![\w.,/-])(?:\d{3,}(?:[.,]\d{1,2})?|\d{1,2},\d{2})(?![\w.,/-]*\d|\s?%)")


def tax_figures(t: str, lowered: str, hits: list[_Hit]) -> Iterator[_Hit]:
    """Amounts in a sentence about the user's income tax (see the module docstring)."""
    w = _words()
    if len(lowered) != len(t) or not has_decimal(t) or not w.literals.search(lowered):
        return
    named = [(h[2], h[3]) for h in hits if h[0] in _BLOCKING]
    c = cues()
    words = list(w.tax.finditer(lowered))
    named += [m.span() for m in words]  # "the 1040" is the form's name, not an amount
    for lo, hi in sorted({sentence_bounds(t, m.start(), m.end()) for m in words}):
        sentence = lowered[lo:hi]
        if w.law.search(sentence) or c.about_others(sentence):
            continue
        for m in sentence_amounts(t, lo, hi, named, then=_PLAIN.finditer(t, lo, hi)):
            if w.numbered.search(lowered, max(lo, m.start() - 16), m.start()):
                continue
            named.append(m.span())
            yield (_REGULATED, "financial_figure", m.start(), m.end(), "financial")
