"""Item 4a of issue 29: the reviewer's label is a second opinion that can only make it stricter.

Fake chat models propose one candidate each; the governed write takes the stricter of the floor's
verdict (over content, value and, for an inferred candidate, its evidence quote) and the model's
label, never the looser.
"""

from __future__ import annotations

import json
from typing import Any, get_args

import pytest
from langchain_core.messages import AIMessage

from tests.support.chat_models import ScriptedChatModel
from userlore import Disclosure, Userlore, WriteAction
from userlore.extract.review_output import (
    LEVEL_LABELS,
    ReviewerOutput,
    SensitivityLabel,
    to_candidates,
)
from userlore.extract.reviewer import LLMReviewer
from userlore.models import Sensitivity
from userlore.policy.findings import SPECIAL_CATEGORIES

SUGAR = "Please keep recipes low in sugar."
DIABETES = "I have type 2 diabetes, so low sugar please."
TERSE = "Please keep answers terse."


def _reply(content: str, evidence: str, label: str) -> AIMessage:
    candidate: dict[str, Any] = {
        "kind": "preference",
        "content": content,
        "canonical_key": "preference/recipes",
        "value": "low sugar",
        "confidence": 0.9,
        "sensitivity": label,
        "evidence": evidence,
    }
    return AIMessage(content=json.dumps({"candidates": [candidate]}))


# (user turn, model content, model evidence, model label, expected sensitivity, category)
CASES = [
    # the model is stricter than the floor: its label wins, with its category
    (SUGAR, "The user wants low-sugar recipes.", SUGAR, "health", "special", "health"),
    (SUGAR, "The user wants low-sugar recipes.", SUGAR, "special", "special", "unspecified"),
    # the floor is stricter than the model: the paraphrase hides it, the quote does not
    (DIABETES, "The user wants low-sugar recipes.", "type 2 diabetes", "none", "special", "health"),
    (DIABETES, "The user has type 2 diabetes.", "type 2 diabetes", "personal", "special", "health"),
    # both special, different categories: the floor's own category wins
    (DIABETES, "The user has type 2 diabetes.", "type 2 diabetes", "religion", "special", "health"),
    # both say nothing sensitive
    (TERSE, "The user prefers terse answers.", "keep answers terse", "none", "none", None),
]


@pytest.mark.parametrize(("turn", "content", "evidence", "label", "level", "category"), CASES)
def test_the_stricter_of_floor_and_model_wins(
    auto_lore: Userlore,
    turn: str,
    content: str,
    evidence: str,
    label: str,
    level: str,
    category: str | None,
) -> None:
    model = ScriptedChatModel(replies=[_reply(content, evidence, label)])
    result = LLMReviewer(model).review(auto_lore, "u1", [("user", turn), ("user", "Thanks!")])
    [outcome] = result.outcomes
    assert outcome.action is WriteAction.CREATED and outcome.record is not None
    rec = outcome.record
    assert rec.sensitivity is Sensitivity(level)
    assert rec.sensitivity_category == category
    expected = Disclosure.ASK_BEFORE_REFERENCE if level == "special" else Disclosure.NORMAL
    assert rec.disclosure is expected


def test_a_secret_labelled_as_a_category_is_still_refused(auto_lore: Userlore) -> None:
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    turn = f"my token is {token}"
    model = ScriptedChatModel(replies=[_reply(f"The token is {token}.", "my token is", "health")])
    [outcome] = LLMReviewer(model).review(auto_lore, "u1", [("user", turn)]).outcomes
    assert (outcome.action, outcome.reason) == (WriteAction.REFUSED, "secret")


def test_the_label_reaches_the_candidate_as_a_claim() -> None:
    output = ReviewerOutput.model_validate_json(_reply("x y z", SUGAR, "religion").text)
    [candidate], dropped = to_candidates(output, [SUGAR])
    assert dropped == 0 and candidate.sensitivity_claim == "religion"
    output = ReviewerOutput.model_validate_json(_reply("x y z", SUGAR, "personal").text)
    [candidate], _ = to_candidates(output, [SUGAR])
    assert candidate.sensitivity_claim is None


def test_the_label_literal_names_every_special_category_and_nothing_else() -> None:
    """Review mend D4: the ``Literal`` repeats ``SPECIAL_CATEGORIES`` by hand, so it must
    agree with it (a category added to the floor and not to the label fails here)."""
    labels = frozenset(get_args(SensitivityLabel))
    assert labels - LEVEL_LABELS == SPECIAL_CATEGORIES
    assert labels >= LEVEL_LABELS
