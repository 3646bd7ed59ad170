"""blind9's covered value classes (issue 29, blindfix9a), each as a class in the seven languages.

blind9, written without reading the rules, stored or quoted ids and PINs dictated in number
words or kana ("five one two, dash, six six", "よんいちななさん"), a lock code spelled "A comme
Anatole, 7", backup codes under their title, a recovery key in dashed groups, an mTAN, a card's
security code in the next sentence, an alarm's safe word, a changed password given in the next
sentence, a sort code or 店番 beside the account, and the user's money in German compound words
or as the bare numbers of a salary negotiation. ``tests/data/blindfix9_values.jsonl`` holds fresh
items of each class (``family``), written before the rules; each family is one test that lists
every failing item, checked as ``benchmarks/gate_classes.py`` scores it.
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.sensitivity import redact
from userlore.policy.spoken import spoken_view

CASES = data_sets.rows("blindfix9_values.jsonl")
# Written after the rules, scored once (first sight: 32/34, benign 0/15), then its two classes
# fixed: a one-word group beside a dash word ("nueve, guion, cuatro cuatro uno"), an amount
# against a Chinese character ("开价25k").
SECOND = data_sets.rows("blindfix9_values2.jsonl")
FAMILIES = sorted({str(c["family"]) for c in CASES})
# Benign rows the gate alone withholds (the floor changes nothing), by gate rules this round did
# not change: a credential cue ("backup codes", "TAN", "PIN") near a count, a word or a version.
KNOWN: dict[str, set[str]] = {
    # (en-013, "version 3.2.1 release notes mention the new PIN screen": a version beside a
    # version word is public since blindfix12a's public_refs.)
    "cued_code": {"bf9-cued_code-en-008", "bf9-cued_code-en-010"},
}


@pytest.mark.parametrize("family", FAMILIES)
def test_every_item_of_the_family(family: str) -> None:
    cases = [c for c in CASES if c["family"] == family]
    assert set(value_sets.failures(cases)) == KNOWN.get(family, set())


def test_every_item_of_the_second_set() -> None:
    assert value_sets.failures(SECOND) == []


@pytest.mark.parametrize(
    ("text", "view"),
    [
        # Groups of one dictated number, a dash word between them, are one value.
        ("social: five one two, dash, six six, dash, oh four three one", "social: 512-66-0431"),
        ("PIN null vier, Strich, sieben eins", "PIN 04-71"),
        ("PIN nueve, guion, cuatro cuatro uno", "PIN 9-441"),
        # Kana number words without separators, a particle before them; groups set off by 、.
        ("暗証番号はよんいちななさん。", "暗証番号は4173。"),
        ("番号、さんさんろくろく、にーよんななはち", "番号、33662478"),
        # A German amount written as one word.
        ("Dispo bei minus zweitausendvierhundert", "Dispo bei minus 2400"),
        ("Gehalt viertausendeinhundert brutto", "Gehalt 4100 brutto"),
        # Letters said with their word, digits between them.
        ("code: A comme Anatole, 7, B comme Berthe, 3", "code: A7B3"),
        ("lock: K as in kilo, M as in Mike, 39", "lock: KM39"),
        # A dash word with no group after it joins nothing.
        ("starts at nine oh five, dash over to the gate", "starts at 905, dash over to the gate"),
    ],
)
def test_a_said_value_is_read_as_its_characters(text: str, view: str) -> None:
    assert spoken_view(text).text == view


@pytest.mark.parametrize(
    "text",
    [
        "いちごを三つ買ってきて",  # a strawberry: two kana number words, and a particle
        "ななさんは来週来ます",  # Nana-san
        "C comme chat, D comme dé",  # a word that is not the letter's in an alphabet
        "A de Antonio, así se deletrea",  # one pair and no digits
        "ich habe ein Auto und zwei Katzen",  # "ein" outside a compound numeral
    ],
)
def test_a_sentence_is_not_read_as_a_value(text: str) -> None:
    assert not any(ch.isdigit() for ch in spoken_view(text).text)


def test_spanish_son_before_a_number_is_no_one_elses_money() -> None:
    red = redact("gano 1.600 al mes y el alquiler son 750")
    assert "750" not in red
    # French "son" before a noun still makes the sentence someone else's.
    assert redact("son loyer est de 750 par mois") == "son loyer est de 750 par mois"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A value that runs past a rule's reach is redacted whole, not cut at the reach.
        (
            "Die mTAN von der Bank ist gerade gekommen: 482913. Schnell",
            "Die mTAN von der Bank ist gerade gekommen: [REDACTED:one_time_value]. Schnell",
        ),
        # A rule's name inside a marker is no cue on the re-check ("password_in_prose").
        (
            '{"user": "mg", "pass": "Tapas#Sevilla88", "host": "10.0.0.4"}',
            '{"user": "mg", "pass": "[REDACTED:password_in_prose]", "host": "10.0.0.4"}',
        ),
        # A quoted word inside code is no safe word.
        ('password = os.environ["PW"]', 'password = os.environ["PW"]'),
    ],
)
def test_a_value_is_redacted_whole_and_nothing_beside_it(text: str, expected: str) -> None:
    assert redact(text) == expected
