"""Multi-hop expansion: a second retrieval pass over what the user said, seeded by the first.

A question that joins two sessions ("what book did Melanie read on Caroline's suggestion?")
names one side; the turns the first pass found name the other (the title, the place, the day).
:func:`expand_snippets` takes the first pass's best snippets and records, queries the episodic
index again with what they hold and the question lacks (the entities
:func:`~userlore.planner.episodic.seed_terms` extracts: names, places, titles, numbers) and with
their stored vectors, and fuses those rankings into the first at a lower weight, so that the
first pass's best keep their place and the second only adds or lifts the other side of a join.

Every item the second pass adds gets the same verdict as a first-pass snippet
(:func:`~userlore.planner.snippet_policy.refusal`: withdrawal with its record, the policy
filter, the quote gate), and only snippets that passed it seed the second pass, so a withheld
turn never shapes what is shown. The pass is bounded: :data:`SEED_SNIPPETS` seeds,
:data:`SECOND_K` candidates per ranking, at most ``SEED_TERMS`` terms within the episodic
posting budget, and one vector search.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

import numpy as np
from sqlalchemy import Connection, bindparam, select

from userlore.extract.time import TimeWindow
from userlore.models import Rejection
from userlore.planner.episodic import (
    _BY_ID,
    EpisodicFrequencies,
    Snippet,
    SnippetsFound,
    _lexical,
    seed_terms,
)
from userlore.planner.fusion import RRF_K
from userlore.planner.search import VECTOR_FLOOR
from userlore.planner.snippet_policy import screen, withdrawals
from userlore.store.schema import EpisodicItem
from userlore.store.vectors import VectorIndex

__all__ = ["SECOND_K", "SECOND_WEIGHT", "SEED_SNIPPETS", "expand_snippets"]

SEED_SNIPPETS = 3
"""The first pass's best snippets that seed the second (with its best records)."""
SECOND_K = 40
"""Candidates per second-pass ranking (the first pass's default pool)."""
SECOND_WEIGHT = 0.5
"""The second pass's RRF credit relative to the first's: it adds or lifts, never leads."""


def expand_snippets(
    conn: Connection,
    scope: str,
    query: str,
    first: SnippetsFound,
    records: Sequence[str],
    *,
    vectors: VectorIndex | None,
    stats: EpisodicFrequencies,
    now: datetime,
    consented: frozenset[str],
    quote_uncovered: bool = False,
    window: TimeWindow | None = None,
    limit: int | None = None,
) -> SnippetsFound:
    """``first`` with the second pass fused in at :data:`SECOND_WEIGHT`, best first.

    Args:
        conn: An open connection.
        scope: Whose items.
        query: The question.
        first: The first pass's snippets (kept and rejected).
        records: Texts of the first pass's best records the question matched.
        vectors: The vector index (``None``: lexical second pass only).
        stats: The planner's episodic document-frequency cache.
        now: The "as of" time.
        consented: Special categories the user has consented to.
        quote_uncovered: The app's opt-in to quoting languages the quote gate cannot read.
        window: Event-time window of a temporal question (marks a snippet ``in_window``).
        limit: Most snippets kept (the first pass's pool).
    """
    if not query or (not first.kept and not records):
        return first
    seeds = first.kept[:SEED_SNIPPETS]
    rankings: list[list[str]] = []
    seed = seed_terms([*records, *(s.text for s in seeds)], query)
    if seed:
        rankings.append(_entity_hits(conn, scope, seed, stats))
    if vectors is not None and seeds:
        asked = first.topic or query  # the first pass's topic: a named speaker is not one
        rankings.append(_nearest_seeds(conn, scope, vectors, asked, [s.item_id for s in seeds]))
    rankings = [r for r in rankings if r]
    if not rankings:
        return first
    credit: dict[str, float] = {}
    for ranking in rankings:
        for rank, item_id in enumerate(ranking, start=1):
            credit[item_id] = credit.get(item_id, 0.0) + SECOND_WEIGHT / (RRF_K + rank)
    kept = [replace(s, score=s.score + credit.get(s.item_id, 0.0)) for s in first.kept]
    # Screen (the costly part: today's verdict on each text) only what could still enter.
    lifted = sorted((s.score for s in kept), reverse=True)
    floor = lifted[limit - 1] if limit is not None and 0 < limit <= len(lifted) else -1.0
    known = {s.item_id for s in first.kept} | {r.id for r in first.rejected}
    added = _screen(
        conn,
        scope,
        first.topic or query,
        sorted(i for i in credit.keys() - known if credit[i] > floor),
        now=now,
        consented=consented,
        quote_uncovered=quote_uncovered,
        window=window,
    )
    rejected = list(first.rejected)
    for item_id, verdict in added.items():
        if isinstance(verdict, Rejection):
            rejected.append(verdict)
        else:
            kept.append(replace(verdict, score=credit[item_id], joined=True))
    kept.sort(key=lambda s: -s.score)
    return SnippetsFound(kept[:limit] if limit is not None else kept, rejected, first.topic)


