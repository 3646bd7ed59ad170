"""A thing's price, seen or wanted by the user, is no one's money (issue 29, blindfix13b).

"el piso que vi cuesta 1.200 € al mes, ¿es caro para Valencia?" was withheld as the user's
money: the only first person in it is the one who saw the flat. A relative clause or attribute
that makes the user the one who looks at, visits or wants a thing (``data/thing_prices.yaml``:
"the apartment we toured", "die Wohnung, die ich besichtigt habe", "我看的那套房子",
"見に行った部屋") is masked like someone else's subject; with no first-person word left the
sentence states a price (:meth:`userlore.policy.cue_data.Cues.about_others`). "pago 1.200 € por
mi piso" keeps its "mi", and stays the user's.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from userlore.policy.data_files import data_yaml
from userlore.policy.literal_gate import LiteralGate

__all__ = ["seen_things_price"]


@dataclass(frozen=True, slots=True)
class _Forms:
    gate: LiteralGate
    forms: re.Pattern[str]
    own: re.Pattern[str]


@functools.cache
def _forms() -> _Forms:
    raw: dict[str, Any] = data_yaml("thing_prices.yaml")
    forms = [str(f) for fs in raw["forms"].values() for f in fs]
    return _Forms(
        gate=LiteralGate(str(w).casefold() for w in raw["gate"]),
        forms=re.compile("|".join(f"(?:{f})" for f in forms)),
        own=re.compile("|".join(f"(?:{o})" for o in raw["own"])),
    )


def seen_things_price(lowered: str) -> bool:
    """Whether ``lowered`` (one sentence, lower-cased) names the user only as the one who saw
    or wants a thing: its amounts are the thing's price."""
    f = _forms()
    if not f.gate.search(lowered) or f.forms.search(lowered) is None:
        return False
    return f.own.search(f.forms.sub(" ", lowered)) is None
