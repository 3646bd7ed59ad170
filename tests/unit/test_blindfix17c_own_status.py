"""First-person special-category statements blind17 missed, by class (issue 29, blindfix17c).

- a treatment in a record-style clause, its subject left out, before a question to the
  assistant ("been on sertraline 100mg since…, does it interact with the antihistamine you
  suggested?": the later "you" made it someone else's);
- a penal status by its short name, said of oneself ("Tengo la condicional", "je suis en
  conditionnelle", "I'm out on licence");
- the other mother of a couple's child, which says the speaker's gender beside a female
  partner ("ma femme … moi je suis la deuxième maman", "I'm the other mum", 另一个妈妈).

``blindfix17c_own_status.jsonl`` (first run on main: treatments 4/8, penal status 8/13, other
mothers 0/10 caught; benign 4/4, 8/8, 6/7 passed) and ``…2.jsonl`` (written after the rules,
first sight: 3/6, 8/10, 0/6 caught; benign 7/7 passed).
"""

from __future__ import annotations

import pytest

from tests.support import special_sets, value_sets
from userlore.policy.sensitivity import classify

SETS = ("blindfix17c_own_status.jsonl", "blindfix17c_own_status2.jsonl")
KNOWN = {
    # "estoy en tercer grado" is a pupil's school year in much of Latin America as often as a
    # prison regime in Spain.
    "penal_status2-es-special-001": "tercer grado: a prison regime or a school year",
}


test_every_item_of_the_family, test_known_misses = value_sets.set_tests(
    SETS, KNOWN, fails=special_sets.family_row_fails, by_family=True
)


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("been on lithium since May, can you remind me about the blood test?", "health"),
        ("My dad has been on lithium for years", None),
        ("still on the night shift, can you move my gym sessions?", None),
        ("Tengo la condicional hasta octubre", "criminal_record"),
        ("A mi primo le dieron la condicional", None),
        ("En la condicional del ejercicio va el subjuntivo", None),  # grammar
        ("Je suis en conditionnelle jusqu'en mai", "criminal_record"),
        ("Mon cousin est en conditionnelle", None),
        ("Ma femme attend notre bébé et je suis la deuxième maman", "sexual_orientation"),
        ("Ma femme attend notre bébé et je suis le papa", None),
        ("My wife is pregnant and I'm the other mum", "sexual_orientation"),
        ("My husband's sister is pregnant and I'm the other aunt", None),
    ],
)
def test_twins_differ_by_whose_statement(text: str, category: str | None) -> None:
    found = {f.category for f in classify(text).findings}
    assert (category in found) if category else not found
