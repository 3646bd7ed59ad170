"""The batched revise of held keys stores exactly what ``govern_upsert`` one at a time stores.

``govern_upsert_batch`` revises the keys a scope holds in bulk (``store/revisions.py``) instead
of one savepoint and ~8 round trips each. Two stores get the same history, then the same batch:
one through the batch, one through the per-item path the batch used before (``govern_upsert``
in a savepoint per item). Every outcome and every stored row must be the same: records,
versions, evidence links and items. The batch covers each branch: unchanged content with a new
link, changed content, a repeat of a held key, own evidence, a forgotten, a deleted and an
archived key, an evidence item outside the scope, and a fresh key beside them.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select

from userlore import Userlore
from userlore.errors import RecordNotFoundError, UserloreError
from userlore.models import CandidateInput, Pipeline, Producer, UserState, WriteAction
from userlore.store.governed import GovernedStore
from userlore.store.schema import (
    KnowledgeSourceItem,
    MemoryEvidence,
    MemoryRecord,
    MemoryRecordVersion,
)
from userlore.understanding import BatchItem, govern_upsert_batch

CONNECTED = {"mode": "confirmWrite", "sources": ["session", "curated", "connected"]}
SCOPE = "revise-user"


def _fact(
    key: str,
    content: str,
    value: str | None = None,
    item: str | None = None,
    since: datetime | None = None,
) -> Any:
    return CandidateInput(
        valid_from=since,
        kind="workspace_fact",
        content=content,
        value=value,
        canonical_key=key,
        producer=Producer.SOURCE,
        pipeline=Pipeline.CONNECTED_KNOWLEDGE,
        source_item_id=item,
    )


def _history(lore: Userlore) -> list[str]:
    """The same items and records in each store; the item ids (sequential) match too."""
    store = lore.memory.store
    with store.transaction(SCOPE) as s:
        ids = [
            store.add_source_item(
                s,
                scope=SCOPE,
                source_instance_id="src-rev",
                external_id=f"x{i}",
                text=f"Item {i} of the revise test.",
                pipeline=Pipeline.CONNECTED_KNOWLEDGE,
            ).id
            for i in range(5)
        ]
    first = govern_upsert_batch(
        store,
        SCOPE,
        [
            BatchItem(_fact("k/same", "Same content.", "cue"), (ids[0],), "summarized_in"),
            BatchItem(_fact("k/change", "Old content."), (ids[1],), "summarized_in"),
            BatchItem(_fact("k/own", "Own evidence, old.", item=ids[3])),
            BatchItem(_fact("k/forgot", "To be forgotten.")),
            BatchItem(_fact("k/deleted", "To be deleted.")),
            BatchItem(_fact("k/archived", "To be archived.")),
            BatchItem(_fact("k/missing", "Held, then linked to nothing.")),
        ],
    )
    record = {r.outcome.record.canonical_key: r.outcome.record.id for r in first}  # type: ignore[union-attr]
    store.set_user_state(SCOPE, record["k/forgot"], UserState.FORGOTTEN)
    store.forget(SCOPE, record["k/deleted"])
    with store.transaction(SCOPE) as s:
        store.archive_key(s, SCOPE, "k/archived", reason="source_deleted")
    return ids


def _batch(ids: list[str]) -> list[BatchItem]:
    return [
        BatchItem(_fact("k/same", "Same content.", "cue"), (ids[0], ids[2]), "summarized_in"),
        BatchItem(
            _fact("k/change", "New content.", "new cue", since=datetime(2025, 3, 1, tzinfo=UTC)),
            (ids[1],),
            "summarized_in",
        ),
        BatchItem(_fact("k/fresh", "A key nothing held.")),
        BatchItem(_fact("k/change", "Newer content."), (ids[1], ids[4]), "summarized_in"),
        BatchItem(_fact("k/own", "Own evidence, new.", item=ids[3]), (ids[2],), "context"),
        BatchItem(_fact("k/forgot", "Forgotten, written again.")),
        BatchItem(_fact("k/deleted", "Deleted, written again.")),
        BatchItem(_fact("k/archived", "Archived, written again.")),
        BatchItem(_fact("k/missing", "Linked to nothing."), ("src_not_here",), "summarized_in"),
    ]


def _one_at_a_time(store: GovernedStore, items: list[BatchItem]) -> list[Any]:
    """The per-item path: ``govern_upsert`` in a savepoint per item, one transaction."""
    out: list[Any] = []
    with store.transaction(SCOPE) as session:
        for item in items:
            try:
                with session.begin_nested():
                    out.append(
                        store.govern_upsert(
                            session,
                            SCOPE,
                            item.candidate,
                            evidence=item.evidence,
                            evidence_relation=item.evidence_relation,
                        )
                    )
            except UserloreError as exc:
                out.append(type(exc))
    return out


def _stored(store: GovernedStore) -> dict[str, list[tuple[Any, ...]]]:
    """Every row the write touches, without surrogate sequence numbers."""
    tables = {
        "records": MemoryRecord,
        "versions": MemoryRecordVersion,
        "evidence": MemoryEvidence,
        "items": KnowledgeSourceItem,
    }
    out: dict[str, list[tuple[Any, ...]]] = {}
    with store.transaction(SCOPE) as s:
        for name, table in tables.items():
            # seq and the link's and snapshot's ids are autoincrement counters, not data.
            skip = {"seq", "id"} if table in (MemoryEvidence, MemoryRecordVersion) else {"seq"}
            cols = [c for c in table.__table__.columns if c.name not in skip]
            out[name] = sorted(
                (tuple(str(v) for v in row) for row in s.execute(select(*cols))), key=str
            )
    return out


def test_batched_revisions_store_what_the_per_item_path_stores(
    make_lore: Callable[..., Userlore], tmp_path: Path
) -> None:
    batched = make_lore(memory=CONNECTED, url=f"sqlite:///{tmp_path / 'batched.db'}")
    single = make_lore(memory=CONNECTED, url=f"sqlite:///{tmp_path / 'single.db'}")
    ids = _history(batched)
    assert _history(single) == ids
    assert _stored(batched.memory.store) == _stored(single.memory.store)

    results = govern_upsert_batch(batched.memory.store, SCOPE, _batch(ids))
    reference = _one_at_a_time(single.memory.store, _batch(ids))

    got = [r.outcome if r.error is None else type(r.error) for r in results]
    assert [getattr(o, "action", o) for o in got] == [getattr(o, "action", o) for o in reference]
    assert got == reference  # the record views too
    a = WriteAction
    assert [getattr(o, "action", o) for o in got] == [
        a.REINFORCED,
        a.SUPERSEDING,
        a.CREATED,
        a.SUPERSEDING,
        a.SUPERSEDING,
        a.SKIPPED,
        a.SKIPPED,
        a.CREATED,
        RecordNotFoundError,
    ]
    after_batch, after_single = _stored(batched.memory.store), _stored(single.memory.store)
    for table in after_single:
        assert after_batch[table] == after_single[table], table
