"""The user's money in everyday forms no other rule reads (issue 29, blindfix10b).

``money`` reads an amount beside a money noun or a first-person word in one clause. The user
also gives money as the parts of their pay ("87.5k base plus like 12k in RSUs", "底薪 1.2w"),
as the pay's arrival ("me depositaron la quincena: $9,430.00 MXN"), as income per period
with a verb that is no money word ("je fais 68 000 $ par année"), in English magnitudes in
any language ("home loan … 2.5 lakh"), as a bank export's rows under a balance column, and as a
rent and its fee in a language that leaves the subject out ("家賃 ¥85,000 + 管理費 5,000円").
The words are data (``data/money_forms.yaml``; the rent words are ``second_amounts``'). A
clause about someone else's money, a price or an average is not the user's (``money``'s own
test, reused).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from userlore.policy.cue_data import alternation, cues, flat
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit, has_decimal, is_year, unnamed
from userlore.policy.detectors.money import (
    _BARE,
    _amount,
    _clause,
    _currency,
    _others_money,
    _personal,
)
from userlore.policy.detectors.registry import _NEG_BEFORE
from userlore.policy.detectors.second_amounts import _payments
from userlore.policy.findings import _REGULATED
from userlore.policy.first_person import first_person
from userlore.policy.literal_gate import LiteralGate

__all__ = ["money_forms"]


@dataclass(frozen=True, slots=True)
class _Words:
    literals: LiteralGate  # the cheap gate: any pay or period word, any magnitude
    table_literals: LiteralGate  # and a table's: any balance or amount column's word
    pay: re.Pattern[str]
    switched_pay: re.Pattern[str]  # English pay words inside CJK text ("我base是28k")
    per_period: re.Pattern[str]
    magnitude: re.Pattern[str]
    cjk_magnitude: re.Pattern[str]  # "1.2w" (万), read only in a text with CJK in it
    balance: re.Pattern[str]
    amount: re.Pattern[str]
    date: re.Pattern[str]
    accounts: re.Pattern[str]  # an account's word and its state's: an implied owner
    states: re.Pattern[str]


@functools.cache
def _words() -> _Words:
    raw: dict[str, Any] = data_yaml("money_forms.yaml")
    mags = "|".join(re.escape(str(w)) for w in raw["magnitudes"])
    cjk = "|".join(re.escape(str(w)) for w in raw["cjk_magnitudes"])
    table = raw["table"]
    state = raw["account_state"]
    words = [
        *flat(raw["pay"]),
        *flat(raw["per_period"]),
        *map(str, raw["magnitudes"]),
        *flat(state["accounts"]),
    ]
    return _Words(
        literals=LiteralGate(words),
        table_literals=LiteralGate([*flat({"b": table["balance"]}), *flat({"a": table["amount"]})]),
        pay=re.compile(alternation(flat(raw["pay"]))),
        switched_pay=re.compile(
            r"(?<![A-Za-z])(?:"
            + "|".join(re.escape(str(w)) for w in sorted(raw["code_switched_pay"], key=len)[::-1])
            + r")(?![A-Za-z])"
        ),
        per_period=re.compile(alternation(flat(raw["per_period"]))),
        magnitude=re.compile(rf"(?<![\w.,])\d+(?:[.,]\d+)?\s?(?i:{mags})(?![A-Za-z])"),
        # A CJK character may touch it ("年薪45w", "大概2w"; blindfix23b): no Latin letter.
        cjk_magnitude=re.compile(rf"(?<![A-Za-z0-9_.,])\d+(?:\.\d+)?(?:{cjk})(?![A-Za-z])"),
        balance=re.compile(alternation(flat({"all": table["balance"]}))),
        amount=re.compile(alternation(flat({"all": table["amount"]}))),
        date=re.compile(alternation(flat({"all": table["date"]}))),
        accounts=re.compile(alternation(flat(state["accounts"]))),
        states=re.compile(alternation(flat(state["states"]))),
    )


_DIGIT = re.compile(r"\d")
# Nine digits or more in one run are a number's, not an amount's ("订单号 3718294056128374920").
_LONG_RUN = re.compile(r"\d{9}")
_CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
# What comes before a number that is a part of a code ("NF-2024-33871", "INV/0815"), not a
# range's second half ("2.000-3.000").
_CODE_PART = re.compile(r"[A-Za-z]+[-/#](?:\d+[-/#])*$")
# A table's cell separators, and an amount in a row: grouped, with cents, or with a currency.
_CELLS = re.compile(r"[,;\t|]")
_MIN_CELLS = 3
# "overdraft's at": the clitic read as "is" for the state words.
_POSSESSIVE_IS = re.compile(r"['’]s\s")
# How far from its word an amount is looked for (the clause reaches 60 characters back).
_NEAR = 70


@functools.cache
def _row_amount() -> re.Pattern[str]:
    c = _currency()
    number = r"\d{1,3}(?:[.,\u00a0 ]\d{3})+(?:[.,]\d{1,2})?|\d+[.,]\d{1,2}"
    return re.compile(
        rf"(?<![\w.])[-+]?(?:(?:{c})\s?)?(?:{number})(?:\s?(?:{c}))?(?![\w.,/:\-]?\d)"
    )


def _windows(t: str, lowered: str) -> list[tuple[int, int]]:
    """Where an amount may be the user's by this module's words: around each pay word, each
    period word (with a first-person word in the text), each magnitude, each payment word (in
    CJK or with a first-person word); empty at once for a text with none."""
    w = _words()
    payments = _payments()
    cjk = not lowered.isascii() and _CJK.search(t) is not None
    first = first_person().speaker.search(t) is not None
    spans: list[tuple[int, int]] = []
    if w.literals.search(lowered):
        spans += [m.span() for m in w.pay.finditer(lowered)]
        spans += [m.span() for m in w.magnitude.finditer(t)]
        spans += [m.span() for m in w.accounts.finditer(lowered)]
        if first:
            spans += [m.span() for m in w.per_period.finditer(lowered)]
    if cjk:
        spans += [m.span() for m in w.cjk_magnitude.finditer(t)]
        spans += [m.span() for m in w.switched_pay.finditer(lowered)]
    if (cjk or first) and (
        payments.literals.search(lowered) or (cjk and payments.non_ascii.search(lowered))
    ):
        spans += [m.span() for m in payments.words.finditer(lowered)]
    merged: list[tuple[int, int]] = []
    for s, e in sorted((max(0, s - _NEAR), min(len(t), e + _NEAR)) for s, e in spans):
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(e, merged[-1][1]))
        else:
            merged.append((s, e))
    return merged


def _amounts(t: str, windows: list[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """Every amount ``money`` reads (with a currency, or bare with a magnitude or grouped), and
    the magnitudes of this module's data, inside ``windows``."""
    w = _words()
    for lo, hi in windows:
        for pattern in (_amount(), _BARE, w.magnitude, w.cjk_magnitude):
            for m in pattern.finditer(t, lo, hi):
                if pattern is not _BARE or not is_year(m.group(0)):
                    yield m.span()


