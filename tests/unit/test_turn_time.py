"""Turns are dated by when they were said (issue 23 item 3), not by when they were written."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from userlore import Userlore
from userlore.errors import InvalidInputError
from userlore.work.jobs import observe_job, run_job

SCOPE = "u1"
SAID = datetime(2025, 12, 20, 18, 30, tzinfo=UTC)
TURN = "Last weekend I went hiking at Mount Tamalpais with Priya."


def test_a_snippet_shows_the_day_the_turn_was_said(auto_lore: Userlore) -> None:
    auto_lore.observe(SCOPE, "user", TURN, session_key="s1", at=SAID)
    plan = auto_lore.plan_context(SCOPE, "Where did I go hiking with Priya?")
    assert plan.snippets and "Tamalpais" in plan.text
    assert "2025-12-20" in plan.text
    assert auto_lore.memory.store.clock().date().isoformat() not in plan.text


def test_without_a_time_the_turn_is_dated_now(auto_lore: Userlore) -> None:
    auto_lore.observe(SCOPE, "user", TURN, session_key="s1")
    plan = auto_lore.plan_context(SCOPE, "Where did I go hiking with Priya?")
    assert plan.snippets and "Tamalpais" in plan.text
    assert auto_lore.memory.store.clock().date().isoformat() in plan.text


def test_a_queued_turn_keeps_the_time_it_was_said(auto_lore: Userlore) -> None:
    job = observe_job(SCOPE, TURN, turn_id="m1", session_key="s1", agent_id=None, at=SAID)
    run_job(auto_lore, job, None)
    plan = auto_lore.plan_context(SCOPE, "Where did I go hiking with Priya?")
    assert plan.snippets and "2025-12-20" in plan.text


def test_a_naive_time_is_refused_before_anything_is_written(auto_lore: Userlore) -> None:
    with pytest.raises(InvalidInputError):
        auto_lore.observe(SCOPE, "user", TURN, at=datetime(2025, 12, 20))
    assert auto_lore.records.list(SCOPE) == []
