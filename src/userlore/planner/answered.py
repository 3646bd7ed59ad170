"""How near the question each snippet and each standing record is, when the profile may answer.

A question that matches one of the user's standing records (a preference, a goal, a tool) is
answered by the user's own statement; the raw turns the vectors or words also reach are then
only worth their characters when they are at least as near the question as that statement
(``placement.py``, :class:`~userlore.planner.placement.PlacementInput` ``cosine``). The cosines
are read from the stored vectors (no text is embedded again), and only for such a question: a
question no standing record matched reads nothing here.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from sqlalchemy import Connection, select

from userlore.planner.episodic import Snippet
from userlore.planner.placement import SECTION_OF_KIND, STANDING_SECTIONS
from userlore.planner.search import Candidate
from userlore.store.schema import MemoryEvidence
from userlore.store.vectors import VectorIndex

__all__ = ["STANDING_KINDS", "question_cosines", "stated_items"]

STANDING_KINDS = frozenset(k for k, s in SECTION_OF_KIND.items() if s in STANDING_SECTIONS)
"""Kinds shown in the standing sections (instructions and profile)."""


def question_cosines(
    conn: Connection,
    scope: str,
    vectors: VectorIndex,
    query: str,
    candidates: Sequence[Candidate],
    snippets: Sequence[Snippet],
) -> dict[str, float] | None:
    """Cosine to ``query`` of the standing records the question matched and of ``snippets``
    (by id), or ``None`` when no standing record matched or there is no snippet to judge."""
    matched = [c.id for c in candidates if c.retrieval is not None and c.row.kind in STANDING_KINDS]
    if not matched or not snippets:
        return None
    stored = vectors.stored(conn, scope, "record", matched)
    if not stored:
        return None
    stored |= vectors.stored(conn, scope, "evidence", [s.item_id for s in snippets])
    q = np.asarray(vectors.embed_query(query), dtype=np.float32)
    q_norm = float(np.linalg.norm(q)) or 1.0
    out: dict[str, float] = {}
    for key, vec in stored.items():
        v = np.asarray(vec, dtype=np.float32)
        out[key] = float(v @ q) / (q_norm * (float(np.linalg.norm(v)) or 1.0))
    return out


def stated_items(conn: Connection, scope: str, snippets: Sequence[Snippet]) -> frozenset[str]:
    """The snippets' items some record was drawn from (the user stated something there),
    whether or not that record is a candidate of this plan (a health note, say)."""
    ids = [s.item_id for s in snippets]
    rows = conn.execute(
        select(MemoryEvidence.source_item_id).where(
            MemoryEvidence.scope == scope, MemoryEvidence.source_item_id.in_(ids)
        )
    )
    return frozenset(str(item) for (item,) in rows)
