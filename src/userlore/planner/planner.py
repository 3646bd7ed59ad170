"""The context planner (seed 000 ``UserContextPlanner``).

Per turn: retrieve (full text plus the always-eligible profile and standing instructions), apply
the policy filter, rerank, then one placement: the standing profile and instructions first (up
to a share of the budget), then the other records and the episodic snippets (what the user said,
``planner/episodic.py``) in one fused ranking under per-class and character budgets, a record and
the turn it was drawn from spending characters once (``planner/placement.py``); render the fenced
block and write a trace with every selected record (and its version) and snippet, and a reason
code for every candidate dropped.

A plan may be asked "as of" a time (``valid_at``): validity, consent-free policy checks and the
snippets' store time are judged at that instant, and relative expressions in the question ("last
week", "上周") resolve against it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from userlore.config import MemoryMode
from userlore.extract.time import question_window
from userlore.models import ContextPlan
from userlore.planner.answered import question_cosines, stated_items
from userlore.planner.episodic import (
    SEED_RECORDS,
    EpisodicFrequencies,
    EvidenceRanking,
    SnippetsFound,
    evidence_pairs,
    nearest_evidence,
    search_snippets,
)
from userlore.planner.expand import expand_snippets
from userlore.planner.lists import list_question
from userlore.planner.placement import (
    CLASS_BUDGETS,
    EPISODES,
    JOINED_SNIPPETS,
    OVERFLOW_POOL,
    SECTION_OF_KIND,
    UNMATCHED_SHARE,
    PlacementInput,
    place,
)
from userlore.planner.search import ReadColumns, search
from userlore.policy.session_keys import checked_session_key
from userlore.store.governed import GovernedStore, validate_scope
from userlore.store.retrieval import HitQuery, TermStatistics
from userlore.store.schema import MemoryRecord
from userlore.validation import optional_instant

__all__ = [
    "CLASS_BUDGETS",
    "EPISODES",
    "JOINED_SNIPPETS",
    "OVERFLOW_POOL",
    "PLAN_COLUMNS",
    "SECTION_OF_KIND",
    "UNMATCHED_SHARE",
    "ContextPlanner",
]

ALWAYS_ELIGIBLE = tuple(SECTION_OF_KIND.keys() - {"workspace_fact", "daily_note"})

PLAN_COLUMNS = ReadColumns(
    HitQuery(
        MemoryRecord.seq,
        MemoryRecord.id,
        MemoryRecord.scope,
        MemoryRecord.kind,
        MemoryRecord.canonical_key,
        MemoryRecord.content,
        MemoryRecord.value,
        MemoryRecord.state,
        MemoryRecord.user_state,
        MemoryRecord.version,
        MemoryRecord.valid_from,
        MemoryRecord.valid_until,
        MemoryRecord.disclosure,
        MemoryRecord.sensitivity,
        MemoryRecord.sensitivity_category,
        MemoryRecord.policy_rev,
        MemoryRecord.confidence,
        MemoryRecord.importance,
        MemoryRecord.explicitness,
        MemoryRecord.updated_at,
    )
)
"""What the planner reads of a record: the policy filter's fields and what it renders."""


