"""A second process for the floor of a large batch (issue 30: bulk puts at batch speed).

:func:`~userlore.policy.sensitivity.classify` is pure Python and pure of its text, and a
thread cannot run it beside another (the GIL; bulkput15 measured a writer thread starved).
A batch of hundreds of puts can share its texts with one child process instead: the caller
classifies texts from the front of the list while the child takes pieces from the back, so the
floor of the batch takes about half the wall time on two cores. The verdicts are the same
function's, in the same code (``tests/unit/test_floor_worker.py`` compares them).

The child is ``python -m userlore.policy.floor_child``, started by :mod:`subprocess` (no
``multiprocessing``: no fork of a threaded process, no re-import of the caller's
``__main__``), fed length-prefixed pickles over its stdin and stdout, and ends when its stdin
closes or it has had no work for :data:`IDLE_EXIT` seconds. It is started on the first batch of
at least :data:`MIN_TEXTS` texts and builds its tables (:func:`~userlore.policy.warm.warm`)
before it takes work; until then, and whenever it
fails, the caller classifies everything itself: a worker can only make a batch faster, never
lose or change a verdict. A piece the child is slow to answer is classified by the caller too
(its answer is then dropped), so a batch never waits on the child longer than it would take
alone.

It is opt-in: ``USERLORE_FLOOR_WORKER=1`` turns it on (a library should not start a process
its user did not ask for); it stays off where ``os.cpu_count()`` is 1 and on platforms without
``select`` on pipes (Windows). Measured (``benchmarks/floor_worker.py``, quiet, 10,000 puts):
1.32x the items per wall second, the same items per CPU second. It costs a second
interpreter holding the floor's tables (~500 MB resident, as the caller's own), only in
processes that put large batches and only while they do.
"""

from __future__ import annotations

import atexit
import logging
import os
import pickle
import select
import struct
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Final

from userlore.policy.sensitivity import SensitivityReport

__all__ = [
    "MIN_TEXTS",
    "Classify",
    "FloorWorker",
    "Work",
    "read_frame",
    "share",
    "shared_worker",
    "stats",
    "write_frame",
]

_LOG = logging.getLogger(__name__)

Work = tuple[str, bool]
"""One text to classify and its ``special`` flag."""
Classify = Callable[[str, bool], SensitivityReport]

MIN_TEXTS: Final = 256
"""Texts to classify below which a batch is not shared (a chat turn, a small put)."""
PIECE: Final = 32
"""Texts a piece: ~5 ms of the child's work, a few KB of pipe."""
IN_FLIGHT: Final = 2
"""Pieces sent ahead, so the child never waits on the caller between two."""
START_TIMEOUT: Final = 120.0
"""Seconds the child may take to start and build its tables before it is given up."""
IDLE_EXIT: Final = 600.0
"""Seconds without work after which the child exits (its memory back to the machine); the
caller retires it a little earlier (:data:`_RETIRE`) and starts a new one on its next batch."""
_RETIRE: Final = IDLE_EXIT - 60.0

_HEADER: Final = struct.Struct("!I")
READY: Final = "ready"
"""The child's first frame's body: its tables are built."""


class WorkerError(RuntimeError):
    """The child broke the protocol, died or failed: the caller classifies alone."""


