"""The floor's CLDR tables shipped as data are the tables its code derives (built_tables)."""

from __future__ import annotations

import json

import pytest

from userlore.policy import built_tables
from userlore.policy.detectors import uncovered_money, unread_values


def test_the_shipped_tables_are_current_and_equal_what_the_code_derives() -> None:
    """Fails when a rule under ``policy/`` or a CLDR library changed and the file was not
    written again: run ``python -m userlore.policy.built_tables``."""
    stored = json.loads(built_tables._FILE.read_text("utf-8"))
    assert stored["stamp"] == built_tables.stamp(), "run python -m userlore.policy.built_tables"
    derived = built_tables.derived()
    assert set(stored["tables"]) == set(derived)
    for name, value in derived.items():
        assert built_tables._decode(stored["tables"][name]) == value, name


def test_every_table_round_trips_through_the_file_format() -> None:
    value = (frozenset({"tala", "dinar"}), {"end": ("mila", "duizend")}, "x")
    assert built_tables._decode(json.loads(json.dumps(built_tables._encode(value)))) == value
    with pytest.raises(TypeError, match="frozensets"):
        built_tables._encode([1, 2])


def test_a_stale_file_is_ignored_and_the_table_derived(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stamp that does not match costs time, never a verdict: the builder runs instead."""
    stored = built_tables._stored()
    assert "uncovered_money.inflected" in stored  # current in this tree (test above)
    built_tables._stored.cache_clear()
    monkeypatch.setattr(built_tables, "stamp", lambda: "another tree")
    try:
        assert built_tables._stored() == {}
        uncovered_money._inflected.cache_clear()
        assert uncovered_money._inflected() == built_tables._BUILDERS["uncovered_money.inflected"]()
    finally:
        built_tables._stored.cache_clear()
        uncovered_money._inflected.cache_clear()


def test_the_tables_still_answer_the_floor() -> None:
    """The stored currency words hold what unread_values reads ("dinar", "tala")."""
    words, _, _ = unread_values._units()
    assert {"dinar", "tala"} <= words
