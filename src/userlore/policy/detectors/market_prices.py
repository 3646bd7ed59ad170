"""A question about a market price is no one's money (issue 29, blind14).

"what's a normal rent for a 2 bed in Leeds these days, like £1,100?", "vi un piso en Valencia
por 950 € al mes, ¿está bien de precio?" and "都内でワンルーム家賃8万円って普通？" were withheld
or redacted as the user's money: each asks whether a price is normal, fair or dear. A sentence
with such a form (``data/market_prices.yaml``) and no first-person word left (the forms masked;
``thing_prices``' own words, the pay verbs and the personal money nouns of the data file, and
``money``'s own personal test) states a price: the gate's money test clears it, and the floor
drops its figures (``asked_prices``, the whole sentence read, never a rule's masked clause).
"my rent is £1,100, is that normal?", "pago 950 € de alquiler, ¿es normal?", "Gehalt 3.200
brutto, ist das normal?" and "うちの家賃12万円って高い？" stay the user's.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.money import _personal
from userlore.policy.literal_gate import LiteralGate

__all__ = ["has_market_word", "market_price_question"]


@functools.cache
def _forms() -> tuple[LiteralGate, re.Pattern[str], re.Pattern[str]]:
    raw: dict[str, Any] = data_yaml("market_prices.yaml")
    own = [*data_yaml("thing_prices.yaml")["own"], *raw["own"]]
    forms = [str(f) for fs in raw["forms"].values() for f in fs]
    return (
        LiteralGate(str(w).casefold() for w in raw["gate"]),
        re.compile("|".join(f"(?:{f})" for f in forms)),
        re.compile("|".join(f"(?:{o})" for o in own)),
    )


def market_price_question(lowered: str) -> bool:
    """Whether ``lowered`` (one sentence, lower-cased) asks about a market price, with no
    first-person word left once its forms are masked."""
    gate, forms, own = _forms()
    if not gate.search(lowered) or forms.search(lowered) is None:
        return False
    if own.search(forms.sub(" ", lowered)) is not None:
        return False
    # A money noun that is the speaker's by itself ("Gehalt 3.200 brutto, ist das normal?",
    # "月薪8000，正常吗？"): ``money``'s own test.
    return not _personal(lowered)


def has_market_word(lowered: str) -> bool:
    """Whether ``lowered`` holds a literal of some market-price form (a cheap gate)."""
    return _forms()[0].search(lowered)
