"""`userlore worker` processes on every backend: exactly once, heartbeats, SIGTERM, kill -9,
prompt takeover of a dead holder's leases, and sync runs abandoned by a killed process.

These run real worker processes (the console entry point) against one database, SQLite file or
PostgreSQL (`FOR UPDATE SKIP LOCKED` there).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from userlore import Userlore
from userlore.sources import ConnectedKnowledgePipeline, ItemListSource, SourceItem
from userlore.store.schema import KnowledgeSourceItem

CONNECTED = {"mode": "auto", "sources": ["session", "curated", "connected"]}


def _url(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if backend == "sqlite":
        return f"sqlite:///{tmp_path / 'workers.db'}"
    return str(request.getfixturevalue("postgres_databases").fresh())


def _seed(url: str, n: int) -> None:
    lore = Userlore.open(url, config={"memory": CONNECTED})
    items = [
        SourceItem(
            external_id=f"e{i}",
            text=f"Entry {i}: the nightly backup of volume {i} finished in {i % 7 + 1} minutes.",
            occurred_at=datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=i),
        )
        for i in range(n)
    ]
    lore.sources.ingest("u1", ItemListSource("bulk", items), synthesize=False)
    lore.close()


def _states(url: str) -> dict[str, int]:
    lore = Userlore.open(url)
    try:
        with lore.store.transaction() as s:
            rows = s.execute(
                select(KnowledgeSourceItem.synthesis_state, func.count()).group_by(
                    KnowledgeSourceItem.synthesis_state
                )
            ).all()
        return {state: int(count) for state, count in rows}
    finally:
        lore.close()


def _worker(url: str, folder: Path, *args: str) -> subprocess.Popen[str]:
    path = folder / "worker-config.json"
    path.write_text(json.dumps({"userContext": {"memory": CONNECTED}}))
    return subprocess.Popen(
        [sys.executable, "-m", "userlore.cli", "worker", "--db", url, "--config", str(path), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _facts(url: str) -> list[Any]:
    lore = Userlore.open(url)
    try:
        return lore.records.list("u1", kind="workspace_fact", limit=10_000)
    finally:
        lore.close()


def test_worker_processes_process_every_item_exactly_once(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = _url(backend, request, tmp_path)
    _seed(url, 150)
    workers = [_worker(url, tmp_path, "--once", "--worker-id", f"w{i}") for i in range(3)]
    outputs = [w.communicate(timeout=240)[0] for w in workers]
    assert [w.returncode for w in workers] == [0, 0, 0], outputs
    assert _states(url) == {"done": 150}
    facts = _facts(url)
    assert len(facts) == 150 and {f.version for f in facts} == {1}
    lore = Userlore.open(url)
    with lore.store.transaction() as s:
        attempts = set(s.scalars(select(KnowledgeSourceItem.synthesis_attempts)))
    lore.close()
    assert attempts == {1}  # nobody claimed an item another worker held


def test_heartbeat_keeps_a_slow_workers_leases(
    make_lore: Callable[..., Userlore], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'beat.db'}"  # the contract fixture maps it per backend
    now = [datetime(2026, 1, 5, tzinfo=UTC)]
    lore = make_lore("auto", url=url, memory=CONNECTED)
    lore.sources.ingest(
        "u1",
        ItemListSource("s", [SourceItem(external_id=f"e{i}", text=f"note {i}") for i in range(4)]),
        synthesize=False,
    )
    lore.store.clock = lambda: now[0]
    slow = ConnectedKnowledgePipeline(lore.store, worker_id="slow", lease_seconds=60)
    other = ConnectedKnowledgePipeline(lore.store, worker_id="other", lease_seconds=60)
    held = slow.claim()
    assert len(held) == 4
    now[0] += timedelta(seconds=50)
    assert slow.heartbeat(held) == 4
    now[0] += timedelta(seconds=50)  # past the original lease, within the extended one
    assert other.claim() == []
    now[0] += timedelta(seconds=61)  # the heartbeat stopped: the leases expire
    assert len(other.claim()) == 4
    assert slow.heartbeat(held) == 0  # fenced: the slow worker holds nothing any more


def test_sigterm_finishes_the_batch_in_flight_and_claims_no_more(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = _url(backend, request, tmp_path)
    _seed(url, 1500)
    worker = _worker(url, tmp_path, "--interval", "0.2", "--worker-id", "graceful")
    try:
        deadline = time.monotonic() + 120
        while _states(url).get("done", 0) == 0:
            assert worker.poll() is None, worker.stdout.read() if worker.stdout else ""
            assert time.monotonic() < deadline, "the worker never finished a batch"
            time.sleep(0.05)
        worker.send_signal(signal.SIGTERM)
        output, _ = worker.communicate(timeout=60)
    finally:
        if worker.poll() is None:
            worker.kill()
    assert worker.returncode == 0, output
    states = _states(url)
    assert "running" not in states  # nothing left leased by a worker that is gone
    assert states.get("done", 0) + states.get("pending", 0) == 1500
    assert states.get("pending", 0) > 0  # it stopped early instead of draining everything
    assert len(_facts(url)) == states["done"]


_DOOMED = textwrap.dedent(
    """
    import sys, time
    from userlore import Userlore
    from userlore.sources import ConnectedKnowledgePipeline

    lore = Userlore.open(sys.argv[1])
    lease = float(sys.argv[2]) if len(sys.argv) > 2 else 2.0
    worker = ConnectedKnowledgePipeline(lore.store, worker_id="doomed", lease_seconds=lease)
    claimed = worker.claim()
    print(len(claimed), flush=True)
    time.sleep(600)
    """
)


def test_kill_9_worker_items_are_finished_by_another_exactly_once(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = _url(backend, request, tmp_path)
    _seed(url, 40)
    script = tmp_path / "doomed.py"
    script.write_text(_DOOMED)
    # A half-second lease (it was 2 s): the items stay "running" whatever its length, and the
    # wait below for it to run out before the rescuer starts is that much shorter.
    child = subprocess.Popen(
        [sys.executable, str(script), url, "0.5"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "40"
        os.kill(child.pid, signal.SIGKILL)
        child.wait(10)
    finally:
        if child.poll() is None:
            child.kill()
    assert _states(url) == {"running": 40}
    time.sleep(0.6)  # the leases expire
    rescuer = _worker(url, tmp_path, "--once", "--worker-id", "rescuer")
    output, _ = rescuer.communicate(timeout=120)
    assert rescuer.returncode == 0, output
    assert _states(url) == {"done": 40}
    facts = _facts(url)
    assert len(facts) == 40 and {f.version for f in facts} == {1}


def test_kill_9_holder_with_a_long_lease_is_taken_over_at_once(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = _url(backend, request, tmp_path)
    _seed(url, 40)
    script = tmp_path / "doomed.py"
    script.write_text(_DOOMED)
    child = subprocess.Popen(
        [sys.executable, str(script), url, "600"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "40"
        # a live holder keeps its items: another worker on this host takes nothing
        idle = _worker(url, tmp_path, "--once", "--worker-id", "bystander")
        output, _ = idle.communicate(timeout=120)
        assert idle.returncode == 0 and "claimed=0" in output, output
        os.kill(child.pid, signal.SIGKILL)
        child.wait(10)
    finally:
        if child.poll() is None:
            child.kill()
    assert _states(url) == {"running": 40}  # ten minutes of lease left
    rescuer = _worker(url, tmp_path, "--once", "--worker-id", "rescuer", "--lease-seconds", "600")
    output, _ = rescuer.communicate(timeout=120)
    assert rescuer.returncode == 0, output
    assert "claimed=40" in output and "lost=0" in output, output
    assert _states(url) == {"done": 40}
    facts = _facts(url)
    assert len(facts) == 40 and {f.version for f in facts} == {1}
    lore = Userlore.open(url)
    with lore.store.transaction() as s:
        attempts = set(s.scalars(select(KnowledgeSourceItem.synthesis_attempts)))
    lore.close()
    assert attempts == {2}  # the dead holder's attempt, then the rescuer's: once each


_ENRICHING = textwrap.dedent(
    """
    import signal, sys, time
    from userlore import Userlore
    from userlore.sources import FactEnrichment

    class SlowModel:  # stands in for a chat model: the pipeline asks for structured output
        def with_structured_output(self, schema):
            return self

        def invoke(self, messages):
            print("enriching", flush=True)
            time.sleep(0.25)
            return FactEnrichment(summary=str(messages[-1].content)[:300])

    memory = {"mode": "auto", "sources": ["session", "curated", "connected"]}
    lore = Userlore.open(sys.argv[1], config={"memory": memory})
    coordinator = lore.sources.coordinator(
        model=SlowModel(), lease_seconds=600, interval_seconds=0.2
    )
    signal.signal(signal.SIGTERM, lambda *_: coordinator.stop(timeout=0))
    coordinator.run_forever()
    lore.close()
    print("stopped", flush=True)
    """
)


def test_sigterm_hands_an_enriching_workers_items_back_at_once(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = _url(backend, request, tmp_path)
    _seed(url, 60)  # one batch of 60 at 0.25 s per model call
    script = tmp_path / "enriching.py"
    script.write_text(_ENRICHING)
    child = subprocess.Popen([sys.executable, str(script), url], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        for _ in range(3):
            assert child.stdout.readline().strip() == "enriching"
        child.send_signal(signal.SIGTERM)
        output, _ = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 0 and output.strip().endswith("stopped"), output
    states = _states(url)
    assert "running" not in states  # nothing waits for a 600 s lease to run out
    assert states.get("pending", 0) > 0 and states.get("done", 0) + states["pending"] == 60
    assert len(_facts(url)) == states.get("done", 0)
    lore = Userlore.open(url)
    with lore.store.transaction() as s:
        released = set(
            s.scalars(
                select(KnowledgeSourceItem.synthesis_attempts).where(
                    KnowledgeSourceItem.synthesis_state == "pending"
                )
            )
        )
    lore.close()
    assert released == {0}  # handed back untried: the attempt is not counted
    rescuer = _worker(url, tmp_path, "--once", "--worker-id", "next")
    output, _ = rescuer.communicate(timeout=120)
    assert rescuer.returncode == 0, output
    assert _states(url) == {"done": 60}
    facts = _facts(url)
    assert len(facts) == 60 and {f.version for f in facts} == {1}


_KILLED_SYNC = textwrap.dedent(
    """
    import sys, time
    from datetime import UTC, datetime
    from userlore import Userlore
    from userlore.sources import PullResult, SourceItem

    class Trickle:
        kind = "memory"
        label = "trickle"
        source_instance_id = "trickle"

        def pull(self, cursor):
            def items():
                for i in range(100_000):
                    if i == 1:
                        print("pulling", flush=True)
                    time.sleep(0.01)
                    yield SourceItem(f"t{i}", f"Trickled note {i}.", occurred_at=datetime.now(UTC))
            return PullResult(items=items(), complete=True)

    memory = {"mode": "auto", "sources": ["session", "curated", "connected"]}
    lore = Userlore.open(sys.argv[1], config={"memory": memory})
    lore.sources.ingest("u1", Trickle(), synthesize=False)
    """
)


def test_a_sync_run_killed_mid_ingestion_is_marked_failed_on_the_next_sync(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = _url(backend, request, tmp_path)
    script = tmp_path / "killed_sync.py"
    script.write_text(_KILLED_SYNC)
    child = subprocess.Popen([sys.executable, str(script), url], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "pulling"
        os.kill(child.pid, signal.SIGKILL)
        child.wait(10)
    finally:
        if child.poll() is None:
            child.kill()
    lore = Userlore.open(url, config={"memory": CONNECTED})
    try:
        [killed] = lore.sources.sync_runs("u1")
        assert killed.status == "running"  # nobody could record the end of that run
        item = SourceItem("t0", "Trickled note 0.", occurred_at=datetime(2026, 1, 1, tzinfo=UTC))
        report = lore.sources.ingest("u1", ItemListSource("trickle", [item]))
        assert report.status == "succeeded" and report.counts.added == 1
        runs = {r.id: r for r in lore.sources.sync_runs("u1")}
        assert runs[report.run_id].status == "succeeded"
        abandoned = runs[killed.id]
        assert abandoned.status == "failed" and abandoned.finished_at is not None
        assert abandoned.error == "abandoned: the process running this sync is gone"
        assert len(_facts(url)) == 1
    finally:
        lore.close()
