"""Ids printed after their own words, the user's cents and minimum-wage pay, market-price
questions and brand lists (issue 29, blind14).

blind14 stored an Australian Medicare number, a Mexican CLABE and IMSS number, a Brazilian
título de eleitor, a Chinese 社保 number, a Japanese 在留カード number and a Japan Post branch
in kanji ("店名〇一八"); it kept the cents of a refund said in words ("… Euro und achtunddreißig
Cent") and quoted pay said as the SMIC plus figures; it withheld market-price questions ("a
normal rent … like £1,100?", "家賃8万円って普通？") and a list of brands ("marcas: Zara, Mango,
Pull&Bear, Bershka"). ``tests/data/ids_money_prices.jsonl`` holds fresh items of each class in
the seven languages (``family``), written before the rules. First run on main → final:
printed ids 17/36 → 36/36 (benign 20/23 → 20/23 quoted), minor units and minimum wage 3/30 →
29/30 (14/15 → 14/15), market prices 18/24 → 24/24 benign quoted (own rents 6/7 → 6/7), brand
lists 18/24 → 24/24 quoted (2/2 passwords withheld).
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.name_lists import name_list_language
from userlore.policy.sensitivity import redact

CASES = data_sets.rows("ids_money_prices.jsonl")
FAMILIES = sorted({str(c["family"]) for c in CASES})
# Not these classes: "my refund came: twelve hundred dollars…" (a refund without a tax word is
# no money word of the floor's, so no major amount for the cents to follow); "das Ticket kostet
# 2 Euro und 90 Cent" (the identifier reads the lower-case "das" as Swedish); "pago R$ 2.500 de
# aluguel, é normal?" (Portuguese "pago" is no first-person word of the rent rules). A health
# card's name is a credential cue of the gate ("tarjeta", "carte", "cartão"), so a question with a
# number after it is withheld; the floor needs that cue to take a card's number said a sentence
# later ("… la carte Vitale de ma fille ? Le mien c'est 2920…", blind11), so it stays. A card's
# validity in years is a count since blindfix23b ("¿la tarjeta sanitaria caduca a los 5 años?").
KNOWN: dict[str, set[str]] = {
    "printed_id": {
        "idm-b-printed_id-fr-002",
        "idm-b-printed_id-pt-002",
    },
    "minor_unit_wage": {"idm-minor_unit_wage-en-001", "idm-b-minor_unit_wage-de-001"},
    # "pago R$ 2.500 de aluguel, é normal?": caught since blindfix20a ("pago" before its sum).
    "market_price": set(),
}


@pytest.mark.parametrize("family", FAMILIES)
def test_every_item_of_the_family(family: str) -> None:
    cases = [c for c in CASES if c["family"] == family]
    assert set(value_sets.failures(cases)) == KNOWN.get(family, set())


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("das Ticket kostete 2 Euro und 90 Cent", "90"),  # a price's cents follow no hit
        ("der Mindestlohn steigt auf 12,82 € pro Stunde", "12,82"),  # the public figure
        ("mon fils est au SMIC, 1 400 € par mois", "1 400"),  # someone else's pay
        ("店名は「さくら」で、口座番号の欄は空欄", "さくら"),  # a shop's name, no kanji digits
    ],
)
def test_what_is_no_value_of_the_users_stays(text: str, kept: str) -> None:
    assert kept in redact(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Gehalt 3.200 brutto, ist das normal?", "3.200"),  # the subject left out
        ("Nebenkostennachzahlung 480 €, ist das normal?", "480"),
        ("Abfindung 12.000 €, ist das normal?", "12.000"),
        ("salaire 2 100 € brut, c'est normal ?", "2 100"),
        ("月薪8000，正常吗？", "8000"),
        ("salary 45k, is that normal?", "45k"),
    ],
)
def test_a_market_question_about_money_named_as_ones_own_stays_the_users(
    text: str, value: str
) -> None:
    assert value not in redact(text)


def test_a_market_question_with_the_users_own_rent_is_the_users() -> None:
    assert "1.100" in redact("¿1.100 € al mes es normal para un piso en Madrid?")
    assert "1.100" not in redact("mi alquiler es 1.100 € al mes, ¿es normal?")


def test_a_comma_list_is_read_as_its_head_words_language() -> None:
    assert name_list_language("marcas: Zara, Mango, Pull&Bear, Bershka") == "es"
    assert name_list_language("marques : Kiabi, Jules, Celio") is not None  # French spacing
    assert name_list_language("Ostoslista: Maito, Leipä, Juusto") is None  # no covered head
