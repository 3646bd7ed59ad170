"""The contract suite runs unchanged on every backend: ``make_lore`` is parametrized here."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from tests.conftest import FakeClock, sequential_ids
from userlore import Userlore


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
