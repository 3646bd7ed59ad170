"""Rank fusion shared by every hybrid read (records and episodic snippets).

Reciprocal rank fusion needs no score calibration between BM25 and cosine similarity, which is
why the planner uses it rather than a weighted sum of raw scores.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import TypeVar

__all__ = ["RRF_K", "rrf_fuse"]

RRF_K = 60
"""The usual RRF constant (Cormack et al., 2009): damps the head of each list."""

K = TypeVar("K", bound=Hashable)


def rrf_fuse(rankings: Iterable[Sequence[K]], *, k: int = RRF_K) -> list[tuple[K, float]]:
    """Fuse best-first rankings into one, best first.

    Args:
        rankings: Each a best-first sequence of keys; a key may appear in any subset of them.
        k: The RRF constant.

    Returns:
        ``(key, score)`` pairs sorted by descending fused score; ties keep first-seen order.
    """
    scores: dict[K, float] = {}
    for ranking in rankings:
        for rank, key in enumerate(ranking, start=1):
            scores[key] = scores.get(key, 0.0) + 1.0 / (k + rank)
    return sorted(scores.items(), key=lambda item: -item[1])
