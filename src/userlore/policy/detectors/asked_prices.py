"""Money figures of a sentence that asks about a market price are no one's (issue 29, blind14).

The money rules judge an amount by a clause of a few words around it, which a question at the
sentence's end lies outside of ("vi un piso en Valencia por 950 € al mes, ¿está bien de
precio?"): here each figure's whole sentence is asked again
(:func:`userlore.policy.detectors.market_prices.market_price_question`). Its own module, not
``market_prices``: that one is read by ``cue_data``, below the detectors' shared helpers.
"""

from __future__ import annotations

from userlore.policy.detectors.common import _Hit
from userlore.policy.detectors.every_amount import sentence_bounds
from userlore.policy.detectors.market_prices import has_market_word, market_price_question

__all__ = ["drop_asked_prices"]


def drop_asked_prices(t: str, hits: list[_Hit]) -> list[_Hit]:
    """``hits`` without the money figures whose sentence asks about a market price."""
    if not any(h[1] == "financial_figure" for h in hits) or not has_market_word(t.lower()):
        return hits
    out = []
    for h in hits:
        if h[1] == "financial_figure":
            lo, hi = sentence_bounds(t, h[2], h[3])
            if market_price_question(t[lo:hi].casefold()):
                continue
        out.append(h)
    return out
