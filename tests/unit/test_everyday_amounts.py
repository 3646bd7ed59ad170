"""The user's money in everyday forms, things' prices, currency signs and number words no rule
of a language reads, and tracking numbers in compounds (issue 29, blind15).

blind15 stored "我支付宝余额宝里现在有4.7w，零钱通还有三千" and the refund of "去年还退了我八百多",
redacted a flat's price ("el piso cuesta 245.000 € y la comunidad son 60 al mes": "al mes" read
as French "mes"), stored held-out money said in a compound number word before a currency
("…tweintichtûzen euro") or after a one-letter currency sign ("M25 000"), and redacted a
tracking number after a compound tracking word ("trackingkoade 3SABCD…") and order numbers after
a borrowed order word ("Pedido número 55-20931").
``tests/data/everyday_amounts.jsonl`` holds fresh rows of each class (``family``), written
before the rules, in languages none of blind15's held-out ones. A held-out row: its values gone
(sensitive) or its text unchanged (benign; the gate withholds any uncovered text anyway).
First run on main → final (sensitive caught; benign kept): approx_amount 25/33 → 33/33, 21/24 →
21/24; thing_price 10/12 → 12/12, 18/21 → 20/21; unread_currency 26/30 → 29/30, 8/8 → 8/8;
tracking_compound 3/4, 6/8 → 3/4, 8/8; order_ref (written after the first rules) 4/4, 13/18 →
4/4, 18/18.
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact

CASES = data_sets.rows("everyday_amounts.jsonl")
FAMILIES = sorted({str(c["family"]) for c in CASES})
KNOWN: dict[str, set[str]] = {
    # Points and a company's account: flagged on main too (a card's points read as money by
    # an older rule; "几百万" after 账户 as an identifier); the Japanese points row withheld.
    "approx_amount": {
        "eva-b-approx_amount-zh-009",
        "eva-b-approx_amount-ja-004",
        "eva-b-approx_amount-zh-013",
    },
    # The identifier reads "ese coche vale 18.500 €, ¿merece la pena?" as no covered language.
    "thing_price": {"eva-b-thing_price-es-003"},
    # Low German "dusend": no candidate language's CLDR magnitude ends so ("duisend", "tûzen").
    "unread_currency": {"eva-unread_currency-nds-001"},
    # A PIN in a Danish compound ("pinkode"): another class, not read here.
    "tracking_compound": {"eva-tracking_compound-da-001"},
}


def _fails(case: dict[str, object]) -> bool:
    if case["group"] == "covered":
        return bool(value_sets.failures([case]))
    text = str(case["text"])
    red = redact(text)
    if case["class"] == "benign":
        return red != text
    values = case["values"]
    assert isinstance(values, list)
    return quote_verdict(text).quotable or any(v in red for v in values)


@pytest.mark.parametrize("family", FAMILIES)
def test_every_item_of_the_family(family: str) -> None:
    failed = {str(c["id"]) for c in CASES if c["family"] == family and _fails(c)}
    assert failed == KNOWN.get(family, set())
