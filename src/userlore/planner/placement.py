"""One placement: rerank what passed the policy filter, fuse records and snippets, spend it.

The standing profile and instructions go first (up to :data:`PROFILE_SHARE`). Then every other
record and every episodic snippet compete for the rest of the budget in one list: the records'
order by the question and the snippets' fused order are fused by best rank, a record and the
turn it was drawn from counting as one unit (credited by both lists, placed once), so neither
section has a reserve and each one's share is whatever the question ranks highest. A unit is
shown as its record (governed, versioned); when the record does not fit, its shorter snippet
may. Daily notes take what is left.

Everything a placement reads is in its :class:`PlacementInput` (the planner reads the store,
this module only decides), so a rule here is tested and measured without the planner's state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Row

from userlore.config import PlannerConfig
from userlore.models import Rejection, SelectedRecord, SelectedSnippet, UserState
from userlore.planner.dedupe import render_texts
from userlore.planner.episodic import Snippet, SnippetsFound, excerpt, sentence_window
from userlore.planner.fusion import best_rank_fuse
from userlore.planner.lists import list_question
from userlore.planner.render import BlockBuilder, render_entry, render_snippet
from userlore.planner.scoring import applies, score
from userlore.planner.search import Candidate
from userlore.planner.speakers import others_wait
from userlore.policy.filter import RejectionReason
from userlore.policy.quote_gate import quote_verdict

__all__ = [
    "CLASS_BUDGETS",
    "EPISODES",
    "JOINED_SNIPPETS",
    "LIST_TRIM_ABOVE",
    "NEAREST_RAW_MARGIN",
    "OVERFLOW_POOL",
    "PROFILE_SHARE",
    "SECTION_OF_KIND",
    "STANDING_SECTIONS",
    "UNMATCHED_SHARE",
    "Placement",
    "PlacementInput",
    "place",
    "quoted_window",
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
NEAREST_RAW_MARGIN = 0.8
"""In a plan a standing record answers, the nearest turn no record was drawn from is shown
if its cosine is at least this share of the answer's (others: the whole of it).

It may hold what the write path did not read as a statement (PrefEval, filler 0: "I strictly
buy cruelty-free fashion items…" at 0.89 of a record the word "high" matched for a handbag
question); 1.0 for it too lost two questions at filler 0, no margin (always shown) cost ~105
characters a plan at 632 filler messages (``docs/benchmarks.md``, taskimp14)."""
EPISODES = "episodes"
"""The plan section of episodic snippets."""

STANDING_SECTIONS = ("instructions", "profile")
"""Sections of what the user stated as standing (placed first, matched or not)."""
_KEYLESS = ("workspace", "notes")
"""Sections whose entries show no key: workspace facts and notes are keyed by their source
item (an opaque digest); the id and day identify them, the key would only spend budget."""
_DATED = ("memories", "workspace", "notes")
"""Sections that show a record under the day it became true."""


@dataclass(frozen=True, slots=True)
class PlacementInput:
    """What one placement reads: the planner's findings and its options, nothing else.

    Attributes:
        candidates: Records that passed the policy filter, as the search returned them.
        snippets: Episodic snippets that passed the policy and quote gate, best first.
        evidence: Record id -> the source items it states (its own turns).
        query: The turn's question (cuts long texts to the sentences it names).
        now: The plan's instant (freshness).
        limit: The character budget.
        config: The planner's options.
        near: With embeddings, each record's place in the vector list (topical standing
            records nearest first); ``None`` without embeddings.
        consented: Special categories the scope consented to (the quote gate of a cut text).
        cosine: With embeddings, when the question matched a standing record: the cosine to
            the question of those records and of the snippets, by id
            (:func:`~userlore.planner.answered.question_cosines`); else ``None``.
        stated: With ``cosine``, the snippets' items some record was drawn from
            (:func:`~userlore.planner.answered.stated_items`).
    """

    candidates: Sequence[Candidate]
    snippets: SnippetsFound
    evidence: Mapping[str, frozenset[str]]
    query: str
    now: datetime
    limit: int
    config: PlannerConfig
    near: Mapping[str, int] | None = None
    consented: frozenset[str] = frozenset()
    cosine: Mapping[str, float] | None = None
    stated: frozenset[str] = frozenset()


@dataclass(slots=True)
class Placement:
    """What a placement decided: the records and snippets shown and why the others were not."""

    selected: list[SelectedRecord]
    rejected: list[Rejection]
    builder: BlockBuilder
    sections: dict[str, list[str]]
    shown: list[SelectedSnippet]
    snippet_rejected: list[Rejection]


LIST_TRIM_ABOVE = 120
"""A list question's texts are cut to the sentences it names from this length (others: 200,
``sentences.TRIM_ABOVE``).

