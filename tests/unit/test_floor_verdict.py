"""The floor's verdict handed to the governed write holds only for the texts it read (issue 30).

A store batch judges every put first and hands each :class:`FloorVerdict` down, so the write
does not classify the same strings again. The verdict must not be a way around the floor: only
the floor makes one, it cannot be changed, and a verdict made for one candidate is not taken
for another that differs in any field the floor reads (the write judges that one afresh).
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import select

from userlore import Userlore
from userlore.models import (
    CandidateInput,
    Disclosure,
    Explicitness,
    MemoryType,
    Producer,
    Sensitivity,
    WriteAction,
)
from userlore.policy.govern import Assessment, BatchFloor, FloorVerdict, assess, judge
from userlore.store.schema import KnowledgeSourceItem, MemoryRecord

SECRET = "my bank login password is Hunter2Blue!"
BENIGN = "I like long walks by the river"


def _candidate(text: str = BENIGN, **changes: Any) -> CandidateInput:
    base = CandidateInput(
        kind="note",
        content=text,
        canonical_key="store:notes#walks",
        value=None,
        memory_type=MemoryType.SEMANTIC,
        path="notes",
        explicitness=Explicitness.EXPLICIT,
        confidence=0.9,
        producer=Producer.TOOL,
        evidence_text=text,
    )
    return dataclasses.replace(base, **changes)


def test_only_the_floor_makes_a_verdict_and_nobody_changes_it() -> None:
    verdict = judge(_candidate())
    fake = Assessment(None, Sensitivity.NONE, None, Disclosure.NORMAL)
    with pytest.raises(TypeError):
        FloorVerdict(object(), fake, ())
    with pytest.raises(AttributeError):
        verdict._assessment = fake  # type: ignore[misc]
    for clone in (copy.copy, copy.deepcopy, pickle.dumps):
        with pytest.raises(TypeError):
            clone(verdict)


@pytest.mark.parametrize(
    "changes",
    [
        {"content": SECRET, "evidence_text": SECRET},
        {"content": SECRET},
        {"value": '{"pin":"4417"}'},
        {"evidence_text": SECRET},
        {"canonical_key": "store:notes#DE89370400440532013000"},
        {"path": "notes/other"},
        {"sensitivity_claim": "secret"},
        {"explicitness": Explicitness.INFERRED},
        {"disclosure": Disclosure.NEVER},
    ],
    ids=lambda c: ",".join(c),
)
def test_a_verdict_does_not_hold_for_a_candidate_that_differs_in_a_judged_field(
    changes: dict[str, Any],
) -> None:
    verdict = BatchFloor().judge(_candidate())
    assert verdict.of(_candidate()) == assess(_candidate())
    assert verdict.of(_candidate(**changes)) is None
    assert verdict.clean_quote(_candidate(**changes)) is None


def test_fields_the_floor_does_not_read_keep_the_verdict() -> None:
    verdict = judge(_candidate())
    moved = _candidate(confidence=0.5, importance=0.9, thread_id="t1")
    assert verdict.of(moved) == assess(moved)
    assert verdict.clean_quote(moved) == BENIGN


def test_a_refused_verdict_or_another_quote_gives_no_clean_quote() -> None:
    assert judge(_candidate(SECRET)).clean_quote(_candidate(SECRET)) is None
    other = _candidate(evidence_text="I said: " + BENIGN)
    assert judge(other).clean_quote(other) is None


@pytest.mark.parametrize("path", ["fresh", "held"])
def test_a_benign_verdict_handed_with_a_secret_candidate_does_not_let_it_in(
    make_lore: Callable[..., Userlore], path: str
) -> None:
    """``govern_batch`` runs the floor on a candidate its verdict was not made for: a fresh
    key (the bulk path) and a key held before (``govern``, which also redacts the quote)."""
    lore = make_lore("auto")
    store = lore.memory.store
    if path == "held":
        with store.transaction("u1") as session:
            store.govern(session, "u1", _candidate())
    secret = _candidate(SECRET)
    with store.transaction("u1") as session:
        (outcome,) = store.govern_batch(session, "u1", [secret], verdicts=[judge(_candidate())])
    assert outcome.action is WriteAction.REFUSED and outcome.reason == "secret"
    with store.transaction("u1") as session:
        contents = set(session.scalars(select(MemoryRecord.content)))
        quotes = set(session.scalars(select(KnowledgeSourceItem.text)))
    assert SECRET not in contents and not any("Hunter2Blue" in q for q in quotes)
