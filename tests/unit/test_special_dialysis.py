"""Dialysis by its prefixed names in the five Latin-script covered languages (gate3 round):
"tô fazendo hemodiálise" reached a plan at first sight of ``gate_short4``; vocabularies named
only "dialysis"/"diálise". First run on the class (15 statements, all seven languages): 10/15
flagged and withheld; now 13/15 — left: "tô fazendo hemodiálise" (withheld by the gate, not
flagged by the floor: no first-person form "tô") and "Comecei a hemodiálise em maio." (the
floor reads "a <term>" with no speaker as a topic; the gate now withholds it,
``test_gate_determiner.py``).
"""

from __future__ import annotations

import pytest

from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import classify


@pytest.mark.parametrize(
    "text",
    [
        "Started haemodialysis in June.",
        "I had hemodialysis yesterday.",
        "Hago hemodiálisis los martes.",
        "Ich mache Hämodialyse.",
        "Je fais de l'hémodialyse.",
        "Faço hemodiálise três vezes por semana.",
    ],
)
def test_haemodialysis_is_health(text: str) -> None:
    assert "health" in {f.category for f in classify(text).findings}
    assert not quote_verdict(text).quotable


@pytest.mark.parametrize(
    "text", ["My grandfather needs hemodialysis.", "Meine Mutter braucht Hämodialyse."]
)
def test_someone_elses_haemodialysis_is_quotable(text: str) -> None:
    assert quote_verdict(text).quotable