A list question ("what activities does Melanie partake in?", ``planner/lists.py``) is answered
by many turns said on different days, most of which share no word with it (they are not cut:
no sentence names a term); the turns that do share its words are cut shorter, so more distinct
turns fit the same budget. LoCoMo (quality7): multi-hop 0.592 -> 0.609 on conversations 1–3,
0.557 -> 0.565 on 4–6, no other category moved; the cost is answer words a cut drops (1,084 ->
1,077 of ~1,470 on 1–3, 1,529 -> 1,518 of ~2,110 on 4–6). Cutting every question from 120
(placement6) lost more (17 of 717 and 55 of ~1,100 by its count); cutting only the other
speaker's turns gained nothing."""


def quoted_window(
    text: str, query: str, consented: frozenset[str], *, quote_uncovered: bool
) -> str:
    """A long quoted text cut to the sentences the question names, if the quote gate passes
    the cut too (a cut can drop the words that made a cue about someone else); a list
    question's from :data:`LIST_TRIM_ABOVE` characters."""
    if list_question(query):
        cut = sentence_window(text, query, trim_above=LIST_TRIM_ABOVE)
    else:
        cut = sentence_window(text, query)
    if cut is text:
        return text
    verdict = quote_verdict(cut, consented=consented, quote_uncovered=quote_uncovered)
    return cut if verdict.reason is None else text


def place(request: PlacementInput) -> Placement:
    """Rerank what passed the filter and place records and snippets in one fused ranking."""
    return _Placer(request).run()


@dataclass(slots=True)
class _Ranked:
    """A record that passed the policy filter, with its section and rerank score."""

    rec: Row[*tuple[Any, ...]]
    id: str
    section: str
    score: float
    retrieval: float = 0.0
    matched: bool = False  # the question's retrieval found it (not merely listed as standing)


