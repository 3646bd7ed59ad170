"""The plain review cadence: every reviewIntervalTurns user turns, only where review is enabled."""

from __future__ import annotations

import pytest

from userlore import UserContextConfig
from userlore.graph import ReviewCadence


def cadence(mode: str = "confirmWrite", **understanding: object) -> ReviewCadence:
    return ReviewCadence(
        UserContextConfig.from_dict({"memory": {"mode": mode}, "understanding": understanding})
    )


def test_default_interval_is_ten_user_turns() -> None:
    c = cadence()
    assert [c.should_review("u1", user_turns=n, last_review_turn=0).review for n in (9, 10)] == [
        False,
        True,
    ]
    after = c.should_review("u1", user_turns=19, last_review_turn=10)
    assert not after.review and after.reason == "not_due" and after.turns_since_review == 9
    assert c.should_review("u1", user_turns=20, last_review_turn=10).reason == "due"


@pytest.mark.parametrize("mode", ["confirmWrite", "auto"])
def test_enabled_by_default_for_writing_modes(mode: str) -> None:
    decision = cadence(mode, reviewIntervalTurns=3).should_review(
        "u1", user_turns=3, last_review_turn=0
    )
    assert decision.review and decision.interval == 3


@pytest.mark.parametrize("mode", ["off", "readOnly"])
def test_disabled_for_off_and_read_only(mode: str) -> None:
    decision = cadence(mode, reviewIntervalTurns=1).should_review(
        "u1", user_turns=50, last_review_turn=0
    )
    assert not decision.review and decision.reason == "mode"


def test_understanding_disabled_means_deterministic_only() -> None:
    decision = cadence("auto", enabled=False, reviewIntervalTurns=1).should_review(
        "u1", user_turns=50, last_review_turn=0
    )
    assert not decision.review and decision.reason == "disabled"


def test_interval_is_the_extension_point() -> None:
    class Slower(ReviewCadence):
        def interval(self, scope: str) -> int:
            return super().interval(scope) * 2

    c = Slower(UserContextConfig.from_dict({"understanding": {"reviewIntervalTurns": 4}}))
    assert not c.should_review("u1", user_turns=4, last_review_turn=0).review
    assert c.should_review("u1", user_turns=8, last_review_turn=0).interval == 8
