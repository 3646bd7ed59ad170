"""The context planner (seed 000 ``UserContextPlanner``).

Per turn: retrieve (full text plus the always-eligible profile and standing instructions), apply
the policy filter, rerank, then one placement: the standing profile and instructions first (up
to a share of the budget), then the other records and the episodic snippets (what the user said,
``planner/episodic.py``) in one fused ranking under per-class and character budgets, a record and
the turn it was drawn from spending characters once; render the fenced block and write a trace
its version) and snippet, and a reason code for every candidate dropped.

A plan may be asked "as of" a time (``valid_at``): validity, consent-free policy checks and the
snippets' store time are judged at that instant, and relative expressions in the question ("last
week", "上周") resolve against it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Row

from userlore.config import MemoryMode
from userlore.extract.time import question_window
from userlore.models import (
    ContextPlan,
    Rejection,
    SelectedRecord,
    SelectedSnippet,
    UserState,
)
from userlore.planner.dedupe import render_texts
from userlore.planner.episodic import (
    SEED_RECORDS,
    EpisodicFrequencies,
    EvidenceRanking,
    Snippet,
    SnippetsFound,
    evidence_pairs,
    excerpt,
    nearest_evidence,
    search_snippets,
    sentence_window,
)
from userlore.planner.expand import expand_snippets
from userlore.planner.fusion import best_rank_fuse
from userlore.planner.render import BlockBuilder, render_entry, render_snippet
from userlore.planner.scoring import applies, score
from userlore.planner.search import Candidate, ReadColumns, search
from userlore.policy.filter import RejectionReason
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.session_keys import checked_session_key
from userlore.store.governed import GovernedStore, validate_scope
from userlore.store.retrieval import HitQuery, TermStatistics
from userlore.store.schema import MemoryRecord
from userlore.validation import optional_instant

__all__ = [
    "CLASS_BUDGETS",
    "EPISODES",
    "OVERFLOW_POOL",
    "PLAN_COLUMNS",
    "SECTION_OF_KIND",
    "ContextPlanner",
]

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
UNMATCHED_SHARE = 0.15
"""Share of the budget for standing likes, goals and tools the question did not match, when
embeddings can judge relevance (nearest the question first).

They are eligible whatever the question (a taste matters to "where should we eat?" without
sharing a word with it), but unmatched they are the weakest candidates of the plan: past this
share each one only spends characters, however much budget is left (PrefEval: a plan that
needs one preference was filled with 15 unrelated ones). Without embeddings nothing tells a
weak one from a needed one, and all stay eligible."""
JOINED_SNIPPETS = 1
"""Most snippets shown that only the multi-hop second pass found (``Snippet.joined``).

