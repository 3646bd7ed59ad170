"""Fresh language cases by class (``tests/data/language_cases.jsonl``): the rates they reach.

The ``dev`` rows were written before the rules changed (issue 14: generalise by class, not by
example); the ``heldout`` rows (``"set": "heldout"``) were written after the fix and never tuned
against. ``docs/benchmarks.md`` records the first-run and final rate per class and set. This test
holds the final rates over both sets as a floor, and the benign near-misses (third party, topic
mentions, hypotheticals, quotes, task talk) at a false-positive rate of at most 3%.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from userlore import Userlore
from userlore.extract.explicit import extract_statements
from userlore.feedback.corrections import detect_correction
from userlore.planner.dedupe import render_texts
from userlore.policy.govern import assess_text

CASES = [
    json.loads(line)
    for line in (Path(__file__).parents[1] / "data" / "language_cases.jsonl")
    .read_text(encoding="utf-8")
    .splitlines()
    if line.strip()
]

# Final rates reached (docs/benchmarks.md, "Real language"); a change may raise, never lower them.
FLOOR = {
    "correction": 1.0,
    "special": 1.0,
    "genetic": 17 / 18,
    "criminal_record": 17 / 18,
    "disability": 1.0,
    "correction_restated": 1.0,
}
# Classes added for the remaining special categories and the misses reported on the first pass:
# a positive class is read like ``special`` (expect a category) or ``correction`` (expect a key).
SPECIAL_LIKE = frozenset({"special", "genetic", "criminal_record", "disability"})
CORRECTION_LIKE = frozenset({"correction", "correction_restated"})
MAX_BENIGN_FP = 0.03


def _special_categories(text: str) -> set[str]:
    out: set[str] = set()
    for st in extract_statements(text):
        verdict = assess_text(st.content, st.value)
        if verdict.category:
            out.add(verdict.category)
    return out


def _caught(case: dict[str, Any]) -> bool:
    cls, text, expect = case["class"], case["text"], case["expect"]
    if cls in CORRECTION_LIKE:
        found = detect_correction(text)
        return bool(
            found
            and found.form == "concrete"
            and any(
                s.canonical_key == expect["key"]
                and (s.value or "").casefold() == expect["value"].casefold()
                for s in found.statements
            )
        )
    if cls.removesuffix("_benign") in CORRECTION_LIKE and cls.endswith("_benign"):
        return detect_correction(text) is not None  # a false positive
    if cls in SPECIAL_LIKE:
        return expect["category"] in _special_categories(text)
    if cls.removesuffix("_benign") in SPECIAL_LIKE:
        return bool(_special_categories(text))  # a false positive
    raise AssertionError(f"unknown class {cls}")


def _rates() -> dict[str, float]:
    hits: dict[str, list[bool]] = defaultdict(list)
    for case in CASES:
        if case["class"] != "multi_key":
            hits[case["class"]].append(_caught(case))
    return {cls: sum(v) / len(v) for cls, v in hits.items()}


def test_the_file_has_every_class_in_both_languages() -> None:
    classes = {(c["class"], c["lang"]) for c in CASES}
    for cls in ("correction", "correction_benign", "special", "special_benign"):
        assert {(cls, "en"), (cls, "zh")} <= classes
    assert sum(c["class"].endswith("_benign") for c in CASES) >= 40


def test_positive_classes_hold_their_final_rate() -> None:
    rates = _rates()
    for cls, floor in FLOOR.items():
        assert rates[cls] >= floor, (cls, rates[cls])


def test_benign_near_misses_stay_under_three_percent() -> None:
    benign = [c for c in CASES if c["class"].endswith("_benign")]
    false_positives = [c["text"] for c in benign if _caught(c)]
    assert len(false_positives) / len(benign) <= MAX_BENIGN_FP, false_positives


MULTI = [c for c in CASES if c["class"] == "multi_key"]


@pytest.mark.parametrize("case", MULTI, ids=[c["id"] for c in MULTI])
def test_one_statement_is_rendered_once(
    make_lore: Callable[..., Userlore], case: dict[str, Any]
) -> None:
    lore = make_lore("auto")
    text = case["text"].rstrip(".")
    records = lore.observe("u:multi", "user", case["text"]).candidates
    assert set(case["expect"]["keys"]) <= {r.canonical_key for r in records}
    plan = lore.plan_context("u:multi", "tell me about my setup")
    assert {r.id for r in records} <= set(plan.selected_ids)  # every key is still there...
    assert plan.text.count(text) == 1  # ...and the sentence is spent once
    for record in records[1:]:
        assert record.value is not None and record.value in plan.text


def test_render_texts_keeps_the_best_ranked_sentence() -> None:
    texts = render_texts(
        [
            ("a", "I use pnpm for JavaScript", "tooling/package_manager", "pnpm"),
            ("b", "i use  pnpm for javascript", "tooling/lang", "javascript"),
            ("c", "I use pnpm for JavaScript", None, "x"),  # keyless entry: keeps its text
            ("d", "I like tea", "preference/tea", "like"),
            ("e", "Northwind", "identity/employer", "Northwind"),  # value not shorter
            ("f", "Northwind", "identity/employer", "Northwind"),
        ]
    )
    assert texts == {"b": "javascript"}
