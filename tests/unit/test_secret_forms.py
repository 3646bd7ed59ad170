"""blind10's secret classes (issue 29), each as a class in the seven languages and beyond.

blind10, written without reading the rules, stored a wallet's twelve recovery words, a gate
code keyed in as "star, four niner one one, then pound", a safe's dial numbers after the turn
counts, a PIN that is a year, a card's security code in spaced digits, a payment password in
Chinese financial numerals, a corrected password "Sonnenblume#1987", a database URL whose
password holds "#", a 1Password Secret Key, a setting named ``*_KEY``, a service account's
``private_key_id``, a mail provider's letters-only authorisation code and routers' Wi-Fi keys.
``tests/data/secret_forms.jsonl`` holds fresh items of each class (``family``), written before
the rules; each family is one test that lists every failing item.
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.sensitivity import classify, redact
from userlore.policy.spoken import spoken_view

CASES = data_sets.rows("secret_forms.jsonl")
FAMILIES = sorted({str(c["family"]) for c in CASES})
# Written after the rules, scored once (first sight: sensitive 19/22, benign 3/11 withheld by
# the gate alone), then its three classes fixed: a URL whose IP host is blanked as public
# material, "alles klein" as a password's typing, a change told after a cue asked about ("code
# de la CB ? … changé en 7140").
SECOND = data_sets.rows("secret_forms2.jsonl")
# ("KEY_ROTATION_DAYS=90" is quoted since blindfix18a reads a count after its unit as a size.)
SECOND_KNOWN = {"sf2-pasted_key-en-005", "sf2-pasted_key-de-001"}
# Benign rows the gate alone withholds (the floor changes nothing), by gate rules this round
# did not change (the safe's "4-digit code" is quoted since blindfix18a reads a count joined to
# its unit): a credential word near a count, a name, a path or a number ("seed phrase …
# 12 or 24 words", "KEY_LENGTH=2048", "FRITZ!Box 7590"); and one the uncovered-language shape
# rule redacts ("Livebox-4A2F" after "SSID", a French sentence read as no covered language).
KNOWN: dict[str, set[str]] = {
    "seed_phrase": {"sf-seed_phrase-en-009", "sf-seed_phrase-en-010"},
    "pasted_key": {
        "sf-pasted_key-en-010",
        "sf-pasted_key-en-011",
        "sf-pasted_key-en-013",
        "sf-pasted_key-en-015",
        "sf-pasted_key-de-006",
        "sf-pasted_key-fr-005",
        "sf-pasted_key-es-003",
    },
}


@pytest.mark.parametrize("family", FAMILIES)
def test_every_item_of_the_family(family: str) -> None:
    cases = [c for c in CASES if c["family"] == family]
    assert set(value_sets.failures(cases)) == KNOWN.get(family, set())


def test_every_item_of_the_second_set() -> None:
    assert set(value_sets.failures(SECOND)) == SECOND_KNOWN


@pytest.mark.parametrize(
    ("text", "blocked"),
    [
        # Commas between the words: only a phrase whose checksum holds (a generated one).
        ("math, bless, enjoy, giraffe, frown, pause, kind, mimic, cabin, art, toast, filter", True),
        (
            "apple, banana, orange, lemon, grape, melon, cherry, peanut, olive, bean, corn, rice",
            False,
        ),
        # Eleven words are no phrase.
        ("tiger mobile crater lens orchard velvet gravity seven pledge humble tomato", False),
        # Words of two lists do not make one phrase.
        (
            "tiger mobile crater lens orchard velvet usure facture dessiner lapin papoter dogme",
            False,
        ),
    ],
)
def test_a_seed_phrase_is_twelve_words_of_one_list(text: str, blocked: bool) -> None:
    assert classify(text).is_blocked is blocked


@pytest.mark.parametrize(
    ("text", "view"),
    [
        ("punch star, four niner one one, then pound", "punch star, 4911, then pound"),
        ("four oh one one", "4011"),
    ],
)
def test_niner_is_nine(text: str, view: str) -> None:
    assert spoken_view(text).text == view


@pytest.mark.parametrize(
    ("text", "left"),
    [
        # A turn count is no part of the combination; the number after it is.
        ("金庫は右に3回回して２５、左に2回で７０、最後に右で１５", ["２５", "７０", "１５"]),
        # A URL's password is read whole, "#" and all.
        ("postgres://app:Wq7#pLm2zR@db.internal:5432/prod", ["Wq7", "pLm2zR"]),
        # A piece said after a word in the next sentence.
        ("单元门密码是 4 8 0。后面再加 27，然后按井号就开了", ["8 0", "27"]),
    ],
)
def test_no_piece_of_the_value_is_left(text: str, left: list[str]) -> None:
    red = redact(text)
    assert not any(v in red for v in left), red


@pytest.mark.parametrize(
    "text",
    [
        "see issue#1987 for the fix",
        "meet me lunch@1230",
        "the example phrase abandon abandon abandon abandon abandon abandon abandon abandon "
        "abandon abandon abandon about",
        "my PIN is not a year, I never use 1987",
    ],
)
def test_benign_twins(text: str) -> None:
    assert not classify(text).is_blocked, [
        (f.rule, text[f.start : f.end]) for f in classify(text).findings
    ]
