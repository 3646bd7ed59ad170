"""Preference benchmark over the PrefEval format (amazon-science/PrefEval; data never copied here).

Protocol (``../shared/data/README.md``): synthetic users, user ``u`` gets item ``u`` of every
topic. Each preference is fed through :meth:`Userlore.observe` in one of three forms:

- ``explicit``: the preference as a user turn, then a fixed assistant acknowledgement;
- ``choice``: the choice-based exchange (user query, assistant options, the user's pick, the
  assistant's acknowledgement);
- ``persona``: the persona-driven chat (3-7 turns, the preference buried in one user turn).

After each preference, ``level / topics`` filler messages (``filtered_inter_turns.json``, LMSYS
chats, the same stream for every user) are observed too, so 0, 100 or all filler messages sit
between the preferences and the questions. Then every item's question is planned with
``lore.plan_context`` (default 6,000-character budget).

Scored per form and filler level: preference recall (a selected record has as evidence the turn
that carries the preference: the explicit turn, the user's pick, or the persona turn sharing most
words with the preference; or the plan's episodic section quotes that turn itself), mean rank of
the first such entry in the plan (records in plan order, then snippets), characters used, and
cross-user leaks (a selected record of another scope, or traced to another user's preference
turn, or a snippet of another user's turn: must be 0). A BM25-over-raw-turns baseline (every
turn of the user, ranked against the question and filled to 6,000 characters) runs on the same
turns in the same run.

Memory mode ``auto`` (policy-passing statements activate, as for a user who turned memory on).
Dietary intolerances and allergies are health-adjacent special categories: this run grants each
synthetic user consent for ``health`` (``--no-consent`` to measure without) and says so in its
output.

With ``--embeddings local`` (the bundled all-MiniLM-L6-v2, ``userlore[local]``) the plans are
hybrid (BM25 + stored vectors fused by RRF) and the same run adds ``userlore_bm25`` (the same
database planned with the vectors switched off), ``dense`` (the user's raw turns ranked by
cosine to the question, filled to 6,000 characters like the BM25 baseline) and ``hybrid_turns``
(the raw turns' BM25 and cosine rankings fused by RRF, filled the same way: the retriever that
knows nothing about the user, at the same budget).

Usage:
    python benchmarks/prefeval.py --data ../shared/data/prefeval [--embeddings local|none]
    python benchmarks/prefeval.py --data DIR --users 10 --levels 0,100 --forms explicit

The last line printed is one JSON object:
``{"userlore": {"recall": {form: {level: r}}, "mean_rank": ..., "chars": ..., "leaks": ...},
"bm25": {"recall": ...}, "consent_granted": [...], ...}``.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from embedding_cache import add_embedding_arguments, bench_embeddings  # first: one BLAS thread
from sqlalchemy import select

from userlore import Userlore
from userlore.facade import MAX_TURN_CHARS
from userlore.planner.fusion import rrf_fuse
from userlore.store.schema import MemoryEvidence, MemoryRecord

FORMS = ("explicit", "choice", "persona")
BUDGET = 6_000
ACK = "Got it, I'll keep that in mind."
CONSENT = ("health",)
_TOKEN = re.compile(r"\w+", re.UNICODE)


@dataclass
class Turn:
    role: str
    text: str
    gold: bool = False  # this user turn carries the preference


@dataclass
class Item:
    topic: str
    question: str
    preference: str
    turns: list[Turn]


@dataclass
class Score:
    hits: int = 0
    questions: int = 0
    ranks: list[int] = field(default_factory=list)
    chars: list[int] = field(default_factory=list)
    leaks: int = 0

    def summary(self) -> dict[str, Any]:
        return {
            "recall": round(self.hits / self.questions, 4) if self.questions else None,
            "questions": self.questions,
            "mean_rank": round(sum(self.ranks) / len(self.ranks), 2) if self.ranks else None,
            "mean_chars": round(sum(self.chars) / len(self.chars), 1) if self.chars else None,
            "leaks": self.leaks,
        }


def _tokens(text: str) -> list[str]:
    return [t.lower() for t in _TOKEN.findall(text)]


def _persona_gold(turns: list[Turn], preference: str) -> None:
    """Mark the persona user turn sharing the most words with the preference statement."""
    pref = set(_tokens(preference))
    best, best_score = None, -1.0
    for turn in turns:
        if turn.role != "user":
            continue
        words = set(_tokens(turn.text))
        score = len(pref & words) / (len(pref) or 1)
        if score > best_score:
            best, best_score = turn, score
    if best is not None:
        best.gold = True


def load_items(data: Path, form: str) -> dict[str, list[Item]]:
    """Items per topic for one form."""
    folder = {
        "explicit": data / "explicit_preference",
        "choice": data / "implicit_preference" / "choice-based",
        "persona": data / "implicit_preference" / "persona-driven",
    }[form]
    topics: dict[str, list[Item]] = {}
    for path in sorted(folder.glob("*.json")):
        items: list[Item] = []
        for raw in json.loads(path.read_text(encoding="utf-8")):
            pref, question = raw["preference"], raw["question"]
            if form == "explicit":
                turns = [Turn("user", pref, gold=True), Turn("assistant", ACK)]
            elif form == "choice":
                conv = raw["conversation"]
                turns = [
                    Turn("user", conv["query"]),
                    Turn("assistant", conv["assistant_options"]),
                    Turn("user", conv["user_selection"], gold=True),
                    Turn("assistant", conv["assistant_acknowledgment"]),
                ]
            else:
                conv = raw["conversation"]
                turns = []
                for key in sorted(conv, key=int):
                    turns.append(Turn("user", conv[key]["user"]))
                    turns.append(Turn("assistant", conv[key]["assistant"]))
                _persona_gold(turns, pref)
            items.append(Item(path.stem, question, pref, turns))
        topics[path.stem] = items
    return topics


def load_filler(data: Path) -> list[Turn]:
    out: list[Turn] = []
    for conv in json.loads((data / "filtered_inter_turns.json").read_text(encoding="utf-8")):
        for msg in conv["conversation"]:
            role = "user" if msg["role"] == "user" else "assistant"
            if msg["content"].strip():
                out.append(Turn(role, msg["content"]))
    return out


def _chunks(seq: Sequence[Turn], parts: int) -> Iterator[Sequence[Turn]]:
    size, extra = divmod(len(seq), parts)
    start = 0
    for i in range(parts):
        end = start + size + (1 if i < extra else 0)
        yield seq[start:end]
        start = end


# English function words, the usual BM25 preprocessing (no topic words).
_STOPWORD_TEXT = (
    "a an the and or but if then so of to in on at by for with about from as is are was were "
    "be been being do does did can could would should will shall may might must i me my you "
    "your we our it its this that these those what which who whom how when where why any some "
    "there here have has had not no yes please thanks"
)
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())


def _terms(text: str) -> list[str]:
    return [t for t in _tokens(text) if t not in _STOPWORDS]


class BM25:
    """Okapi BM25 over one user's raw turns (k1 = 1.5, b = 0.75, English stopwords removed)."""

    def __init__(self, docs: Sequence[str]) -> None:
        self.docs = [Counter(_terms(d)) for d in docs]
        self.lengths = [sum(c.values()) for c in self.docs]
        self.avg = (sum(self.lengths) / len(self.lengths)) if self.lengths else 0.0
        df: Counter[str] = Counter()
        for c in self.docs:
            df.update(c.keys())
        n = len(self.docs)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}

    def rank(self, query: str) -> list[int]:
        terms = set(_terms(query))
        scores: list[tuple[float, int]] = []
        for i, c in enumerate(self.docs):
            s = 0.0
            for t in terms:
                tf = c.get(t, 0)
                if tf:
                    norm = 1.5 * (1 - 0.75 + 0.75 * self.lengths[i] / (self.avg or 1))
                    s += self.idf[t] * tf * 2.5 / (tf + norm)
            if s > 0:
                scores.append((s, i))
        scores.sort(key=lambda x: (-x[0], x[1]))
        return [i for _, i in scores]


