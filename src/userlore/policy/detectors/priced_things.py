"""A thing's price said with a cost verb, and what a thing costs the user (issue 29, blind15).

"el piso cuesta 245.000 € y la comunidad son 60 al mes" was redacted as the user's rent:
"piso" is a payment word of :mod:`.second_amounts` and Spanish "al mes" read as French "mes"
(my). :func:`thing_priced` tells a sentence that prices a thing (a cost verb with no
first-person object, and no first-person word left once the verb and a month's "mes" are
masked: ``data/priced_things.yaml``) so the rent rule leaves it. :func:`costs_the_user` reads
the other side: a cost verb whose object is the user ("mon appart me coûte 870 € par mois",
"my mortgage costs me £1,150") makes the amounts after it in its part of the sentence the
user's, whatever the thing is called.

blind20 (blindfix20a) stated the user's money by what it cost them in the past ("die neue Brille
hat mich 640 Euro gekostet", three digits or more: a padlock's "me costó 15 euros" is a price)
and by what they were given, left, paid or granted ("grandma left me $23,500", "el ingreso
mínimo vital que me dan es de 658 euros", "祖母から200万円もらった"): :func:`given_to_user`
reads the second, every amount of the part of the sentence that names the user as recipient.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from userlore.policy.cue_data import cues
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit, has_digit, named_spans
from userlore.policy.detectors.every_amount import part_bounds, sentence_amounts
from userlore.policy.detectors.money import _others_money
from userlore.policy.detectors.thing_prices import _forms as seen_forms
from userlore.policy.findings import _REGULATED
from userlore.policy.first_person import first_person
from userlore.policy.literal_gate import LiteralGate

__all__ = ["costs_the_user", "given_to_user", "thing_priced"]

_RULE: Final = "financial_figure"


@dataclass(frozen=True, slots=True)
class _Forms:
    gate: LiteralGate
    verbs: re.Pattern[str]
    objects: re.Pattern[str]
    paid: re.Pattern[str]
    recipients: re.Pattern[str]
    recipient_gate: LiteralGate
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
        paid=_join(raw["user_objects_paid"]),
        recipients=_join(raw["user_recipients"]),
        recipient_gate=LiteralGate(str(w).casefold() for w in raw["recipient_gate"]),
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
    """The amounts after a cost verb whose object is the user, in its part of the sentence (in
    the past, three digits or more)."""
    if len(lowered) != len(t):
        return
    f = _forms()
    if not f.gate.search(lowered):
        return
    named = named_spans(hits)
    found = [(m, False) for m in f.objects.finditer(lowered)]
    found += [(m, True) for m in f.paid.finditer(lowered)]
    for m, past in found:
        lo, hi = part_bounds(t, m.start(), m.end())
        # The verb blanked, its object kept: "they cost me" is the user's ("they" are the
        # things), and the verb names a price by itself.
        part = f.verbs.sub(lambda v: " " * len(v.group(0)), lowered[lo:hi])
        if _others_money(part, cues()):
            continue
        for a in sentence_amounts(t, m.start() if past else m.end(), hi, named):
            if past and not _hundreds(a.group(0)):
                continue
            named.append(a.span())
            yield (_REGULATED, _RULE, a.start(), a.end(), "financial")


_MAGNITUDE = re.compile(r"[万千億亿]|\d\s?[kK]\b|(?i:\bmil\b|thousand|tausend|mille|million)")


def _hundreds(amount: str) -> bool:
    """A sum of three digits or more (or said with a magnitude): no small price."""
    from price_parser import Price

    if _MAGNITUDE.search(amount):
        return True
    value = Price.fromstring(amount).amount
    return value is not None and value >= 100


def given_to_user(t: str, lowered: str, hits: list[_Hit]) -> Iterator[_Hit]:
    """Every amount of the part of a sentence that names the user as the recipient of money
    (given, left, paid, granted, sent, received), unless the part is someone else's money."""
    if len(lowered) != len(t) or not has_digit(t):
        return  # the amounts read here are written in digits
    f = _forms()
    if not f.recipient_gate.search(lowered):
        return
    named = named_spans(hits)
    for m in f.recipients.finditer(lowered):
        lo, hi = part_bounds(t, m.start(), m.end())
        for a in sentence_amounts(t, lo, hi, named):
            # Whoever stands before the verb is the giver ("my uncle left me", "祖母から…もら
            # った", "公司给我"), and a pronoun after the sum is the giver too ("… when he
            # passed"): only someone named between the verb and the sum makes it theirs ("mum
            # gave me £50 and my sister £30"). A benefit's name is no one else's money ("el
            # ingreso mínimo vital": no minimum).
            between = _benefits().sub(lambda b: " " * len(b.group(0)), lowered[m.end() : a.start()])
            if _others_money(between, cues()):
                continue
            named.append(a.span())
            yield (_REGULATED, _RULE, a.start(), a.end(), "financial")


@functools.cache
def _benefits() -> re.Pattern[str]:
    """The state benefits of ``data/second_amounts.yaml``, by name (read from the data file:
    ``second_amounts`` imports this module)."""
    raw = data_yaml("second_amounts.yaml")["payments"]["benefits"]
    names = sorted({str(w).strip("*") for w in raw}, key=len, reverse=True)
    return re.compile("|".join(re.escape(n) for n in names))
