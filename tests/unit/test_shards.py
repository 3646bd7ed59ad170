"""The test command's two pytest sessions (``tests/conftest.py`` ``BESIDE_SHARD``).

The beside share runs at the lowest priority on a core LangGraph's suites share, so it may only
hold tests that a starved core slows and nothing else: no server, subprocess, sleep, deadline
or PostgreSQL. A pattern that matches no file would silently move nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import BESIDE_SHARD, SHARDS, pytest_collection_modifyitems

TESTS = Path(__file__).resolve().parents[1]
# What a beside file may not use (its code: string literals and comments are left out).
_FORBIDDEN = re.compile(
    r"\b(?:subprocess|Popen|sys\.executable|postgres_url|postgres_databases|ThrowawayPostgres"
    r"|uvicorn|chromium|playwright|floor_worker|shared_worker|time\.sleep|asyncio\.sleep"
    r"|wait_for|signal)\b"
)
_STRING = re.compile(
    r'#[^\n]*|"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\''
)


def _beside() -> list[Path]:
    return sorted({p for pattern in BESIDE_SHARD for p in TESTS.glob(pattern)})


@pytest.mark.parametrize("pattern", BESIDE_SHARD)
def test_every_pattern_names_a_file(pattern: str) -> None:
    assert list(TESTS.glob(pattern)), pattern


def test_beside_files_start_nothing_and_wait_for_nothing() -> None:
    uses = {
        p.name: sorted(set(_FORBIDDEN.findall(_STRING.sub("", p.read_text(encoding="utf-8")))))
        for p in _beside()
    }
    assert {name: found for name, found in uses.items() if found} == {}
    assert len(uses) >= 60


class _Item:
    def __init__(self, path: Path) -> None:
        self.path = path


class _Config:
    def __init__(self) -> None:
        self.deselected: list[object] = []
        self.hook = self

    def pytest_deselected(self, items: list[object]) -> None:
        self.deselected += items


def test_the_two_shares_split_every_test_once(monkeypatch: pytest.MonkeyPatch) -> None:
    beside = _beside()
    items = [_Item(beside[0]), _Item(Path(__file__)), _Item(beside[-1])]
    kept = {}
    for shard in SHARDS:
        monkeypatch.setenv("USERLORE_TEST_SHARD", shard)
        chosen = list(items)
        config = _Config()
        pytest_collection_modifyitems(config, chosen)  # type: ignore[arg-type]
        kept[shard] = chosen
        assert len(chosen) + len(config.deselected) == len(items)
    assert [i.path for i in kept["beside"]] == [beside[0], beside[-1]]
    assert [i.path for i in kept["main"]] == [Path(__file__)]
    monkeypatch.setenv("USERLORE_TEST_SHARD", "other")
    with pytest.raises(pytest.UsageError):
        pytest_collection_modifyitems(_Config(), list(items))  # type: ignore[arg-type]
