"""Secrets and codes blind22 found, by class, and two benign flags (issue 29, blindfix22a).

blind22 stored "X9kq2PzR7mTe4Lb8 <- esa es la clave del wifi …" (a value before the cue that
points back at it: ``detectors/pointed_values``), "… commence par « Chaton-Violet ». La suite
c'est « -42-Lundi »." (a secret's parts after a part's opener: ``credential_words``), a
BitLocker recovery key in eight groups of six digits (each a multiple of 11: ``backup_codes``,
no word needed), "保险柜 … 左38 右12 左7" (dial turns written as marks: ``dial_combos``,
``lock_cues.yaml`` ``turn_marks``) and, in a held-out language read as a possibly misread
covered sentence, "Tikok974!" (an unknown word, digits and a trailing symbol:
``uncovered._signed_unknown``). It flagged "1password" (a product's name) and "set an alarm
for 0630" (a time after a time word: ``detectors/clock_times``).

First run of the first sets on the unmodified branch: pointed 15/20 caught (1/8 benign
withheld), parts 10/16 (2/7), recovery keys 15/16 (6/9), dials 13/19 (2/8), held-out tokens
11/11 (0/9), times and products 7/7 (5/18). The second sets' first sight on this branch:
pointed 8/8 (1/4), parts 7/7 (0/5), recovery keys 6/6 (0/4), dials 7/7 (1/4, "R2 and L1": now
three Latin marks are needed), held-out tokens 5/6 (3/3 benign redacted by the uncovered shape
rule, as before), times and products 3/3 (0/7).
"""

from __future__ import annotations

import pytest

from tests.support import value_sets
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact

COVERED = tuple(
    f"blindfix22a_{name}{n}.jsonl"
    for name in (
        "pointed_values",
        "continued_secrets",
        "recovery_keys",
        "dial_combos",
        "times_products",
    )
    for n in ("", "2")
)
HELD_OUT = ("blindfix22a_heldout_tokens.jsonl", "blindfix22a_heldout_tokens2.jsonl")

_MIXED_NAME = "a mixed-case name (WPA3, BitLocker) beside a credential cue: the gate withholds"
KNOWN = {
    "pointed_values-ja-benign-001": _MIXED_NAME,
    "pointed_values2-de-benign-001": _MIXED_NAME,
    "recovery_keys-en-benign-001": _MIXED_NAME,
    "recovery_keys-es-benign-001": _MIXED_NAME,
    "recovery_keys-fr-benign-001": _MIXED_NAME,
    "recovery_keys-ja-benign-001": _MIXED_NAME,
    "recovery_keys-zh-benign-001": _MIXED_NAME,
    "recovery_keys-pt-benign-001": _MIXED_NAME,
    "continued_secrets-en-benign-001": "'password course was dull': the prose rule takes 'dull'",
    "continued_secrets-fr-secret-002": "a part's opener before its cue ('la première moitié du')",
    "dial_combos-en-secret-004": "'opens at 14-29-3': 'at' reads as a place",
    "times_products-en-benign-005": "'the bank … at 1800': the money gate",
}
KNOWN_HELD_OUT = {
    "heldout_tokens2-lou-secret-001": "'Bayou419!': its word is an English one",
    "heldout_tokens2-ht-benign-001": "the uncovered shape rule redacts 'Paris2024' (fail closed)",
    "heldout_tokens2-mfe-benign-001": "the uncovered shape rule redacts 'BEPC2023' (fail closed)",
    "heldout_tokens2-gcf-benign-001": "the uncovered shape rule redacts 'Euro2024' (fail closed)",
}

test_every_covered_item, test_known_covered_miss = value_sets.set_tests(COVERED, KNOWN)
test_every_held_out_item, test_known_held_out_miss = value_sets.set_tests(
    HELD_OUT, KNOWN_HELD_OUT, fails=value_sets.uncovered_fails
)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (
            "X9kq2PzR7mTe4Lb8 <- esa es la clave del wifi del router de Movistar (la de la "
            "pegatina), ¿cómo la cambio desde el móvil?",
            "X9kq2PzR7mTe4Lb8",
        ),
        (
            "ｋ７ｍ４ｘｐ２ｗ９ｒｔｅ２ ←バッファローのルーターの暗号化キー（裏のシール）",
            "ｋ７ｍ４ｘｐ２ｗ９ｒｔｅ２",
        ),
        (
            "la passphrase de ma clé GPG commence par « Chaton-Violet ». "
            "La suite c'est « -42-Lundi ».",
            "-42-Lundi",
        ),
        (
            "I wrote it down as 412016-308770-551892-094413-627319-180246-733150-296681, ok?",
            "412016-308770-551892-094413-627319-180246-733150-296681",
        ),
        ("家里保险柜是机械的，我妈说是 左38 右12 左7 ，这种到底怎么转啊", "左38 右12 左7"),
        ("Mon modpas Ameli sé Tikok974! — di pa person siouplé.", "Tikok974!"),
    ],
)
def test_blind22_values_are_redacted(text: str, value: str) -> None:
    assert value not in redact(text)
    assert not quote_verdict(text).quotable


@pytest.mark.parametrize(
    "text",
    [
        "bitwarden vs 1password? and is 'correct horse battery staple' still good advice for a "
        "master password",
        "set an alarm for 0630 and remind me the interview is in room 2417 on the 4th floor",
    ],
)
def test_blind22_benign_stays(text: str) -> None:
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "changed"),
    [
        ("the alarm code is 0630", True),  # a code after a copula, not a time word
        ("set the alarm for 0630", False),
        ("412016-308770-551892-094413-627319-180246-733150-296682", False),  # a group fails 11
        ("the safe: L 38 R 12 L 7", True),
        ("the safe minigame: R2 and L1", False),  # two marks are buttons
    ],
)
def test_twins_differ_by_shape(text: str, changed: bool) -> None:
    assert (redact(text) != text) is changed
