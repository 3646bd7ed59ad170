"""The user's invoices, fees and rates, a share of the user's money said as a bare number, and
a thing's price the user only saw (issue 29, blindfix13b).

blind13 quoted a freelancer's invoice ("invoiced the client 38 hrs at $95 = $3,610, they've paid
2k so far", "mi factura como autónomo … dos mil trescientos euros"), stored the bare second amount
of a pay sentence ("ich krieg 812 € im Monat, davon gehen 480 für die WG weg") and withheld a
flat's listed rent ("el piso que vi cuesta 1.200 € al mes, ¿es caro para Valencia?").
``tests/data/money_fees_shares.jsonl`` holds fresh items of each class in the seven languages
(``family``), written before the rules: first run 8/33 fees (0/14 benign withheld), 9/30 shares
(0/15), 7/7 own rents and 4/16 seen things' prices withheld. The money rows of
``money_special_second13.jsonl``, written after the rules, scored 13/14 at first sight (0/9
benign withheld): a fee said with "cobré" and "la clienta", words added to the class.
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.sensitivity import redact

CASES = data_sets.rows("money_fees_shares.jsonl")
_MONEY_FAMILIES = {"invoice_fee", "amount_share", "thing_price"}
SECOND = [
    r for r in data_sets.rows("money_special_second13.jsonl") if r["family"] in _MONEY_FAMILIES
]
FAMILIES = sorted({str(c["family"]) for c in CASES})
# "mi pensión son 980 € y 300 se los doy a mi hijo" is read since blindfix24c (a pension is
# money received; "mi hijo" after "y" no longer clears the pension's clause).
KNOWN: dict[str, set[str]] = {}


@pytest.mark.parametrize("family", FAMILIES)
def test_every_item_of_the_family(family: str) -> None:
    cases = [c for c in CASES if c["family"] == family]
    assert set(value_sets.failures(cases)) == KNOWN.get(family, set())


def test_every_item_of_the_second_set() -> None:
    assert value_sets.failures(SECOND) == []


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Factura nº 2024-0153: el importe va en la casilla 12", "2024-0153"),  # an invoice's id
        ("Invoice #1042 total: $300 for the plumber's visit", "1042"),
        ("Cobro 1.600 € al mes y trabajo 40 horas, de eso 10 en casa", "40 horas"),  # a count
        ("Mi sueldo es 2.100 €, el 30 % se va en el alquiler", "30 %"),  # a rate
        ("I earn $4,000 a month; my sister spends 600 of hers on rent", "600"),  # hers
    ],
)
def test_what_is_no_amount_of_the_users_stays(text: str, kept: str) -> None:
    assert kept in redact(text)


def test_a_seen_things_price_is_the_users_with_their_own_payment() -> None:
    # The flat seen is a price; the same sentence with "I pay" is the user's money.
    assert "1.200" in redact("el piso que vi cuesta 1.200 € al mes")
    assert "1.200" not in redact("el piso que vi cuesta 1.200 € al mes y yo pago 900 ahora")
