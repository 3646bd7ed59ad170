"""No write fails or is lost because another ran at the same time (issue 30, B5).

Every content-addressed or get-or-create write is insert-or-get in one statement, and a governed
write takes the scope's write lock before it reads what the scope holds. These tests run many
writers at once, on a SQLite file (several connections) and on PostgreSQL, and count failures
and lost writes; both must be 0.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from userlore import Userlore
from userlore.integrations.langgraph_store import UserloreStore
from userlore.models import RecordState
from userlore.testing.embeddings import HashingEmbeddings

WRITERS = 40


def _open(make_lore: Callable[..., Userlore], tmp_path: Path, **config: Any) -> Userlore:
    return make_lore(mode="auto", url=f"sqlite:///{tmp_path / 'race.db'}", **config)


def _open_embedded(
    make_lore: Callable[..., Userlore], tmp_path: Path, backend: str, request: Any
) -> Userlore:
    """A store with vectors: the first vectors' model row, the generation and every vector
    are written by racing writers too."""
    url = (
        f"sqlite:///{tmp_path / 'race.db'}"
        if backend == "sqlite"
        else request.getfixturevalue("postgres_databases").fresh()
    )
    lore = Userlore.open(url, config={"memory": {"mode": "auto"}}, embeddings=HashingEmbeddings())
    request.addfinalizer(lore.close)
    return lore


def _in_threads(calls: list[Callable[[], Any]]) -> list[BaseException]:
    """Run ``calls`` at once in threads; the exceptions they raised."""
    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        futures = [pool.submit(call) for call in calls]
    return [e for f in futures if (e := f.exception()) is not None]


@pytest.mark.parametrize("same", [True, False], ids=["same-text", "different-text"])
def test_concurrent_aput_none_fail_none_lost(
    make_lore: Callable[..., Userlore], tmp_path: Path, same: bool
) -> None:
    lore = _open(make_lore, tmp_path)
    store = UserloreStore(lore, namespace_template=("{user_id}", "ns"))

    async def run() -> list[Any]:
        return await asyncio.gather(
            *[
                store.aput(("u1", "ns"), f"key{i}", {"content": "same text" if same else f"t {i}"})
                for i in range(WRITERS)
            ],
            return_exceptions=True,
        )

    results = asyncio.run(run())
    assert [r for r in results if isinstance(r, BaseException)] == []
    missing = [i for i in range(WRITERS) if store.get(("u1", "ns"), f"key{i}") is None]
    assert missing == []


def test_concurrent_puts_of_one_key_leave_one_live_value(
    make_lore: Callable[..., Userlore], tmp_path: Path
) -> None:
    lore = _open(make_lore, tmp_path)
    store = UserloreStore(lore, namespace_template=("{user_id}", "ns"))
    calls: list[Callable[[], Any]] = [
        (lambda i=i: store.put(("u1", "ns"), "shared", {"content": f"value {i}"}))
        for i in range(WRITERS)
    ]
    assert _in_threads(calls) == []
    item = store.get(("u1", "ns"), "shared")
    assert item is not None and item.value["content"].startswith("value ")
    assert len(lore.records.list("u1", RecordState.ACTIVE)) == 1


def test_concurrent_replays_of_one_turn_store_it_once(
    make_lore: Callable[..., Userlore], tmp_path: Path
) -> None:
    lore = _open(make_lore, tmp_path)
    text = "I prefer concise answers."
    calls: list[Callable[[], Any]] = [
        (lambda: lore.observe("u1", "user", text, "s1", turn_id="turn-1")) for _ in range(WRITERS)
    ]
    assert _in_threads(calls) == []
    [record] = lore.records.list("u1", RecordState.ACTIVE)
    assert len(lore.records.evidence("u1", record.id)) == 1


def test_concurrent_identical_turns_all_kept_as_evidence(
    make_lore: Callable[..., Userlore], tmp_path: Path
) -> None:
    lore = _open(make_lore, tmp_path)
    text = "I prefer concise answers."
    calls: list[Callable[[], Any]] = [
        (lambda: lore.observe("u1", "user", text, "s1")) for _ in range(WRITERS)
    ]
    assert _in_threads(calls) == []
    [record] = lore.records.list("u1", RecordState.ACTIVE)
    assert len(lore.records.evidence("u1", record.id)) == WRITERS


def test_concurrent_async_observe_of_different_scopes(
    make_lore: Callable[..., Userlore], tmp_path: Path
) -> None:
    lore = _open(make_lore, tmp_path)

    async def run() -> list[Any]:
        return await asyncio.gather(
            *[
                lore.aobserve(f"user{i % 4}", "user", f"I prefer concise answers, take {i}.")
                for i in range(WRITERS)
            ],
            return_exceptions=True,
        )

    assert [r for r in asyncio.run(run()) if isinstance(r, BaseException)] == []
    for n in range(4):
        assert len(lore.records.list(f"user{n}", RecordState.ACTIVE)) >= 1


def test_concurrent_puts_with_vectors_none_fail_none_lost(
    make_lore: Callable[..., Userlore], tmp_path: Path, backend: str, request: Any
) -> None:
    lore = _open_embedded(make_lore, tmp_path, backend, request)
    store = UserloreStore(lore, namespace_template=("{user_id}", "ns"))

    async def run() -> list[Any]:
        return await asyncio.gather(
            *[
                store.aput(("u1", "ns"), f"key{i}", {"content": f"note {i % 3} on lunch"})
                for i in range(WRITERS)
            ],
            return_exceptions=True,
        )

    assert [r for r in asyncio.run(run()) if isinstance(r, BaseException)] == []
    missing = [i for i in range(WRITERS) if store.get(("u1", "ns"), f"key{i}") is None]
    assert missing == []
    hits = store.search(("u1", "ns"), query="note on lunch", limit=WRITERS)
    assert len(hits) == WRITERS


def test_concurrent_deletes_of_one_key_none_fail(
    make_lore: Callable[..., Userlore], tmp_path: Path
) -> None:
    """Deletes racing on one key (LangGraph's ``test_large_batches``, 10 threads): the first
    tombstones it, the others find it already gone, as a delete of a missing key does."""
    lore = _open(make_lore, tmp_path)
    store = UserloreStore(lore, namespace_template=("{user_id}", "ns"))
    errors: list[BaseException] = []
    for round_ in range(3):
        store.put(("u1", "ns"), "k", {"content": f"value {round_}"})
        calls: list[Callable[[], Any]] = [
            (lambda: store.delete(("u1", "ns"), "k")) for _ in range(10)
        ]
        errors += _in_threads(calls)
        assert store.get(("u1", "ns"), "k") is None
    assert errors == []
