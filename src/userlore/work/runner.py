"""An in-process background runner for apps without a ``userlore worker``.

Jobs wait in a bounded in-memory queue and run on one daemon thread, never on the user's turn.
A full queue hands the job to the durable table instead (counted as ``queue_overflows``), so
submitting never blocks and never drops. Reviews go to the table, so a queued review survives
a restart (when another process holds SQLite's write lock, the turn does not wait: the thread
stores the review first); the runner drains the table too (with leases: several processes may run
one each). The thread starts on the first submit and ends after a few idle seconds.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from typing import TYPE_CHECKING, Literal

from userlore.feedback.metrics import TURN_HEALTH
from userlore.work.jobs import OBSERVE, REVIEW, Job, mode_mismatch, run_job, transient
from userlore.work.queue import ClaimedJob, WorkQueue

if TYPE_CHECKING:
    from userlore.extract.reviewer import LLMReviewer
    from userlore.facade import Userlore

__all__ = ["DEFAULT_MAX_QUEUED", "Submitted", "WorkRunner"]

log = logging.getLogger(__name__)

DEFAULT_MAX_QUEUED = 256
Submitted = Literal["queued", "stored", "known"]


class WorkRunner:
    """Runs handed-off jobs: the in-memory queue first, then due jobs of the durable table.

    Args:
        lore: Where jobs write.
        reviewer: Runs ``review`` jobs; without one the runner leaves them to a worker that has.
        max_queued: In-memory queue bound; beyond it jobs go to the durable table.
        poll_seconds: How often an idle runner looks at the table.
        idle_seconds: How long the thread stays with nothing to do before it ends
            (``math.inf``: never, for a worker process).
        queue: The durable queue (default: over ``lore``'s database).
    """

    def __init__(
        self,
        lore: Userlore,
        *,
        reviewer: LLMReviewer | None = None,
        max_queued: int = DEFAULT_MAX_QUEUED,
        poll_seconds: float = 1.0,
        idle_seconds: float = 5.0,
        queue: WorkQueue | None = None,
    ) -> None:
        self.lore = lore
        self.reviewer = reviewer
        self.queue = queue or WorkQueue(lore.memory.store)
        self.max_queued = max_queued
        self.poll_seconds = poll_seconds
        self.idle_seconds = idle_seconds
        self._pending: deque[tuple[Job, bool]] = deque()  # (job, store it durably first)
        self._cond = threading.Condition()
        self._busy = 0
        self._thread: threading.Thread | None = None
        self._closed = False
        self.queue.store.on_close(self.close)  # lore.close() stops this runner first

    @property
    def kinds(self) -> tuple[str, ...]:
        """The job kinds this runner can run."""
        return (OBSERVE, REVIEW) if self.reviewer is not None else (OBSERVE,)

    # -- submitting ---------------------------------------------------------------------------

    def submit(self, job: Job, *, durable: bool = False) -> Submitted:
        """Hand ``job`` off without running it: ``queued`` in memory, ``stored`` in the table,
        or ``known`` (the table already has that job). Never waits for the job, nor (on the
        turn) for another process's write lock unless the in-memory queue is full too.

        Raises:
            StorageError: the durable table could not take the job (the caller decides).
        """
        runnable = job.kind in self.kinds
        if durable and runnable:
            stored = self.queue.enqueue(job, wait=False)
            if stored is not None:
                self._wake()
                return "stored" if stored else "known"
            # Another process holds SQLite's write lock: the thread stores the job first.
            if self._hold(job, persist=True):
                return "queued"
        elif runnable:
            if self._hold(job, persist=False):
                return "queued"
            TURN_HEALTH.count("queue_overflows")
            log.warning("in-process work queue full: %s job goes to the durable table", job.kind)
        stored = self.queue.enqueue(job)
        if runnable:
            self._wake()
        return "stored" if stored else "known"

    def _hold(self, job: Job, *, persist: bool) -> bool:
        """Put ``job`` in the in-memory queue unless it is full or the runner is closed."""
        with self._cond:
            if self._closed or len(self._pending) >= self.max_queued:
                return False
            self._pending.append((job, persist))
            self._start()
            self._cond.notify_all()
            return True

    def _wake(self) -> None:
        with self._cond:
            if not self._closed:
                self._start()
                self._cond.notify_all()

    # -- running ------------------------------------------------------------------------------

    def run_pending(self, limit: int = 100) -> int:
        """Run the in-memory jobs, then up to ``limit`` due jobs of the table; how many ran."""
        ran = 0
        while True:
            with self._cond:
                if not self._pending:
                    break
                job, persist = self._pending.popleft()
                self._busy += 1
            try:
                if persist:
                    self._store(job)  # it runs below, from the table, like every durable job
                else:
                    self._run_held(job)
                    ran += 1
            finally:
                self._done()
        with self._cond:
            self._busy += 1
        try:
            claimed = self.queue.claim(limit, kinds=self.kinds)
            ran += sum(self._run_claimed(c) for c in claimed)
        finally:
            self._done()
        return ran

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Block until nothing is queued in memory, running, or due in the table (tests,
        shutdown); ``False`` if ``timeout`` passed first."""
        deadline = time.monotonic() + timeout
        while True:
            with self._cond:
                while self._pending or self._busy:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        return False
                    self._cond.wait(left)
            if self.run_pending() == 0:
                with self._cond:
                    # Nothing was due for us; the thread may hold what it claimed first.
                    if not self._pending and not self._busy:
                        return True
            if time.monotonic() >= deadline:
                return False

    def close(self, timeout: float = 30.0) -> bool:
        """Run what is queued in memory, then stop the thread; later submits go to the table."""
        idle = self.wait_idle(timeout)
        with self._cond:
            self._closed = True
            self._cond.notify_all()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
        return idle

    def start(self) -> None:
        """Start the thread now (it also starts on the first submit): a worker process, or an
        app that should pick up jobs a previous run left in the table."""
        with self._cond:
            self._closed = False
            self._start()

    # -- internals ----------------------------------------------------------------------------

    def _start(self) -> None:
        if self._thread is None:  # under self._cond
            self._thread = threading.Thread(target=self._loop, name="userlore-work", daemon=True)
            self._thread.start()

    def _done(self) -> None:
        with self._cond:
            self._busy -= 1
            self._cond.notify_all()

    def _loop(self) -> None:
        idle_since = time.monotonic()
        while True:
            try:
                ran = self.run_pending()
            except Exception:  # the table is unreachable: keep the thread, try again later
                log.warning("work runner could not read the durable queue; retrying")
                ran = 0
            now = time.monotonic()
            if ran:
                idle_since = now
            with self._cond:
                if self._closed or (not self._pending and now - idle_since >= self.idle_seconds):
                    self._thread = None
                    return
                if not self._pending:
                    self._cond.wait(self.poll_seconds)

    def _store(self, job: Job) -> None:
        """Store a durable job the turn could not store without waiting."""
        try:
            self.queue.enqueue(job)
        except Exception:
            TURN_HEALTH.count("write_failures")
            log.error("%s job could not be stored durably: lost", job.kind)

    def _run_held(self, job: Job) -> None:
        """Run an in-memory job; a transient failure moves it to the table for a retry."""
        try:
            run_job(self.lore, job, self.reviewer)
        except Exception as exc:
            TURN_HEALTH.count("job_failures")
            if not transient(exc):
                log.warning("%s job refused: %s", job.kind, type(exc).__name__)
                return
            try:
                self.queue.enqueue(job)
                TURN_HEALTH.count("job_retries")
                log.warning("%s job failed (%s); queued durably", job.kind, type(exc).__name__)
            except Exception:
                TURN_HEALTH.count("write_failures")
                log.error("%s job failed and could not be queued: lost", job.kind)

    def _run_claimed(self, claimed: ClaimedJob) -> bool:
        """Run one claimed job; ``False`` when it was left for a worker of its mode."""
        refused = mode_mismatch(self.lore, claimed.job)
        if refused is not None:
            # Left pending, attempt not counted: a worker started with the job's mode runs it.
            self.queue.release([claimed])
            TURN_HEALTH.count("mode_mismatches")
            log.warning("%s: left pending (run a worker with that --mode)", refused)
            return False
        try:
            run_job(self.lore, claimed.job, self.reviewer)
        except Exception as exc:
            TURN_HEALTH.count("job_failures")
            retry = transient(exc)
            if retry:
                TURN_HEALTH.count("job_retries")
            log.warning("%s job %s failed: %s", claimed.job.kind, claimed.id, type(exc).__name__)
            self.queue.fail(claimed, type(exc).__name__, retry=retry)
            return True
        self.queue.complete(claimed)
        return True
