"""Secrets told by position and four benign credential flags blind23 found, by class (issue 29,
blindfix23a).

blind23 stored "te paso la contra del Moodle de la uni. empieza con Vk9! y termina con qW3z"
(a secret's start and end as two shaped parts, its word a clipped one no rule reads:
``credential_words.continued_values``, ``ends`` and ``after_marks`` in
``credential_words.yaml``), redacted "Warum ist passwort123 eigentlich so ein schlechtes
Passwort?" (a weak password judged as an example) and withheld "Wie setze ich in LibreOffice ein
Passwort für eine PDF?" (a product's name in a how-to question; both
``detectors/password_talk``) and "what's a good password manager for a family of 5, bitwarden or
1password?" (a list's lowercase names misread the identifier: ``name_lists.without_listed_names``
in the language step).

First run of the first sets on the unmodified branch (103fd8c): positional 19/23 caught (4/17
benign failing), weak examples 8/8 (16/22), how-tos 7/7 (13/23), product turns (11/25). The
second sets' first sight on this branch: positional 13/15 (0/8; "finishes with", "頭が" were
added), weak examples 5/7 (0/15; "uso X como contraseña", "j'utilise X": the owner's words now
count too), how-tos 7/7 (1/15: "Office 365で"), product turns (0/16).
"""

from __future__ import annotations

import pytest

from tests.support import value_sets
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact

SETS = tuple(
    f"blindfix23a_{name}{n}.jsonl"
    for name in ("positional_secrets", "weak_examples", "password_howto", "product_turns")
    for n in ("", "2")
)

_CARD_PREFIX = "a card scheme's public prefix beside card words: two digits near a card cue"
KNOWN = {
    "password_howto-de-benign-004": "'FRITZ!Box 7590': a name with a symbol inside reads as one",
    "positional_secrets-zh-benign-002": _CARD_PREFIX,
    "positional_secrets-fr-benign-002": _CARD_PREFIX,
    "positional_secrets-ja-benign-002": "'17時に終わります' beside パスワード: the gate's value",
    "product_turns-en-benign-002": "'bitwarden vs 1password?': no word but the names to read",
    "product_turns-en-benign-010": "'garmin forerunner 265 or coros pace 3?': one word left",
    "product_turns-en-benign-012": "'proton mail vs …': a name of English words, the rest misread",
    "weak_examples-en-benign-003": "'admin123' (three digits) is no list's name: misread",
}

test_every_item, test_known_miss = value_sets.set_tests(SETS, KNOWN)


@pytest.mark.parametrize(
    ("text", "values"),
    [
        (
            "te paso la contra del Moodle de la uni. empieza con Vk9! y termina con qW3z, todo "
            "junto sin espacios",
            ["Vk9!", "qW3z"],
        ),
        ("is my password hunter2 strong?", ["hunter2"]),  # the user's own: still redacted
        ("I use qwerty123 everywhere, is that a bad password?", ["qwerty123"]),
        ("gym locker code: Jx4q at the front and 0p!M at the end", ["Jx4q", "0p!M"]),
        ("暗証番号の最初の2桁は38、最後の2桁は71です", ["38", "71"]),
        ("how do I change my WLAN password, the current one is Qv8!mz42", ["Qv8!mz42"]),
    ],
)
def test_values_are_redacted(text: str, values: list[str]) -> None:
    red = redact(text)
    assert all(v not in red for v in values), red
    assert not quote_verdict(text).quotable


@pytest.mark.parametrize(
    "text",
    [
        "Warum ist passwort123 eigentlich so ein schlechtes Passwort?",
        "Wie setze ich in LibreOffice ein Passwort für eine PDF?",
        "what's a good password manager for a family of 5, bitwarden or 1password?",
        "the tracking number starts with 1Z and ends with 42, where is it?",  # no shaped pair
        "the password webinar starts with 10 minutes of intro",
    ],
)
def test_benign_stays(text: str) -> None:
    assert redact(text) == text
    assert quote_verdict(text).quotable


@pytest.mark.parametrize(
    ("text", "changed"),
    [
        ("why is Summer2024 a bad password?", False),  # an example judged
        ("my password is Summer2024, is it bad?", True),  # the user's own
        ("the wifi password Summer2024 is weak, right?", True),  # after its word: given
        ("how do I set a password in LibreOffice?", False),  # a known name
        ("how do I set my password to BlueOtter7?", True),  # a value in a how-to
    ],
)
def test_twins_differ_by_reading(text: str, changed: bool) -> None:
    assert (redact(text) != text) is changed
