"""Issue 29's detector classes, measured on examples written before the rules changed.

``tests/data/detector_classes.jsonl`` holds, per class family, at least 30 values in the seven
languages (set ``first``, written before any rule of this change, then ``second``, written after
the fixes and run once) with benign near-misses: times and counts in number words, topic and
third-party mentions, public keys, placeholders. A value is caught when the floor blocks the text
and :func:`redact` removes it; a near-miss is flagged when the floor blocks it. The rates asserted
are the ones recorded in ``docs/benchmarks.md``. Run as a script to print the table.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from userlore.policy.sensitivity import classify, redact

DATA = Path(__file__).parents[1] / "data" / "detector_classes.jsonl"
ROWS: list[dict[str, Any]] = [
    json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()
]

# Catch rate per class (all sets), as recorded in docs/benchmarks.md.
FLOOR: dict[str, float] = {
    "spoken_number": 1.0,
    "spelled_password": 37 / 38,  # "The rest is 4471!": half a password in its own sentence
    "stdnum_id": 1.0,
    "separators": 1.0,
    "money": 1.0,
    "passport": 1.0,
    "web_secret": 1.0,
}
BENIGN_FLAGGED_MAX = 0.03


def caught(row: dict[str, Any]) -> bool:
    """Whether the floor did the right thing with ``row`` (blocked and removed, or left alone)."""
    report = classify(row["text"])
    if row["expect"] == "benign":
        return not report.is_blocked
    if not report.is_blocked:
        return False
    value = row.get("value")
    return not value or value not in redact(row["text"], report)


def rates(rows: list[dict[str, Any]]) -> dict[str, dict[str, tuple[int, int]]]:
    """``{class: {"values"|"benign": (right, total)}}``."""
    out: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for row in rows:
        kind = "benign" if row["expect"] == "benign" else "values"
        cell = out[row["class"]][kind]
        cell[0] += caught(row)
        cell[1] += 1
    return {c: {k: (v[0], v[1]) for k, v in d.items()} for c, d in out.items()}


@pytest.mark.parametrize("cls", sorted(FLOOR))
def test_each_class_is_caught_at_its_recorded_rate(cls: str) -> None:
    rows = [r for r in ROWS if r["class"] == cls and r["expect"] != "benign"]
    missed = [r["text"] for r in rows if not caught(r)]
    assert 1 - len(missed) / len(rows) >= FLOOR[cls] - 1e-9, missed


def test_benign_near_misses_stay_under_three_percent() -> None:
    benign = [r for r in ROWS if r["expect"] == "benign"]
    flagged = [r["text"] for r in benign if not caught(r)]
    assert len(flagged) / len(benign) <= BENIGN_FLAGGED_MAX, flagged


def test_every_family_has_thirty_values_in_the_seven_languages() -> None:
    for cls in {r["class"] for r in ROWS}:
        first = [r for r in ROWS if r["class"] == cls and r["set"] == "first"]
        assert sum(r["expect"] != "benign" for r in first) >= 30, cls
        assert any(r["expect"] == "benign" for r in first), cls


if __name__ == "__main__":
    wanted = set(sys.argv[1:]) or {r["set"] for r in ROWS}
    selected = [r for r in ROWS if r["set"] in wanted]
    for cls, cells in sorted(rates(selected).items()):
        v, b = cells.get("values", (0, 0)), cells.get("benign", (0, 0))
        print(f"{cls:18} values caught {v[0]}/{v[1]}  benign flagged {b[1] - b[0]}/{b[1]}")


HELDOUT = [
    json.loads(line)
    for line in (DATA.parent / "detector_heldout.jsonl").read_text(encoding="utf-8").splitlines()
    if line.strip()
]


def test_languages_no_rule_names_keep_their_recorded_rates() -> None:
    """Russian, Arabic, Hindi, Turkish, Korean: only language-agnostic detectors apply (digits
    of every script, checksums, credential-shaped tokens in an uncovered script)."""
    values = [r for r in HELDOUT if r["expect"] != "benign"]
    benign = [r for r in HELDOUT if r["expect"] == "benign"]
    missed = [r["text"] for r in values if not caught(r)]
    flagged = [r["text"] for r in benign if not caught(r)]
    assert len(missed) <= 1, missed  # the Aadhaar number named only by the Hindi word
    assert flagged == []
