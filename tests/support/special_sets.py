"""The special-category class sets (``tests/data/special/*.jsonl``) and the gate's check of one row.

Shared by the class tests of each round (special4, special5): a statement is withheld without
consent and no special category withholds it with consent to all; a near-miss is quoted; the
known misses and withheld near-misses of a round must stay as they are, so a fix shows up.
"""

from __future__ import annotations

from typing import Any

from tests.support import data_sets
from userlore.policy.findings import SPECIAL_CATEGORIES
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import classify

EVERY_CATEGORY = frozenset(SPECIAL_CATEGORIES)

Row = dict[str, str | None]


def load(sets: tuple[str, ...]) -> list[tuple[str, Row]]:
    """Every row of the named sets (under ``tests/data/special``), with its set's file name."""
    return [(name, row) for name in sets for row in data_sets.rows(f"special/{name}")]


def check(
    name: str, row: Row, known_misses: frozenset[str], known_withheld: frozenset[str]
) -> None:
    """Assert the gate's verdict on one row (no consent, then consent to every category)."""
    text = str(row["text"])
    verdict = quote_verdict(text)
    if row["expect"] and text in known_misses:
        assert verdict.quotable, f"{text!r} is withheld now: drop it from KNOWN_MISSES"
    elif row["expect"]:
        assert not verdict.quotable, (name, row["class"], text)
        # Consent opens the special categories; what else the text holds ("paid-up … since
        # 2016" reads as money) is the gate's other rules' to judge.
        assert quote_verdict(text, consented=EVERY_CATEGORY).category not in EVERY_CATEGORY
    elif text in known_withheld:
        assert not verdict.quotable, f"{text!r} is quoted now: drop it from KNOWN_WITHHELD"
    else:
        assert verdict.quotable, (name, row["class"], text, verdict)


def family_row_fails(case: dict[str, Any]) -> bool:
    """A class-family row (``family``, ``class``, ``category``, ``text``) the gate or the floor
    gets wrong: a benign row withheld or changed, a special row quoted or its category not found
    by the floor (blindfix13b's and blindfix14c's couple, role and report sets)."""
    text = str(case["text"])
    quotable = quote_verdict(text).quotable
    if case["class"] == "benign":
        return not quotable or bool(classify(text).findings)
    return quotable or case["category"] not in {f.category for f in classify(text).findings}
