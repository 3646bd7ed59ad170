"""A creole's own amount read as a covered language and quoted into a plan (issue 29,
blindfix20d).

Creoles built on a covered language's words (Chavacano, Papiamento, Kriolu, Kreol, Naija,
Jamaican) are often identified as that language, so the gate vouches for them and reads them
with its rules. The class: an amount in a clause that holds a first-person word of a covered
language, before or after the verb ("Ta debe yo 800 pesos", "Ya saca yo 9 mil pesos"), with a
money verb in any person (owe, pay, spend, lend, borrow, withdraw, send, receive, save) and no
third party's subject, is the speaker's money: withheld. Covered twins (a relative's debt, a
club's transfer fee, "I read that the city spends 4 million") stay quoted. No rule names a
creole: the verbs are the covered languages' own.

``tests/data/blindfix20d_creole_money.jsonl`` was written before the rules (first run on the
merged tree: held-out withheld 19/22, covered money 5/5, benign 1/19 changed);
``blindfix20d_creole_money2.jsonl`` after them (first sight 20/20, merged tree 17/20). The floor
keeps a sum under a thousand beside a currency name in text no rule reads (a thing's price, by
design), so the held-out rows are checked for the plan only; the floor reads the same money
verbs beside a first-person word for a covered row's amount ("Ma banque me prête 15 000 euros").
"""

from __future__ import annotations

import pytest

from tests.support import value_sets
from userlore.policy.quote_gate import quote_verdict

SETS = ("blindfix20d_creole_money.jsonl", "blindfix20d_creole_money2.jsonl")
KNOWN = {
    "creole_money-pt-benign-003": "'50 milhões' redacted by the floor: as on the merged tree",
    "creole_money2-es-benign-002": "'200 mil euros' redacted by the floor: as on the merged tree",
    "creole_money2-es-benign-004": "'2 mil euros' redacted by the floor: as on the merged tree",
    "creole_money2-en-benign-002": "'Christmas' read as religion: as on the merged tree",
}


def _fails(case: value_sets.Case) -> bool:
    """A sensitive row quoted (a covered one's values left too), or a covered near-miss
    withheld or changed."""
    if case["class"] == "benign" or case["group"] == "covered":
        return value_sets.row_fails(case)
    return quote_verdict(str(case["text"])).quotable


test_every_item_of_the_set, test_known_miss = value_sets.set_tests(SETS, KNOWN, fails=_fails)


@pytest.mark.parametrize(
    ("text", "quotable"),
    [
        ("Ta debe yo 800 pesos na di mio primo, cosa man yo hace?", False),
        ("Mi primo debe 800 pesos a la tienda de la esquina", True),  # another's debt
        ("Ya saca yo 9 mil pesos na banco para el matricula", False),
        ("Un cajero saca como mucho 600 euros por día", True),  # no one's money
        ("Je pense que la mairie dépense 2 millions pour ce stade", True),  # another clause's
        ("Mi ta gasta 250 florin pa siman na kuminda", False),
        ("Ma sœur envoie 100 euros à notre grand-mère chaque mois", True),  # a relative's
        ("The trust sends me 900 dollars a month, is that taxable?", False),
    ],
)
def test_twins_differ_by_whose_amount(text: str, quotable: bool) -> None:
    assert quote_verdict(text).quotable is quotable
