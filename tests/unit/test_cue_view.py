"""One shared scan answers every gate's "does any of my words occur" (issue 30, floorcost12).

:func:`~userlore.policy.cue_view.found` must be exactly ``{w for w in words if w in text}``
for every registered word: overlapping words, a word inside another, a word at either end,
non-Latin scripts, and a gate built after texts were already scanned (its words must not be
missed by an answer remembered before it existed).
"""

from __future__ import annotations

import pytest

from userlore.policy import cue_view
from userlore.policy.cue_data import cues
from userlore.policy.literal_gate import LiteralGate
from userlore.policy.sensitivity import classify

TEXTS = [
    "",
    "a",
    "password",
    "my passwort ist hunter2",
    "pass word pa ss",
    "store:notes#m1234",
    "口座番号は 1234567",
    "Mein Konto: DE89 3704 0044 0532 0130 00",
    "ﬁ ſ K İ ς σ",  # ligature, long s, Kelvin sign, dotted I, final and medial sigma
    "endword",
]


def test_found_is_every_registered_word_in_the_text() -> None:
    for text in TEXTS:
        classify(text)  # loads the detectors' data, so their gates are registered
    words = cue_view._WORDS
    assert len(words) > 1_000  # the floor's gates are in the scan
    for text in TEXTS:
        expected = {w for w in words if w in text}
        assert cue_view.found(text) == expected, text


def test_a_gate_built_after_a_scan_sees_its_words() -> None:
    text = "the zqxjv-floorcost marker"
    assert "zqxjv-floorcost" not in cue_view.found(text)  # remembered before the gate exists
    gate = LiteralGate(["zqxjv-floorcost", "other-unlikely-word"])
    assert gate.search(text)
    assert not gate.search("nothing of the kind")


WORD_SETS = [["pass", "password", "word"], ["ab", "b", "abc"], ["口座", "座"]]


@pytest.mark.parametrize("words", WORD_SETS)
def test_literal_gate_is_any_word_in_text(words: list[str]) -> None:
    gate = LiteralGate(words)
    for text in [*TEXTS, *words, "".join(words), " ".join(words)[1:-1]]:
        assert gate.search(text) == any(w in text for w in words), (words, text)


def test_an_empty_word_opens_the_gate_on_every_text() -> None:
    assert LiteralGate(["", "zz"]).search("")
    with pytest.raises(ValueError):
        cue_view.register([""])


def test_cue_alternation_scans_the_same_terms() -> None:
    c = cues()
    for text in TEXTS:
        lowered = text.lower()
        got = [m.span() for m in c.credential_scan.finditer(lowered)]
        assert got == [m.span() for m in c.credential_scan.pattern.finditer(lowered)], text
