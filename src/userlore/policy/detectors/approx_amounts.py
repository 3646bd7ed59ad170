"""The user's balances, refunds and debts in Chinese and Japanese everyday forms (issue 29,
blind15).

blind15 stored "我支付宝余额宝里现在有4.7w，零钱通还有三千" and the refund in "去年还退了我八百多":
the money rules read "4.7万" and "三千元" but not a figure with a Latin "w"/"k" for 万/千, nor
a figure in number words of hundreds ("八百多") or with 来/多/左右/出头 inside or after it
("十来万"), nor a wallet's name (余额宝, 零钱通, 花呗, 公积金) as the user's money. Here such an
amount is the user's when its clause (between commas) holds a cue of
``data/approx_amounts.yaml`` (a wallet, fund or account; owing, being refunded, having left),
no one else's money (``money``'s test) and no counter after it (人, 分钟, 播放: a count).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any, Final

from userlore.policy.cue_data import cues
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit, named_spans
from userlore.policy.detectors.money import _others_money
from userlore.policy.findings import _REGULATED

__all__ = ["approx_amounts"]

_RULE: Final = "financial_figure"
_NUMERALS: Final = "一二三四五六七八九十两〇零几"
# A figure with a Latin or CJK magnitude after it ("4.7w", "3.2k", "12万"), or number words
# holding a magnitude, 来/多/几 inside ("十来万", "八百多", "一千二", "百二十万").
_AMOUNT = re.compile(
    r"(?<![A-Za-z0-9.])\d+(?:\.\d+)?\s?(?:[wWkK](?![A-Za-z])|万|千)"
    rf"|(?:[{_NUMERALS}百千万]+[来多几]?)?[百千万][{_NUMERALS}百千万来多]*"
)
_APPROX: Final = "多|来|左右|出头|ちょっと|くらい|ぐらい|近く|ほど"
_IDIOMS: Final = frozenset({"万一", "千万", "万万", "千千万万"})
_LONE_AMOUNT = re.compile(r"[把来多块元円]")
_MAGNITUDE = re.compile(r"[百千万wWkK]")
_CLAUSE = re.compile(r"[，,。；;！!？?\n]")
_CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@functools.cache
def _words() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    raw: dict[str, Any] = data_yaml("approx_amounts.yaml")

    def alternation(words: list[str]) -> str:
        return "|".join(map(re.escape, sorted({str(w) for w in words}, key=len, reverse=True)))

    cue_words = [w for ws in raw["cues"].values() for w in ws]
    return (
        re.compile(alternation(cue_words)),
        re.compile(rf"\s?(?:{_APPROX})?\s?(?:{alternation(raw['counters'])})"),
        re.compile(alternation(raw["not_money"])),
    )


def _clause(t: str, lo: int, hi: int) -> tuple[int, int]:
    start = max((m.end() for m in _CLAUSE.finditer(t, 0, lo)), default=0)
    end_m = _CLAUSE.search(t, hi)
    return start, end_m.start() if end_m else len(t)


def approx_amounts(t: str, hits: list[_Hit]) -> Iterator[_Hit]:
    """Amounts of the shapes above in a clause that names the user's money."""
    if _CJK.search(t) is None or _MAGNITUDE.search(t) is None:
        return
    cue_words, counter, not_money = _words()
    if cue_words.search(t) is None:
        return
    named = named_spans(hits)
    c = cues()
    for m in _AMOUNT.finditer(t):
        start, end = m.span()
        if any(s < end and start < e for s, e in named) or counter.match(t, end):
            continue
        lone = len(m.group(0)) == 1 and _LONE_AMOUNT.match(t, end) is None
        if m.group(0) in _IDIOMS or lone:
            continue  # "万一" (in case), "千万别" (by no means); "千把块" stays an amount
        lo, hi = _clause(t, start, end)
        clause = t[lo:hi]
        if cue_words.search(clause) is None or not_money.search(clause) or _others_money(clause, c):
            continue
        named.append((start, end))
        yield (_REGULATED, _RULE, start, end, "financial")