_COMMA = re.compile(r"[,，、]")


def _account_state(folded: str) -> bool:
    """An account's word and its state's in the casefolded clause: the user's balance with
    its owner left out ("cc is sitting at $6,240.17", "bin mit 1.240 € im Dispo")."""
    w = _words()
    return (
        w.accounts.search(folded) is not None
        and w.states.search(_POSSESSIVE_IS.sub(" is ", folded)) is not None
    )


def _pay_amounts(t: str, lowered: str) -> Iterator[_Hit]:
    """Amounts in a clause naming the user's pay, income by period, or a payment in CJK."""
    windows = _windows(t, lowered)
    if not windows:
        return
    w = _words()
    c = cues()
    payments = _payments()
    seen: set[tuple[int, int]] = set()
    for s, e in _amounts(t, windows):
        if (s, e) in seen:
            continue
        seen.add((s, e))
        if _LONG_RUN.search(t, s, e) or _NEG_BEFORE.search(t[max(0, s - 40) : s]):
            continue  # an order or tracking number, not an amount
        if _CODE_PART.search(t, max(0, s - 24), s):
            continue  # a reference's part ("a fatura NF-2024-33871"; blindfix19d)
        clause = _clause(t, s, e)
        folded = clause.casefold()
        if _others_money(clause, c):
            # An account's state said before a question in the same sentence ("overdraft's at
            # £640 again, how do I get out of it"): the question's words are no topic of it.
            tail = _COMMA.split(t[e : e + _NEAR], maxsplit=1)[0]
            head = clause[: clause.find(t[s:e]) + e - s] + tail
            if _others_money(head, c) or not _account_state(head.casefold()):
                continue
        own = w.pay.search(folded) is not None
        own = own or (_CJK.search(clause) is not None and w.switched_pay.search(folded) is not None)
        own = own or (
            first_person().speaker.search(clause) is not None
            and w.per_period.search(folded) is not None
        )
        # The English magnitude: beside a money noun of any language's own text.
        own = own or (
            (w.magnitude.match(t, s) or w.cjk_magnitude.match(t, s)) is not None
            and _personal(clause)
        )
        # A rent or a fee in a language that leaves the subject out (Chinese, Japanese).
        own = own or (
            _CJK.search(clause) is not None
            and payments.words.search(folded) is not None
            and payments.listing.search(folded) is None
        )
        # A rent and its fee in the user's own clause ("mon loyer 1 150 € + 90 € de charges").
        own = own or (
            first_person().speaker.search(clause) is not None
            and payments.words.search(folded) is not None
            and _amount().match(t, s) is not None
        )
        own = own or _account_state(folded)
        if own and t[e : e + 2].strip()[:1] != "%":
            yield (_REGULATED, "financial_figure", s, e, "financial")


def _table_amounts(t: str) -> Iterator[_Hit]:
    """Amounts in the rows under a bank export's header (see the module docstring)."""
    w = _words()
    lines = t.split("\n")
    pos = 0
    in_table = 0
    for line in lines:
        folded = line.casefold()
        cells = len(_CELLS.findall(line)) + 1
        if (
            cells >= _MIN_CELLS
            and not _DIGIT.search(line)
            and (w.balance.search(folded) or (w.amount.search(folded) and w.date.search(folded)))
        ):
            in_table = cells
        elif in_table and cells >= _MIN_CELLS:
            for m in _row_amount().finditer(line):
                yield (_REGULATED, "financial_figure", pos + m.start(), pos + m.end(), "financial")
        else:
            in_table = 0
        pos += len(line) + 1


def money_forms(t: str, lowered: str, hits: list[_Hit]) -> list[_Hit]:
    """The user's money in the forms above that no hit in ``hits`` already covers."""
    if not has_decimal(t):
        return []
    found = [*_pay_amounts(t, lowered)]
    if "\n" in t and _words().table_literals.search(lowered):
        found += _table_amounts(t)
    if not found:
        return []
    return unnamed(found, hits)
