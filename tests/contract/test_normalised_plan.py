"""End to end on every backend: what the floor refuses or gates never reaches the rendered plan.

Each case of ``tests/data/normalisation_cases.jsonl`` (lookalike letters, identifier separators,
group self-statements) is both observed as a user turn and written directly by a producer that
claims nothing, in ``auto`` mode where anything stored is active; then the plan is rendered.
Secret and regulated values must be in no record, no evidence and no plan; special-category
statements must be stored gated and stay out of the plan until consent.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from userlore import CandidateInput, Userlore, WriteAction
from userlore.policy.normalize import fold

CASES_PATH = Path(__file__).resolve().parents[1] / "data" / "normalisation_cases.jsonl"
CASES: list[dict[str, Any]] = [
    json.loads(line) for line in CASES_PATH.read_text(encoding="utf-8").splitlines() if line
]
CLASSES = sorted({c["class"] for c in CASES if c["expected"] != "none"})


def _run(lore: Userlore, scope: str, text: str) -> tuple[list[str], str, Any]:
    lore.observe(scope=scope, role="user", content=text, session_key="s")
    outcome = lore.write(
        scope, CandidateInput(kind="identity", content=text, evidence_text=text, path="me")
    )
    plan = lore.plan_context(scope=scope, query=text, session_key="s")
    stored = [r.content for r in lore.records.list(scope)] + [
        r.value or "" for r in lore.records.list(scope)
    ]
    for rec in lore.records.list(scope):
        stored += [str(e.get("text") or "") for e in lore.records.evidence(scope, rec.id)]
    return stored, plan.text, outcome


@pytest.mark.parametrize("cls", CLASSES)
def test_nothing_refused_or_gated_reaches_the_plan(
    make_lore: Callable[..., Userlore], cls: str
) -> None:
    lore = make_lore("auto")
    for i, case in enumerate(c for c in CASES if c["class"] == cls):
        scope = f"{cls}-{i}"
        text = case["text"]
        stored, plan_text, outcome = _run(lore, scope, text)
        plan_view = fold(plan_text).text
        if case["expected"] in ("secret", "regulated"):
            assert outcome.action is WriteAction.REFUSED, case["id"]
            assert outcome.reason == case["expected"], case["id"]
            for value in case["values"]:
                assert not any(value in t for t in stored), case["id"]
                assert value not in plan_text, case["id"]
                assert fold(value).text not in plan_view, case["id"]
        else:
            assert outcome.record is not None, case["id"]
            assert outcome.record.sensitivity.value == "special", case["id"]
            assert outcome.record.sensitivity_category == case["category"], case["id"]
            assert text not in plan_text and fold(text).text not in plan_view, case["id"]
            lore.consent.grant(scope, case["category"])
            granted = lore.plan_context(scope=scope, query=text, session_key="s")
            assert outcome.record.id in granted.selected_ids, case["id"]


def test_benign_near_misses_are_planned_as_written(make_lore: Callable[..., Userlore]) -> None:
    lore = make_lore("auto")
    benign = [c for c in CASES if c["expected"] == "none"]
    flagged = []
    for i, case in enumerate(benign):
        scope = f"benign-{i}"
        _, _, outcome = _run(lore, scope, case["text"])
        if outcome.action is WriteAction.REFUSED or (
            outcome.record is not None and outcome.record.sensitivity.value != "none"
        ):
            flagged.append(case["id"])
            continue
        assert outcome.record is not None
        plan = lore.plan_context(scope=scope, query=case["text"], session_key="s")
        assert outcome.record.id in plan.selected_ids, case["id"]
    assert len(flagged) / len(benign) <= 0.03, flagged
