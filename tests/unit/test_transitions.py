"""The record state table: every listed move works, every other move is refused."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from userlore import CandidateInput, InvalidTransitionError, RecordState, Userlore
from userlore.store.transitions import TRANSITIONS

ALLOWED = [(src, dst) for src, targets in TRANSITIONS.items() for dst in sorted(targets)]
DISALLOWED = [
    (src, dst)
    for src in RecordState
    for dst in RecordState
    if dst not in TRANSITIONS[src] and dst is not src
]


@pytest.fixture
def lore(make_lore: Callable[..., Userlore]) -> Userlore:
    return make_lore(memory={"mode": "confirmWrite"})


def _move(lore: Userlore, src: RecordState, dst: RecordState) -> str:
    """Write a fresh candidate, force it into ``src`` and ask the store to move it to ``dst``."""
    outcome = lore.store.write("u1", CandidateInput(kind="note", content=f"a {src} {dst} note"))
    assert outcome.record is not None
    with lore.store.transaction("u1") as session:
        row = lore.store.get_row(session, "u1", outcome.record.id)
        row.state = src.value  # the starting point, set directly: this test walks the table
        session.flush()
        lore.store.transition(row, dst, lore.store.clock())
        return row.state


def test_every_state_has_a_row() -> None:
    assert set(TRANSITIONS) == set(RecordState)


@pytest.mark.parametrize(("src", "dst"), ALLOWED, ids=lambda s: str(s.value))
def test_allowed_move_lands(lore: Userlore, src: RecordState, dst: RecordState) -> None:
    assert _move(lore, src, dst) == dst.value


@pytest.mark.parametrize(("src", "dst"), DISALLOWED[::3], ids=lambda s: str(s.value))
def test_disallowed_move_is_refused(lore: Userlore, src: RecordState, dst: RecordState) -> None:
    with pytest.raises(InvalidTransitionError):
        _move(lore, src, dst)


def test_active_cannot_go_back_to_candidate(lore: Userlore) -> None:
    with pytest.raises(InvalidTransitionError, match="from active to candidate"):
        _move(lore, RecordState.ACTIVE, RecordState.CANDIDATE)


def test_driver_errors_inside_a_transaction_are_typed(lore: Userlore) -> None:
    # Whatever the driver raises inside a unit of work reaches the caller as a typed error whose
    # text quotes no value: a refused value is bad input, anything else a storage failure.
    import sqlite3

    from sqlalchemy.exc import DatabaseError, DataError

    from userlore import InvalidInputError, StorageError

    store = lore.memory.store
    with pytest.raises(InvalidInputError, match="cannot store") as bad, store.transaction("u1"):
        raise DataError("INSERT ...", {"v": "secret-value"}, ValueError("secret-value"))
    assert "secret-value" not in str(bad.value)
    with pytest.raises(StorageError, match="DatabaseError"), store.transaction("u1"):
        raise DatabaseError("SELECT 1", {}, sqlite3.DatabaseError("disk image is malformed"))