def _fill(order: Sequence[int], raw_turns: list[Turn], gold_turns: set[int], score: Score) -> None:
    """Raw turns in rank order while they fit the budget; scores the first gold turn's place."""
    used = 0
    found_rank = None
    included = 0
    for i in order:
        text = raw_turns[i].text
        if used + len(text) > BUDGET:
            continue
        used += len(text)
        included += 1
        if found_rank is None and id(raw_turns[i]) in gold_turns:
            found_rank = included
    score.questions += 1
    score.chars.append(used)
    if found_rank is not None:
        score.hits += 1
        score.ranks.append(found_rank)


def _score_plan(
    plan: Any,
    scope: str,
    golds: set[str],
    evidence: dict[str, set[str]],
    scope_of: dict[str, str],
    owner_of: dict[str, str],
    score: Score,
) -> None:
    score.questions += 1
    score.chars.append(plan.chars)
    first: int | None = None
    entries = [(scope_of.get(sel.id), evidence.get(sel.id, set())) for sel in plan.selected]
    # A snippet is the turn itself: its item is its evidence, its owner its scope.
    entries += [(owner_of.get(s.item_id, scope), {s.item_id}) for s in plan.snippets]
    for rank, (owner, items) in enumerate(entries, 1):
        if owner != scope or any(owner_of.get(i, scope) != scope for i in items):
            score.leaks += 1
        if first is None and items & golds:
            first = rank
    if first is not None:
        score.hits += 1
        score.ranks.append(first)


