"""The candidate buffer: a bounded, thread-safe ring between producers and the detector.

Producers run wherever their signal appears (a chat turn, an email sync, a reviewer pass) and
must never block on the database; the stability detector drains the buffer on every rebuild.
When it is full the oldest candidate is dropped and counted: a flood from one producer costs
old unprocessed signal, never memory or latency.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Iterable

from userlore.errors import InvalidInputError
from userlore.learning.facets import LearningCandidate

__all__ = ["DEFAULT_CAPACITY", "CandidateBuffer"]

DEFAULT_CAPACITY = 1024

log = logging.getLogger("userlore.learning.candidate")


class CandidateBuffer:
    """Bounded FIFO of :class:`LearningCandidate` values (default capacity 1,024).

    Example:
        >>> buf = CandidateBuffer(capacity=2)
        >>> buf.capacity, len(buf)
        (2, 0)
    """

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        if not isinstance(capacity, int) or not 1 <= capacity <= 1_000_000:
            raise InvalidInputError("buffer capacity must be within [1, 1000000]")
        self._items: deque[LearningCandidate] = deque(maxlen=capacity)
        self._lock = threading.Lock()
        self.dropped = 0
        """Candidates pushed out unprocessed because the buffer was full."""

    @property
    def capacity(self) -> int:
        return self._items.maxlen or 0

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)

    def push(self, candidate: LearningCandidate) -> bool:
        """Append one candidate; returns ``False`` when an older one had to be dropped."""
        if not isinstance(candidate, LearningCandidate):
            raise InvalidInputError("only LearningCandidate values go into the buffer")
        with self._lock:
            full = len(self._items) == self._items.maxlen
            if full:
                self.dropped += 1
            self._items.append(candidate)
        if full:
            log.warning("[learning::candidate] buffer full: dropped the oldest candidate")
        return not full

    def extend(self, candidates: Iterable[LearningCandidate]) -> int:
        """Append several; returns how many older candidates were dropped."""
        return sum(0 if self.push(c) else 1 for c in candidates)

    def drain(self) -> list[LearningCandidate]:
        """Take every buffered candidate, oldest first, leaving the buffer empty."""
        with self._lock:
            items = list(self._items)
            self._items.clear()
        if items:
            log.debug("[learning::candidate] drained %d candidate(s)", len(items))
        return items
