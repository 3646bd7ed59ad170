"""A password after its account's phrase (issue 29, blindfix17a).

blind17 stored "mi contraseña del SII es Tortilla.Patatas_77" (a dotted password with an
underscore read as code's attribute access) and "A palavra-passe do wifi lá de casa é
BacalhauComNatas2020" (European Portuguese's word for a password was in no list); fresh text
showed a third form: a phrase naming the account longer than the prose rule reads ("le mot de
passe du wifi chez mes beaux-parents est …"). ``blindfix17a_owned_password.jsonl`` (first run
on main 25/28 caught, benign 0/10) and ``…2.jsonl`` (written after the fix, first sight 21/26,
benign 0/8) hold passwords and PINs after their account's phrase in the seven covered
languages, with twins that give no value.
"""

from __future__ import annotations

import pytest

from tests.support import value_sets
from userlore.policy.sensitivity import redact

SETS = ("blindfix17a_owned_password.jsonl", "blindfix17a_owned_password2.jsonl")
KNOWN: set[str] = set()


test_every_item_of_the_set = value_sets.set_tests(SETS, KNOWN).every_item


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        ("le mot de passe du wifi chez mes parents est Croissant.Beurre_12", True),
        ("le mot de passe du wifi chez mes parents est écrit sur le frigo", False),
        ("das Passwort für den Router im Keller bei meinem Onkel ist Sauerkraut.Wurst_7", True),
        ("das Passwort für den Router im Keller bei meinem Onkel ist leider weg", False),
        ("a palavra-passe do email é SardinhaAssada44", True),
        ("a palavra-passe do email é a mesma do banco?", False),
        ("db password = cfg.db_pass", False),  # code's attribute, not a value
    ],
)
def test_twins_differ_by_what_follows_the_phrase(text: str, redacted: bool) -> None:
    assert (redact(text) != text) is redacted
