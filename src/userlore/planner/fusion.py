"""Rank fusion shared by every hybrid read (records and episodic snippets).

Reciprocal rank fusion needs no score calibration between BM25 and cosine similarity, which is
why the planner uses it rather than a weighted sum of raw scores.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import TypeVar

__all__ = ["RRF_K", "best_rank_fuse", "rrf_fuse"]

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


def best_rank_fuse(rankings: Iterable[Sequence[K]], *, k: int = RRF_K) -> list[tuple[K, float]]:
    """Fuse rankings of the same units drawn from different corpora: each unit by its best rank.

    RRF sums a unit's credit over the lists, which is right when every list could have listed
    it (BM25 and vectors over one corpus). Across corpora (records and the turns they were
    drawn from) a unit one corpus does not hold would sink below every unit both hold, however
    well it ranks; here the lists interleave (best rank first), and agreement only breaks ties
    (a unit's other ranks add a small fraction of their RRF credit).
    """
    best: dict[K, float] = {}
    total: dict[K, float] = {}
    for ranking in rankings:
        for rank, key in enumerate(ranking, start=1):
            credit = 1.0 / (k + rank)
            best[key] = max(best.get(key, 0.0), credit)
            total[key] = total.get(key, 0.0) + credit
    scores = {key: best[key] + 0.1 * (total[key] - best[key]) for key in best}
    return sorted(scores.items(), key=lambda item: -item[1])
