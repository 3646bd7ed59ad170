"""Kill -9 in the middle of a drain: three ``userlore worker`` processes share one database
(SQLite file or PostgreSQL); twice over, one that holds leased items is SIGKILLed; the
survivor takes the dead holders' leases over and finishes. Every item must end
done exactly once: one workspace fact per item, at version 1, with its item as evidence, and
nothing left pending or leased.

The three start together because a worker takes seconds to import (tens of seconds on a loaded
machine): starting a replacement after each kill would make the test slow, not stronger.

``test_workers.py`` kills a process that only claimed; this kills real workers while they
write.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, select

from tests.contract.test_workers import _facts, _seed, _url, _worker
from userlore import Userlore
from userlore.store.schema import KnowledgeSourceItem, MemoryEvidence, MemoryRecordVersion

ITEMS = 300
KILLS = 2


class Watch:
    """Polls item states on one plain connection pool (opening a ``Userlore`` per poll would
    run the migration check each time)."""

    def __init__(self, url: str) -> None:
        self.engine = create_engine(url)

    def states(self) -> dict[str, int]:
        t = KnowledgeSourceItem
        with self.engine.connect() as conn:
            rows = conn.execute(select(t.synthesis_state, func.count()).group_by(t.synthesis_state))
            return {state: int(n) for state, n in rows}

    def held_by(self, worker_id: str) -> int:
        """Items ``worker_id`` holds right now (its lease tokens start with its id)."""
        t = KnowledgeSourceItem
        with self.engine.connect() as conn:
            return int(
                conn.scalar(
                    select(func.count()).where(
                        t.synthesis_state == "running", t.lease_owner.startswith(f"{worker_id}#")
                    )
                )
                or 0
            )


def _wait(condition: Callable[[], bool], timeout: float, what: Callable[[], str]) -> None:
    """Poll ``condition``; fail with ``what()``, the state when the wait gave up."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what()
        time.sleep(0.02)


def _drained(watch: Watch) -> bool:
    """Every item done; fails at once when one ended in another final state (it never will)."""
    states = watch.states()
    assert set(states) <= {"done", "pending", "running"}, f"an item ended otherwise: {states}"
    return states == {"done": ITEMS}


# The "stall" seen after the merge with the per-scope write lock was not one: the drain finished,
# but item e303's generated fact key was refused as a regulated id (a hex group that validated
# as a Spanish cadastral reference), so ``{"done": ITEMS}`` could never hold, and the failure
# message (evaluated before the wait) showed the state at the last kill, not the end state.
# Fixed in the detector (tests/unit/test_generated_keys.py); the wait now stops at the first
# item in a final state other than done and reports the states it ended with.
def test_workers_killed_mid_drain_lose_nothing_and_repeat_nothing(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = _url(backend, request, tmp_path)
    _seed(url, ITEMS)
    watch = Watch(url)
    # Small batches so a drain spans many transactions and a kill lands between them.
    args = ("--interval", "0.05", "--lease-seconds", "30")
    workers = [_worker(url, tmp_path, *args, "--worker-id", f"w{i}") for i in range(KILLS + 1)]
    interrupted = []
    try:
        for _ in range(KILLS):
            # Mid-drain: kill a worker that holds leased items (a claimed batch it is writing).
            holding: list[tuple[int, int]] = []

            def someone_holds(found: list[tuple[int, int]] = holding) -> bool:
                found[:] = [
                    (n, i)
                    for i, proc in enumerate(workers)
                    if proc.poll() is None and (n := watch.held_by(f"w{i}")) > 0
                ]
                return bool(found)

            _wait(someone_holds, 180, lambda: f"no worker held an item: {watch.states()}")
            held, victim = max(holding)
            os.kill(workers[victim].pid, signal.SIGKILL)
            workers[victim].wait(10)
            interrupted.append(held)
        _wait(lambda: _drained(watch), 180, lambda: f"not drained: {watch.states()}")
    finally:
        for proc in workers:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in workers:
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
        watch.engine.dispose()
    # Each kill really interrupted work: the victim held leased items when it died.
    assert all(held > 0 for held in interrupted), interrupted
    facts = _facts(url)
    assert len(facts) == ITEMS and {f.version for f in facts} == {1}
    assert len({f.canonical_key for f in facts}) == ITEMS
    lore = Userlore.open(url)
    try:
        with lore.store.transaction() as s:
            versions = s.scalar(
                select(func.count())
                .select_from(MemoryRecordVersion)
                .where(MemoryRecordVersion.record_id.in_([f.id for f in facts]))
            )
            linked = s.scalar(
                select(func.count(func.distinct(MemoryEvidence.source_item_id))).where(
                    MemoryEvidence.record_id.in_([f.id for f in facts])
                )
            )
    finally:
        lore.close()
    assert versions == ITEMS  # no item's fact was written twice
    assert linked == ITEMS  # every item is the evidence of its fact: none lost
