"""The contract suite runs unchanged on every backend: ``make_lore`` is parametrized here."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.orm import Session

from tests.conftest import FakeClock, sequential_ids
from userlore import Userlore
from userlore.integrations.langgraph_store import UserloreStore
from userlore.models import CandidateInput, WriteOutcome


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def make_lore(
    backend: str, clock: FakeClock, request: pytest.FixtureRequest
) -> Iterator[Callable[..., Userlore]]:
    opened: list[Userlore] = []
    shared: dict[str, str] = {}

    def database_url(url: str) -> str:
        if backend == "sqlite":
            return url
        # Same logical database for the same requested URL within one test.
        if url not in shared:
            shared[url] = request.getfixturevalue("postgres_databases").fresh()
        return shared[url]

    def factory(mode: str = "confirmWrite", url: str = "sqlite://", **config: object) -> Userlore:
        cfg: dict[str, object] = {"memory": {"mode": mode}, **config}
        lore = Userlore.open(database_url(url), config=cfg, clock=clock, ids=sequential_ids())
        opened.append(lore)
        return lore

    yield factory
    for lore in opened:
        lore.close()
    if shared:
        databases = request.getfixturevalue("postgres_databases")
        for url in shared.values():
            databases.drop(url)


@pytest.fixture
def store_on_write_path(
    make_lore: Callable[..., Userlore], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Callable[..., tuple[Userlore, UserloreStore]]:
    """A ``UserloreStore`` (user-first namespaces) on a database of its own, its batches written
    through ``GovernedStore.govern_batch`` or, with ``per_item``, through ``govern`` of each
    candidate in turn: the reference a batch is compared with, the write before the batch path.
    """

    def open_store(
        mode: str, *, per_item: bool, index: Any = None
    ) -> tuple[Userlore, UserloreStore]:
        lore = make_lore(mode, url=f"sqlite:///{tmp_path / f'per-item-{per_item}.db'}")
        store = UserloreStore(lore, namespace_template=("{user_id}",), index=index)
        if per_item:
            governed = lore.memory.store

            def each(
                session: Session, scope: str, candidates: Sequence[CandidateInput], **_: Any
            ) -> list[WriteOutcome]:
                return [governed.govern(session, scope, c) for c in candidates]

            monkeypatch.setattr(governed, "govern_batch", each)
        return lore, store

    return open_store
