"""A thing's price said with a cost verb, and what a thing costs the user (issue 29, blind15).

"el piso cuesta 245.000 € y la comunidad son 60 al mes" was redacted as the user's rent:
"piso" is a payment word of :mod:`.second_amounts` and Spanish "al mes" read as French "mes"
(my). :func:`thing_priced` tells a sentence that prices a thing (a cost verb with no
first-person object, and no first-person word left once the verb and a month's "mes" are
masked: ``data/priced_things.yaml``) so the rent rule leaves it. :func:`costs_the_user` reads
the other side: a cost verb whose object is the user ("mon appart me coûte 870 € par mois",
"my mortgage costs me £1,150") makes the amounts after it in its part of the sentence the
user's, whatever the thing is called.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from userlore.policy.cue_data import cues
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit
from userlore.policy.detectors.every_amount import part_bounds, sentence_amounts
from userlore.policy.detectors.money import _others_money
from userlore.policy.detectors.thing_prices import _forms as seen_forms
from userlore.policy.findings import _BLOCKING, _REGULATED
from userlore.policy.first_person import first_person
from userlore.policy.literal_gate import LiteralGate

__all__ = ["costs_the_user", "thing_priced"]

_RULE: Final = "financial_figure"


@dataclass(frozen=True, slots=True)
class _Forms:
    gate: LiteralGate
    verbs: re.Pattern[str]
    objects: re.Pattern[str]
    months: re.Pattern[str]


def _join(raw: dict[str, list[str]] | list[str]) -> re.Pattern[str]:
    forms = [f for fs in raw.values() for f in fs] if isinstance(raw, dict) else raw
    return re.compile("|".join(f"(?:{f})" for f in forms))


@functools.cache
def _forms() -> _Forms:
    raw: dict[str, Any] = data_yaml("priced_things.yaml")
    return _Forms(
        gate=LiteralGate(str(w).casefold() for w in raw["gate"]),
        verbs=_join(raw["cost_verbs"]),
        objects=_join(raw["user_objects"]),
        months=_join(raw["months"]),
    )


def thing_priced(sentence: str) -> bool:
    """Whether ``sentence`` prices a thing: a cost verb, none with the user as its object, and
    no first-person word besides."""
    lowered = sentence.lower()
    f = _forms()
    if not f.gate.search(lowered) or f.verbs.search(lowered) is None:
        return False
    if f.objects.search(lowered) is not None:
        return False
    rest = f.months.sub(" ", f.verbs.sub(" ", lowered))
    # Both lists of first-person words: the money rules' and the seen-things' ("yo", "pago").
    return first_person().speaker.search(rest) is None and seen_forms().own.search(rest) is None


def costs_the_user(t: str, lowered: str, hits: list[_Hit]) -> Iterator[_Hit]:
    """The amounts after a cost verb whose object is the user, in its part of the sentence."""
    if len(lowered) != len(t):
        return
    f = _forms()
    if not f.gate.search(lowered):
        return
    named = [(h[2], h[3]) for h in hits if h[0] in _BLOCKING]
    for m in f.objects.finditer(lowered):
        lo, hi = part_bounds(t, m.start(), m.end())
        part = t[lo : m.start()] + " " * (m.end() - m.start()) + t[m.end() : hi]
        if _others_money(part, cues()):  # the verb blanked: it names a price by itself
            continue
        for a in sentence_amounts(t, m.end(), hi, named):
            named.append(a.span())
            yield (_REGULATED, _RULE, a.start(), a.end(), "financial")