class FloorWorker:
    """One child process that classifies pieces of a batch (see the module docstring).

    Thread-safe: one batch shares it at a time (:meth:`claim`); a batch that finds it busy,
    starting or broken classifies alone.
    """

    def __init__(self, python: str | None = None) -> None:
        self._python = python or sys.executable
        self._proc: subprocess.Popen[bytes] | None = None
        self._ready = False
        self._broken = False
        self._started = 0.0
        self._lock = threading.Lock()
        self._seq = 0
        self._used = 0.0
        self._stale: set[int] = set()
        self.shared = 0
        """Texts the child classified for a caller (a counter for tests and benchmarks)."""

    @property
    def pid(self) -> int | None:
        """The child's process id while it runs (benchmarks read its CPU time)."""
        return None if self._proc is None else self._proc.pid

    def start(self) -> None:
        """Start the child (it builds its tables first; :meth:`claim` waits for none of it)."""
        if self._proc is not None or self._broken:
            return
        env = dict(os.environ, USERLORE_FLOOR_WORKER="0", PYTHONUNBUFFERED="1")
        self._proc = subprocess.Popen(
            [self._python, "-m", "userlore.policy.floor_child"],
            bufsize=0,  # raw pipes: select() sees every byte not yet read
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            close_fds=True,
        )
        self._started = time.monotonic()

    def claim(self) -> bool:
        """Take the child for one batch if it is started, ready and free (never waits).

        The caller must :meth:`release` it after.
        """
        if self._broken or not self._lock.acquire(blocking=False):
            return False
        try:
            if self._proc is not None and self._ready and time.monotonic() - self._used > _RETIRE:
                self.close()  # idle: a fresh child for the next batch, not this one
            if self._proc is None:
                self.start()
            elif not self._ready:
                if self._readable(0):
                    if self._receive() != (0, READY):
                        raise WorkerError("the child did not start as expected")
                    self._ready = True
                elif time.monotonic() - self._started > START_TIMEOUT:
                    raise WorkerError(f"the child did not start in {START_TIMEOUT:.0f} s")
        except (WorkerError, OSError, EOFError, pickle.UnpicklingError) as exc:
            self.fail(exc)
        if not self._ready or self._broken:
            self._lock.release()
            return False
        self._used = time.monotonic()
        return True

    def release(self) -> None:
        """Give the child back after :meth:`claim`."""
        self._used = time.monotonic()
        self._lock.release()

    def send(self, piece: list[Work]) -> int:
        """Send a piece; its sequence number (its reply carries it)."""
        assert self._proc is not None and self._proc.stdin is not None
        self._seq += 1
        write_frame(self._proc.stdin.fileno(), (self._seq, piece))
        return self._seq

    def poll(self, timeout: float) -> tuple[int, list[SensitivityReport]] | None:
        """The next reply that is not stale, if one comes within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while self._readable(max(0.0, deadline - time.monotonic())):
            seq, reports = self._receive()
            if seq in self._stale:
                self._stale.discard(seq)
                continue
            if not isinstance(reports, list):
                raise WorkerError(f"the child failed: {reports}")
            return seq, reports
        return None

    def drop(self, seq: int) -> None:
        """Forget a piece the caller classified itself: its reply, when it comes, is skipped."""
        self._stale.add(seq)

    def fail(self, exc: BaseException) -> None:
        """Stop using the child after ``exc`` (logged and counted; the caller goes on alone)."""
        global _FAILURES
        _FAILURES += 1
        self._broken = True
        _LOG.warning("userlore: the floor's worker process failed, classifying in process: %s", exc)
        self.close()

    def close(self) -> None:
        """End the child (its stdin closes; killed if it does not exit)."""
        proc, self._proc, self._ready = self._proc, None, False
        if proc is None:
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()
            proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()

    def _readable(self, timeout: float) -> bool:
        assert self._proc is not None and self._proc.stdout is not None
        return bool(select.select([self._proc.stdout], [], [], timeout)[0])

    def _receive(self) -> tuple[int, object]:
        assert self._proc is not None and self._proc.stdout is not None
        message = read_frame(self._proc.stdout.fileno())  # our own child's
        if not (isinstance(message, tuple) and len(message) == 2 and isinstance(message[0], int)):
            raise WorkerError("the child sent a malformed reply")
        return message[0], message[1]


def share(
    work: Sequence[Work], classify: Classify, worker: FloorWorker
) -> dict[Work, SensitivityReport]:
    """Every item of ``work`` classified once, by the caller and by ``worker`` (claimed).

    The caller takes items from the front; the child is sent pieces from the back, two ahead.
    When the caller has nothing left but the pieces in flight, it takes their items too, piece
    by piece from the newest, and drops each piece it finished; any reply that comes first is
    used. A failure of the child on the way leaves its items to the caller.
    """
    done: dict[Work, SensitivityReport] = {}
    todo = deque(work)
    flying: dict[int, list[Work]] = {}
    alive = True

    def send_piece() -> None:
        piece = [todo.pop() for _ in range(min(PIECE, len(todo)))]
        piece.reverse()
        flying[worker.send(piece)] = piece

    def take(reply: tuple[int, list[SensitivityReport]]) -> None:
        seq, reports = reply
        piece = flying.pop(seq, None)
        if piece is None or len(piece) != len(reports):
            raise WorkerError("the child answered a piece it was not sent")
        for item, report in zip(piece, reports, strict=True):
            done.setdefault(item, report)
        worker.shared += len(piece)

    try:
        while len(flying) < IN_FLIGHT and len(todo) > PIECE:
            send_piece()
        while todo:
            item = todo.popleft()
            done[item] = classify(*item)
            reply = worker.poll(0)
            if reply is not None:
                take(reply)
                if len(todo) > PIECE:
                    send_piece()
        while flying:
            reply = worker.poll(0)
            if reply is not None:
                take(reply)
                continue
            seq = max(flying)  # the newest: the child answers the oldest first
            piece = flying[seq]
            for item in piece:
                if item not in done:
                    done[item] = classify(*item)
                reply = worker.poll(0)
                if reply is not None:
                    take(reply)
                    if seq not in flying:
                        break
            if seq in flying:
                del flying[seq]
                worker.drop(seq)
    except (WorkerError, OSError, EOFError, pickle.UnpicklingError) as exc:
        alive = False
        worker.fail(exc)
    finally:
        for seq in flying:  # left by a failure (ours or the child's): never read as another's
            worker.drop(seq)
    if not alive:
        for item in work:
            if item not in done:
                done[item] = classify(*item)
    return done


_SHARED: FloorWorker | None = None
_SHARED_LOCK = threading.Lock()
_FAILURES = 0


def enabled() -> bool:
    """Whether this process may start the worker (``USERLORE_FLOOR_WORKER``, cores, OS)."""
    setting = os.environ.get("USERLORE_FLOOR_WORKER", "0").strip().lower()
    if setting not in {"1", "true", "yes", "on"}:
        return False
    return os.name == "posix" and (os.cpu_count() or 1) > 1


def shared_worker() -> FloorWorker | None:
    """This process's worker (``None`` where it is off); its child starts on the first
    :meth:`~FloorWorker.claim`, as a retired one's successor does."""
    global _SHARED
    if not enabled():
        return None
    with _SHARED_LOCK:
        if _SHARED is None:
            _SHARED = FloorWorker()
            atexit.register(_SHARED.close)
        return _SHARED


