"""Codes told across sentences, restated or corrected, and credential-shaped tokens in text no
rule reads, by class (issue 29, blindfix24a).

blind24 stored "set it to 0-7-3-9 … now it won't open at 0739 either" (a found secret said
again in another grouping: ``password_variants.restated_values``), "Voicemail keeps asking for
the PIN. It was my old house number twice, 1414 — no wait, I changed it in March to 5528",
"家里保险柜的密码是我生日倒过来。８２７０９１。" and "Zahlenschloss am Spind im Fitnessstudio:
hab 5-1-8 eingestellt. Nee warte, 5-8-1." (a code in the sentence after its cue, and its
correction: ``code_clauses.next_sentence_codes`` with ``settings`` in ``code_clauses.yaml``,
three dials said one by one in ``lock_codes``, ``corrections.yaml``), and, in text no rule
reads, "… 𞤢𞤥 𞤳𞤮 Labe2019! , …" (Adlam reads as no language) and "Мини нууц үг:
Elista_Tulpan08 — …" (the token alone read as Spanish): a lone Latin token in a turn of a
script no covered language writes is judged with the turn (``uncovered.uncovered_values``).

First run of the first sets on the unmodified branch (04475b9): restated codes 14/19 caught
(7/10 benign kept), sentence codes 4/19 (10/10), uncovered tokens 10/12 (6/10). The second
sets' first sight on this branch: restated 16/16 (9/9), sentence codes 16/16 (6/9: "Zimmer
314", "I'm in 412" after a setting word were read as codes; a place's word now keeps them),
uncovered tokens 9/9 (6/8: times with an ending written in marks, "18:05-க்கு").
"""

from __future__ import annotations

import pytest

from tests.support import value_sets
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact

SETS = tuple(
    f"blindfix24a_{name}{n}.jsonl"
    for name in ("restated_codes", "sentence_codes", "uncovered_tokens")
    for n in ("", "2")
)

KNOWN = {
    "restated_codes-fr-secret-001": "'c'est 4B 72 9': a code in three groups of mixed length "
    "no rule reads, so there is no first form to restate",
    "restated_codes-en-benign-002": "'order number is 7301 … says 7 3 0 1': read as a figure "
    "on main too",
    "restated_codes-en-benign-003": "'Is 4-8-2-6 a good PIN format': a value beside a PIN "
    "word, as on main",
    "restated_codes-en-benign-004": "'she says 1234 is common' beside PIN: the gate's "
    "recall-first reading, as on main",
    "sentence_codes2-en-benign-002": "'keypad … now I'm in 412': the gate withholds a lock's "
    "word near digits, as on main (the floor keeps it)",
    "sentence_codes2-en-benign-003": "'PIN … on a Pixel 8?': the gate withholds a PIN word "
    "near a digit, as on main",
    "uncovered_tokens-sw-benign-001": "'shilingi elfu hamsini': the user's price in words, "
    "read as an amount",
}


def _fails(case: value_sets.Case) -> bool:
    """A covered row by the gate and the floor; a held-out one by the floor alone."""
    if case["group"] == "covered":
        return value_sets.row_fails(case)
    return value_sets.uncovered_fails(case)


test_every_item_of_the_set, test_known_miss = value_sets.set_tests(SETS, KNOWN, fails=_fails)


@pytest.mark.parametrize(
    ("text", "values"),
    [
        (
            "my bike lock is the 4-wheel kind, set it to 0-7-3-9 when I bought it and now it "
            "won't open at 0739 either, did I bend something inside?",
            ["0-7-3-9", "0739"],
        ),
        (
            "Voicemail keeps asking for the PIN. It was my old house number twice, 1414 — no "
            "wait, I changed it in March to 5528 and that doesn't work either.",
            ["1414", "5528"],
        ),
        (
            "家里保险柜的密码是我生日倒过来。８２７０９１。算了我还是在这记个备忘，别笑我",
            ["８２７０９１"],
        ),
        (
            "Zahlenschloss am Spind im Fitnessstudio: hab 5-1-8 eingestellt. Nee warte, 5-8-1. "
            "Geht beides nicht, wie setz ich das zurück?",
            ["5-1-8", "5-8-1"],
        ),
        ("my PIN is four eight two six, I typed 4826 and it failed", ["4826"]),
        ("𞤊𞤭𞤲𞤲𞤣𞤫 𞤊𞤢𞤷𞤫𞤦𞤮𞤮𞤳 𞤢𞤥 𞤳𞤮 Labe2019! , 𞤥𞤭 𞤴𞤭𞤯𞤭 𞤱𞤢𞤴𞤤𞤵𞤣𞤫 𞤯𞤵𞤥.", ["Labe2019!"]),
        (
            "Мини нууц үг: Elista_Tulpan08 — Госуслугд орхд кергтә, бичҗ авчкич.",
            ["Elista_Tulpan08"],
        ),
    ],
)
def test_values_are_redacted(text: str, values: list[str]) -> None:
    red = redact(text)
    assert all(v not in red for v in values), red
    assert not quote_verdict(text).quotable


@pytest.mark.parametrize(
    "text",
    [
        "The bike lock is stuck. I tried for 120 minutes.",
        "Der Tresor im Hotel. Ich hab 2 Nächte gebucht, Zimmer 314.",
        "Le cadenas est cassé. Je passe à 14h, non attends, à 15h.",
        "Flight 4826 leaves at 14:30 and the gate is 48 26 steps away.",
    ],
)
def test_benign_stays(text: str) -> None:
    assert redact(text) == text
    assert quote_verdict(text).quotable


@pytest.mark.parametrize(
    "text",
    [
        "Гиичин самолет Москвас 14:20-д бууна.",  # a time with its case ending
        "ខ្ញុំទិញ iPhone15 នៅឆ្នាំ 2024 ។",  # a product's name
    ],
)
def test_uncovered_near_misses_are_kept(text: str) -> None:
    assert redact(text) == text
