"""Coins and shares the user holds, and their worth (issue 29, blindfix12b).

``money`` reads an amount beside a money noun; a holding names a coin or a share instead
("tengo 0,42 BTC en la wallet, unos 24.000 dólares": only the dollars were redacted; "Coinbase
says my ETH is worth about $6,812.40": nothing). Here a sentence that names a coin or a share
(``data/asset_holdings.yaml``: a ticker, a coin's word, a number of shares; a share's word alone
is an everyday word: "my actions", 株式会社) and the user's holding of it (a possessive, a verb
of holding, a wallet or a portfolio) gives up each quantity of the asset and every amount of
money in it. A market's price ("BTC hit $98,000 today"), a fee, a question of units or someone
else's coins (the gate's own ``about_others``) name no holding of the user's.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from userlore.policy.cue_data import alternation, cues, flat
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit, named_spans
from userlore.policy.detectors.every_amount import sentence_amounts, sentence_bounds
from userlore.policy.findings import _REGULATED
from userlore.policy.literal_gate import LiteralGate

__all__ = ["asset_holdings"]


@dataclass(frozen=True, slots=True)
class _Words:
    tickers: LiteralGate  # the cheap gate: any ticker (as written) …
    words: LiteralGate  # … or coin or share word (a Latin one at a word's start: not "whether")
    asset: re.Pattern[str]  # a ticker, a coin word, or a number before a share word
    quantity: re.Pattern[str]  # a number before any of them ("0,42 BTC", "0.5 个比特币")
    holding: re.Pattern[str]


@functools.cache
def _words() -> _Words:
    raw: dict[str, Any] = data_yaml("asset_holdings.yaml")
    tickers = [str(t) for t in raw["tickers"]]
    coins, shares = flat(raw["coins"]), flat(raw["shares"])
    ticker = rf"(?<![^\W_])(?:{'|'.join(map(re.escape, tickers))})(?![^\W_])"
    number = r"(?<![\w.,])\d+(?:[.,]\d+)*\s?(?:个|枚)?\s?"
    quantity = rf"{number}(?:{ticker}|(?i:{alternation([*coins, *shares])}))"
    return _Words(
        tickers=LiteralGate(tickers),
        words=LiteralGate(f" {w}" if w.isascii() else w for w in [*coins, *shares]),
        asset=re.compile(rf"{ticker}|(?i:{alternation(coins)})|{quantity}"),
        quantity=re.compile(quantity),
        holding=re.compile(alternation(flat(raw["holding"]))),
    )


def asset_holdings(t: str, lowered: str, hits: list[_Hit]) -> Iterator[_Hit]:
    """Quantities and worth of an asset the user holds (see the module docstring)."""
    w = _words()
    if not w.tickers.search(t) and not w.words.search(" " + lowered):
        return
    named = named_spans(hits)
    c = cues()
    for lo, hi in sorted({sentence_bounds(t, m.start(), m.end()) for m in w.asset.finditer(t)}):
        sentence = t[lo:hi].casefold()
        if w.holding.search(sentence) is None or c.about_others(sentence):
            continue
        for m in sentence_amounts(t, lo, hi, named, w.quantity.finditer(t, lo, hi)):
            named.append(m.span())
            yield (_REGULATED, "financial_figure", m.start(), m.end(), "financial")
