"""The floor of a large batch of puts in worker processes, beside the write (issue 30, item 5).

``classify`` is pure Python (the GIL holds it), so threads cannot run it beside the write; a
worker process can. A batch of at least :data:`POOL_MIN` puts sends the texts the floor will
read (each put's content, its value JSON when the floor reads it, its store key and path) to
``floor_workers`` forked processes, in parts, and the write of the first parts starts while
the workers judge the rest (see ``UserloreStore.batch``). The verdicts are the floor's own:
:class:`PooledFloor` is :class:`~userlore.policy.govern.BatchFloor` whose memo is filled with
``classify``'s reports computed in the workers (a pure function of its text), and any text the
workers were not asked about, or a worker that failed, is classified here as before.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from userlore.models import CandidateInput
from userlore.policy.govern import BatchFloor, value_is_content
from userlore.policy.sensitivity import SensitivityReport, classify

__all__ = ["POOL_MIN", "FloorPool", "PooledFloor", "floor_texts"]

POOL_MIN = 200
"""Fewest puts in one ``batch`` call for which the floor goes to the worker processes."""
PART = 50
"""Puts a worker judges per job (the main process waits on at most one part at a time)."""

_WARM = (
    "Hello there, I live in Paris and walk my dog every morning.",
    "My passcode is 4417, je suis diabétique, 我的密码是 hunter2: call me.",
)
"""Texts that reach the rules loaded on first use (plain prose, digits, other languages)."""

Text = tuple[str, bool]
"""A text the floor classifies, and whether with the special-category rules."""


def _classify_part(texts: Sequence[Text]) -> tuple[list[SensitivityReport], float]:
    """In a worker: ``classify`` of each text, and the CPU seconds it took."""
    start = time.process_time()
    reports = [classify(text, special=special) for text, special in texts]
    return reports, time.process_time() - start


def floor_texts(candidate: CandidateInput) -> list[Text]:
    """What :func:`~userlore.policy.govern.assess` classifies for a store put (a prediction:
    a text left out is classified in the main process, so a wrong guess costs time only)."""
    texts: list[Text] = [(candidate.content, True)]
    if candidate.value and not value_is_content(candidate.value, candidate.content):
        texts.append((candidate.value, True))
    for key in (candidate.canonical_key, candidate.path):
        if key:
            texts.append((key, False))
    return texts


class FloorPool:
    """``workers`` forked processes that run ``classify``; started on first use."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._executor: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self.worker_cpu = 0.0
        """CPU seconds the workers spent classifying (the benchmark adds it to its own)."""

    @staticmethod
    def available() -> bool:
        """Whether this platform can fork workers that inherit the loaded rules (a spawned
        worker would import them again: seconds of CPU a process)."""
        return "fork" in multiprocessing.get_all_start_methods() and os.name == "posix"

    def submit(self, texts: Sequence[Text]) -> Future[tuple[list[SensitivityReport], float]]:
        """Classify ``texts`` in a worker."""
        with self._lock:
            for _ in range(2):
                if self._executor is None:
                    # Rules that load on first use load here, once, before the fork: each
                    # worker inherits them instead of loading its own copy.
                    for text in _WARM:
                        classify(text, special=True)
                    self._executor = ProcessPoolExecutor(
                        max_workers=self.workers, mp_context=multiprocessing.get_context("fork")
                    )
                try:
                    return self._executor.submit(_classify_part, list(texts))
                except BrokenProcessPool:  # a worker died (killed, out of memory): new ones
                    self._executor.shutdown(wait=False, cancel_futures=True)
                    self._executor = None
            raise BrokenProcessPool("the floor's workers cannot start")

    def close(self) -> None:
        """Stop the workers (a later batch starts them again)."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)


@dataclass(slots=True)
class PooledFloor(BatchFloor):
    """:class:`BatchFloor` whose memo the worker processes fill, part by part.

    :meth:`send` queues the floor's texts of some candidates; :meth:`classify` (what
    :meth:`BatchFloor.assess` calls) takes a queued text's report from its part and classifies
    any other text here. While a part it needs is not back, the main process takes back the
    last parts no worker has started and classifies them itself, so both cores judge.
    """

    pool: FloorPool | None = None
    _queued: dict[Text, int] = field(default_factory=dict)
    _parts: list[tuple[list[Text], Future[tuple[list[SensitivityReport], float]]]] = field(
        default_factory=list
    )
    _tail: int = 0
    """Parts from here on were taken back and judged here (or are back from a worker)."""

    def send(self, candidates: Sequence[CandidateInput]) -> None:
        """Queue the texts the floor will read for ``candidates``, :data:`PART` puts a job."""
        assert self.pool is not None
        for at in range(0, len(candidates), PART):
            texts: list[Text] = []
            for candidate in candidates[at : at + PART]:
                for text in floor_texts(candidate):
                    if text not in self._queued and text not in self._memo:
                        self._queued[text] = len(self._parts)
                        texts.append(text)
            if not texts:
                continue
            try:
                future = self.pool.submit(texts)
            except Exception:  # no worker can start: these texts are classified here
                for text in texts:
                    del self._queued[text]
                continue
            self._parts.append((texts, future))
        self._tail = len(self._parts)

    def classify(self, text: str, *, special: bool = True) -> SensitivityReport:
        """:func:`classify`, from the workers when the text was sent, else here; once each."""
        key = (text, special)
        report = self._memo.get(key)
        if report is not None:
            return report
        part = self._queued.pop(key, None)
        if part is not None:
            self._collect(part)
            report = self._memo.get(key)
            if report is not None:
                return report
        return BatchFloor.classify(self, text, special=special)

    def _collect(self, part: int) -> None:
        texts, future = self._parts[part]
        while not future.done() and self._steal(part):
            pass  # while the part is not back, the main process judges the last queued ones
        if future.cancel():  # no worker has started it either: judged here
            self._fill(texts, [classify(t, special=special) for t, special in texts])
            return
        try:
            reports, cpu = future.result()
        except Exception:  # a worker died, the part was taken back or the pool shut down
            return
        assert self.pool is not None
        self.pool.worker_cpu += cpu
        self._fill(texts, reports)

    def _steal(self, waiting: int) -> bool:
        """Classify here the last part no worker has started (cancelled first); ``False``
        when there is none left after ``waiting`` (every later part runs or is back)."""
        while self._tail > waiting:
            self._tail -= 1
            texts, future = self._parts[self._tail]
            if future.cancel():
                self._fill(texts, [classify(t, special=special) for t, special in texts])
                return True
            if not future.done():
                self._tail += 1  # a worker runs it, so every part before it started too
                return False
        return False

    def _fill(self, texts: Sequence[Text], reports: Sequence[SensitivityReport]) -> None:
        for text, report in zip(texts, reports, strict=True):
            self._memo.setdefault(text, report)
            self._queued.pop(text, None)
