"""The context planner (seed 000 ``UserContextPlanner``).

Per turn: retrieve (full text plus the always-eligible profile and standing instructions), apply
the policy filter, rerank, place records into sections under per-class and character budgets,
render the fenced block and write a trace naming every selected record (with its version) and a
reason code for every candidate dropped.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Row

from userlore.config import MemoryMode
from userlore.models import ContextPlan, Explicitness, Rejection, SelectedRecord, UserState
from userlore.planner.render import BlockBuilder, render_entry
from userlore.planner.search import Candidate, ReadColumns, search
from userlore.policy.filter import RejectionReason
from userlore.store.governed import GovernedStore, bounded, validate_scope
from userlore.store.retrieval import HitQuery, TermStatistics
from userlore.store.schema import MemoryRecord

__all__ = ["CLASS_BUDGETS", "OVERFLOW_POOL", "PLAN_COLUMNS", "SECTION_OF_KIND", "ContextPlanner"]

SECTION_OF_KIND: dict[str, str] = {
    "instruction": "instructions",
    "style": "instructions",
    "veto": "instructions",
    "channel": "instructions",
    "identity": "profile",
    "tooling": "profile",
    "goal": "profile",
    "preference": "profile",
    "workspace_fact": "workspace",
    "daily_note": "notes",
}
ALWAYS_ELIGIBLE = tuple(SECTION_OF_KIND.keys() - {"workspace_fact", "daily_note"})

CLASS_BUDGETS: dict[str, int] = {
    # seed 002 per-class budgets, plus standing instructions and preferences
    "style": 4,
    "identity": 4,
    "tooling": 5,
    "veto": 3,
    "goal": 3,
    "channel": 1,
    "instruction": 8,
    # Standing likes, dislikes and avoidances (diets, allergies, "never X") are what a user
    # most expects to be honoured and rarely share words with the question that needs them;
    # they are short, so they get room for twice the instructions' count (chars still bound).
    "preference": 16,
}
OVERFLOW_POOL = 5
PROFILE_SHARE = 0.6  # instructions + profile may take this share while other sections wait

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


@dataclass(slots=True)
class _Ranked:
    """A record that passed the policy filter, with its section and rerank score."""

    rec: Row[*tuple[Any, ...]]
    id: str
    section: str
    score: float


class ContextPlanner:
    """Builds a :class:`~userlore.models.ContextPlan` for one turn."""

    def __init__(self, store: GovernedStore) -> None:
        self.store = store
        self.term_stats = TermStatistics()

    def plan(
        self, scope: str, query: str, *, session_key: str | None = None, budget: int | None = None
    ) -> ContextPlan:
        """Plan the context for ``query``; always writes a trace unless memory is off."""
        validate_scope(scope)
        bounded("session_key", session_key, 300)
        cfg = self.store.config
        limit = budget if budget is not None else cfg.planner.budget_chars
        if cfg.memory.mode is MemoryMode.OFF:
            return ContextPlan("", (), (), None, 0, limit)
        now = self.store.clock()
        with self.store.connection() as conn:
            found = search(
                conn,
                scope,
                query,
                read=PLAN_COLUMNS,
                k=cfg.planner.retrieval_k,
                stats=self.term_stats,
                now=now,
                consented=self.store.consents_in(conn, scope),
                kinds=ALWAYS_ELIGIBLE,
                newest=False,
                vectors=self.store.vectors,
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
            selected, dropped, text, sections = self._select(found.kept, now, limit)
            rejected = [*found.rejected, *dropped]
            trace_id = self.store.trace(
                conn,
                scope,
                "plan",
                session_key=session_key,
                chars=len(text),
                payload={
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
                    "rejected": [{"id": r.id, "reason": r.reason} for r in rejected],
                    "budget": limit,
                },
            )
        return ContextPlan(
            text, tuple(selected), tuple(rejected), trace_id, len(text), limit, sections
        )

    # -- rerank, budget -----------------------------------------------------------------------

    def _select(
        self, candidates: list[Candidate], now: datetime, limit: int
    ) -> tuple[list[SelectedRecord], list[Rejection], str, dict[str, tuple[str, ...]]]:
        """Rerank what passed the filter, then place it under the class and character budgets."""
        cfg = self.store.config.planner
        half_life = cfg.freshness_half_life_days
        eligible = [
            _Ranked(
                c.row,
                c.id,
                SECTION_OF_KIND.get(c.row.kind, "memories"),
                _score(c.row, c.retrieval or 0.0, now, half_life),
            )
            for c in candidates
        ]
        eligible.sort(key=lambda c: (-c.score, c.id))

        builder = BlockBuilder(limit)
        placed: list[_Ranked] = []
        class_used: dict[str, int] = {}
        overflow_used = 0
        dropped: dict[str, RejectionReason] = {}

        rendered: dict[str, str] = {}

        def entry(c: _Ranked) -> str:
            if c.id in rendered:
                return rendered[c.id]
            rec = c.rec
            dated = c.section in ("memories", "workspace", "notes") and rec.valid_from
            date = rec.valid_from.date().isoformat() if dated else None
            rendered[c.id] = render_entry(
                c.id,
                rec.version,
                rec.content,
                # Workspace facts and notes are keyed by their source item (an opaque digest):
                # the id and date identify them, the key would only spend budget.
                key=None if c.section in ("workspace", "notes") else rec.canonical_key,
                date=date,
                max_chars=cfg.max_record_chars,
            )
            return rendered[c.id]

        def place(c: _Ranked, cap_chars: int) -> RejectionReason | None:
            nonlocal overflow_used
            kind = c.rec.kind
            cap = CLASS_BUDGETS.get(kind)
            used = class_used.get(kind, 0)
            over = cap is not None and used >= cap
            if over and overflow_used >= OVERFLOW_POOL:
                return RejectionReason.CLASS_BUDGET
            if not builder.try_add(c.section, entry(c), cap_chars):
                return RejectionReason.BUDGET
            class_used[kind] = used + 1
            overflow_used += int(over)
            placed.append(c)
            return None

        profile_first = [c for c in eligible if c.section in ("instructions", "profile")]
        # Daily notes are an overview of recent days, not answers: they take what budget the
        # relevant memories and facts leave.
        others = sorted(
            (c for c in eligible if c.section not in ("instructions", "profile")),
            key=lambda c: c.section == "notes",
        )
        # Profile and instructions go first but may not crowd out relevant memories entirely.
        profile_cap = int(limit * PROFILE_SHARE) if others else limit
        waiting: list[_Ranked] = []
        for cand in profile_first:
            reason = place(cand, profile_cap)
            if reason is RejectionReason.BUDGET:
                waiting.append(cand)
            elif reason is not None:
                dropped[cand.id] = reason
        for cand in (*others, *waiting):
            reason = place(cand, limit)
            if reason is not None:
                dropped[cand.id] = reason
        rejected = [Rejection(cid, reason) for cid, reason in dropped.items()]
        text = builder.render()
        selected = [
            SelectedRecord(c.id, c.rec.version, c.section, c.score, len(entry(c))) for c in placed
        ]
        sections: dict[str, list[str]] = {}
        for c in placed:
            sections.setdefault(c.section, []).append(c.id)
        return selected, rejected, text, {k: tuple(v) for k, v in sections.items()}


def _score(
    rec: Row[*tuple[Any, ...]], retrieval: float, now: datetime, half_life_days: float
) -> float:
    """Rerank by retrieval score, confidence, importance, explicitness and freshness."""
    age_days = max(0.0, (now - rec.updated_at).total_seconds() / 86_400)
    fresh = math.exp(-math.log(2) * age_days / half_life_days)
    score: float = (
        0.5 * retrieval
        + 0.15 * rec.confidence
        + 0.15 * rec.importance
        + 0.1 * (1.0 if rec.explicitness == Explicitness.EXPLICIT.value else 0.6)
        + 0.1 * fresh
    )
    return score + (0.5 if rec.user_state == UserState.PINNED.value else 0.0)
