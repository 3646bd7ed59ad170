"""The user's pay said as a named minimum wage and figures (issue 29, blind14).

"je suis au SMIC plus 180 € de primes, donc environ 1 570 € net" reached a plan: the money rules
clear a clause naming the minimum wage ("minimum", "mínimo", "Mindest…" state a public figure:
"der Mindestlohn steigt auf 12,82 €"), and "SMIC" is no pay word of theirs. Where a form of
``data/minimum_wage.yaml`` says the user is paid it ("I'm on minimum wage", "cobro el salario
mínimo", "ich verdiene Mindestlohn", "je touche le SMIC", "ganho um salário mínimo",
"我拿最低工资", "最低賃金で働いて"), every amount of that sentence is the user's pay, unless its
part of the sentence is someone else's money (``money``'s test, read without the wage's name).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any, Final

from userlore.policy.cue_data import cues
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit, named_spans
from userlore.policy.detectors.every_amount import part_bounds, sentence_amounts, sentence_bounds
from userlore.policy.detectors.money import _others_money
from userlore.policy.findings import _REGULATED
from userlore.policy.literal_gate import LiteralGate

__all__ = ["minimum_wage"]

# A literal every gate word holds: plain substring tests first, on every text with a digit.
_LITERALS: Final = ("wage", "mínimo", "minimo", "mindestlohn", "smic", "最低")


@functools.cache
def _forms() -> tuple[LiteralGate, re.Pattern[str]]:
    raw: dict[str, Any] = data_yaml("minimum_wage.yaml")
    forms = [str(f) for fs in raw["forms"].values() for f in fs]
    gate = LiteralGate(str(w).casefold() for w in raw["gate"])
    return gate, re.compile("|".join(f"(?:{f})" for f in forms))


def minimum_wage(t: str, lowered: str, hits: list[_Hit]) -> Iterator[_Hit]:
    """Every amount of a sentence in which the user is paid the minimum wage."""
    if not any(w in lowered for w in _LITERALS) or len(lowered) != len(t):
        return
    gate, forms = _forms()
    if not gate.search(lowered):
        return
    named = named_spans(hits)
    c = cues()
    done: set[tuple[int, int]] = set()
    for form in forms.finditer(lowered):
        lo, hi = sentence_bounds(t, form.start(), form.end())
        if (lo, hi) in done:
            continue
        done.add((lo, hi))
        blanked = (
            lowered[: form.start()] + " " * (form.end() - form.start()) + lowered[form.end() :]
        )
        for m in sentence_amounts(t, lo, hi, named):
            p_lo, p_hi = part_bounds(t, m.start(), m.end())
            if _others_money(blanked[max(lo, p_lo) : min(hi, p_hi)], c):
                continue
            named.append(m.span())
            yield (_REGULATED, "financial_figure", m.start(), m.end(), "financial")
