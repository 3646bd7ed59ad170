"""``CacheRebuilt``: what one rebuild changed, published to in-process subscribers.

Subscribers (the ``PROFILE.md`` renderer, metrics) are plain callables. One that raises is logged
and skipped; it never undoes the rebuild or starves the subscribers after it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from userlore.learning.facets import Facet

__all__ = ["CacheRebuilt", "Subscribers"]

log = logging.getLogger("userlore.learning.cache")


@dataclass(frozen=True, slots=True)
class CacheRebuilt:
    """Published after every successful rebuild of one scope (seed 002 ``CacheRebuilt``).

    Attributes:
        scope: Whose cache was rebuilt.
        added: Facets that entered the cache (became active) in this rebuild.
        evicted: Facets that left it.
        kept: Facets active before and after.
        total_size: Active facets after the rebuild.
        rebuilt_at: The store clock's time of the rebuild.
        observations: Candidates recorded as new observations in this rebuild.
        refused: Candidates the governed check refused (secret, regulated, forgotten...).
        duration_ms: Wall time of the rebuild.
        facets: The active facets after the rebuild.
        consented: Special categories the user consented to (renderers hide the others).
    """

    scope: str
    added: int
    evicted: int
    kept: int
    total_size: int
    rebuilt_at: datetime
    observations: int = 0
    refused: int = 0
    duration_ms: float = 0.0
    facets: tuple[Facet, ...] = field(default=(), repr=False)
    consented: frozenset[str] = frozenset()

    def as_dict(self) -> dict[str, Any]:
        """Counts and time only (no facet values): safe for logs and metrics."""
        return {
            "scope": self.scope,
            "added": self.added,
            "evicted": self.evicted,
            "kept": self.kept,
            "total_size": self.total_size,
            "rebuilt_at": self.rebuilt_at.isoformat(),
            "observations": self.observations,
            "refused": self.refused,
            "duration_ms": round(self.duration_ms, 3),
        }


class Subscribers:
    """A small thread-safe list of ``CacheRebuilt`` callbacks."""

    def __init__(self) -> None:
        self._callbacks: list[Callable[[CacheRebuilt], None]] = []
        self._lock = threading.Lock()

    def subscribe(self, callback: Callable[[CacheRebuilt], None]) -> Callable[[], None]:
        """Register ``callback``; returns a function that unregisters it."""
        if not callable(callback):
            raise TypeError("callback must be callable")
        with self._lock:
            self._callbacks.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._callbacks:
                    self._callbacks.remove(callback)

        return unsubscribe

    def publish(self, event: CacheRebuilt) -> None:
        with self._lock:
            callbacks = list(self._callbacks)
        for callback in callbacks:
            try:
                callback(event)
            except Exception:  # a subscriber's failure must not break the rebuild
                log.exception("[learning::cache] CacheRebuilt subscriber %r failed", callback)