A join needs its other side, the best-credited turn the first side leads to, not a pool: past
it, what the second pass adds are turns the question never reached, ranked by a half-weight
credit, which fill a roomy plan with the user's unrelated statements (PrefEval: ~300
characters a plan, 1 → 0.9857 at 1,866 / 1,960 characters at filler 0 / 100, 2 → 1,940 /
2,061, no cap → 2,037 / 2,243; LoCoMo 1–3: 1, 2 and 3 equal, a list question's fourth city
lost against no cap)."""
EPISODES = "episodes"
"""The plan section of episodic snippets."""

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


_KEYLESS = ("workspace", "notes")
"""Sections whose entries show no key (see ``entry`` in :meth:`ContextPlanner._select`)."""


@dataclass(slots=True)
class _Ranked:
    """A record that passed the policy filter, with its section and rerank score."""

    rec: Row[*tuple[Any, ...]]
    id: str
    section: str
    score: float
    retrieval: float = 0.0
    matched: bool = False  # the question's retrieval found it (not merely listed as standing)


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
            wanted = cfg.planner.episodic_snippets
            # Multi-hop: the best records the question matched seed a second pass (expand.py).
            seeds = [c.row.content for c in found.kept if c.retrieval is not None][:SEED_RECORDS]
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
                    rankings=(*nearest_evidence(self.store.vectors), *self.evidence_rankings),
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
            selected, dropped, builder, sections, shown, snippet_rejected = self._place(
                conn, scope, found.kept, snippets, query, now, limit, found.near, consented
            )
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

    # -- episodic snippets ---------------------------------------------------------------------

    def _snippet_entry(
        self, snippet: Snippet, query: str, consented: frozenset[str]
    ) -> tuple[str, str | None]:
        """The snippet's entry and its day (the day the turn was said)."""
        cfg = self.store.config.planner
        cap = min(cfg.max_record_chars, cfg.episodic_chars)
        day = snippet.occurred_at.date().isoformat() if snippet.occurred_at else None
        body = self._window(snippet.text, query, consented)
        return render_snippet(snippet.item_id, excerpt(body, query, cap)), day

    def _window(self, text: str, query: str, consented: frozenset[str]) -> str:
        """A long quoted text cut to the sentences the question names, if the quote gate
        passes the cut too (a cut can drop the words that made a cue about someone else)."""
        cut = sentence_window(text, query)
        if cut is text:
            return text
        verdict = quote_verdict(
            cut,
            consented=consented,
            quote_uncovered=self.store.config.planner.quote_uncovered_languages,
        )
        return cut if verdict.reason is None else text

    # -- one placement: rerank, fuse with snippets, budget ------------------------------------

    def _place(
        self,
        conn: Connection,
        scope: str,
        candidates: list[Candidate],
        snippets: SnippetsFound,
        query: str,
        now: datetime,
        limit: int,
        near: dict[str, int] | None = None,
        consented: frozenset[str] = frozenset(),
    ) -> tuple[
        list[SelectedRecord],
        list[Rejection],
        BlockBuilder,
        dict[str, list[str]],
        list[SelectedSnippet],
        list[Rejection],
    ]:
        """Rerank what passed the filter and place records and snippets in one fused ranking.

        The standing profile and instructions go first (up to ``PROFILE_SHARE``). Then every
        other record and every snippet compete for the rest of the budget in one list: the
        records' rerank order and the snippets' fused order are fused by RRF, a record and the
        turn it was drawn from counting as one unit (credited by both lists, placed once), so
        neither section has a reserve and each one's share is whatever the question ranks
        highest. A unit is shown as its record (governed, versioned); when the record does not
        fit, its shorter snippet may. Daily notes take what is left. Returns the records
        selected and rejected, the open builder, the sections, and the snippets shown and
        rejected.
        """
        cfg = self.store.config.planner
        half_life = cfg.freshness_half_life_days
        eligible = [
            _Ranked(
                c.row,
                c.id,
                SECTION_OF_KIND.get(c.row.kind, "memories"),
                score(c.row, c.retrieval or 0.0, now, half_life),
                c.retrieval or 0.0,
                c.retrieval is not None,
            )
            for c in candidates
        ]
        # Ties go to the older row (its ``seq``), never by id: ids are random, so a tie broken
        # by id placed two equal records (one statement's two keys) in a different order in
        # two identical runs (LoCoMo's mean_chars moved by ±0.5).
        eligible.sort(key=lambda c: (-c.score, c.rec.seq))
        texts = render_texts(
            (
                c.id,
                c.rec.content,
                None if c.section in _KEYLESS else c.rec.canonical_key,
                c.rec.value,
            )
            for c in eligible
        )

        builder = BlockBuilder(limit)
        placed: list[_Ranked] = []
        class_used: dict[str, int] = {}
        overflow_used = 0
        dropped: dict[str, RejectionReason] = {}
        rendered: dict[str, str] = {}
        evidence = evidence_pairs(conn, scope, [c.id for c in eligible]) if snippets.kept else {}
        quoted: set[str] = set()  # items whose words the plan already holds (record or snippet)
        shown: list[SelectedSnippet] = []
        snippet_rejected: list[Rejection] = []
        shown_items: set[str] = set()
        max_snippets = cfg.episodic_snippets + cfg.episodic_overflow
        section_used = [0]  # characters of the episodic section so far
        joined_shown = [0]  # snippets shown that only the second pass found

        def entry(c: _Ranked) -> str:
            if c.id in rendered:
                return rendered[c.id]
            rec = c.rec
            body = texts.get(c.id, rec.content)
            if rec.kind == "workspace_fact":  # a turn quoted as a record: cut like a snippet
                body = self._window(body, query, consented)
            rendered[c.id] = render_entry(
                c.id,
                body,
                # Workspace facts and notes are keyed by their source item (an opaque digest):
                # the id and day identify them, the key would only spend budget.
                key=None if c.section in _KEYLESS else rec.canonical_key,
                max_chars=cfg.max_record_chars,
            )
            return rendered[c.id]

        def day(c: _Ranked) -> str | None:
            """The day a dated section shows the record under (when it became true)."""
            dated = c.section in ("memories", "workspace", "notes") and c.rec.valid_from
            return c.rec.valid_from.date().isoformat() if dated else None

        def place(c: _Ranked, cap_chars: int) -> RejectionReason | None:
            nonlocal overflow_used
            items = evidence.get(c.id, frozenset())
            if items and items <= shown_items:
                return RejectionReason.DUPLICATE  # its turns are already quoted
            kind = c.rec.kind
            cap = CLASS_BUDGETS.get(kind)
            used = class_used.get(kind, 0)
            over = cap is not None and used >= cap
            if over and overflow_used >= OVERFLOW_POOL:
                return RejectionReason.CLASS_BUDGET
            if not builder.try_add(c.section, entry(c), cap_chars, day(c)):
                return RejectionReason.BUDGET
            class_used[kind] = used + 1
            overflow_used += int(over)
            placed.append(c)
            quoted.update(items)
            return None

        def show(snippet: Snippet) -> RejectionReason | None:
            if snippet.weak:
                return RejectionReason.WEAK_RELEVANCE
            if snippet.item_id in quoted:
                return RejectionReason.DUPLICATE
            if len(shown) >= max_snippets or (
                snippet.joined and joined_shown[0] >= JOINED_SNIPPETS
            ):
                return RejectionReason.CLASS_BUDGET
            text, when = self._snippet_entry(snippet, query, consented)
            cost = builder.cost(EPISODES, text, when)
            # Without overflow the section keeps to its own count and characters; with it,
            # snippets compete for the whole budget like records.
            if not cfg.episodic_overflow and (
                len(shown) >= cfg.episodic_snippets or section_used[0] + cost > cfg.episodic_chars
            ):
                return RejectionReason.CLASS_BUDGET
            if not builder.try_add(EPISODES, text, limit, when):
                return RejectionReason.BUDGET
            section_used[0] += cost
            joined_shown[0] += int(snippet.joined)
            quoted.add(snippet.item_id)
            shown_items.add(snippet.item_id)
            shown.append(
                SelectedSnippet(
                    snippet.item_id,
                    snippet.score,
                    len(text),
                    snippet.lexical_rank,
                    snippet.vector_rank,
                )
            )
            return None

        standing = [c for c in eligible if c.section in ("instructions", "profile")]
        ranked = [c for c in eligible if c.section not in ("instructions", "profile", "notes")]
        # Daily notes are an overview of recent days, not answers: they take what budget the
        # relevant memories, facts and snippets leave.
        notes = [c for c in eligible if c.section == "notes"]
        # Profile and instructions go first but may not crowd out relevant memories entirely.
        rest = bool(ranked or notes or snippets.kept)
        profile_cap = int(limit * PROFILE_SHARE) if rest else limit
        waiting: list[_Ranked] = []
        # What the question matched first; then the unmatched standing records, those that
        # apply to every answer before the topical ones. With embeddings, the topical ones go
        # nearest the question first (below the vector floor, still an order) within their
        # share; without, nothing tells a weak one from a needed one, so all stay eligible.
        far = len(near) + 1 if near is not None else 0
        standing.sort(
            key=lambda c: (
                not c.matched,
                not applies(c.rec),
                near.get(c.id, far) if near is not None else 0,
            )
        )
        unmatched_left = int(limit * UNMATCHED_SHARE)
        for cand in standing:
            topical = near is not None and not cand.matched and not applies(cand.rec)
            if topical and len(entry(cand)) > unmatched_left:
                dropped[cand.id] = RejectionReason.BUDGET
                continue
            reason = place(cand, profile_cap)
            if topical and reason is None:
                unmatched_left -= len(entry(cand))
            if reason is RejectionReason.BUDGET and not topical:
                waiting.append(cand)  # may still fit once the relevant records are placed
            elif reason is not None:
                dropped[cand.id] = reason

        # One unit per record and per snippet that is not a ranked record's own turn.
        by_id = {c.id: c for c in ranked}
        unit_of_item: dict[str, str] = {}
        for c in ranked:  # best first: a turn belongs to the best record drawn from it
            for item in sorted(evidence.get(c.id, ())):
                unit_of_item.setdefault(item, c.id)
        own_snippets: dict[str, list[Snippet]] = {}
        snippet_units: list[str] = []
        for snip in snippets.kept:
            unit = unit_of_item.get(snip.item_id)
            if unit is None:
                snippet_units.append(snip.item_id)
            else:
                own_snippets.setdefault(unit, []).append(snip)
                if unit not in snippet_units:
                    snippet_units.append(unit)
        by_item = {s.item_id: s for s in snippets.kept}
        # The records by how well they answer the question (their fused retrieval), not by the
        # rerank's confidence or importance: those order standing records, not answers. A
        # record the user pinned goes first, as everywhere in the plan.
        pinned = UserState.PINNED.value
        by_question = sorted(
            ranked, key=lambda c: (c.rec.user_state != pinned, -c.retrieval, -c.score, c.rec.seq)
        )
        for unit, _ in best_rank_fuse([[c.id for c in by_question], snippet_units]):
            record = by_id.get(unit)
            if record is None:
                reason = show(by_item[unit])
                if reason is not None:
                    snippet_rejected.append(Rejection(unit, reason))
                continue
            reason = place(record, limit)
            if reason in (RejectionReason.BUDGET, RejectionReason.CLASS_BUDGET):
                # The record does not fit: its turns (often shorter) may, each on its own.
                quoted_any = False
                for alt in own_snippets.get(unit, ()):
                    why = show(alt)
                    if why is None:
                        quoted_any = True
                    else:
                        snippet_rejected.append(Rejection(alt.item_id, why))
                if quoted_any:
                    reason = RejectionReason.DUPLICATE  # its turn is quoted in its place
            if reason is not None:
                dropped[record.id] = reason
        for cand in (*notes, *waiting):
            reason = place(cand, limit)
            if reason is not None:
                dropped[cand.id] = reason
        shown_ids = {s.item_id for s in shown}
        done = shown_ids | {r.id for r in snippet_rejected}
        for snip in snippets.kept:  # a record's own turn, the record placed: a duplicate
            if snip.item_id not in done:
                snippet_rejected.append(Rejection(snip.item_id, RejectionReason.DUPLICATE))
        rejected = [Rejection(cid, reason) for cid, reason in dropped.items()]
        selected = [
            SelectedRecord(c.id, c.rec.version, c.section, c.score, len(entry(c))) for c in placed
        ]
        sections: dict[str, list[str]] = {}
        for c in placed:
            sections.setdefault(c.section, []).append(c.id)
        return selected, rejected, builder, sections, shown, snippet_rejected
