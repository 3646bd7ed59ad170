"""A trace never carries a value derived from text the floor flagged (issue 29, item 5).

A PIN the floor caught in a question was read as a year and reached the plan's trace as its
time window; the window now skips every expression that overlaps, or repeats, a flagged value.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from userlore import Userlore
from userlore.extract.time import question_window

NOW = datetime(2026, 12, 3, tzinfo=UTC)


@pytest.mark.parametrize(
    "question",
    [
        "my PIN is 2019",
        "pin code 1987, what happened then?",
        "my pin is 2019, what did I do in 2019?",
    ],
)
def test_a_flagged_value_is_no_window(question: str) -> None:
    assert question_window(question, NOW) is None


def test_an_ordinary_year_still_makes_a_window() -> None:
    window = question_window("what did I do in May 2023?", NOW)
    assert window is not None and window.start == datetime(2023, 5, 1, tzinfo=UTC)


def test_the_plan_trace_keeps_no_flagged_year(auto_lore: Userlore) -> None:
    auto_lore.observe("u1", "user", "I moved to Lisbon for work")
    auto_lore.plan_context("u1", "my PIN is 2019, what did I do in 2019?")
    payload = auto_lore.traces.list("u1", event_type="plan", limit=1)[0]["payload"]
    assert "window" not in payload
    assert "2019" not in json.dumps(payload)
