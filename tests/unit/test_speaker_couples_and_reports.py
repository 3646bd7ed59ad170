"""A same-gender couple whose speaker's gender is said apart, a clinician's words about the
speaker's condition, a faith's practice unnamed, and party membership with the speaker left out
before a duration (issue 29, blindfix14c).

blind14 quoted "mi marido y yo … soy Javier", "ma copine et moi … je m'appelle Chloé",
"彼氏と同棲してる…僕、営業部の田中です", "Die Therapeutin meinte, meine Panikattacken …",
"le psy m'a dit que mon TDAH explique …", "先生にうつ病と診断されたって上司に…",
"a médica falou que minha glicada tá 9", "we light candles and I don't drive till Saturday
night" and "Bin seit zwei Jahren bei den Grünen im Ortsverband".
``tests/data/special_speakers_reports.jsonl`` holds fresh items of each class in the seven
languages with benign twins, written before the rules (first run on main: couples 0/30,
diagnoses 18/34, practices 1/16, party durations 3/13 found; 0/22, 1/18, 0/8, 0/8 benign
withheld or changed; six Japanese, English and Spanish benign couple rows were added after the
rules). Known and listed: a name both genders carry ("je suis Camille") is read as neither, and
"o que é hemoglobina glicada?" is withheld as on main.
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, special_sets
from userlore.policy.sensitivity import classify

CASES = data_sets.rows("special_speakers_reports.jsonl")
FAMILIES = sorted({str(c["family"]) for c in CASES})
KNOWN = {
    "couple_speaker_named-fr-special-015",  # Camille: either gender
    "reported_diagnosis-pt-benign-099",  # withheld on main too
}


_fails = special_sets.family_row_fails


@pytest.mark.parametrize("family", FAMILIES)
def test_every_item_of_the_family(family: str) -> None:
    failing = {c["id"] for c in CASES if c["family"] == family and _fails(c)}
    assert failing - KNOWN == set()


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("soy Javier y busco un traje para una boda", None),  # a name, no partner
        ("mi marido y yo llevamos el mismo color, soy Laura", None),  # a woman's husband
        ("mi marido y yo llevamos el mismo traje, soy Javier", "sexual_orientation"),
        ("彼氏と同棲してる。私、営業部の田中です", None),  # 私: no gender
        ("彼氏と同棲してる。僕、営業部の田中です", "sexual_orientation"),
        ("meu TDAH explica os atrasos, disse o psiquiatra", "health"),  # a verb after the term
        ("my diabetes research got funded", None),  # English: a compound, the research's topic
        ("my neighbours don't drive from Friday evening till Saturday night", None),
    ],
)
def test_twins_differ_by_the_speaker(text: str, category: str | None) -> None:
    found = {f.category for f in classify(text).findings}
    assert (category in found) if category else not found
