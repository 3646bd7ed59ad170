"""A code restated after a comma is its cue's value (issue 29, blindfix19a).

"my real bank PIN, which is 7302", "la clave de la alarma, o sea 61730", "mon vrai code de
carte, 7419": the floor's window after a credential word ended at the comma, so the value was
stored (the gate withheld the turn). ``detectors/cued_values`` reads on past a comma followed by
restating words (``data/cue_restatements.yaml``) or by the value alone up to its clause's end.
``blindfix19a_comma_values.jsonl`` (first run on main: secret 11/20 caught, benign 0/13) and
``…comma_values2.jsonl`` (written after the fix: first sight secret 12/14, benign 1/8 withheld)
hold the class in the seven covered languages with twins whose restatement holds no value.
"""

from __future__ import annotations

import pytest

from tests.support import value_sets
from userlore.policy.sensitivity import redact

SETS = ("blindfix19a_comma_values.jsonl", "blindfix19a_comma_values2.jsonl")
KNOWN = {
    # The gate's window reads a year after "set in" near "code" as a value (the floor keeps it).
    "comma_values2-en-benign-001",
}


test_every_item_of_the_set, test_known_miss = value_sets.set_tests(SETS, KNOWN)


@pytest.mark.parametrize(
    ("text", "stored"),
    [
        ("my PIN, which is 5183, keeps failing", False),
        ("my PIN, which is four digits long, keeps failing", True),
        ("die PIN, das heißt 2741, kennt nur sie", False),
        ("die PIN, das heißt die vierstellige Zahl, kommt per Brief", True),
        ("grandma's passcode, aka 1945, is too easy", False),  # a year restated is the value
        ("the garage code, which I set in 2019, needs changing", True),  # a year said of it
    ],
)
def test_twins_differ_by_what_is_restated(text: str, stored: bool) -> None:
    assert (redact(text) == text) is stored
