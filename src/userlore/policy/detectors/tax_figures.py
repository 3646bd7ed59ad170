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

from userlore.policy.cue_data import Cues, alternation, cues, flat
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit, has_decimal, named_spans
from userlore.policy.detectors.every_amount import sentence_amounts, sentence_bounds
from userlore.policy.findings import _REGULATED
from userlore.policy.first_person import first_person
from userlore.policy.literal_gate import LiteralGate

__all__ = ["CuedWords", "cued_figures", "cued_words", "tax_figures"]


@dataclass(frozen=True, slots=True)
class CuedWords:
    """A cue file's words for :func:`cued_figures`: a sentence with a ``cue`` word states the
    user's money, unless a ``law`` word makes its figures a rule's or a market's."""

    literals: LiteralGate  # the cheap gate: any cue word's core, lower-cased
    tax: re.Pattern[str]
    law: re.Pattern[str]
    numbered: re.Pattern[str]  # "line 12", "casilla 0595": a form's number, not an amount
    per_unit: re.Pattern[str] | None  # "85 an hour": a small rate, with its unit


@functools.cache
def cued_words(name: str, cue: str) -> CuedWords:
    """The words of ``data/<name>``: ``cue`` (the sentence's cue words), ``law``, ``numbered``
    and optionally ``per_unit`` (units after a rate of two digits or more)."""
    raw: dict[str, Any] = data_yaml(name)
    tax = flat(raw[cue])
    units = flat(raw["per_unit"]) if "per_unit" in raw else []
    return CuedWords(
        literals=LiteralGate(t.strip("*") for t in tax),
        tax=re.compile(alternation(tax)),
        law=re.compile(alternation(flat(raw["law"]))),
        numbered=re.compile(rf"(?:{alternation(flat(raw['numbered']))})\s?(?:n[º°o.]\s?)?$"),
        per_unit=(
            re.compile(
                rf"(?<![\w.,/-])\d{{2,}}(?:[.,]\d{{1,2}})?(?=\s?(?:€|\$|£|euros?|reais|dollars?)?"
                rf"\s?(?i:{alternation(units)}))"
            )
            if units
            else None
        ),
    )


def _words() -> CuedWords:
    return cued_words("tax_figures.yaml", "tax")


# A tax figure often has neither currency nor thousands ("me devolvió 455,20 del IRPF", "I owe
# the state 388"): in a tax sentence a number of three digits or more, or one with cents after a
# comma, is one too (not a percentage; "bis 31.07." is a date, and a dot's cents are a date's
# too often to count without a currency).
_PLAIN = re.compile(r"(?<![\w.,/-])(?:\d{3,}(?:[.,]\d{1,2})?|\d{1,2},\d{2})(?![\w.,/-]*\d|\s?%)")


def tax_figures(t: str, lowered: str, hits: list[_Hit]) -> Iterator[_Hit]:
    """Amounts in a sentence about the user's income tax (see the module docstring)."""
    return cued_figures(t, lowered, hits, _words())


def cued_figures(t: str, lowered: str, hits: list[_Hit], w: CuedWords) -> Iterator[_Hit]:
    """Every amount of a sentence with one of ``w``'s cue words, unless a law's or a market's
    figure, someone else's or a topic (the gate's ``about_others``), a count, a year or a
    form's number."""
    if len(lowered) != len(t) or not has_decimal(t) or not w.literals.search(lowered):
        return
    named = named_spans(hits)
    c = cues()
    words = list(w.tax.finditer(lowered))
    named += [m.span() for m in words]  # "the 1040" is the form's name, not an amount
    for lo, hi in sorted({sentence_bounds(t, m.start(), m.end()) for m in words}):
        sentence = lowered[lo:hi]
        if w.law.search(sentence) or _cleared(sentence, w, c):
            continue
        rates = w.per_unit.finditer(t, lo, hi) if w.per_unit is not None else ()
        plain = (*_PLAIN.finditer(t, lo, hi), *rates)
        for m in sentence_amounts(t, lo, hi, named, then=plain):
            if w.numbered.search(lowered, max(lo, m.start() - 16), m.start()) or _joined(t, m):
                continue
            named.append(m.span())
            yield (_REGULATED, "financial_figure", m.start(), m.end(), "financial")


def _cleared(sentence: str, w: CuedWords, c: Cues) -> bool:
    """Someone else's or a topic (``about_others``), read without the cue words ("quoted them",
    "paid me" are the speaker's forms), and no first-person word left once the others are
    masked ("they finally paid my invoice" is the user's; "my colleague bills 90" is not)."""
    if not c.about_others(w.tax.sub(" ", sentence)):
        return False
    return first_person().speaker.search(c.others.sub(" ", sentence)) is None


# A number joined to another by a dash or a slash is an id or a date ("Factura nº 2024-0153");
# groups of four digits side by side are a card's or a reference's ("reference 4111 1111 …").
_JOIN = frozenset("-/")
_FOUR_GROUPS = re.compile(r"(?<!\d)\d{4}(?: \d{4})+(?!\d)")


def _joined(t: str, m: re.Match[str]) -> bool:
    before = t[m.start() - 2 : m.start()] if m.start() >= 2 else ""
    after = t[m.end() : m.end() + 2]
    if any(g.start() <= m.start() and m.end() <= g.end() for g in _FOUR_GROUPS.finditer(t)):
        return True
    return (len(before) == 2 and before[1] in _JOIN and before[0].isdigit()) or (
        len(after) == 2 and after[0] in _JOIN and after[1].isdigit()
    )
