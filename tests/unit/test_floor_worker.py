"""The floor's worker process: the same verdicts, never a lost one (issue 30, bulk puts).

A real child process (``python -m userlore.policy.floor_worker``, one per module) classifies
the gate sets beside the caller; a scripted stand-in for it (:class:`Scripted`) drives the
sharing loop through the orders a real child only shows by chance (late replies, a death in the
middle); the store puts a large batch with the worker on.
"""

from __future__ import annotations

import logging
import os
import signal
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from langgraph.store.base import PutOp

from tests.unit.test_batch_floor import TEXTS, _candidate
from userlore import Userlore
from userlore.errors import PolicyViolationError
from userlore.integrations.langgraph_store import UserloreStore
from userlore.policy import floor_worker
from userlore.policy.floor_worker import FloorWorker, WorkerError, share
from userlore.policy.govern import BatchFloor, assess
from userlore.policy.key_shapes import key_shape
from userlore.policy.sensitivity import SensitivityReport, classify


def _one(text: str, special: bool) -> SensitivityReport:
    return classify(text, special=special)


WORK = [(t, True) for t in TEXTS] + [(t[:80], False) for t in TEXTS]
WORK = list(dict.fromkeys(WORK))


@pytest.fixture(scope="module")
def worker() -> Iterator[FloorWorker]:
    child = FloorWorker()
    child.start()
    import time

    deadline = time.monotonic() + floor_worker.START_TIMEOUT
    while not child.claim():  # it builds its tables first
        assert time.monotonic() < deadline and not child._broken
        time.sleep(0.05)
    child.release()
    yield child
    child.close()


def test_a_real_child_gives_the_callers_verdicts(worker: FloorWorker) -> None:
    before = worker.shared
    assert worker.claim()
    try:
        reports = share(WORK, _one, worker)
    finally:
        worker.release()
    assert reports == {item: _one(*item) for item in WORK}
    assert worker.shared - before >= 2 * floor_worker.PIECE  # the child did take pieces
    assert sum(bool(r.findings) for r in reports.values()) > 400


def test_replies_sent_together_are_each_seen(worker: FloorWorker) -> None:
    # Pieces sent back to back reach the child at once, and their replies the caller at once:
    # with buffered pipes select() saw only the first of them (a bug this test caught).
    assert worker.claim()
    try:
        seqs = [worker.send(WORK[i : i + 3]) for i in (0, 3, 6)]
        replies = [worker.poll(60) for _ in seqs]
    finally:
        worker.release()
    assert [r[0] for r in replies if r is not None] == seqs
    assert [r[1] for r in replies if r is not None] == [
        [_one(*item) for item in WORK[i : i + 3]] for i in (0, 3, 6)
    ]


