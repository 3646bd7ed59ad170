"""blind24's money said otherwise: a receipt's amount in slang or number words, a result said
after its sum, an amount in number words with its currency word, a second amount that carries
the first's currency or magnitude, and a group's average (issue 29, blindfix24c).

Five classes, each with two sets written before the rules that read them (first run on the
unmodified branch, then the second set at first sight on the fixed one; sensitive caught,
benign wrong), words in ``data/own_sums.yaml`` (``detectors/own_sums.py``,
``detectors/said_sums.py``):

- ``receipt_words``: "my settlement … forty-two grand", "meine Abfindung … zweiundvierzig
  Riesen", "退職金": money received makes a first-person clause's amount the user's, as a
  salary word does; "a hundred and twenty K". 14/22 (0/8) -> 18/22 (0/8); second 15/15 (0/7).
- ``works_out_to``: "16 weeks of base, which they say works out to $38,770", "das macht für
  mich 1.180 Euro", "合计18,600元": the amount after a result word, when its sentence or the
  one before names the user; a thing's price each before it is a shop's sum.
  18/22 (1/8) -> 22/22 (1/8); second 15/15 (1/7) -> 15/15 (0/7).
- ``worded_amounts``: "Mi pensión es de mil doscientos treinta euros", "Meine Rente beträgt
  eintausenddreihundert Euro": pensions and benefits as money received.
  19/21 (0/8) -> 21/21 (0/8); second 14/14 (0/7).
- ``inherited_amounts``: "Recebo 1.320 euros … e o quarto custa 550", "je le revends 265",
  "现在卖210", "家賃が8万5000かかる": in a sentence holding the user's money, the number a cost or
  sale verb prices; what the next clause costs does not make the first amount someone else's.
  12/19 (0/8) -> 18/19 (0/8); second 11/14 (0/7) -> 14/14 (0/7).
- ``group_averages``: "Durchschnittsgehalt Pflegekraft in Bayern liegt laut Statistik bei ca.
  3.900 €": a group's statistic with no first-person word is no one's, over the whole sentence;
  "mein Bruttogehalt liegt etwa beim Durchschnitt, 3.900 €" stays the user's (a comparison
  with the average owns no amount). 7/14 (4/14) -> 14/14 (0/14); second 6/7 (0/14).
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact

SETS = tuple(
    f"blindfix24c_{name}{n}.jsonl"
    for name in (
        "receipt_words",
        "works_out_to",
        "worded_amounts",
        "inherited_amounts",
        "group_averages",
    )
    for n in ("", "2")
)
KNOWN = {
    "receipt_words-en-money-001": "'… thirty-one grand after fees': 'fees' reads as someone "
    "else's fee (money's own test)",
    "receipt_words-en-money-003": "'Severance finally cleared: sixty grand': no first-person "
    "word; money received alone makes no clause the user's",
    "receipt_words-pt-money-002": "'A herança do meu avô deu …': the relative reads as the "
    "money's owner",
    "receipt_words-ja-money-001": "'退職金が出た。八百万、…': the amount's sentence is not the "
    "receipt's",
    "inherited_amounts-ja-money-002": "'私の車は280万で買って': the first amount is not read, so "
    "no sentence holds the user's money",
    "works_out_to-pt-benign-001": "'Dois pastéis a 8 reais, dá 16 reais na feira.' is "
    "identified as a language no rule reads",
    "group_averages2-en-money-001": "'I'm on $61,000': no money word in the clause",
}

test_every_item_of_the_set, test_known_miss = value_sets.set_tests(SETS, KNOWN)

BLIND24 = (
    "b24c-en-money-002",
    "b24c-en-money-004",
    "b24c-es-money-004",
    "b24c-fr-money-004",
    "b24c-pt-money-004",
    "b24c-de-benign-008",
)


@pytest.mark.parametrize("case_id", BLIND24)
def test_blind24_rows_now_right(case_id: str) -> None:
    rows = data_sets.rows("blind24_covered.jsonl")
    case = next(c for c in rows if c["id"] == case_id)
    if case["class"] == "benign":
        assert quote_verdict(str(case["text"])).quotable
        assert redact(str(case["text"])) == case["text"]
    else:
        assert not value_sets.row_fails(case)
        for value in case["values"]:
            assert value not in redact(str(case["text"]))


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("My settlement came through, forty-two grand.", False),
        ("The stadium holds forty-two thousand people.", True),
        ("16 weeks of my base pay, which works out to $38,770.", False),
        ("The recipe serves 4, which works out to 350 calories a portion.", True),
        ("Drei Kugeln Eis zu je 1,50, das macht 4,50 € an der Eisdiele.", True),
        ("Recebo 1.320 euros de ordenado e o quarto custa 550.", False),
        ("O apartamento do anúncio custa R$ 5.200 e a vaga custa 300.", True),
        ("Le salaire médian est d'environ 2 100 € net selon l'INSEE.", True),
        ("Mon salaire est dans la moyenne, 2 400 € net.", False),
    ],
)
def test_twins(text: str, kept: bool) -> None:
    assert (redact(text) == text) is kept
