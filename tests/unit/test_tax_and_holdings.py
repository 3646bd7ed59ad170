"""The user's tax figures, coin and share holdings, every amount of a pay sentence, and a
listing's price (issue 29, blindfix12b).

blind12 stored a tax return's refund and deductions ("Werbungskosten 1.842,60 EUR, Erstattung
voraussichtlich 911 EUR", 確定申告で還付金が 48,310円, "tenho 1.387,42 de restituição"), a coin
holding and its worth ("tengo 0,42 BTC en la wallet, unos 24.000 dólares": the dollars only),
the second amount of a pay sentence after "ca." ("netto ca. 3.350 €"), and withheld a listing's
rent ("Die Miete für die Wohnung im Inserat: 1.450 € warm").
``tests/data/money_tax_holdings.jsonl`` holds fresh items of each class in the seven languages
(``family``), written before the rules: first run 8/19 tax figures (2/16 benign flagged), 2/18
holdings (0/12), 7/12 pay amounts and 15/18 listings withheld. ``money_special_second.jsonl``
was written after the rules; its first sight was 16/18 sensitive, 0/15 benign withheld (a tax
figure with cents and no currency, a bare "388" owed: that class fixed).
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.sensitivity import redact

CASES = data_sets.rows("money_tax_holdings.jsonl")
SECOND = [r for r in data_sets.rows("money_special_second.jsonl") if "values" in r]
FAMILIES = sorted({str(c["family"]) for c in CASES})
# Someone else's tax refund the older money rules take for the user's, since before this round
# (English "refund" after a subject; Portuguese "eu" read as "I" in French "a eu").
KNOWN: dict[str, set[str]] = {
    "tax_figure": {"money-tax_figure-en-005", "money-tax_figure-fr-005"},
}


@pytest.mark.parametrize("family", FAMILIES)
def test_every_item_of_the_family(family: str) -> None:
    cases = [c for c in CASES if c["family"] == family]
    assert set(value_sets.failures(cases)) == KNOWN.get(family, set())


def test_every_item_of_the_second_set() -> None:
    assert value_sets.failures(SECOND) == []


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # A form's or a line's number, and the form's name, are no amounts.
        ("Filed the 1040 on April 3rd, refund of 20% expected", "1040"),
        ("Steuererklärung: 3 Kinder, 2 Autos", "3 Kinder"),
        ("Die Steuererklärung muss bis 31.07. beim Finanzamt sein", "31.07."),  # a date
        ("La declaración de la renta se presenta hasta el 30/06/2025", "30/06/2025"),
        # A period before a capitalised word still ends a sentence: the next one is not the
        # pay sentence's ("Gehalt 4.900 €. Die Wohnung kostet 1.200 € im Inserat").
        ("Mein Gehalt: 4.900 € netto. Die Wohnung im Inserat kostet 1.200 €", "1.200"),
    ],
)
def test_what_is_no_amount_of_the_users_stays(text: str, kept: str) -> None:
    assert kept in redact(text)
