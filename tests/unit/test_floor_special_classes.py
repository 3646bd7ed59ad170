"""Two special-category classes of issue 29's floor round, each written as siblings before the
fix: leaving, joining or converting to a faith (first run 4 of 13 caught, final 13 of 13;
near-misses 0 of 8 flagged before and after), and a term bought or fetched for someone else,
the beneficiary named after it (first run 6 of 9 flagged, final 0 of 9; the speaker's own
statements 6 of 6 caught before and after)."""

from __future__ import annotations

import pytest

from userlore.policy.findings import SensitivityLevel
from userlore.policy.sensitivity import classify

FAITH = [
    "Seit meinem Kirchenaustritt feiere ich Ostern nicht mehr.",
    "Ich bin letztes Jahr aus der Kirche ausgetreten.",
    "Nach meiner Konversion zum Islam esse ich kein Schweinefleisch.",
    "Ich habe mich mit 30 taufen lassen.",
    "Since I left the church I skip Easter.",
    "After my conversion to Judaism I keep kosher.",
    "I got baptized last spring.",
    "Me convertí al budismo hace dos años.",
    "Desde que dejé la Iglesia ya no voy a misa.",
    "Je me suis converti à l'islam l'an dernier.",
    "Depuis mon apostasie je ne vais plus à la messe.",
    "Saí da igreja evangélica no ano passado.",
    "Me converti ao catolicismo em 2019.",
]
FAITH_NEAR = [
    "Die Kirche an der Ecke wird renoviert.",
    "Wir haben die alte Kirche besichtigt.",
    "My sister left the church last year.",
    "The church bells woke me up.",
    "La iglesia del pueblo es del siglo XII.",
    "Le film parle d'une conversion religieuse.",
    "Converti o arquivo para PDF.",
    "I converted the file to PDF.",
]
FOR_SOMEONE_ELSE = [
    "Ich brauche einen neuen Asthmaspray für meinen Sohn.",
    "Ich hole das Insulin für meine Mutter ab.",
    "I need to refill the insulin for my daughter.",
    "I'm picking up chemo meds for my dad tomorrow.",
    "Je dois acheter de l'insuline pour mon père.",
    "Tengo que comprar insulina para mi hija.",
    "Preciso comprar insulina para a minha mãe.",
    "我要给我儿子买哮喘喷雾。",
    "母のためにインスリンを買いに行く。",
]
OWN = [
    "Ich brauche mein Asthmaspray.",
    "I need insulin for my diabetes.",
    "Je prends de l'insuline pour mon diabète.",
    "I need my insulin refilled before I visit my son.",
    "Tomo insulina desde hace años.",
    "我有哮喘，需要喷雾。",
]


def _special(text: str) -> set[str | None]:
    return {f.category for f in classify(text).findings if f.level is SensitivityLevel.SPECIAL}


@pytest.mark.parametrize("text", FAITH)
def test_leaving_or_joining_a_faith_is_religion(text: str) -> None:
    assert "religion" in _special(text)


@pytest.mark.parametrize("text", FAITH_NEAR + FOR_SOMEONE_ELSE)
def test_buildings_files_and_others_are_not_the_speakers(text: str) -> None:
    assert not _special(text)


@pytest.mark.parametrize("text", OWN)
def test_the_speakers_own_stays_special(text: str) -> None:
    assert "health" in _special(text)