class ContextPlanner:
    """Builds a :class:`~userlore.models.ContextPlan` for one turn.

    Args:
        store: The governed store read from and traced to.
        evidence_rankings: Further best-first rankings of source items fused with the lexical
            episodic ranking (for example vector hits over evidence); each is called per plan.
    """

    def __init__(
        self, store: GovernedStore, evidence_rankings: Sequence[EvidenceRanking] = ()
    ) -> None:
        self.store = store
        self.term_stats = TermStatistics()
        self.evidence_rankings: tuple[EvidenceRanking, ...] = tuple(evidence_rankings)
        self.episodic_stats = EpisodicFrequencies()

    def plan(
        self,
        scope: str,
        query: str,
        *,
        session_key: str | None = None,
        budget: int | None = None,
        valid_at: datetime | None = None,
    ) -> ContextPlan:
        """Plan the context for ``query``; always writes a trace unless memory is off.

        Args:
            scope: Whose context.
            query: The turn's question.
            session_key: Session the trace belongs to.
            budget: Character budget (default ``planner.budget_chars``).
            valid_at: Plan as of this instant: what was valid and stored then (default: now).
        """
        validate_scope(scope)
        checked_session_key(session_key)
        optional_instant(valid_at, "valid_at")
        cfg = self.store.config
        limit = budget if budget is not None else cfg.planner.budget_chars
        if cfg.memory.mode is MemoryMode.OFF:
            return ContextPlan("", (), (), None, 0, limit)
        now = valid_at or self.store.clock()
        window = question_window(query, now) if query else None
        with self.store.connection(scope) as conn:
            consented = self.store.consents_in(conn, scope)
            wanted = cfg.planner.episodic_snippets
            # Snippets first: their words' hits tell which speakers the question names, and the
            # records' vectors are then asked for its topic too (``speakers.topic_of``).
            # Snippets compete with records for the whole budget (one fused ranking), so they
            # are screened as deep as the records are.
            pool = max(cfg.planner.retrieval_k, wanted + cfg.planner.episodic_overflow)
            snippets = (
                search_snippets(
                    conn,
                    scope,
                    query,
                    k=pool,
                    now=now,
                    consented=consented,
                    rankings=(
                        # A list question's items are short statements inside longer turns:
                        # those turns are scored by their best sentence too.
                        *nearest_evidence(
                            self.store.vectors, sentences=bool(query) and list_question(query)
                        ),
                        *self.evidence_rankings,
                    ),
                    judged=self.store.vectors is not None,
                    own=True,
                    window=window,
                    limit=pool,
                    stats=self.episodic_stats,
                    quote_uncovered=cfg.planner.quote_uncovered_languages,
                )
                if wanted and cfg.planner.episodic_chars
                else SnippetsFound()
            )
            found = search(
                conn,
                scope,
                query,
                read=PLAN_COLUMNS,
                k=cfg.planner.retrieval_k,
                stats=self.term_stats,
                now=now,
                consented=consented,
                kinds=ALWAYS_ELIGIBLE,
                newest=False,
                vectors=self.store.vectors,
                quote_uncovered=cfg.planner.quote_uncovered_languages,
                vector_query=snippets.topic,
            )
            # With embeddings on, each selected record's place in each list (None: not in it).
            ranks = (
                {
                    c.id: {"lexical_rank": c.lexical_rank, "vector_rank": c.vector_rank}
                    for c in found.kept
                }
                if self.store.vectors is not None
                else {}
            )
            # Multi-hop: the best records the question matched seed a second pass (expand.py).
            seeds = [c.row.content for c in found.kept if c.retrieval is not None][:SEED_RECORDS]
            if wanted and cfg.planner.episodic_chars:
                snippets = expand_snippets(
                    conn,
                    scope,
                    query,
                    snippets,
                    seeds,
                    vectors=self.store.vectors,
                    stats=self.episodic_stats,
                    now=now,
                    consented=consented,
                    quote_uncovered=cfg.planner.quote_uncovered_languages,
                    window=window,
                    limit=pool,
                )
            # A question a standing record answers: how near each snippet is (answered.py).
            cosine = (
                question_cosines(
                    conn,
                    scope,
                    self.store.vectors,
                    snippets.topic or query,
                    found.kept,
                    snippets.kept,
                )
                if self.store.vectors is not None and query
                else None
            )
            placement = place(
                PlacementInput(
                    found.kept,
                    snippets,
                    evidence_pairs(conn, scope, [c.id for c in found.kept])
                    if snippets.kept
                    else {},
                    query,
                    now,
                    limit,
                    cfg.planner,
                    found.near,
                    consented,
                    cosine,
                    stated_items(conn, scope, snippets.kept) if cosine is not None else frozenset(),
                )
            )
            selected, dropped, builder = placement.selected, placement.rejected, placement.builder
            sections, shown = placement.sections, placement.shown
            snippet_rejected = placement.snippet_rejected
            if shown:
                sections[EPISODES] = [s.item_id for s in shown]
            text = builder.render()
            rejected = [*found.rejected, *dropped]
            payload: dict[str, Any] = {
                "selected": [
                    {
                        "id": s.id,
                        "v": s.version,
                        "section": s.section,
                        "score": round(s.score, 4),
                        **ranks.get(s.id, {}),
                    }
                    for s in selected
                ],
                "rejected": [
                    {"id": r.id, "reason": r.reason}
                    | ({"category": r.category} if r.category else {})
                    for r in rejected
                ],
                "budget": limit,
            }
            if snippets.kept or snippets.rejected:
                payload["episodic"] = {
                    "selected": [
                        {
                            "id": s.item_id,
                            "score": round(s.score, 5),
                            "lexical_rank": s.lexical_rank,
                            "vector_rank": s.vector_rank,
                        }
                        | ({"withheld": s.withheld} if s.withheld else {})
                        for s in shown
                    ],
                    "rejected": [
                        {"id": r.id, "reason": r.reason}
                        | ({"category": r.category} if r.category else {})
                        for r in (*snippets.rejected, *snippet_rejected)
                    ],
                }
            if valid_at is not None:
                payload["valid_at"] = valid_at.isoformat()
            if window is not None:
                payload["window"] = [window.start.isoformat(), window.end.isoformat()]
        # Written without waiting for another writer (queued if one holds the lock): a read
        # never waits for a write (issue 18).
        trace_id = self.store.trace_soon(
            scope, "plan", session_key=session_key, chars=len(text), payload=payload
        )
        return ContextPlan(
            text,
            tuple(selected),
            tuple(rejected),
            trace_id,
            len(text),
            limit,
            {k: tuple(v) for k, v in sections.items()},
            tuple(shown),
        )
