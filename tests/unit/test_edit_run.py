"""Edits of held keys in a batch store what the per-item governed write stores (bulkput10).

``GovernedStore.govern_batch`` writes a run of plain edits (a key the batch names once whose one
live record is active, with a changed value) in a few statements, and repeats of such a key's
value and quote write nothing. The same puts are written
once that way and once with every edit sent through ``govern`` one by one; every row of every
table must read back the same, raw, but the change counter: ``memory_record_changes``'
generations (a watermark readers load deltas after) are bumped twice an edit, not four times,
and the full-text indexes, read as their terms (FTS5's segment bytes follow its flushes).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from langgraph.store.base import PutOp
from sqlalchemy import text

from userlore import Userlore
from userlore.integrations.langgraph_store import UserloreStore
from userlore.store.governed import GovernedStore
from userlore.testing.embeddings import HashingEmbeddings

NS = ("u1", "notes")


def _phases() -> list[list[PutOp]]:
    fresh = [PutOp(NS, f"k{i}", {"text": f"Note number {i} about the garden"}) for i in range(12)]
    fresh.append(PutOp(NS, "gone", {"text": "A note the user deletes"}))
    mixed = [
        PutOp(NS, "k0", {"text": "Note number 0 about the orchard"}),  # plain edit
        PutOp(NS, "k1", {"text": "Note number 1 about the garden"}),  # a repeat: reinforced
        PutOp(NS, "k2", {"text": "Shared words for two keys"}),  # two edits, one quote
        PutOp(NS, "k3", {"text": "Shared words for two keys"}),
        PutOp(NS, "k4", {"text": "Edited once"}),  # a key twice: per item
        PutOp(NS, "k4", {"text": "Edited twice"}),
        PutOp(NS, "k5", {"text": "I was diagnosed with asthma last year"}),  # special now
        PutOp(NS, "k6", {"text": "Note with a window"}, ttl=30.0),
        PutOp(NS, "gone", {"text": "Back after the delete"}),  # deleted key: per item
        PutOp(NS, "new", {"text": "A key nothing held"}),  # fresh
        PutOp(NS, "k7", {"content": "Nested edit", "meta": {"n": 1}}),
        PutOp(NS, "k8", None),  # a delete in the batch
    ]
    again = [PutOp(NS, f"k{i}", {"text": f"Third version of {i}"}) for i in (0, 2, 9)]
    again.append(PutOp(NS, "k10", {"text": "Note number 10 about the garden"}))
    return [fresh, [PutOp(NS, "gone", None)], mixed, again]


def _dump(lore: Userlore) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table; generations as their distance from the scope's current."""
    out: dict[str, list[tuple[Any, ...]]] = {}
    with lore.memory.store.engine.connect() as conn:
        tables = [
            name
            for (name,) in conn.execute(
                text("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            )
        ]
        vector_gen = dict(
            conn.execute(text("SELECT scope, generation FROM memory_vector_generations")).all()
        )
        for table in tables:
            fts, _, part = table.rpartition("_")
            if part in ("data", "idx") and fts in tables:
                # FTS5's segments: their bytes follow when it flushed (per statement, per
                # transaction), so the index is compared by its terms, rows and offsets.
                vocab = f'temp."{fts}_terms"'
                conn.execute(
                    text(
                        f"CREATE VIRTUAL TABLE IF NOT EXISTS {vocab} USING "
                        f'fts5vocab(main, "{fts}", instance)'
                    )
                )
                terms = conn.execute(text(f"SELECT term, doc, col, offset FROM {vocab}"))
                out[table] = sorted(tuple(row) for row in terms) if part == "data" else []
                continue
            rows = conn.execute(text(f'SELECT * FROM "{table}"')).mappings().all()
            kept = []
            for row in rows:
                values = dict(row)
                if table.endswith("_generations") or table == "memory_record_changes":
                    values.pop("generation", None)
                    values.pop("reset", None)
                elif "generation" in values and "scope" in values:
                    values["generation"] -= vector_gen.get(values["scope"], 0)
                kept.append(tuple(sorted(values.items())))
            out[table] = sorted(kept, key=repr)
    return out


def _written(
    make_lore: Callable[..., Userlore], mode: str
) -> tuple[list[Any], dict[str, list[tuple[Any, ...]]]]:
    lore = make_lore(mode)
    index: Any = {"dims": 32, "embed": HashingEmbeddings(dims=32), "fields": ["text", "content"]}
    store = UserloreStore(lore, namespace_template=("{user_id}",), index=index)
    for phase in _phases():
        store.batch(phase)
    items = store.search(NS, limit=100)
    return sorted((i.key, i.value) for i in items), _dump(lore)


@pytest.mark.parametrize("mode", ["auto", "confirmWrite"])
def test_a_run_of_edits_stores_what_governing_each_stores(
    make_lore: Callable[..., Userlore], monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    runs: list[int] = []
    edit_run = GovernedStore._edit_run

    def counted(self: GovernedStore, *args: Any) -> Any:
        out = edit_run(self, *args)
        runs.append(len(out))
        return out

    monkeypatch.setattr(GovernedStore, "_edit_run", counted)
    batched = _written(make_lore, mode)
    # auto: runs between the per-item puts (k4 twice, the deleted key): k0, k1 (a repeat that
    # writes nothing), k2, k3 (one quote) | k5, k6 | k7, then k0, k2, k9, k10 (a repeat).
    # confirmWrite promotes nothing, so every put is governed one by one.
    assert runs == ([4, 2, 1, 4] if mode == "auto" else []), runs
    monkeypatch.setattr(GovernedStore, "_plain_edits", lambda *args: {})
    alone = _written(make_lore, mode)
    assert batched[0] == alone[0]
    for table, rows in alone[1].items():
        assert batched[1][table] == rows, table
