"""The context planner (seed 000 ``UserContextPlanner``).

Per turn: retrieve (full text plus the always-eligible profile and standing instructions), apply
the policy filter, rerank, place records into sections under per-class and character budgets,
render the fenced block and write a trace naming every selected record (with its version) and a
reason code for every candidate dropped.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Row, bindparam, select

from userlore.config import MemoryMode
from userlore.models import ContextPlan, Explicitness, Rejection, SelectedRecord, UserState
from userlore.planner.render import BlockBuilder, render_entry
from userlore.policy.filter import rejection_reason
from userlore.store.governed import GovernedStore, bounded, validate_scope
from userlore.store.retrieval import HitQuery, TermStatistics
from userlore.store.schema import MemoryRecord

__all__ = ["CLASS_BUDGETS", "OVERFLOW_POOL", "SECTION_OF_KIND", "ContextPlanner"]

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
PROFILE_LIMIT = 300
RECENT_NOTES = 3

_COLUMNS = (
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


_HITS = HitQuery(*_COLUMNS)
_PROFILE = (
    select(*_COLUMNS)
    .where(
        MemoryRecord.scope == bindparam("scope"),
        MemoryRecord.kind.in_(bindparam("kinds", expanding=True)),
        MemoryRecord.state == "active",
    )
    .order_by(MemoryRecord.importance.desc(), MemoryRecord.seq.desc())
    .limit(PROFILE_LIMIT)
)
_NOTES = (
    select(*_COLUMNS)
    .where(
        MemoryRecord.scope == bindparam("scope"),
        MemoryRecord.kind == "daily_note",
        MemoryRecord.state == "active",
    )
    .order_by(MemoryRecord.valid_from.desc().nulls_last(), MemoryRecord.seq.desc())
    .limit(RECENT_NOTES)
)


@dataclass(slots=True)
class _Candidate:
    """A retrieved row of ``_COLUMNS`` (read as the policy filter's input) and its scores."""

    rec: Row[*tuple[Any, ...]]
    id: str
    section: str
    retrieval: float = 0.0
    score: float = 0.0


def _candidate(row: Row[*tuple[Any, ...]], retrieval: float = 0.0) -> _Candidate:
    return _Candidate(row, row.id, SECTION_OF_KIND.get(row.kind, "memories"), retrieval)


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
            candidates = self._retrieve(conn, scope, query)
            consented = self.store._consented(conn, scope)
            selected, rejected, text, sections = self._select(
                candidates, scope, now, consented, limit
            )
            trace_id = self.store._trace(
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

    # -- retrieval ----------------------------------------------------------------------------

    def _retrieve(self, conn: Connection, scope: str, query: str) -> list[_Candidate]:
        k = self.store.config.planner.retrieval_k
        found = {
            row.seq: _candidate(row, score)
            for row, score in _HITS.search(conn, scope, query, k, self.term_stats)
        }
        params = {"scope": scope, "kinds": ALWAYS_ELIGIBLE}
        for stmt in (_PROFILE, _NOTES):
            for row in conn.execute(stmt, params):
                if row.seq not in found:
                    found[row.seq] = _candidate(row)
        return list(found.values())

    # -- filter, rerank, budget ---------------------------------------------------------------

    def _select(
        self,
        candidates: Iterable[_Candidate],
        scope: str,
        now: datetime,
        consented: frozenset[str],
        limit: int,
    ) -> tuple[list[SelectedRecord], list[Rejection], str, dict[str, tuple[str, ...]]]:
        cfg = self.store.config.planner
        rejected: list[Rejection] = []
        eligible: list[_Candidate] = []
        for cand in candidates:
            reason = rejection_reason(cand.rec, scope=scope, now=now, consented=consented)
            if reason is not None:
                rejected.append(Rejection(cand.id, reason))
                continue
            cand.score = _score(cand, now, cfg.freshness_half_life_days)
            eligible.append(cand)
        eligible.sort(key=lambda c: (-c.score, c.id))

        builder = BlockBuilder(limit)
        placed: list[_Candidate] = []
        class_used: dict[str, int] = {}
        overflow_used = 0
        dropped: dict[str, str] = {}

        rendered: dict[str, str] = {}

        def entry(c: _Candidate) -> str:
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

        def place(c: _Candidate, cap_chars: int) -> str | None:
            nonlocal overflow_used
            kind = c.rec.kind
            cap = CLASS_BUDGETS.get(kind)
            used = class_used.get(kind, 0)
            over = cap is not None and used >= cap
            if over and overflow_used >= OVERFLOW_POOL:
                return "class_budget"
            if not builder.try_add(c.section, entry(c), cap_chars):
                return "budget"
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
        waiting: list[_Candidate] = []
        for cand in profile_first:
            reason = place(cand, profile_cap)
            if reason == "budget":
                waiting.append(cand)
            elif reason is not None:
                dropped[cand.id] = reason
        for cand in (*others, *waiting):
            reason = place(cand, limit)
            if reason is not None:
                dropped[cand.id] = reason
        rejected.extend(Rejection(cid, reason) for cid, reason in dropped.items())
        text = builder.render()
        selected = [
            SelectedRecord(c.id, c.rec.version, c.section, c.score, len(entry(c))) for c in placed
        ]
        sections: dict[str, list[str]] = {}
        for c in placed:
            sections.setdefault(c.section, []).append(c.id)
        return selected, rejected, text, {k: tuple(v) for k, v in sections.items()}


def _score(c: _Candidate, now: datetime, half_life_days: float) -> float:
    """Rerank by retrieval score, confidence, importance, explicitness and freshness."""
    rec = c.rec
    age_days = max(0.0, (now - rec.updated_at).total_seconds() / 86_400)
    fresh = math.exp(-math.log(2) * age_days / half_life_days)
    score: float = (
        0.5 * c.retrieval
        + 0.15 * rec.confidence
        + 0.15 * rec.importance
        + 0.1 * (1.0 if rec.explicitness == Explicitness.EXPLICIT.value else 0.6)
        + 0.1 * fresh
    )
    return score + (0.5 if rec.user_state == UserState.PINNED.value else 0.0)
