"""The plan's lines: a day said once for its entries, and the size known before every add."""

from __future__ import annotations

import json
import random

from userlore.planner.render import BlockBuilder, render_entry, render_snippet


def test_size_is_exact_after_every_add_in_any_order() -> None:
    rng = random.Random(7)
    days = [None, "2023-05-08", "2023-06-27", "2024-01-02"]
    sections = ["profile", "memories", "workspace", "episodes", "notes"]
    for _ in range(50):
        builder = BlockBuilder(100_000)
        for n in range(rng.randint(1, 30)):
            entry = render_entry(f"mem_{n}", "x" * rng.randint(0, 40), key=rng.choice([None, "k"]))
            before = builder.used
            cost = builder.cost(s := rng.choice(sections), entry, d := rng.choice(days))
            assert builder.try_add(s, entry, day=d)
            assert builder.used == before + cost == len(builder.render())


def test_a_day_is_said_once_days_in_order_undated_first() -> None:
    builder = BlockBuilder(10_000)
    for item, day in [("b", "2023-06-27"), ("a", "2023-05-08"), ("c", None), ("d", "2023-06-27")]:
        assert builder.try_add("episodes", render_snippet(item, f"said {item}"), day=day)
    lines = builder.render().splitlines()
    start = lines.index("## What the user said")
    assert lines[start + 1 : start + 4] == [
        '[{"id":"c","text":"said c"}]',
        '2023-05-08 [{"id":"a","text":"said a"}]',
        '2023-06-27 [{"id":"b","text":"said b"},{"id":"d","text":"said d"}]',
    ]
    assert all("date" not in e for e in json.loads(lines[start + 3][11:]))


def test_an_entry_carries_its_receipt_and_no_version() -> None:
    entry = json.loads(render_entry("mem_1", "likes tea", key="preference/drink"))
    assert entry == {"id": "mem_1", "key": "preference/drink", "text": "likes tea"}


def test_the_budget_still_binds_with_day_lines() -> None:
    entry = render_snippet("a", "y" * 50)
    builder = BlockBuilder(len(BlockBuilder.frame()) + 120)
    assert builder.try_add("episodes", entry, day="2023-05-08")
    assert not builder.try_add("episodes", entry, day="2023-05-09")
    assert len(builder.render()) <= builder.budget
