"""A ``batch`` of puts is the batched governed write, with the outcome of the puts one by one.

``UserloreStore.batch`` writes the puts of a chunk through ``GovernedStore.govern_batch``: keys
nothing held yet in a few multi-row statements, the rest (held keys, deleted keys recreated,
repeats in the batch) through the per-item write, in order. These tests run one script of ops
both ways, on two databases, and compare everything a reader can see (issue 30, item 5).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from langgraph.store.base import GetOp, Op, PutOp, SearchOp
from sqlalchemy import event

from userlore import RecordState, Userlore
from userlore.errors import InvalidInputError, PolicyViolationError
from userlore.integrations.langgraph_store import UserloreStore
from userlore.testing.embeddings import HashingEmbeddings

USER_FIRST = ("{user_id}",)
NS = ("u1", "notes")


def _script() -> list[list[Op]]:
    """Batches of ops: fresh keys, repeats inside a batch, updates, deletes, recreated keys."""
    first: list[Op] = [
        PutOp(NS, f"k{i}", {"content": f"Note number {i} about apples"}) for i in range(8)
    ]
    first += [
        PutOp(NS, "k2", {"content": "Note two, revised in the same batch"}),
        PutOp(("u1", "other"), "k0", {"content": "Same key, other namespace"}),
        PutOp(NS, "same-a", {"content": "Shared text of two keys"}),
        PutOp(NS, "same-b", {"content": "Shared text of two keys"}),
        PutOp(NS, "v", {"text": "A value without content", "n": 3}),
    ]
    second: list[Op] = [
        PutOp(NS, "k3", None),  # a delete between puts: the chunk ends here
        PutOp(NS, "k3", {"content": "Note three, recreated after its delete"}),
        PutOp(NS, "k4", {"content": "Note number 4 about apples"}),  # unchanged: reinforced
        PutOp(NS, "k5", {"content": "Note five, changed"}),
        PutOp(NS, "k5", {"content": "Note five, changed twice"}),
        PutOp(NS, "k6", None),
        PutOp(NS, "fresh", {"content": "A key first put in the second batch"}),
        GetOp(NS, "fresh"),
        PutOp(NS, "k6", {"content": "Note six, back again"}),
    ]
    return [first, second]


def _one_by_one(batch: Sequence[Op]) -> list[list[Op]]:
    return [[op] for op in batch]


def _seen(lore: Userlore, store: UserloreStore) -> dict[str, Any]:
    """Everything a reader sees, without ids or times (the two databases number rows apart)."""
    records = sorted(
        (
            r.canonical_key or "",
            r.state.value,
            r.version,
            r.content,
            r.value or "",
            r.path,
            tuple(
                (e["text"], e["relation"], e["source"], e["external_id"])
                for e in lore.records.evidence("u1", r.id)
            ),
            tuple((v.version, v.content) for v in lore.records.history("u1", r.id)),
        )
        for r in lore.records.list("u1", state=list(RecordState))
    )
    items = sorted(
        (tuple(i.namespace), i.key, repr(sorted(i.value.items())))
        for i in store.search(("u1",), limit=100)
    )
    ranked = [
        (i.key, round(i.score or 0.0, 6))
        for i in store.search(("u1",), query="apples note", limit=100)
    ]
    return {"records": records, "items": items, "ranked": ranked}


@pytest.mark.parametrize("mode", ["auto", "confirmWrite"])
def test_batched_puts_leave_what_puts_one_by_one_leave(
    store_on_write_path: Callable[..., tuple[Userlore, UserloreStore]], mode: str
) -> None:
    index: Any = {"dims": 64, "embed": HashingEmbeddings(dims=64), "fields": ["content"]}
    results = []
    seen = []
    for split in (False, True):
        # split: the reference, each put its own governed write, as before the batch path.
        lore, store = store_on_write_path(mode, per_item=split, index=index)
        got: list[Any] = []
        for batch in _script():
            for part in _one_by_one(batch) if split else [batch]:
                got.extend(store.batch(part))
        results.append([None if r is None else (r.key, r.value) for r in got])  # type: ignore[union-attr]
        seen.append(_seen(lore, store))
    assert results[0] == results[1]
    assert seen[0] == seen[1]
    if mode == "auto":
        keys = [item[1] for item in seen[0]["items"]]
        assert "k3" in keys and "k6" in keys  # deleted keys recreated
        assert len(seen[0]["ranked"]) == len(keys)


def test_a_chunk_of_fresh_puts_is_a_few_statements_not_a_few_per_put(
    make_lore: Callable[..., Userlore],
) -> None:
    lore = make_lore("auto")
    store = UserloreStore(lore, namespace_template=USER_FIRST)
    statements: list[str] = []
    event.listen(
        lore.memory.store.engine,
        "before_cursor_execute",
        lambda *args: statements.append(str(args[2])),
    )
    store.batch([PutOp(NS, f"k{i}", {"content": f"Bulk note {i}"}) for i in range(200)])
    writes = [s for s in statements if s.lstrip().upper().startswith(("INSERT", "UPDATE"))]
    assert len(store.search(NS, limit=300)) == 200
    assert len(writes) < 20, writes  # per-put writes would be over 1,000


def test_the_floor_runs_over_the_whole_batch_before_anything_is_written(
    make_lore: Callable[..., Userlore],
) -> None:
    lore = make_lore("auto")
    store = UserloreStore(lore, namespace_template=USER_FIRST)
    ops: list[Op] = [PutOp(NS, f"k{i}", {"content": f"Harmless note {i}"}) for i in range(5)]
    ops.append(
        PutOp(
            NS, "bad", {"content": "my api key is sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD"}
        )
    )
    with pytest.raises(PolicyViolationError):
        store.batch(ops)
    assert lore.records.list("u1", state=list(RecordState)) == []
    got = store.batch([SearchOp(("u1",), limit=10)])
    assert got == [[]]


def test_a_batch_fails_at_its_first_bad_op_as_when_each_op_was_judged_in_turn(
    make_lore: Callable[..., Userlore],
) -> None:
    # The floor judges a batch's puts after every op is validated (contents, then keys:
    # bulkput11), yet the error is still the first bad op's: a refused put before a malformed
    # op raises the refusal (and traces it), a malformed op before a refused put raises its
    # own error and traces nothing.
    lore = make_lore("auto")
    store = UserloreStore(lore, namespace_template=USER_FIRST)
    secret = {"content": "my api key is sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD"}
    fine = PutOp(NS, "ok", {"content": "A harmless note"})
    malformed = PutOp(NS, "", {"content": "A note with no key"})
    with pytest.raises(PolicyViolationError):
        store.batch([fine, PutOp(NS, "bad", secret), malformed])
    assert [t["reason_code"] for t in lore.traces.list("u1", event_type="governance")] == ["secret"]
    with pytest.raises(InvalidInputError):
        store.batch([fine, malformed, PutOp(NS, "bad", secret)])
    assert len(lore.traces.list("u1", event_type="governance")) == 1
    assert lore.records.list("u1", state=list(RecordState)) == []
