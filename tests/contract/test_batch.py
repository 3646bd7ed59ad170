"""Batched governed writes (``understanding.govern_upsert_batch``) on every backend.

The batch keeps the guarantees of the one-candidate path: the policy decides item by item (a
refused or malformed item is reported alone, the others land), a held key is revised in place,
and a storage error rolls the whole batch back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import func, select

from userlore import Userlore
from userlore.errors import InvalidInputError, RecordNotFoundError, StorageError
from userlore.models import CandidateInput, Pipeline, Producer, WriteAction
from userlore.store.governed import GovernedStore
from userlore.store.schema import MemoryEvidence, MemoryRecord, MemoryRecordVersion
from userlore.understanding import BatchItem, govern_upsert_batch

CONNECTED = {"mode": "confirmWrite", "sources": ["session", "curated", "connected"]}
SCOPE = "batch-user"


def _fact(key: str, content: str, item_id: str | None = None) -> CandidateInput:
    return CandidateInput(
        kind="workspace_fact",
        content=content,
        canonical_key=key,
        producer=Producer.SOURCE,
        pipeline=Pipeline.CONNECTED_KNOWLEDGE,
        source_item_id=item_id,
    )


def _items(store: GovernedStore, n: int, scope: str = SCOPE) -> list[str]:
    with store.transaction(scope) as s:
        return [
            store.add_source_item(
                s,
                scope=scope,
                source_instance_id="src-batch",
                external_id=f"x{i}",
                text=f"Item {i} of the batch test.",
                pipeline=Pipeline.CONNECTED_KNOWLEDGE,
            ).id
            for i in range(n)
        ]


def _count(store: GovernedStore, table: Any, **where: Any) -> int:
    with store.transaction() as s:
        stmt = select(func.count()).select_from(table)
        for name, value in where.items():
            stmt = stmt.where(getattr(table, name) == value)
        return int(s.scalar(stmt) or 0)


@pytest.fixture
def lore(make_lore: Callable[..., Userlore]) -> Userlore:
    return make_lore(mode="confirmWrite", memory=CONNECTED)


def test_fresh_keys_land_like_single_writes(lore: Userlore) -> None:
    store = lore.memory.store
    ids = _items(store, 4)
    batch = [
        BatchItem(_fact(f"k/{i}", f"Fact number {i} about the deploy."), (ids[i],), "context")
        for i in range(3)
    ]
    batch[0] = BatchItem(_fact("k/0", "Fact number 0 about the deploy.", ids[3]), (ids[0],))
    results = govern_upsert_batch(store, SCOPE, batch)
    assert [r.error for r in results] == [None, None, None]
    outcomes = [r.outcome for r in results]
    assert all(o is not None and o.action is WriteAction.CREATED for o in outcomes)
    # Connected knowledge activates in confirmWrite, as on the one-candidate path.
    single = store.write(SCOPE, _fact("k/single", "A single governed fact."))
    assert single.record is not None
    views = [o.record for o in outcomes if o is not None]
    assert {v.state for v in views if v is not None} == {single.record.state}
    for view in views:
        assert view is not None
        row = lore.records.get(SCOPE, view.id)
        assert (row.version, row.state, row.content) == (1, view.state, view.content)
    assert _count(store, MemoryRecordVersion, scope=SCOPE) == 4
    first = views[0]
    assert first is not None
    # Its own item (stated_in) and the further evidence, counted on the record.
    assert _count(store, MemoryEvidence, record_id=first.id) == 2
    assert lore.records.get(SCOPE, first.id).evidence_count == 2


def test_refused_and_invalid_items_are_refused_alone(lore: Userlore) -> None:
    store = lore.memory.store
    ids = _items(store, 1)
    batch = [
        BatchItem(_fact("k/a", "The staging deploy finished.")),
        BatchItem(_fact("k/b", "my api key is sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c")),
        BatchItem(_fact("k/c", "")),  # empty content: invalid
        BatchItem(_fact("k/d", "Linked to an item of another scope."), (ids[0] + "zz",)),
        BatchItem(_fact("", "No key at all.")),
        BatchItem(_fact("k/e", "The production deploy finished.")),
    ]
    results = govern_upsert_batch(store, SCOPE, batch)
    actions = [r.outcome.action if r.outcome else None for r in results]
    created, refused = WriteAction.CREATED, WriteAction.REFUSED
    assert actions == [created, refused, None, None, None, created]
    assert results[1].outcome is not None and results[1].outcome.reason == "secret"
    assert isinstance(results[2].error, InvalidInputError)
    assert isinstance(results[3].error, RecordNotFoundError)
    assert isinstance(results[4].error, InvalidInputError)
    stored = {r.canonical_key for r in lore.records.list(SCOPE, limit=50)}
    assert stored == {"k/a", "k/e"}
    refusals = [t for t in lore.traces.list(SCOPE) if t["event_type"] == "governance"]
    assert [t["reason_code"] for t in refusals] == ["secret"]


def test_held_and_repeated_keys_revise_in_place(lore: Userlore) -> None:
    store = lore.memory.store
    first = govern_upsert_batch(store, SCOPE, [BatchItem(_fact("k/x", "Version one."))])
    assert first[0].outcome is not None and first[0].outcome.record is not None
    record_id = first[0].outcome.record.id
    results = govern_upsert_batch(
        store,
        SCOPE,
        [
            BatchItem(_fact("k/x", "Version two.")),  # held: revised in place
            BatchItem(_fact("k/y", "New key, first statement.")),
            BatchItem(_fact("k/y", "New key, second statement.")),  # repeated in the batch
            BatchItem(_fact("k/x", "Version two.")),  # unchanged now
        ],
    )
    actions = [r.outcome.action for r in results if r.outcome is not None]
    assert actions == [
        WriteAction.SUPERSEDING,
        WriteAction.CREATED,
        WriteAction.SUPERSEDING,
        WriteAction.REINFORCED,
    ]
    x = lore.records.get(SCOPE, record_id)
    assert (x.version, x.content) == (2, "Version two.")
    ys = [r for r in lore.records.list(SCOPE, limit=50) if r.canonical_key == "k/y"]
    assert [(r.version, r.content) for r in ys] == [(2, "New key, second statement.")]


def test_a_storage_error_rolls_the_whole_batch_back(
    lore: Userlore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = lore.memory.store
    govern_upsert_batch(store, SCOPE, [BatchItem(_fact("k/held", "Held before."))])
    real = store.insert_fresh

    def failing(*args: Any, **kwargs: Any) -> Any:
        real(*args, **kwargs)  # the rows are written, then the database fails
        raise StorageError("database error: disk I/O error")

    monkeypatch.setattr(store, "insert_fresh", failing)
    with pytest.raises(StorageError):
        govern_upsert_batch(
            store,
            SCOPE,
            [
                BatchItem(_fact("k/held", "Revised, then rolled back.")),
                BatchItem(_fact("k/new", "Written, then rolled back.")),
                BatchItem(_fact("k/bad", "password: hunter2hunter2")),
            ],
        )
    assert [r.content for r in lore.records.list(SCOPE, limit=50)] == ["Held before."]
    assert _count(store, MemoryRecord, scope=SCOPE) == 1
    assert not [t for t in lore.traces.list(SCOPE) if t["event_type"] == "governance"]


def test_batch_inside_a_callers_transaction(lore: Userlore) -> None:
    store = lore.memory.store
    with pytest.raises(RuntimeError), store.transaction(SCOPE) as session:
        govern_upsert_batch(
            store, SCOPE, [BatchItem(_fact("k/t", "Inside a transaction."))], session=session
        )
        raise RuntimeError("the caller fails after the batch")
    assert lore.records.list(SCOPE) == []


def test_a_batch_larger_than_an_in_list(lore: Userlore) -> None:
    store = lore.memory.store
    govern_upsert_batch(store, SCOPE, [BatchItem(_fact("k/1500", "Held before."))])
    batch = [BatchItem(_fact(f"k/{i}", f"Statement number {i}.")) for i in range(2_100)]
    results = govern_upsert_batch(store, SCOPE, batch)
    actions = [r.outcome.action for r in results if r.outcome is not None]
    assert len(actions) == 2_100
    assert actions.count(WriteAction.SUPERSEDING) == 1  # k/1500, held, revised in place
    assert actions.count(WriteAction.CREATED) == 2_099
    assert _count(store, MemoryRecord, scope=SCOPE) == 2_100
