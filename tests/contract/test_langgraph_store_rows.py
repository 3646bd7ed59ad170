"""A ``batch`` of puts writes, row for row, what the per-item governed write writes (put19).

``test_langgraph_store_batch.py`` compares what a reader sees; this compares what is stored: every
column of every row of every table, and on SQLite the rows its triggers derive (full-text postings,
per-scope statistics, generations and changes; put20). Two databases with the same fixed clock get
the same batches, one through :meth:`GovernedStore.govern_batch`, one through
:meth:`GovernedStore.govern` of each candidate in turn; ids (one counter across prefixes in these
tests, so numbered in another order by the two paths) are renamed by what they name: a record by
its key and version, a source item by its external id. The batches hold new keys, edits and repeats
of held keys, a delete and a recreated key, puts with a TTL and with ``index=False``, a refused
put, whose batch writes nothing but its trace, with the store's vector index on and off.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from langgraph.store.base import Op, PutOp
from sqlalchemy import Column, Table, select

from userlore import Userlore
from userlore.errors import PolicyViolationError
from userlore.integrations.langgraph_store import UserloreStore
from userlore.store.schema import Base
from userlore.testing.embeddings import HashingEmbeddings

NS = ("u1", "notes")
_ID = re.compile(r"\b[a-z]+_\d{6}\b")
_SECRET = {"content": "my api key is sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD"}


def _batches() -> list[list[Op]]:
    first: list[Op] = [
        PutOp(NS, f"k{i}", {"content": f"Note number {i} about apples"}) for i in range(6)
    ]
    first += [
        PutOp(NS, "k2", {"content": "Note two, revised in the same batch"}),
        PutOp(("u1", "other"), "k0", {"content": "Same key, other namespace"}),
        PutOp(NS, "same-a", {"text": "Shared text of two keys"}),
        PutOp(NS, "same-b", {"text": "Shared text of two keys"}),
        PutOp(NS, "v", {"text": "A value beside a number", "n": 3}),
        PutOp(NS, "ttl", {"content": "A note that expires"}, ttl=30.0),
        PutOp(NS, "bare", {"content": "A note with no vector"}, index=False),
        PutOp(
            NS, "fields", {"text": "Two fields", "memory": "Both indexed"}, index=["text", "memory"]
        ),
    ]
    second: list[Op] = [
        PutOp(NS, "k3", None),
        PutOp(NS, "k3", {"content": "Note three, recreated after its delete"}),
        PutOp(NS, "k4", {"content": "Note number 4 about apples"}),  # unchanged: reinforced
        PutOp(NS, "k5", {"content": "Note five, changed"}),
        PutOp(NS, "k1", {"content": "Note one, changed"}),
        PutOp(NS, "ttl", {"content": "A note that expires, edited"}, ttl=60.0),
        PutOp(NS, "fresh", {"content": "A key first put in the second batch"}),
    ]
    return [first, second]


def _numbering(table: Table, column: Column[Any]) -> bool:
    """A column whose values number rows in insertion order, or a database's random token.

    The batch inserts a chunk's new keys before its edits (rows numbered in that order: reads
    order by time, then id), and each database draws its own generation token (its vectors
    carry it).
    """
    if column.name == "generation" or table.name == "memory_vector_generations":
        return True
    return bool((column.primary_key and column.autoincrement is True) or column.name == "seq")


def _derived(conn: Any) -> dict[str, list[tuple[Any, ...]]]:
    """SQLite's trigger-kept rows, by what they name (the random generation aside): each
    scope's statistics, the scopes with a generation, the records with a change row, and
    every full-text posting (term, row's record or item id, column, offset)."""
    run = conn.exec_driver_sql
    out: dict[str, list[tuple[Any, ...]]] = {
        "fulltext_scope_stats": list(run("SELECT * FROM fulltext_scope_stats")),
        "memory_record_generations": list(run("SELECT scope FROM memory_record_generations")),
        "memory_record_changes": list(
            run(
                "SELECT r.id, c.scope FROM memory_record_changes c "
                "JOIN memory_records r USING (seq)"
            )
        ),
    }
    for table, named in (("memory_records", "id"), ("episodic_items", "item_id")):
        run(
            f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{table}_terms "
            f"USING fts5vocab('main', '{table}_fts', 'instance')"
        )
        out[f"{table}_fts"] = list(
            run(
                f"SELECT v.term, t.{named}, v.col, v.offset FROM temp.{table}_terms v "
                f"JOIN {table} t ON t.seq = v.doc"
            )
        )
    return out


def _tables(lore: Userlore) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, ids renamed by what they name, rows sorted."""
    engine = lore.memory.store.engine
    with engine.connect() as conn:
        raw = {
            table.name: [
                tuple(v for c, v in zip(table.c, row, strict=True) if not _numbering(table, c))
                for row in conn.execute(select(table))
            ]
            for table in Base.metadata.sorted_tables
            if isinstance(table, Table)
        }
        names: dict[str, str] = {}
        for rid, key, version in conn.execute(
            select(
                Base.metadata.tables["memory_records"].c.id,
                Base.metadata.tables["memory_records"].c.canonical_key,
                Base.metadata.tables["memory_records"].c.version,
            )
        ):
            names[rid] = f"<record {key} v{version}>"
        items = Base.metadata.tables["knowledge_source_items"]
        for iid, source, external in conn.execute(
            select(items.c.id, items.c.source_instance_id, items.c.external_id)
        ):
            names[iid] = f"<item {source} {external}>"
        if conn.dialect.name == "sqlite":
            raw.update(_derived(conn))

    def rename(value: Any) -> Any:
        if isinstance(value, str):
            return _ID.sub(lambda m: names.get(m.group(0), "<other id>"), value)
        return value

    return {
        name: sorted((tuple(rename(v) for v in row) for row in rows), key=repr)
        for name, rows in raw.items()
    }


@pytest.mark.parametrize("indexed", [True, False])
def test_a_batch_stores_every_row_the_per_item_write_stores(
    store_on_write_path: Callable[..., tuple[Userlore, UserloreStore]], indexed: bool
) -> None:
    index: Any = {"dims": 32, "embed": HashingEmbeddings(dims=32), "fields": ["content"]}
    dumps = []
    for per_item in (False, True):
        lore, store = store_on_write_path(
            "auto", per_item=per_item, index=index if indexed else None
        )
        first, second = _batches()
        store.batch(first)
        before = _tables(lore)
        with pytest.raises(PolicyViolationError):
            store.batch([PutOp(NS, "k9", {"content": "Would be fine"}), PutOp(NS, "bad", _SECRET)])
        after = _tables(lore)
        changed = {name for name in after if after[name] != before[name]}
        assert changed == {"memory_trace_events"}  # the refusal's trace, nothing else
        store.batch(second)
        dumps.append(_tables(lore))
    batched, per_item_rows = dumps
    assert set(batched) == set(per_item_rows)
    for name in batched:
        assert batched[name] == per_item_rows[name], name
    assert len(batched["memory_records"]) > 15
    if indexed:
        assert batched["memory_record_vectors"] and batched["memory_field_vectors"]
