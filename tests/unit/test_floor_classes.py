"""The floor by class: per-class catch rates on our own fresh examples, and the checksums.

``tests/data/floor_classes.jsonl`` holds examples written for each class of issue 14 (set
``first`` before any rule was changed, set ``second`` after the first fixes and before they were
run; set ``heldout`` for genetic data and criminal records, written after their detectors and run
once before the one fix recorded in ``docs/benchmarks.md``) plus benign near-misses. The rates
asserted here are the ones reached and recorded in ``docs/benchmarks.md``; a change that loses a
class, or flags more than 3% of the benign near-misses, fails.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from userlore.policy.detectors.check_ids import _hk_ok, _mrz_check, _sg_ok, _tw_ok
from userlore.policy.sensitivity import SensitivityLevel, classify, redact

DATA = Path(__file__).parents[1] / "data" / "floor_classes.jsonl"
ROWS: list[dict[str, Any]] = [
    json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()
]

# Final catch rate per class (both sets together), as recorded in docs/benchmarks.md.
FLOOR: dict[str, float] = {
    "pin_prose": 26 / 27,
    "spaced_password": 1.0,
    "recovery_codes": 1.0,
    "split_key": 1.0,
    "url_key": 1.0,
    "national_id": 1.0,
    "finance": 1.0,
    "religion": 1.0,
    "structured_key": 1.0,
    "genetic": 1.0,
    "criminal_record": 1.0,
}


def _caught(row: dict[str, Any]) -> bool:
    report = classify(row["text"])
    expect = row["expect"]
    if expect == "benign":
        return report.level is SensitivityLevel.NONE
    if expect == "special":
        return row.get("category", "religion") in report.categories
    if expect == "secret":
        return report.level is SensitivityLevel.SECRET
    return report.level >= SensitivityLevel.REGULATED


def test_the_example_file_is_large_enough() -> None:
    counts = Counter(r["class"] for r in ROWS)
    assert set(counts) == {*FLOOR, "benign"}
    assert all(counts[c] >= 15 for c in FLOOR)
    assert counts["benign"] >= 100
    assert {r["lang"] for r in ROWS} == {"en", "zh"}
    assert all(r["expect"] in {"secret", "regulated", "special", "benign"} for r in ROWS)


@pytest.mark.parametrize("cls", sorted(FLOOR))
def test_each_class_is_caught_at_its_recorded_rate(cls: str) -> None:
    rows = [r for r in ROWS if r["class"] == cls]
    missed = [r["text"] for r in rows if not _caught(r)]
    rate = 1 - len(missed) / len(rows)
    assert rate >= FLOOR[cls] - 1e-9, missed


def test_benign_near_misses_stay_under_three_percent() -> None:
    benign = [r for r in ROWS if r["expect"] == "benign"]
    flagged = [r["text"] for r in benign if not _caught(r)]
    assert len(flagged) / len(benign) <= 0.03, flagged


@pytest.mark.parametrize(
    "row", [r for r in ROWS if r["expect"] in {"secret", "regulated"}], ids=lambda r: r["text"][:40]
)
def test_redaction_leaves_nothing_blocked(row: dict[str, Any]) -> None:
    if not _caught(row):
        pytest.skip("a recorded miss")
    assert not classify(redact(row["text"])).is_blocked


@pytest.mark.parametrize(
    ("text", "pieces"),
    [
        (
            "the token is glpat-7Kx9Qm and then 2LrT4vNz8pWc",
            ["glpat-7Kx9Qm", "2LrT4vNz8pWc"],
        ),
        (
            "key: sk-ant- + api03-Zq8Lm2Rx9Kt4 + Wv7Nc3Pb1Hy6Ds0FgJ5e",
            ["api03-Zq8Lm2Rx9Kt4", "Wv7Nc3Pb1Hy6Ds0FgJ5e"],
        ),
        ("AKIA2B7X then QJ4ZP09MRT8W", ["AKIA2B7X", "QJ4ZP09MRT8W"]),
    ],
)
def test_every_piece_of_a_split_key_is_redacted(text: str, pieces: list[str]) -> None:
    out = redact(text)
    assert all(p not in out for p in pieces), out


@pytest.mark.parametrize(
    ("text", "gone"),
    [
        ("backup codes: 4821 9930, 7712 0458 and 3390 1176", ["4821", "0458", "1176"]),
        ("my password is p a s s w 0 r d 9 1", ["w 0 r d 9"]),
        ("https://x.example/a?q=1&access_token=ZtR8q2Lm9XkW3pNc&b=2", ["ZtR8q2Lm9XkW3pNc"]),
    ],
)
def test_the_whole_value_is_redacted(text: str, gone: list[str]) -> None:
    out = redact(text)
    assert all(g not in out for g in gone), out


def test_aws_key_ids_take_every_upper_case_alphanumeric() -> None:
    for key in ("AKIA0189ABCDEFGH0189", "ASIA9X8W7V6U5T4S3R2Q", "AKIA1111222233334444"):
        assert {f.rule for f in classify(f"id {key} here").findings} == {"aws_access_key"}
    assert classify("AKIA0189ABCDEFGH018").level is SensitivityLevel.NONE  # 15 after the prefix
    assert classify("akia0189abcdefgh0189").level is SensitivityLevel.NONE


def test_check_digits_decide_bare_identifiers() -> None:
    # ICAO 9303 worked example from Doc 9303 part 3.
    line = "L898902C36UTO7408122F1204159ZE184226B<<<<<10"
    assert classify(line).is_blocked
    assert not classify(line[:9] + "7" + line[10:]).is_blocked  # document check digit wrong
    assert _mrz_check("L898902C3", "6") and not _mrz_check("L898902C3", "5")
    assert _sg_ok("S", "1234567", "D") and not _sg_ok("S", "1234567", "E")
    assert _hk_ok("A", "123456", "3") and not _hk_ok("A", "123456", "4")
    assert _tw_ok("A", "123456789") and not _tw_ok("A", "123456788")
    assert classify("NRIC S1234567D").is_blocked
    assert not classify("NRIC S1234567E").is_blocked
    assert not classify("the product code is S1234567D").is_blocked  # a code, by its label
    assert not classify("HKID A123456(4)").is_blocked


@pytest.mark.parametrize(
    "text",
    [
        "set ?api_key=YOUR_API_KEY_HERE",
        "https://example.com/cb?token_type=bearer&expires_in=3600",
        "https://shop.example/items?page=2&sort=price",
        "his credit score is 712",
        "the average checking balance is $4,200",
        "I pray the deploy works",
        "She is a devout Catholic",
        "the key is to start early and then keep going",
        "I forgot my PIN yesterday",
    ],
)
def test_near_misses_by_grammar_are_not_flagged(text: str) -> None:
    assert classify(text).level is SensitivityLevel.NONE
