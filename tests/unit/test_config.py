"""Configuration mirrors seed 000's userContext JSON and rejects what it does not know."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from userlore import ConfigError, MemoryMode, UserContextConfig, Userlore


def test_defaults_follow_seed_000() -> None:
    cfg = UserContextConfig()
    assert cfg.memory.mode is MemoryMode.CONFIRM_WRITE
    assert cfg.understanding.review_interval_turns == 10
    assert cfg.understanding.max_history_messages == 80
    assert cfg.understanding.max_duration_ms == 120_000
    assert cfg.planner.budget_chars == 6_000
    assert cfg.review_enabled


def test_seed_document_loads_unchanged(tmp_path: Path) -> None:
    doc = {
        "userContext": {
            "memory": {"mode": "auto", "sources": ["session", "curated"]},
            "understanding": {
                "enabled": True,
                "adaptiveCadence": True,
                "reviewIntervalTurns": 10,
                "maxHistoryMessages": 80,
                "maxDurationMs": 120000,
            },
        }
    }
    path = tmp_path / "config.json"
    path.write_text(json.dumps(doc))
    cfg = UserContextConfig.from_json(path)
    assert cfg.memory.mode is MemoryMode.AUTO
    assert cfg.memory.sources == ("session", "curated")


@pytest.mark.parametrize("mode", ["off", "readOnly"])
def test_review_disabled_for_off_and_read_only(mode: str) -> None:
    assert not UserContextConfig.from_dict({"memory": {"mode": mode}}).review_enabled


def test_understanding_disabled_keeps_explicit_only() -> None:
    cfg = UserContextConfig.from_dict({"understanding": {"enabled": False}})
    assert not cfg.review_enabled


@pytest.mark.parametrize(
    "doc",
    [
        {"memory": {"mode": "sometimes"}},
        {"memory": {"mood": "auto"}},
        {"planner": {"budgetChars": 10}},
        {"understanding": {"reviewIntervalTurns": 0}},
        {"userContext": {}, "extra": 1},
        {"unknown": True},
    ],
)
def test_bad_config_is_a_clear_error(doc: dict[str, object]) -> None:
    with pytest.raises(ConfigError) as info:
        UserContextConfig.from_dict(doc)
    assert "config" in str(info.value)


def test_unreadable_and_malformed_files(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        UserContextConfig.from_json(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ConfigError, match="not valid JSON"):
        UserContextConfig.from_json(bad)
    with pytest.raises(ConfigError):
        Userlore.open("sqlite://", config=bad)


def test_bad_database_url() -> None:
    with pytest.raises(ConfigError):
        Userlore.open("not a url at all")


# Strict input (issue 26): a number or switch of the wrong JSON type is refused, naming what came.
WRONG_TYPES = [
    ({"planner": {"budgetChars": "4000"}}, "planner.budgetChars", "got str '4000'"),
    ({"planner": {"budgetChars": True}}, "planner.budgetChars", "got bool True"),
    ({"planner": {"budgetChars": 4000.0}}, "planner.budgetChars", "got float 4000.0"),
    ({"planner": {"retrievalK": "40"}}, "planner.retrievalK", "got str '40'"),
    ({"planner": {"freshnessHalfLifeDays": "30"}}, "planner.freshnessHalfLifeDays", "got str"),
    ({"planner": {"freshnessHalfLifeDays": False}}, "planner.freshnessHalfLifeDays", "got bool"),
    ({"understanding": {"enabled": "false"}}, "understanding.enabled", "got str 'false'"),
    ({"understanding": {"enabled": 0}}, "understanding.enabled", "got int 0"),
    ({"understanding": {"reviewIntervalTurns": "10"}}, "understanding.reviewIntervalTurns", "str"),
    ({"maxContentChars": "4000"}, "maxContentChars", "got str '4000'"),
]


@pytest.mark.parametrize(("data", "field", "got"), WRONG_TYPES)
def test_numbers_and_switches_are_strict(data: dict[str, Any], field: str, got: str) -> None:
    with pytest.raises(ConfigError) as raised:
        UserContextConfig.from_dict(data)
    assert field in str(raised.value) and got in str(raised.value)
    assert "greater than" not in str(raised.value)  # True is not 1, so no range message


def test_the_right_types_still_load() -> None:
    cfg = UserContextConfig.from_dict(
        {"planner": {"budgetChars": 4000, "freshnessHalfLifeDays": 30},
         "understanding": {"enabled": False}}
    )  # fmt: skip
    assert cfg.planner.budget_chars == 4000 and cfg.planner.freshness_half_life_days == 30.0
    assert cfg.understanding.enabled is False
