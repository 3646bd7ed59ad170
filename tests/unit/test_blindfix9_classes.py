"""blind9's special and benign classes, each as a class (issue 29, blindfix9b).

The sets were written before the rules changed: ``tests/data/blindfix9_special.jsonl``
(medicines by brand and documents or entitlements that imply a condition, in the seven
languages, with third-party and topic twins; Latin words that hold a Chinese list's "HIV")
and ``tests/data/blindfix9_benign_values.jsonl`` (a card's last four, template placeholders,
the processors' test cards, published digests and order or invoice numbers, each with sensitive
twins: the full card, a real password after the same key, a real key beside a hash word);
``tests/data/blindfix9_second.jsonl`` was written after the rules, all families at once.
One test per set, scored as ``benchmarks/gate_classes.py`` scores it, lists every item that
fails; the misses left are named, so a fix or a regression both show (``docs/benchmarks.md``,
"Issue 29: blind9's special categories and benign texts (blindfix9b)").
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.detectors.benign_values import benign_value_spans
from userlore.policy.known_words import read_by_its_words

SPECIAL_KNOWN: frozenset[str] = frozenset(
    {
        # Attribution, not vocabulary: the same verdict for a generic name ("metformin"):
        # de "wirkt" is a topic word. (bf9s-brand-en-02 is withheld since blindfix17c:
        # "started …" opens an implied speaker before the later "side effects".)
        "bf9s-brand-de-04",
        # A question about a drug or a card, then a friend or a colleague in the next
        # sentence: the question alone reads as the speaker's (withheld, the safe side).
        "bf9s-brand-es-b07",
        "bf9s-document-zh-b07",
        # (bf9s-document-ja-b07 is quoted since blindfix16c: "ってどうやって" asks how, a topic;
        # bf9s-brand-ja-b07 since blindfix23c: "ってどんな" asks what kind, a topic)
    }
)
VALUES_KNOWN: frozenset[str] = frozenset(
    {
        # Short technical lines the language identifier reads as another language (Latin,
        # Catalan, Romanian, Italian) once the value is blanked: withheld as uncovered, no
        # rule of this round's.
        "bf9v-placeholder-es-b02",
        "bf9v-test_card-es-b02",
        "bf9v-test_card-de-b01",
        "bf9v-test_card-fr-b02",
        "bf9v-digest-en-b04",
        "bf9v-digest-fr-b03",
        "bf9v-digest-pt-b02",
        # (A tracking number after "suivi" is public since blindfix12a's public_refs.)
        # (The hex keys after a cue in de/fr/pt/ja were fixed by hexkeys9, and the Japanese
        # bank account after 普通 by tidy9's account types, issue 29.)
    }
)


@pytest.mark.parametrize(
    ("name", "known"),
    [
        ("blindfix9_special.jsonl", SPECIAL_KNOWN),
        ("blindfix9_benign_values.jsonl", VALUES_KNOWN),
        # Written after the rules: first sight 2 of 39 wrong (a digest word glued to Chinese,
        # "33% de discapacidad"), both classes fixed since.
        ("blindfix9_second.jsonl", frozenset()),
    ],
)
def test_fresh_class_sets(name: str, known: frozenset[str]) -> None:
    failing = set(value_sets.failures(data_sets.rows(name)))
    assert failing == known, sorted(failing ^ known)


@pytest.mark.parametrize(
    ("text", "blanked"),
    [
        ("the card ending in 4417 was declined", ["4417"]),
        ("カード •••• 5119 は止めた", ["5119"]),
        ("my PIN ends in 4821", []),  # a secret four digits is never a last four
        # The secret words are the cue data's credential words that name no identifier.
        ("mi contraseña termina en 4821", []),
        ("meine Geheimzahl endet auf 4821", []),
        ("the token ends in 4821", []),
        ("ma carte se termine par 1408, cryptogramme 552", []),
        ("mi tarjeta termina en 5528", ["5528"]),  # a card word is an identifier's
        ("meine Karte endet auf 7731", ["7731"]),
        ("my zip code ends in 4402", ["4402"]),  # a compound naming no secret
        ("Card is 4716 5408 3954. Last four are 1408", []),  # the rest of the card stands
        ("in der Vorlage steht PASSWORT=hier_eintragen", ["PASSWORT=hier_eintragen"]),
        ("PASSWORT=hier_eintragen99!", []),  # a digit or a symbol: a real value
        ("my real password is PASSWORD=change_this", []),
        ("Stripe test mode: 4242 4242 4242 4242", ["4242 4242 4242 4242"]),
        ("Card on file is 4111 1111 1111 1111", []),  # no testing named: still a card
        ("sha256:" + "a1" * 32, ["a1" * 32]),
        ("hash word first, then my API key: " + "c4" * 16, []),
    ],
)
def test_benign_values_need_their_context(text: str, blanked: list[str]) -> None:
    assert [text[s:e] for s, e in benign_value_spans(text)] == blanked


def test_a_german_compound_is_read_by_its_parts() -> None:
    assert read_by_its_words("Rechnungsnummer RE-2024-08817, bitte prüfen", "de")
    assert not read_by_its_words("o contrasinal da wifi é Vulpe_Rosie9", "pt")  # Galician