@dataclass(slots=True)
class _Placer:
    """One placement's running state: the block, the budgets spent, what is shown and why not."""

    request: PlacementInput
    eligible: list[_Ranked] = field(default_factory=list)
    texts: dict[str, str] = field(default_factory=dict)
    builder: BlockBuilder = field(init=False)
    placed: list[_Ranked] = field(default_factory=list)
    class_used: dict[str, int] = field(default_factory=dict)
    overflow_used: int = 0
    dropped: dict[str, RejectionReason] = field(default_factory=dict)
    rendered: dict[str, str] = field(default_factory=dict)
    quoted: set[str] = field(default_factory=set)
    """Items whose words the plan already holds (record or snippet)."""
    shown: list[SelectedSnippet] = field(default_factory=list)
    snippet_rejected: list[Rejection] = field(default_factory=list)
    shown_items: set[str] = field(default_factory=set)
    section_used: int = 0
    """Characters of the episodic section so far."""
    joined_shown: int = 0
    """Snippets shown that only the second pass found."""
    answer: float | None = None
    """The cosine of the nearest standing record the question matched and the plan holds:
    the user's own statement answers the question (see :meth:`answered_out`)."""
    stated: frozenset[str] = frozenset()
    """Items a record was drawn from (turns where the user stated something)."""
    nearest_raw: str | None = None
    """The first-pass turn the vectors put nearest among those no record was drawn from."""

    def __post_init__(self) -> None:
        req = self.request
        half_life = req.config.freshness_half_life_days
        self.eligible = [
            _Ranked(
                c.row,
                c.id,
                SECTION_OF_KIND.get(c.row.kind, "memories"),
                score(c.row, c.retrieval or 0.0, req.now, half_life),
                c.retrieval or 0.0,
                c.retrieval is not None,
            )
            for c in req.candidates
        ]
        # Ties go to the older row (its ``seq``), never by id: ids are random, so a tie broken
        # by id placed two equal records (one statement's two keys) in a different order in
        # two identical runs (LoCoMo's mean_chars moved by ±0.5).
        self.eligible.sort(key=lambda c: (-c.score, c.rec.seq))
        self.texts = render_texts(
            (
                c.id,
                c.rec.content,
                None if c.section in _KEYLESS else c.rec.canonical_key,
                c.rec.value,
            )
            for c in self.eligible
        )
        self.builder = BlockBuilder(req.limit)

    # -- entries -------------------------------------------------------------------------------

    def window(self, text: str) -> str:
        req = self.request
        return quoted_window(
            text,
            req.query,
            req.consented,
            quote_uncovered=req.config.quote_uncovered_languages,
        )

    def entry(self, c: _Ranked) -> str:
        if c.id in self.rendered:
            return self.rendered[c.id]
        rec = c.rec
        body = self.texts.get(c.id, rec.content)
        if rec.kind == "workspace_fact":  # a turn quoted as a record: cut like a snippet
            body = self.window(body)
        self.rendered[c.id] = render_entry(
            c.id,
            body,
            key=None if c.section in _KEYLESS else rec.canonical_key,
            max_chars=self.request.config.max_record_chars,
        )
        return self.rendered[c.id]

    @staticmethod
    def day(c: _Ranked) -> str | None:
        """The day a dated section shows the record under (when it became true)."""
        dated = c.section in _DATED and c.rec.valid_from
        return c.rec.valid_from.date().isoformat() if dated else None

    def snippet_entry(self, snippet: Snippet) -> tuple[str, str | None]:
        """The snippet's entry and its day (the day the turn was said)."""
        cfg = self.request.config
        cap = min(cfg.max_record_chars, cfg.episodic_chars)
        day = snippet.occurred_at.date().isoformat() if snippet.occurred_at else None
        body = self.window(snippet.text)
        return render_snippet(snippet.item_id, excerpt(body, self.request.query, cap)), day

    # -- spending ------------------------------------------------------------------------------

    def place(self, c: _Ranked, cap_chars: int) -> RejectionReason | None:
        """Place a record within ``cap_chars``, or say why not."""
        items = self.request.evidence.get(c.id, frozenset())
        if items and items <= self.shown_items:
            return RejectionReason.DUPLICATE  # its turns are already quoted
        kind = c.rec.kind
        cap = CLASS_BUDGETS.get(kind)
        used = self.class_used.get(kind, 0)
        over = cap is not None and used >= cap
        if over and self.overflow_used >= OVERFLOW_POOL:
            return RejectionReason.CLASS_BUDGET
        if not self.builder.try_add(c.section, self.entry(c), cap_chars, self.day(c)):
            return RejectionReason.BUDGET
        self.class_used[kind] = used + 1
        self.overflow_used += int(over)
        self.placed.append(c)
        self.quoted.update(items)
        return None

    def answered_out(self, snippet: Snippet) -> bool:
        """Is the snippet worth less than the user's own statement that answers the question?

        When the plan holds a standing record the question matched, a turn where the user
        stated nothing (no record was drawn from it) is shown only if it is at least as near
        the question as that record (the nearest such turn the vectors found: within
        :data:`NEAREST_RAW_MARGIN` of it), and never
        as the second pass's other side: the turns the vectors merely relate to the topic (a
        request about cars for "which car should I buy?") add characters, not answers. A turn
        a record was drawn from is judged as before. LoCoMo's questions match no standing
        record, so this never applies there (``docs/benchmarks.md``, taskimp14).
        """
        cosine = self.request.cosine
        if self.answer is None or cosine is None or snippet.item_id in self.stated:
            return False
        if snippet.joined:
            return True
        near = cosine.get(snippet.item_id)  # a turn with no stored vector is not judged
        margin = NEAREST_RAW_MARGIN if snippet.item_id == self.nearest_raw else 1.0
        return near is not None and near < margin * self.answer

    def show(self, snippet: Snippet) -> RejectionReason | None:
        """Show a snippet, or say why not."""
        cfg = self.request.config
        if snippet.weak or self.answered_out(snippet):
            return RejectionReason.WEAK_RELEVANCE
        if snippet.item_id in self.quoted:
            return RejectionReason.DUPLICATE
        if len(self.shown) >= cfg.episodic_snippets + cfg.episodic_overflow or (
            snippet.joined and self.joined_shown >= JOINED_SNIPPETS
        ):
            return RejectionReason.CLASS_BUDGET
        text, when = self.snippet_entry(snippet)
        cost = self.builder.cost(EPISODES, text, when)
        # Without overflow the section keeps to its own count and characters; with it,
        # snippets compete for the whole budget like records.
        if not cfg.episodic_overflow and (
            len(self.shown) >= cfg.episodic_snippets
            or self.section_used + cost > cfg.episodic_chars
        ):
            return RejectionReason.CLASS_BUDGET
        if not self.builder.try_add(EPISODES, text, self.request.limit, when):
            return RejectionReason.BUDGET
        self.section_used += cost
        self.joined_shown += int(snippet.joined)
        self.quoted.add(snippet.item_id)
        self.shown_items.add(snippet.item_id)
        self.shown.append(
            SelectedSnippet(
                snippet.item_id,
                snippet.score,
                len(text),
                snippet.lexical_rank,
                snippet.vector_rank,
                snippet.withheld,
            )
        )
        return None

    # -- the placement -------------------------------------------------------------------------

    def run(self) -> Placement:
        req = self.request
        eligible = self.eligible
        standing = [c for c in eligible if c.section in STANDING_SECTIONS]
        ranked = [c for c in eligible if c.section not in (*STANDING_SECTIONS, "notes")]
        # Daily notes are an overview of recent days, not answers: they take what budget the
        # relevant memories, facts and snippets leave.
        notes = [c for c in eligible if c.section == "notes"]
        waiting = self.place_standing(standing, rest=bool(ranked or notes or req.snippets.kept))
        if req.cosine is not None:
            answers = [req.cosine[c.id] for c in self.placed if c.matched and c.id in req.cosine]
            self.answer = max(answers, default=None)
            self.stated = req.stated.union(*req.evidence.values())
            raw = [
                s
                for s in req.snippets.kept
                if s.vector_rank is not None and not s.joined and s.item_id not in self.stated
            ]
            if raw:
                self.nearest_raw = min(raw, key=lambda s: s.vector_rank or 0).item_id
        self.place_ranked(ranked)
        for cand in (*notes, *waiting):
            reason = self.place(cand, req.limit)
            if reason is not None:
                self.dropped[cand.id] = reason
        shown_ids = {s.item_id for s in self.shown}
        done = shown_ids | {r.id for r in self.snippet_rejected}
        for snip in req.snippets.kept:  # a record's own turn, the record placed: a duplicate
            if snip.item_id not in done:
                self.snippet_rejected.append(Rejection(snip.item_id, RejectionReason.DUPLICATE))
        rejected = [Rejection(cid, reason) for cid, reason in self.dropped.items()]
        selected = [
            SelectedRecord(c.id, c.rec.version, c.section, c.score, len(self.entry(c)))
            for c in self.placed
        ]
        sections: dict[str, list[str]] = {}
        for c in self.placed:
            sections.setdefault(c.section, []).append(c.id)
        return Placement(
            selected, rejected, self.builder, sections, self.shown, self.snippet_rejected
        )

    def place_standing(self, standing: list[_Ranked], *, rest: bool) -> list[_Ranked]:
        """Place the profile and instructions first; returns those waiting for room."""
        req = self.request
        near = req.near
        # Profile and instructions go first but may not crowd out relevant memories entirely.
        profile_cap = int(req.limit * PROFILE_SHARE) if rest else req.limit
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
        unmatched_left = int(req.limit * UNMATCHED_SHARE)
        for cand in standing:
            topical = near is not None and not cand.matched and not applies(cand.rec)
            if topical and len(self.entry(cand)) > unmatched_left:
                self.dropped[cand.id] = RejectionReason.BUDGET
                continue
            reason = self.place(cand, profile_cap)
            if topical and reason is None:
                unmatched_left -= len(self.entry(cand))
            if reason is RejectionReason.BUDGET and not topical:
                waiting.append(cand)  # may still fit once the relevant records are placed
            elif reason is not None:
                self.dropped[cand.id] = reason
        return waiting

    def place_ranked(self, ranked: list[_Ranked]) -> None:
        """Place the other records and the snippets in one fused ranking of units."""
        req = self.request
        evidence = req.evidence
        # One unit per record and per snippet that is not a ranked record's own turn.
        by_id = {c.id: c for c in ranked}
        unit_of_item: dict[str, str] = {}
        for c in ranked:  # best first: a turn belongs to the best record drawn from it
            for item in sorted(evidence.get(c.id, ())):
                unit_of_item.setdefault(item, c.id)
        own_snippets: dict[str, list[Snippet]] = {}
        snippet_units: list[str] = []
        for snip in req.snippets.kept:
            unit = unit_of_item.get(snip.item_id)
            if unit is None:
                snippet_units.append(snip.item_id)
            else:
                own_snippets.setdefault(unit, []).append(snip)
                if unit not in snippet_units:
                    snippet_units.append(unit)
        by_item = {s.item_id: s for s in req.snippets.kept}
        # The records by how well they answer the question (their fused retrieval), not by the
        # rerank's confidence or importance: those order standing records, not answers. A
        # record the user pinned goes first, as everywhere in the plan.
        pinned = UserState.PINNED.value
        by_question = sorted(
            ranked, key=lambda c: (c.rec.user_state != pinned, -c.retrieval, -c.score, c.rec.seq)
        )
        order = [unit for unit, _ in best_rank_fuse([[c.id for c in by_question], snippet_units])]
        if list_question(req.query):  # many of one person's turns: the others' replies wait
            texts = {c.id: c.rec.content for c in ranked} | {
                s.item_id: s.text for s in req.snippets.kept
            }
            order = others_wait(req.query, order, texts)
        for unit in order:
            record = by_id.get(unit)
            if record is None:
                reason = self.show(by_item[unit])
                if reason is not None:
                    self.snippet_rejected.append(Rejection(unit, reason))
                continue
            reason = self.place(record, req.limit)
            if reason in (RejectionReason.BUDGET, RejectionReason.CLASS_BUDGET):
                # The record does not fit: its turns (often shorter) may, each on its own.
                quoted_any = False
                for alt in own_snippets.get(unit, ()):
                    why = self.show(alt)
                    if why is None:
                        quoted_any = True
                    else:
                        self.snippet_rejected.append(Rejection(alt.item_id, why))
                if quoted_any:
                    reason = RejectionReason.DUPLICATE  # its turn is quoted in its place
            if reason is not None:
                self.dropped[record.id] = reason
