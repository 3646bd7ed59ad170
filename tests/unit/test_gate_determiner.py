"""A determiner before a special-category term no longer clears a sentence for quoting (gate3
round). The floor read "a determiner, no speaker anywhere" as a topic ("The Democrats
passed…"), and the gate cleared what the floor called a topic: so "Comecei a hemodiálise em
maio." (found with ``gate_short4``), "Started the chemo in May." and every implied-subject
statement with an article reached a plan. First run on a fresh table (15 statements, five
languages): 6/15 withheld; now 15/15. A second table written after the change: 10/10 at first
sight (8/10 before it). The price: topic sentences with an article and no topic word are
withheld too (second table: quotable 4/6 before, 1/6 now); the floor is unchanged (no
statement either way).
"""

from __future__ import annotations

import pytest

from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import classify

STATEMENTS = [
    "Started the chemo in May.",
    "Finished the insulin pen yesterday, need a new one.",
    "Quit the antidepressants last month.",
    "Empecé la quimioterapia en mayo.",
    "Dejé los antidepresivos el mes pasado.",
    "Terminé la diálisis de hoy.",
    "Habe die Chemotherapie im Mai begonnen.",
    "Die Antidepressiva abgesetzt, endlich.",
    "Commencé la chimio en mai.",
    "J'ai arrêté les antidépresseurs.",
    "Fini la dialyse pour aujourd'hui.",
    "Comecei a quimioterapia em maio.",
    "Parei os antidepressivos mês passado.",
    "Terminei a diálise de hoje.",
    "Comecei a hemodiálise em maio.",
    # second table, after the change
    "Stopped the metformin two weeks ago.",
    "Picked up the insulin from the pharmacy.",
    "Retomé la quimio el lunes.",
    "Die Dialyse heute war anstrengend.",
    "Repris les antidépresseurs depuis lundi.",
    "Voltei a tomar a insulina ontem.",
    "Acabei a quimio semana passada.",
    "Skipped the Ramadan fast today, felt sick.",
    "Dejé el litio en verano.",
    "Nach der Chemo total müde.",
]


@pytest.mark.parametrize("text", STATEMENTS)
def test_an_implied_subject_with_an_article_is_not_quoted(text: str) -> None:
    assert not quote_verdict(text).quotable


@pytest.mark.parametrize(
    "text",
    [
        "The Democrats passed the bill on Tuesday.",
        "The employee has a criminal record.",
        "Die Krebsforschung in Heidelberg ist weltweit bekannt.",
    ],
)
def test_the_floor_still_reads_no_statement_there(text: str) -> None:
    assert not any(f.level.value == "special" for f in classify(text).findings)


@pytest.mark.parametrize(
    "text",
    ["Mi hermana empezó la quimioterapia.", "My dad started the chemo in May."],
)
def test_a_named_third_party_still_clears_it(text: str) -> None:
    assert quote_verdict(text).quotable
