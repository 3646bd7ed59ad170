"""The user's invoices, fees and rates, and what a client paid them (issue 29, blindfix13b).

A freelancer's income names no salary word and often no currency: "invoiced the client 38 hrs
at $95 = $3,610, they've paid 2k so far", "mi factura como autónomo a la agencia fue de dos mil
trescientos euros" (the spoken view reads the words as a number). As with a tax return
(:mod:`.tax_figures`), every amount of a sentence with a fee word (``data/fee_income.yaml``:
invoice, day rate, Stundensatz, TJM, nota fiscal, 报价, 請求書…) is the user's, a rate of two
digits before its unit too ("I bill 85 an hour"); not an invoice's number, a market's average,
someone else's fee or a topic.
"""

from __future__ import annotations

from collections.abc import Iterator

from userlore.policy.detectors.common import _Hit
from userlore.policy.detectors.tax_figures import cued_figures, cued_words

__all__ = ["fee_income"]


def fee_income(t: str, lowered: str, hits: list[_Hit]) -> Iterator[_Hit]:
    """Amounts in a sentence about the user's invoices, fees or rates."""
    return cued_figures(t, lowered, hits, cued_words("fee_income.yaml", "fees"))