def _forget_after_fork() -> None:
    """In a forked child of this process: the parent's worker is not ours to feed (two writers
    on one pipe would mix their frames), so drop its pipes; a large batch here starts its own."""
    global _SHARED, _SHARED_LOCK
    worker, _SHARED, _SHARED_LOCK = _SHARED, None, threading.Lock()
    if worker is not None and worker._proc is not None:
        for pipe in (worker._proc.stdin, worker._proc.stdout):
            if pipe is not None:
                pipe.close()
        worker._proc = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_after_fork)


def stats() -> dict[str, int]:
    """Texts the shared worker classified and the workers that failed, in this process."""
    return {"shared": 0 if _SHARED is None else _SHARED.shared, "failures": _FAILURES}


def read_frame(fd: int) -> object:
    """One length-prefixed pickle from ``fd`` (raw: nothing is buffered past it)."""
    (size,) = _HEADER.unpack(_read_exactly(fd, _HEADER.size))
    return pickle.loads(_read_exactly(fd, size))


def _read_exactly(fd: int, size: int) -> bytes:
    chunks: list[bytes] = []
    while size:
        data = os.read(fd, size)
        if not data:
            raise EOFError("the other side closed the pipe")
        chunks.append(data)
        size -= len(data)
    return b"".join(chunks)


def write_frame(fd: int, message: object) -> None:
    body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(_HEADER.pack(len(body)) + body)
    while view:
        view = view[os.write(fd, view) :]
