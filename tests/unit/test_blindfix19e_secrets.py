"""Covered secrets blind19 stored after the first round (issue 29, blindfix19e).

Two classes, each with a fresh set in the seven covered languages and near-misses:

* ``long_passwords``: a password after its word with an aside in brackets before the copula
  ("senha das Finanças (Portal) é Bacalhau.Porto#77", "mon mot de passe (Ameli) est …",
  "密码（旧的）是 …"). ``passwords._PW_BODY`` reads the aside; after one, a word is prose
  ("la contraseña (mínimo 8 caracteres) es obligatoria"), so the value must read as a password.
  First run on main: secret 17/21, benign 2/16; the second set's first sight 13/14, 4/9.
* ``cued_keys``: a key after a key word with an article between ("chave da API", "clave del
  API", "clé de l’API"), after a CJK cue glued to "API" ("APIトークンは"), or opened by a
  ``$`` vendor prefix ("$aact_…="): ``keys``' cue words and its span, sigil included.
  First run on main: secret 14/19, benign 1/12; the second set's first sight 11/12, 4/7.
"""

from __future__ import annotations

import pytest

from tests.support import value_sets
from userlore.policy.sensitivity import redact

SETS = (
    "blindfix19e_long_passwords.jsonl",
    "blindfix19e_long_passwords2.jsonl",
    "blindfix19e_cued_keys.jsonl",
    "blindfix19e_cued_keys2.jsonl",
)
KNOWN = {
    "long_passwords-en-benign-002": "the gate reads a URL's '?step=2' near 'password' as a value",
    "long_passwords-en-benign-003": "a file name after 'passwords' reads as one to the floor",
    # The gate withholds a key word near a number or a token's name in a topic question.
    "cued_keys-pt-benign-012": "the gate: 'access_token' named in a question",
    "cued_keys2-en-benign-001": "the gate: 'secret' near '100 calls'",
    "cued_keys2-de-benign-003": "the gate: 'API-Token' near '30 Tagen'",
    "cued_keys2-fr-benign-004": "the gate: 'sk_live_' named as a prefix",
    "cued_keys2-pt-benign-006": "the gate: 'token' near '100 caracteres'",
}

test_every_item_of_the_set, test_known_miss = value_sets.set_tests(SETS, KNOWN)


@pytest.mark.parametrize(
    ("text", "stored"),
    [
        ("senha das Finanças (Portal) é Bacalhau.Porto#77", False),
        ("senha das Finanças (Portal) é diferente da do app", True),
        ("das Passwort (Elster) lautet Brezel!Brauhaus.4409", False),
        ("das Passwort (mindestens 10 Zeichen) ist Pflicht", True),
        ("我的淘宝密码（旧的）是 Mooncake.88!Festival", False),
        ("a chave da API do Asaas é $aact_YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXoxMjM0NTY=", False),
        ("a chave da API do Asaas começa com $aact_ e tem uns 160 caracteres?", True),
    ],
)
def test_twins_differ_by_what_follows_the_cue(text: str, stored: bool) -> None:
    assert (redact(text) == text) is stored


def test_a_dollar_vendor_prefix_goes_with_its_key() -> None:
    text = "うちのAPIトークンは $fr_OK46a69OScb8mK17T+vx/Qc4QtPTFy4oaaGosA=="
    assert "$" not in redact(text)
