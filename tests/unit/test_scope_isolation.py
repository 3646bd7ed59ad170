"""Scope isolation holds even if two scopes ever shared a full-text token namespace."""

from __future__ import annotations

import pytest

from userlore import CandidateInput, Userlore
from userlore.store import text as store_text


def test_colliding_index_namespace_still_never_leaks(
    monkeypatch: pytest.MonkeyPatch, auto_lore: Userlore
) -> None:
    monkeypatch.setattr(store_text, "scope_prefix", lambda scope: "zqcollide")
    mine = auto_lore.write("u1", CandidateInput(kind="note", content="kayak trip to the fjords"))
    theirs = auto_lore.write("u2", CandidateInput(kind="note", content="kayak club in Oslo"))
    assert mine.record is not None and theirs.record is not None
    plan = auto_lore.plan_context(scope="u1", query="kayak")
    assert plan.selected_ids == (mine.record.id,)
    assert theirs.record.id not in {r.id for r in plan.rejected}
    assert theirs.record.id not in str(auto_lore.traces.list("u1"))
