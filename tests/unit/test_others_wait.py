"""Issue 23 (multihop10): a list question naming one speaker lets the other speakers' replies wait.

"What activities does Melanie partake in?" is answered by many of Melanie's own turns; the
other speaker's replies that share its words ("Family is everything.") filled the plan first.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from userlore.config import PlannerConfig
from userlore.planner.episodic import Snippet, SnippetsFound
from userlore.planner.placement import PlacementInput, place
from userlore.planner.speakers import others_wait

TEXTS = {
    "c1": "Caroline: Family is everything.",
    "m1": "Melanie: We went camping with the kids.",
    "c2": "Caroline: Family time is so special!",
    "m2": "Melanie: Pottery with my family calms me.",
    "x": "A note without a speaker.",
}
ORDER = ["c1", "c2", "x", "m1", "m2"]


@pytest.mark.parametrize(
    ("question", "wait", "expected"),
    [
        # Another speaker's unit moves back `wait` places; ties keep the fused order.
        ("What activities does Melanie partake in?", 3, ["x", "c1", "m1", "c2", "m2"]),
        ("What activities does Melanie partake in?", 15, ["x", "m1", "m2", "c1", "c2"]),
        # A unit far enough ahead still comes first: a wait, not a removal.
        ("What activities does Melanie partake in?", 2, ["c1", "x", "c2", "m1", "m2"]),
        # Nobody named, both named, or a name no unit's speaker has: the order stands.
        ("What activities do they partake in?", 15, ORDER),
        ("What do Melanie and Caroline both like?", 15, ORDER),
        ("What activities does Mel partake in?", 15, ORDER),
    ],
)
def test_others_wait(question: str, wait: int, expected: list[str]) -> None:
    assert others_wait(question, ORDER, TEXTS, wait=wait) == expected


SAID = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


def _plan(query: str) -> list[str]:
    replies = [
        Snippet(
            f"c{n}", f"Caroline: Family moments like that are so special {n}!", SAID, 1 - n / 100
        )
        for n in range(20)
    ]
    mine = Snippet("m", "Melanie: We went camping at the beach last weekend.", SAID, 0.5)
    request = PlacementInput(
        candidates=[],
        snippets=SnippetsFound([*replies, mine]),
        evidence={},
        query=query,
        now=SAID,
        limit=6_000,
        config=PlannerConfig(),
    )
    return [s.item_id for s in place(request).shown]


def test_the_named_speakers_turn_is_placed_before_the_snippet_cap_is_spent() -> None:
    # 13 snippets fit (3 + 10 overflow); the named speaker's turn ranks 21st.
    assert "m" in _plan("What activities has Melanie done with her family?")
    # Not a list question: the fused order stands and the replies fill the cap.
    assert "m" not in _plan("Did Melanie enjoy the family trip?")
