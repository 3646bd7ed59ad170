"""Short covered-language lines with digits, codes, prices and names are quotable; short lines
in a language no rule reads are still withheld (``policy.language.decide``, ``short=True``).

``tests/data/gate_short.jsonl`` was written before the change: 60 short benign turns in the
seven covered languages (first run: 4 withheld as Tagalog, Estonian, Italian and Guadeloupean
Creole) and 34 in the held-out languages (all withheld). ``gate_short2.jsonl`` was written after
it and run once at first sight (see ``docs/benchmarks.md``); its held-out and other uncovered
rows must be withheld.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from userlore.policy.language import segments
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import classify

DATA = Path(__file__).parents[1] / "data"
CASES = [
    json.loads(line)
    for name in ("gate_short.jsonl", "gate_short2.jsonl")
    for line in (DATA / name).read_text().splitlines()
    if line.strip()
]
UNCOVERED = [c for c in CASES if c["group"] != "covered"]


@pytest.mark.parametrize("case", UNCOVERED, ids=[c["id"] for c in UNCOVERED])
def test_a_short_line_in_an_uncovered_language_is_still_withheld(case: dict[str, str]) -> None:
    assert not quote_verdict(case["text"]).quotable


def test_short_covered_lines_are_withheld_at_most_three_percent() -> None:
    first = [c for c in CASES if c["group"] == "covered" and c["id"].startswith("short-")]
    withheld = [c["text"] for c in first if not quote_verdict(c["text"]).quotable]
    assert len(withheld) <= 0.03 * len(first), withheld


@pytest.mark.parametrize(
    "text",
    [
        "Vou ao médico amanhã. Kemoterapi görüyorum.",
        "Use bullet points. Też mam cukrzycę.",
        "Obrigada pela ajuda. Yarın hastaneye gidiyorum.",
        "Thanks a lot. Jutro idę do lekarza.",
    ],
)
def test_a_short_sentence_the_identifier_is_sure_of_is_not_joined_to_its_neighbour(
    text: str,
) -> None:
    # Joined, the covered sentence would carry it; apart, it is an uncovered segment.
    assert any(s.language not in (None, "en", "pt") for s in segments(text))
    assert not quote_verdict(text).quotable


def test_names_alone_are_still_joined() -> None:
    found = segments("Sure thing, Mr. Kowalczyk. I will bring the signed forms on Monday.")
    assert [s.language for s in found] == ["en"]


@pytest.mark.parametrize(
    ("text", "flagged"),
    [
        ("Dois pastéis, R$ 14,00.", False),
        ("Comprei dois ingressos por R$ 80.", False),
        ("São dois quilos de arroz por 12 reais.", False),
        ("Eu levei dois livros de 30 reais.", False),
        ("Je dois encore 8 400 € sur mon prêt étudiant.", True),
        ("J'en dois encore 1 200 à la banque.", True),
    ],
)
def test_portuguese_two_is_not_french_i_owe(text: str, flagged: bool) -> None:
    # First run: 6 of 8 Portuguese lines with "dois" (two) were refused as the user's money,
    # and the gate's own money cue list withheld them too.
    levels = {f.level.value for f in classify(text).findings}
    assert ("regulated" in levels) is flagged, levels
    assert quote_verdict(text).quotable is not flagged
