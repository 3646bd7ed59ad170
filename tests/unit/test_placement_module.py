"""``planner/placement.py`` on its own: explicit inputs in, a placement out, no store.

The planner reads the store; the placement only decides. These tests build its input by hand
(rows as plain attribute objects with the fields the placement reads), so a placement rule can
be checked without ingesting anything.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

from userlore.config import PlannerConfig
from userlore.planner.episodic import Snippet, SnippetsFound
from userlore.planner.placement import EPISODES, PlacementInput, place
from userlore.planner.render import BlockBuilder
from userlore.planner.search import Candidate
from userlore.policy.filter import RejectionReason

NOW = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
SAID = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
TURN = "Ola: I went sailing on the lake with my cousin last week, in the old wooden boat."


def _fact(seq: int, content: str) -> Any:
    """A relevant-memory row (its entry shows its key): the columns the placement reads."""
    return SimpleNamespace(
        seq=seq,
        kind="event",
        content=content,
        canonical_key=f"event.sailing_on_the_lake_with_a_cousin.{seq}",
        value=None,
        valid_from=SAID,
        user_state="none",
        version=1,
        updated_at=SAID,
        confidence=0.9,
        importance=0.5,
        explicitness="explicit",
        sensitivity="none",
    )


def _request(limit: int) -> PlacementInput:
    record = Candidate(_fact(1, TURN), "mem_1", 1.0, 1, 1)
    own = Snippet("src_1", TURN, SAID, 0.03, 1, 1)
    other = Snippet("src_2", "Ola: The weather was grey all week. " * 3, SAID, 0.02, 2, 2)
    return PlacementInput(
        candidates=[record],
        snippets=SnippetsFound([own, other]),
        evidence={"mem_1": frozenset({"src_1"})},
        query="Who went sailing on the lake?",
        now=NOW,
        limit=limit,
        config=PlannerConfig(),
        near={"mem_1": 1},
    )


def test_a_record_and_its_own_turn_spend_characters_once() -> None:
    placed = place(_request(6_000))
    assert [s.id for s in placed.selected] == ["mem_1"]
    assert placed.builder.render().count("sailing on the lake") == 1
    assert [s.item_id for s in placed.shown] == ["src_2"]  # the other turn is its own unit
    assert {(r.id, r.reason) for r in placed.snippet_rejected} == {
        ("src_1", RejectionReason.DUPLICATE)
    }


def test_a_record_that_does_not_fit_gives_its_place_to_its_shorter_turn() -> None:
    roomy = place(_request(6_000))
    assert [s.id for s in roomy.selected] == ["mem_1"]
    # The smallest budget that shows anything (the other turn is longer than this one): the
    # record's keyed entry does not fit there, its turn's shorter snippet does and is shown
    # in its place, the record a duplicate.
    frame = len(BlockBuilder.frame())
    tight = next(
        p for n in range(frame, frame + 400) if (p := place(_request(n))).shown or p.selected
    )
    assert tight.selected == []
    assert [s.item_id for s in tight.shown] == ["src_1"]
    assert tight.shown[0].chars < roomy.selected[0].chars
    assert ("mem_1", RejectionReason.DUPLICATE) in {(r.id, r.reason) for r in tight.rejected}
    assert EPISODES not in tight.sections  # the planner adds the snippets' section itself


GLUTEN = "I eat no gluten at all, " + "not in bread, not in pasta, not in sauces, " * 6


def _standing(seq: int, content: str, key: str) -> Any:
    """A standing preference row (the profile section)."""
    return SimpleNamespace(
        **{**vars(_fact(seq, content)), "kind": "preference", "canonical_key": key}
    )


def _answered(cosine: dict[str, float] | None, snippets: list[Snippet]) -> set[str]:
    """The snippets shown beside a matched preference (cosine 0.4) and an unmatched one."""
    matched = Candidate(_standing(1, "I only drive electric cars.", "preference/cars"), "p1", 1.0)
    # Past the unmatched share of this budget: not placed, so its turn is not a duplicate.
    unmatched = Candidate(_standing(2, GLUTEN, "preference/gluten"), "p2")
    request = PlacementInput(
        candidates=[matched, unmatched],
        snippets=SnippetsFound(snippets),
        evidence={"p1": frozenset({"said_p1"}), "p2": frozenset({"said_p2"})},
        query="Which car should I buy?",
        now=NOW,
        limit=1_500,
        config=PlannerConfig(),
        near={"p1": 1, "p2": 2},
        cosine=cosine,
        stated=frozenset({"noted"}) if cosine else frozenset(),
    )
    return {s.item_id for s in place(request).shown}


def test_a_plan_the_profile_answers_shows_only_turns_as_near_as_its_answer() -> None:
    nearest = Snippet("t_1", "Which electric cars have the longest range?", SAID, 0.03, None, 1)
    far = Snippet("t_far", "What is the fastest car in the world?", SAID, 0.02, 1, 2)
    near = Snippet("t_near", "Which cars have the lowest running costs?", SAID, 0.02, None, 3)
    joined = Snippet("t_join", "Write a poem about trains.", SAID, 0.01, joined=True)
    stated = Snippet("said_p2", GLUTEN, SAID, 0.01, joined=True)
    noted = Snippet("noted", "I get car sick on long drives.", SAID, 0.01, joined=True)
    cos = {"p1": 0.4, "t_1": 0.35, "t_far": 0.35, "t_near": 0.45, "t_join": 0.1, "said_p2": 0.05}
    cases = [  # (cosines, snippets, shown)
        # the nearest raw turn (within the margin of the user's own answer), those at least as
        # near as the answer; a related turn less near spends characters, not answers
        (cos, [nearest, far, near], {"t_1", "t_near"}),
        (cos, [joined], set()),  # the second pass's other side where the user stated nothing
        (cos, [stated], {"said_p2"}),  # ...and where a candidate record was drawn from
        (cos, [noted], {"noted"}),  # ...or any record (a note that is not a candidate)
        (cos, [replace(stated, joined=False)], {"said_p2"}),  # a first-pass statement
        (None, [nearest, far, near], {"t_1", "t_far", "t_near"}),  # no standing record matched
        (None, [joined], {"t_join"}),
    ]
    for cosine, snippets, shown in cases:
        assert _answered(cosine, snippets) == shown, snippets
