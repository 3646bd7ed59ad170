"""The classes behind blind6's first-sight misses (issue 29, blindfix6), each in its languages.

1. Public key material (``ssh-ed25519``/``ssh-rsa``/``ecdsa-sha2-*`` lines, PEM public keys,
   PGP fingerprints, ``age1…`` recipients) and placeholders (``your-key-here``, ``<token>``,
   ``xxxxxxxx``, ``changeme``, an all-zero IBAN, a weak value beside "example") are quoted and
   kept; a private key, a real value after a placeholder word, or a real IBAN beside an
   all-zero one is still caught.
2. Values told in parts: a word then a number ("Biscuit, then 1994"), spaced digits after a cue
   in the sentence before, vendor keys after a neutral verb, an account number after a bank and
   an account-type word.
3. Pregnancy by circumstance in reported speech (due date, weeks along, trimester).
4. Uncovered languages: code lists after a colon, number words of a PIN, passport-like tokens,
   amounts in CLDR number words.

The sets (``tests/data/blindfix6_*.jsonl``) were written before the rules (``*1``) and after
them (``*2``, first sight); every item is checked as ``benchmarks/gate_classes.py`` scores it,
except ``KNOWN_MISSES`` (``docs/benchmarks.md``, "Issue 29: the classes behind blind6's
misses"). Held-out benign items are withheld by language by design: only the floor is checked.
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.detectors.public_material import mask_public_material, public_spans
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import classify, redact

SETS = tuple(
    f"blindfix6_{name}{n}.jsonl" for name in ("keys", "parts", "preg", "unc") for n in (1, 2)
)
KNOWN_MISSES = frozenset(
    {
        # Benign items the floor or the gate still takes, by rules older than this round: an
        # amount beside an account word, "ich bin in der 20." cut at its ordinal dot (a
        # pregnancy week), a year beside "compte".
        "bf6p1-de-ben-000",
        "bf6g1-de-ben-000",
        "bf6p2-fr-ben-000",
        # "the baby is due": "baby" reads as a third party; "予定日" alone is also a delivery's.
        "bf6g1-en-spe-004",
        "bf6g2-ja-spe-002",
    }
)

CASES = data_sets.rows(*SETS)
SENSITIVE = [c for c in CASES if c["class"] != "benign" and c["id"] not in KNOWN_MISSES]
COVERED_BENIGN = [
    c
    for c in CASES
    if c["class"] == "benign" and c["group"] == "covered" and c["id"] not in KNOWN_MISSES
]
HELD_OUT_BENIGN = [c for c in CASES if c["class"] == "benign" and c["group"] == "held_out"]
# Held-out benign turns with a number of a thousand or more in words or digits: redacted as
# "300 тысяч жителей" is (the floor cannot tell a population from a debt it cannot read).
HELD_OUT_FLAGGED = frozenset({"bf6u1-hu-ben-000", "bf6u1-id-ben-000", "bf6u1-ru-ben-000"})


@pytest.mark.parametrize("case", SENSITIVE, ids=lambda c: str(c["id"]))
def test_withheld_and_every_value_redacted(case: dict[str, object]) -> None:
    value_sets.withheld_and_redacted(case)


@pytest.mark.parametrize("case", COVERED_BENIGN, ids=lambda c: str(c["id"]))
def test_covered_benign_is_quoted_and_kept(case: dict[str, object]) -> None:
    value_sets.quoted_and_kept(case)


@pytest.mark.parametrize("case", HELD_OUT_BENIGN, ids=lambda c: str(c["id"]))
def test_held_out_benign_is_kept_by_the_floor(case: dict[str, object]) -> None:
    text = str(case["text"])
    assert (redact(text) == text) is (case["id"] not in HELD_OUT_FLAGGED)


def test_known_misses_are_still_misses() -> None:
    """When a rule starts catching one, move it out of ``KNOWN_MISSES`` (it is then tested)."""
    by_id = {c["id"]: c for c in CASES}
    for key in KNOWN_MISSES:
        case = by_id[key]
        text = str(case["text"])
        red = redact(text)
        if case["class"] == "benign":
            assert not quote_verdict(text).quotable or red != text, key
        else:
            caught = not quote_verdict(text).quotable and all(
                v not in red
                for v in case["values"]  # type: ignore[attr-defined]
            )
            assert not caught, key


@pytest.mark.parametrize(
    "text",
    [
        "my PIN is 0000",  # a weak value without a placeholder word is still a PIN
        "the code for the door is 1234",
        "-----BEGIN PRIVATE KEY----- MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7 -----END",
        "use AGE-SECRET-KEY-1QYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQS3SXE9Z here",
    ],
)
def test_recall_first_what_is_not_public_or_a_placeholder_is_caught(text: str) -> None:
    assert classify(text).is_blocked


def test_masking_keeps_offsets_and_only_blanks_the_public_parts() -> None:
    text = "key ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG3x dana@laptop and pw Hx7#kLm2p"
    masked = mask_public_material(text)
    assert len(masked) == len(text)
    assert masked.startswith("key ") and masked.endswith("and pw Hx7#kLm2p")
    assert "AAAA" not in masked
    assert public_spans("nothing public here") == []


def test_a_key_fingerprint_is_no_biometric_but_a_fingerprint_still_is() -> None:
    fp = "4B2C 9E1F 0A7D 3C58 B6E2  1F94 7A0C 5D3E 8B16 2F4A"
    assert quote_verdict(f"my key fingerprint for releases: {fp}").quotable
    assert not quote_verdict("I unlock my phone with my fingerprint").quotable