def test_batch_floor_shares_with_the_worker(
    worker: FloorWorker, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(floor_worker, "shared_worker", lambda: worker)
    monkeypatch.setattr("userlore.policy.govern.shared_worker", lambda: worker)
    candidates = [_candidate(t, f"k{n}") for n, t in enumerate(TEXTS)]
    before = worker.shared
    floor = BatchFloor()
    floor.warm(candidates)
    assert worker.shared > before
    assert [floor.assess(c) for c in candidates] == [assess(c) for c in candidates]


class Scripted:
    """A stand-in child: answers each piece after ``delay`` polls, dies at ``die_at`` sends."""

    def __init__(self, delay: int = 0, die_at: int | None = None, answer: bool = True) -> None:
        self.delay, self.die_at, self.answer = delay, die_at, answer
        self.queue: list[tuple[int, list[tuple[str, bool]], int]] = []
        self.seq = 0
        self.shared = 0
        self.dropped: set[int] = set()
        self.failed: BaseException | None = None

    def send(self, piece: list[tuple[str, bool]]) -> int:
        self.seq += 1
        if self.die_at is not None and self.seq >= self.die_at:
            raise BrokenPipeError("the child is gone")
        self.queue.append((self.seq, piece, self.delay))
        return self.seq

    def poll(self, timeout: float) -> tuple[int, list[SensitivityReport]] | None:
        if not self.queue or not self.answer:
            return None
        seq, piece, wait = self.queue[0]
        if wait > 0:
            self.queue[0] = (seq, piece, wait - 1)
            return None
        self.queue.pop(0)
        if seq in self.dropped:
            return self.poll(timeout)
        return seq, [_one(*item) for item in piece]

    def drop(self, seq: int) -> None:
        self.dropped.add(seq)

    def fail(self, exc: BaseException) -> None:
        self.failed = exc


@pytest.mark.parametrize(
    "child",
    [
        Scripted(),  # answers at once
        Scripted(delay=40),  # slow: the caller does most, then its pieces' tails
        Scripted(answer=False),  # never answers: the caller does all and drops every piece
        Scripted(die_at=4),  # dies on its fourth piece
    ],
    ids=["prompt", "slow", "silent", "dies"],
)
def test_every_item_is_classified_once_whatever_the_child_does(child: Scripted) -> None:
    work = WORK[:400]
    calls: list[tuple[str, bool]] = []

    def counted(text: str, special: bool) -> SensitivityReport:
        calls.append((text, special))
        return _one(text, special)

    reports = share(work, counted, child)  # type: ignore[arg-type]
    assert reports == {item: _one(*item) for item in work}
    assert len(calls) == len(set(calls))  # the caller never classifies an item twice
    assert child.shared + len(calls) >= len(work)
    if child.die_at is not None:
        assert isinstance(child.failed, BrokenPipeError)
    if not child.answer:
        assert child.shared == 0 and child.dropped == set(range(1, child.seq + 1))


def test_a_child_that_dies_is_counted_and_the_batch_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    child = FloorWorker()
    child.start()
    import time

    while not child.claim():
        assert not child._broken
        time.sleep(0.05)
    assert child._proc is not None
    os.kill(child._proc.pid, signal.SIGKILL)
    child._proc.wait()
    failures = floor_worker.stats()["failures"]
    with caplog.at_level(logging.WARNING, logger="userlore.policy.floor_worker"):
        reports = share(WORK[:300], _one, child)
    child.release()
    assert reports == {item: _one(*item) for item in WORK[:300]}
    assert floor_worker.stats()["failures"] == failures + 1
    assert "worker process failed" in caplog.text
    assert not child.claim()  # broken: the next batches classify alone


def test_an_idle_child_is_retired_and_replaced(worker: FloorWorker) -> None:
    old = worker.pid
    worker._used -= floor_worker.IDLE_EXIT  # as if unused for ten minutes
    assert not worker.claim()  # retired: this batch classifies alone
    assert worker.pid is not None and worker.pid != old and not worker._broken
    import time

    deadline = time.monotonic() + floor_worker.START_TIMEOUT
    while not worker.claim():  # the new one builds its tables, then takes work
        assert time.monotonic() < deadline and not worker._broken
        time.sleep(0.05)
    try:
        assert share(WORK[:300], _one, worker) == {item: _one(*item) for item in WORK[:300]}
    finally:
        worker.release()


def test_a_child_that_cannot_start_is_never_claimed() -> None:
    child = FloorWorker(python="/bin/false")
    child.start()
    assert child._proc is not None
    child._proc.wait()
    assert not child.claim()
    assert child._broken


def test_a_malformed_reply_fails_the_child() -> None:
    class Garbled(Scripted):
        def poll(self, timeout: float) -> tuple[int, list[SensitivityReport]] | None:
            if not self.queue:
                return None
            seq, piece, _ = self.queue.pop(0)
            return seq, [_one(*piece[0])]  # one report for a whole piece

    child = Garbled()
    reports = share(WORK[:200], _one, child)  # type: ignore[arg-type]
    assert reports == {item: _one(*item) for item in WORK[:200]}
    assert isinstance(child.failed, WorkerError)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork")
def test_a_forked_child_does_not_feed_its_parents_worker(
    worker: FloorWorker, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(floor_worker, "_SHARED", worker)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the forked child: the worker is forgotten, its pipes closed here only
        ok = floor_worker._SHARED is None and worker._proc is None
        os.write(write, b"1" if ok else b"0")
        os._exit(0)
    os.waitpid(pid, 0)
    assert os.read(read, 1) == b"1"
    os.close(read)
    os.close(write)
    assert worker.claim()  # still the parent's, and still answering
    try:
        assert share(WORK[:300], _one, worker) == {item: _one(*item) for item in WORK[:300]}
    finally:
        worker.release()


def test_off_unless_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("USERLORE_FLOOR_WORKER")
    assert not floor_worker.enabled()
    monkeypatch.setenv("USERLORE_FLOOR_WORKER", "0")
    assert not floor_worker.enabled() and floor_worker.shared_worker() is None
    monkeypatch.setenv("USERLORE_FLOOR_WORKER", "1")
    assert floor_worker.enabled() is ((os.cpu_count() or 1) > 1 and os.name == "posix")


def test_a_store_batch_with_the_worker(
    worker: FloorWorker,
    monkeypatch: pytest.MonkeyPatch,
    make_lore: Callable[..., Userlore],
    tmp_path: Path,
) -> None:
    monkeypatch.setattr("userlore.policy.govern.shared_worker", lambda: worker)
    lore = make_lore("auto", f"sqlite:///{tmp_path / 'w.db'}")
    store = UserloreStore(lore, namespace_template=("{user_id}", "notes"))
    texts = [t for t in TEXTS if not classify(t).findings and not any(c.isdigit() for c in t)]
    texts = texts[:300]
    assert len(texts) * 2 >= floor_worker.MIN_TEXTS  # contents and keys: a shared batch
    before = worker.shared
    # Keys no shape answers (uuids in capitals: no generated-id kind, many digit runs), so the
    # keys go to the worker too.
    keys = [str(uuid.uuid5(uuid.NAMESPACE_OID, str(i))).upper() for i in range(len(texts))]
    assert not any(key_shape(f"store:notes#{k}") for k in keys)
    store.batch([PutOp(("u1", "notes"), k, {"text": t}) for k, t in zip(keys, texts, strict=True)])
    assert worker.shared > before
    assert len(store.search(("u1", "notes"), limit=1000)) == len(texts)
    # A refused put among many still refuses the whole batch before anything is written.
    secret = "my password is Tr0ub4dor&3xK9"
    ops = [PutOp(("u2", "notes"), f"k{i}", {"text": t}) for i, t in enumerate(texts)]
    ops.insert(150, PutOp(("u2", "notes"), "bad", {"text": secret}))
    with pytest.raises(PolicyViolationError):
        store.batch(ops)
    assert store.search(("u2", "notes"), limit=10) == []


def test_the_shared_worker_starts_its_child_on_a_claim_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # One way to start the child (tidy20): a batch's claim, the first one's and a retired
    # child's successor's alike; shared_worker() only hands out the process's worker.
    monkeypatch.setattr(floor_worker, "_SHARED", None)
    monkeypatch.setattr(floor_worker, "enabled", lambda: True)
    monkeypatch.setattr(floor_worker.atexit, "register", lambda *_: None)
    worker = floor_worker.shared_worker()
    assert worker is not None and worker.pid is None
    assert floor_worker.shared_worker() is worker
    worker._python = "/bin/false"  # a child that exits at once: the claim starts it, no more
    assert not worker.claim()
    assert worker.pid is not None
    worker.close()
