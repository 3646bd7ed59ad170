"""First-person special-category statements blind16 missed, by class (issue 29, blindfix16c).

Five classes, each with a first set written before the rules and a second written after them
(``tests/data/blindfix16c_<class>.jsonl`` and ``…2.jsonl``), over the seven covered languages
with benign twins (a third party, fiction, news, "how does it work"):

- a role held for a named party or union ("I'm the GMB rep", "candidat sur la liste RN",
  "apoderado por el Frente Amplio", 自治労の分会で書記);
- health by its treatment settings and devices (a psychiatric ward, a psychosomatic clinic and
  a phased return, an allergy and its adrenaline pen, hearing aids, a disability card);
- prison time by a named prison or "I was inside" ("j'ai fait trois ans à Fleury-Mérogis");
- an origin told of the speaker's own family or by a status document ("mi familia es mapuche",
  "on my mother's side", 我家是回族, 特別永住者);
- a same-gender couple by a gendered partner word ("ma compagne", "Lebensgefährtin") or the
  partnership oath taken with a partner.

First run on main: roles 12/33, health 15/32, prison 13/26, origin 9/27, partner words 7/21
caught; the second sets at first sight: 15/20, 19/19, 15/15, 12/14, 12/12.
"""

from __future__ import annotations

import pytest

from tests.support import special_sets, value_sets
from userlore.policy.sensitivity import classify

SETS = tuple(
    f"blindfix16c_{name}{round_}.jsonl"
    for name in ("roles", "health_settings", "prison", "origin", "partner_words")
    for round_ in ("", "2")
)
KNOWN = {
    # "audífonos" are hearing aids in Spain and headphones in most of Latin America.
    "health_setting-es-special-005": "audífonos: hearing aids or headphones",
    # "mi compañera" alone is also a colleague or classmate: withheld for the FIV (health), the
    # couple not read.
    "partner_word-es-special-001": "mi compañera: a partner or a colleague",
    # blindfix15c's rule: marrying abroad (国外结婚) is read as a same-gender couple, as on main.
    "partner_word-zh-benign-001": "marrying abroad read as a same-gender couple",
}


test_every_item_of_the_family, test_known_misses = value_sets.set_tests(
    SETS, KNOWN, fails=special_sets.family_row_fails, by_family=True
)


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("our new GMB rep starts on Monday", None),  # someone else holds the role
        ("I'm the GMB rep on our floor now", "trade_union"),
        ("mi cuñado es concejal del PSOE", None),
        ("llevo dos mandatos como concejal del PSOE", "political_opinion"),
        ("my dad just got a CPAP machine", None),
        ("I got my CPAP machine last week", "health"),
        ("Meine Mutter ist in der Reha", None),
        ("Ich habe eine Erdnussallergie", "health"),
        ("I did four years in Leeds for my degree", None),  # a city, not a prison
        ("I did four years in Wandsworth and I'm out now", "criminal_record"),
        ("mon frère est sorti de Fresnes hier", None),
        ("je sors des Baumettes après quatre ans", "criminal_record"),
        ("mi familia es de Valencia", None),  # a place, not an origin
        ("mi familia es mapuche", "ethnicity"),
        ("la familia de mi vecina es mapuche", None),
        ("my fiancé is moving in next month", None),  # no gender of the speaker said
        ("I'm a man and my fiancé is moving in next month", "sexual_orientation"),
        ("mi personaje de la novela es un expresidiario", None),  # fiction
        ("Im Tatort gestern war der Täter auf Bewährung draußen", None),  # a TV plot
        ("我同事的对象也是男的", None),  # another's partner
        ("我对象也是女生", "sexual_orientation"),
    ],
)
def test_twins_differ_by_whose_statement(text: str, category: str | None) -> None:
    found = {f.category for f in classify(text).findings}
    assert (category in found) if category else not found
