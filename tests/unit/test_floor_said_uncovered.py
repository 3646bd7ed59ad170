"""Values said digit by digit in a language no rule reads are redacted from stored evidence
(gate3 round, issue 29 item 2).

The stored-evidence remainder of sets 1-4 was two held-out PINs in number words ("пин-код
карты семь три ноль два", "kartın şifresi dört yedi bir iki"). No vocabulary of those languages
may be written, so the digit words come from CLDR's spell-out rules (``unicode-rbnf``) for the
languages the identifier names, as the magnitude words come from CLDR's compact formats.
``tests/data/floor_spoken_uncovered.jsonl`` was written before the rule: 16 values in eleven
uncovered languages (first run 0/16 redacted) and 16 near-misses (counts, times, counting out
loud; first run 0/16 flagged).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from userlore.policy.sensitivity import classify, redact

ROWS: list[dict[str, Any]] = [
    json.loads(line)
    for line in (Path(__file__).parents[1] / "data" / "floor_spoken_uncovered.jsonl")
    .read_text(encoding="utf-8")
    .splitlines()
    if line.strip()
]
VALUES = [r for r in ROWS if r["kind"] == "value"]
BENIGN = [r for r in ROWS if r["kind"] == "benign"]


@pytest.mark.parametrize("row", VALUES, ids=lambda r: f"{r['lang']}-{r['value'][:12]}")
def test_a_value_said_digit_by_digit_is_redacted(row: dict[str, Any]) -> None:
    redacted = redact(row["text"])
    assert row["value"] not in redacted
    assert "[REDACTED:value_uncovered_language]" in redacted


@pytest.mark.parametrize("row", BENIGN, ids=lambda r: f"{r['lang']}-{r['text'][:16]}")
def test_counts_and_times_in_words_are_kept(row: dict[str, Any]) -> None:
    assert not classify(row["text"]).findings
    assert redact(row["text"]) == row["text"]


@pytest.mark.parametrize(
    "text",
    [
        # Fresh, after the rule: other languages CLDR spells out, other separators.
        "tunnusluku on neljä-yksi-nolla-kaksi",  # Finnish, dashes
        "kodi i kartës: tetë, katër, zero, nëntë",  # Albanian, commas
        "PIN-კოდი ოთხი შვიდი ერთი ორი",  # Georgian
    ],
)
def test_fresh_languages_said_digit_by_digit(text: str) -> None:
    assert "[REDACTED:value_uncovered_language]" in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "The bus numbers were four two nine one, I think.",
        "Die Busse vier zwei neun eins fahren heute nicht.",
    ],
)
def test_a_covered_sentence_is_left_to_the_covered_rules(text: str) -> None:
    # Digit words of a covered language are the shared normaliser's, read with a credential
    # cue; the uncovered rule never sees a covered segment.
    assert redact(text) == text
