"""Shared fixtures: a fixed clock, deterministic ids and fresh in-memory databases."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta

import pytest

from userlore import Userlore


class FakeClock:
    """A clock tests move by hand."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2026, 1, 5, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kwargs: float) -> datetime:
        self.now += timedelta(**kwargs)
        return self.now


def sequential_ids() -> Callable[[str], str]:
    counter = itertools.count(1)
    return lambda prefix: f"{prefix}_{next(counter):06d}"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def make_lore(clock: FakeClock) -> Iterator[Callable[..., Userlore]]:
    opened: list[Userlore] = []

    def factory(mode: str = "confirmWrite", url: str = "sqlite://", **config: object) -> Userlore:
        cfg: dict[str, object] = {"memory": {"mode": mode}, **config}
        lore = Userlore.open(url, config=cfg, clock=clock, ids=sequential_ids())
        opened.append(lore)
        return lore

    yield factory
    for lore in opened:
        lore.close()


@pytest.fixture
def lore(make_lore: Callable[..., Userlore]) -> Userlore:
    """confirmWrite: candidates wait for approval."""
    return make_lore("confirmWrite")


@pytest.fixture
def auto_lore(make_lore: Callable[..., Userlore]) -> Userlore:
    """auto: policy-passing candidates activate at once."""
    return make_lore("auto")
