"""Seed 003 lifecycle on every backend: the walkthrough, purge to 0 rows, export and import."""

from __future__ import annotations

import copy
import json
from typing import Any

from sqlalchemy import func, select

from tests.walkthrough import facade_surface, normalized, walk
from userlore import CandidateInput, Userlore
from userlore.memory import Author
from userlore.store.lifecycle import _scoped_tables


def rows(lore: Userlore, scope: str) -> dict[str, int]:
    with lore.store.transaction() as s:
        return {
            t.name: int(
                s.scalar(select(func.count()).select_from(t).where(t.c.scope == scope)) or 0
            )
            for t in _scoped_tables()
        }


def _original_ids(value: Any, id_map: dict[str, str]) -> Any:
    """``value`` with the fresh ids an import assigned replaced by the exported ids."""
    back = {new: old for old, new in id_map.items()}
    if isinstance(value, str):
        return back.get(value, value)
    if isinstance(value, dict):
        return {k: _original_ids(v, id_map) for k, v in value.items()}
    if isinstance(value, list):
        return [_original_ids(v, id_map) for v in value]
    return value


def fill(lore: Userlore, scope: str) -> str:
    mem = lore.memory.remember(
        scope,
        "Weekly sync is in Room Orion.",
        path="team/meetings",
        memory_type="semantic",
        author=Author(agent_id="a"),
    )
    lore.memory.update(
        scope, mem.id, "Weekly sync is in Room Polaris.", author=Author(agent_id="b")
    )
    for value in ("terse", "detailed"):
        lore.write(
            scope,
            CandidateInput(
                kind="style",
                content=f"Answer {value}.",
                canonical_key="style/verbosity",
                value=value,
            ),
        )
    lore.consent.grant(scope, "health")
    lore.plan_context(scope=scope, query="weekly sync", session_key="s1")
    lore.memory.recall(scope, "weekly sync")
    return mem.id


async def test_walkthrough(make_lore: Any) -> None:
    steps = await walk(facade_surface(make_lore("auto")))
    assert normalized(steps)[-3][1]["residual_rows"] == 0


def test_purge_and_round_trip(make_lore: Any) -> None:
    lore = make_lore("auto")
    mem = fill(lore, "team-a")
    fill(lore, "team-b")
    doc = json.loads(json.dumps(lore.scopes.export("team-a")))
    before_b = rows(lore, "team-b")
    receipt = lore.scopes.purge("team-a")
    assert receipt.residual_rows == 0 and receipt.deleted["memory_records"] == 3
    assert set(rows(lore, "team-a").values()) == {0}
    assert rows(lore, "team-b") == before_b
    assert lore.memory.recall("team-b", "weekly sync").citations

    # An import always assigns fresh ids; up to that renaming the scope comes back identical.
    id_map = lore.scopes.import_("team-a", doc).id_map
    again = _original_ids(json.loads(json.dumps(lore.scopes.export("team-a"))), id_map)
    for d in (again, doc):
        d.pop("exported_at")
    assert again == doc
    imported_mem = id_map[mem]
    assert lore.memory.recall("team-a", "weekly sync").citations == (f"{imported_mem}@v2",)

    copy_receipt = lore.scopes.import_("team-c", copy.deepcopy(doc))
    assert copy_receipt.remapped
    assert lore.memory.recall("team-c", "weekly sync").citations == (
        f"{copy_receipt.id_map[mem]}@v2",
    )
    assert lore.scopes.purge("team-c", "team").residual_rows == 0
    assert lore.memory.recall("team-a", "weekly sync").citations == (f"{imported_mem}@v2",)
