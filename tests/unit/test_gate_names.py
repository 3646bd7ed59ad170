"""Names and greetings carry little of a language: a turn's vocative or greeting sentence is
identified with the sentences around it, not alone (``policy.language._short``).

``tests/data/gate_names.jsonl`` was written before the change (first run: 14 of 20 covered turns
passed, 6 were withheld as Sesotho, Latin, Breton, Luganda, Javanese and Malagasy; 16 of 16
uncovered turns withheld). Covered turns must pass the gate; turns in a language no rule reads,
and covered turns with an uncovered sentence, must still be withheld.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from userlore.policy.language import segments
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact

CASES = [
    json.loads(line)
    for line in (Path(__file__).parents[1] / "data" / "gate_names.jsonl").read_text().splitlines()
    if line.strip()
]


@pytest.mark.parametrize("case", CASES, ids=[f"{c['lang']}:{c['text'][:30]}" for c in CASES])
def test_names_and_greetings_do_not_decide_a_turns_language(case: dict[str, str]) -> None:
    verdict = quote_verdict(redact(case["text"]))
    got = "pass" if verdict.reason is None else "withhold"
    assert got == case["expect"], (verdict.reason, verdict.category)


def test_a_lone_greeting_with_no_neighbour_is_still_identified_alone() -> None:
    # Nothing to join: the identifier decides, and what it cannot place stays withheld.
    found = segments("Congrats, Joanna!")
    assert len(found) == 1 and found[0].language is not None


@pytest.mark.parametrize(
    ("text", "special"),
    [
        ("I lent my bike to Tom.", False),
        ("She lent us her car for the trip.", False),
        ("I have lent books to half the office.", False),
        ("Can you lend me a charger? I lent mine to Sam.", False),
        ("I gave up sweets for Lent.", True),
        ("During Lent I skip meat on Fridays.", True),
        ("I am observing Lent this year.", True),
        ("I keep a Lenten fast.", True),
    ],
)
def test_lent_is_a_faith_practice_only_as_one(text: str, special: bool) -> None:
    verdict = quote_verdict(text)
    assert (verdict.category == "religion") is special, verdict