def run_level(
    form: str,
    topics: dict[str, list[Item]],
    filler: list[Turn],
    level: int,
    users: int,
    consent: bool,
    embeddings: Any = None,
) -> tuple[Score, Score, Counter[str], dict[str, Score]]:
    """One form at one filler level: userlore and BM25 scores, special categories stored.

    With ``embeddings`` the plans are hybrid and the extra rows (``userlore_bm25``, ``dense``)
    come back in the fourth value.
    """
    lore = Userlore.open("sqlite://", config={"memory": {"mode": "auto"}}, embeddings=embeddings)
    store = lore.memory.store
    vectors = store.vectors
    names = sorted(topics)
    stream = filler[:level]
    ours, base = Score(), Score()
    extra = (
        {"userlore_bm25": Score(), "dense": Score(), "hybrid_turns": Score()}
        if vectors is not None
        else {}
    )
    turn_of_item: dict[str, int] = {}  # evidence item id -> index into its user's raw turns
    owner_of: dict[str, str] = {}  # preference turn item id -> its user, for leak checks
    plans: list[tuple[str, Item, set[str], list[Turn]]] = []
    try:
        for u in range(users):
            scope = f"prefeval-user-{u:03d}"
            if consent:
                for category in CONSENT:
                    lore.consent.grant(scope, category)
            raw_turns: list[Turn] = []
            user_items: list[tuple[Item, set[str]]] = []
            chunks = list(_chunks(stream, len(names)))
            for t_index, topic in enumerate(names):
                item = topics[topic][u]
                golds: set[str] = set()
                for turn in (*item.turns, *chunks[t_index]):
                    res = lore.observe(scope, turn.role, turn.text[:MAX_TURN_CHARS], "prefeval")
                    if res.source_item_id:
                        turn_of_item[res.source_item_id] = len(raw_turns)
                    raw_turns.append(turn)
                    if turn.gold and res.source_item_id:
                        golds.add(res.source_item_id)
                        owner_of[res.source_item_id] = scope
                user_items.append((item, golds))
            for item, golds in user_items:
                plans.append((scope, item, golds, raw_turns))
        # record id -> (scope, evidence item ids)
        with lore.memory.store.transaction() as session:
            scope_of = dict(session.execute(select(MemoryRecord.id, MemoryRecord.scope)).all())
            evidence: dict[str, set[str]] = {}
            for rid, iid in session.execute(
                select(MemoryEvidence.record_id, MemoryEvidence.source_item_id)
            ):
                evidence.setdefault(rid, set()).add(iid)
            special = Counter(
                cat
                for (cat,) in session.execute(
                    select(MemoryRecord.sensitivity_category).where(
                        MemoryRecord.sensitivity == "special"
                    )
                )
                if cat
            )
        bm25_cache: dict[str, BM25] = {}
        for scope, item, golds, raw_turns in plans:
            plan = lore.plan_context(scope, item.question, budget=BUDGET)
            _score_plan(plan, scope, golds, evidence, scope_of, owner_of, ours)
            # BM25 over the user's raw turns, filled to the same budget
            index = bm25_cache.get(scope)
            if index is None:
                index = bm25_cache[scope] = BM25([t.text for t in raw_turns])
            gold_turns = {id(t) for t in item.turns if t.gold}
            lexical = index.rank(item.question)
            _fill(lexical, raw_turns, gold_turns, base)
            if vectors is None:
                continue
            store.vectors = None  # the same database, planned by BM25 alone
            try:
                plain = lore.plan_context(scope, item.question, budget=BUDGET)
            finally:
                store.vectors = vectors
            _score_plan(plain, scope, golds, evidence, scope_of, owner_of, extra["userlore_bm25"])
            with store.engine.connect() as conn:
                query = vectors.embed_query(item.question)
                near = vectors.search(conn, scope, "evidence", query, len(raw_turns))
            order = [turn_of_item[iid] for iid, _ in near if iid in turn_of_item]
            _fill(order, raw_turns, gold_turns, extra["dense"])
            fused = [i for i, _ in rrf_fuse([lexical, order])]
            _fill(fused, raw_turns, gold_turns, extra["hybrid_turns"])
        return ours, base, special, extra
    finally:
        lore.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", required=True, type=Path, help="the prefeval/ directory")
    parser.add_argument("--users", type=int, default=None, help="limit the synthetic users")
    parser.add_argument("--levels", default="0,100,all", help="filler levels, e.g. 0,100,all")
    parser.add_argument("--forms", default=",".join(FORMS), help="forms to run")
    parser.add_argument("--no-consent", action="store_true", help="do not grant health consent")
    add_embedding_arguments(parser)
    args = parser.parse_args(argv)
    model = bench_embeddings(args.embeddings, args.embedding_cache)
    filler = load_filler(args.data)
    forms = [f for f in args.forms.split(",") if f]
    levels = [x.strip() for x in args.levels.split(",") if x.strip()]
    consent = not args.no_consent
    result: dict[str, Any] = {
        "userlore": {"recall": {}, "mean_rank": {}, "mean_chars": {}, "leaks": {}},
        "bm25": {"recall": {}, "mean_rank": {}, "mean_chars": {}},
        **(
            {
                "userlore_bm25": {"recall": {}, "mean_rank": {}, "mean_chars": {}},
                "dense": {"recall": {}, "mean_rank": {}, "mean_chars": {}},
                "hybrid_turns": {"recall": {}, "mean_rank": {}, "mean_chars": {}},
            }
            if model is not None
            else {}
        ),
        "embeddings": args.embeddings,
        "consent_granted": list(CONSENT) if consent else [],
        "special_categories_stored": {},
        "budget_chars": BUDGET,
        "filler_messages_available": len(filler),
    }
    for form in forms:
        topics = load_items(args.data, form)
        users = min(len(items) for items in topics.values())
        if args.users is not None:
            users = min(users, args.users)
        result["users"] = users
        result["topics"] = len(topics)
        for level_name in levels:
            level = len(filler) if level_name == "all" else int(level_name)
            started = time.perf_counter()
            ours, base, special, extra = run_level(
                form, topics, filler, level, users, consent, model
            )
            elapsed = time.perf_counter() - started
            line = {
                "form": form,
                "filler": level_name,
                "filler_messages": min(level, len(filler)),
                "userlore": ours.summary(),
                "bm25": base.summary(),
                **{name: score.summary() for name, score in extra.items()},
                "seconds": round(elapsed, 1),
            }
            print(json.dumps(line), flush=True)
            for system, score in (("userlore", ours), ("bm25", base), *extra.items()):
                s = score.summary()
                section = result[system]
                section["recall"].setdefault(form, {})[level_name] = s["recall"]
                section["mean_rank"].setdefault(form, {})[level_name] = s["mean_rank"]
                section["mean_chars"].setdefault(form, {})[level_name] = s["mean_chars"]
                if system == "userlore":
                    section["leaks"].setdefault(form, {})[level_name] = s["leaks"]
            stored = result["special_categories_stored"].setdefault(form, {})
            stored[level_name] = dict(special)
    total_leaks = sum(v for f in result["userlore"]["leaks"].values() for v in f.values())
    result["cross_user_leaks"] = total_leaks
    print(json.dumps(result, sort_keys=True))
    return 0 if total_leaks == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