_ITEM_OF_SEQ = select(EpisodicItem.seq, EpisodicItem.item_id).where(
    EpisodicItem.scope == bindparam("scope"),
    EpisodicItem.seq.in_(bindparam("seqs", expanding=True)),
)
"""Index row -> item id, without the item's text (the pass only ranks; screening reads it)."""


def _entity_hits(conn: Connection, scope: str, seed: str, stats: EpisodicFrequencies) -> list[str]:
    """Items holding the seed's entities, best first (the episodic index, rarest terms first)."""
    seqs = _lexical(conn, scope, seed, SECOND_K, stats)
    if not seqs:
        return []
    ids = {seq: item for seq, item in conn.execute(_ITEM_OF_SEQ, {"scope": scope, "seqs": seqs})}
    return [ids[s] for s in seqs if s in ids]


def _nearest_seeds(
    conn: Connection, scope: str, vectors: VectorIndex, query: str, seeds: list[str]
) -> list[str]:
    """Items nearest the mean of the question's and the seeds' stored vectors (one search)."""
    stored = vectors.stored(conn, scope, "evidence", seeds)
    if not stored:
        return []
    mean = np.mean([vectors.embed_query(query), *stored.values()], axis=0)
    norm = float(np.linalg.norm(mean))
    if norm == 0.0:
        return []
    hits = vectors.search(conn, scope, "evidence", (mean / norm).astype(np.float32), SECOND_K)
    return [item_id for item_id, cosine in hits if cosine >= VECTOR_FLOOR]


def _screen(
    conn: Connection,
    scope: str,
    query: str,
    item_ids: list[str],
    *,
    now: datetime,
    consented: frozenset[str],
    quote_uncovered: bool,
    window: TimeWindow | None,
) -> dict[str, Snippet | Rejection]:
    """Each new item as a snippet that may be shown (a withheld turn's part ``query`` names,
    :func:`~userlore.planner.snippet_policy.screen`), or the rejection a first-pass one gets."""
    if not item_ids:
        return {}
    rows: dict[str, Any] = {
        row.id: row for row in conn.execute(_BY_ID, {"scope": scope, "ids": item_ids})
    }
    withdrawn = withdrawals(conn, scope, sorted(rows), now) if rows else {}
    out: dict[str, Snippet | Rejection] = {}
    for item_id in item_ids:
        hit = rows.get(item_id)
        if hit is None:
            continue
        text_, rejection = screen(hit, query, scope, now, consented, withdrawn, quote_uncovered)
        if text_ is None:
            if rejection is not None:
                out[item_id] = rejection
            continue
        out[item_id] = Snippet(
            item_id,
            text_,
            hit.occurred_at,
            0.0,
            in_window=window is not None and hit.occurred_at in window,
            withheld=rejection.category if rejection is not None else None,
        )
    return out
