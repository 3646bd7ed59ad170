"""LoCoMo evidence recall within a 6,000-character context plan, against BM25 over raw turns.

Protocol (``../shared/data/README.md``): every conversation is ingested as a connected source
(one item per turn, the session date as its time, ``"{speaker}: {text}"`` plus
``[image: caption]``), the connected-knowledge pipeline runs, and for every question a context
plan is built with the default 6,000-character budget. A gold ``dia_id`` counts as retrieved when
a selected record is linked to that turn's item as ``stated_in`` evidence (the record's own text;
daily notes, which only summarize, earn nothing), or when the plan's episodic section quotes that
turn's item itself (the snippet is the turn's redacted text); every userlore row counts both
(``plan_turns``). Reported per category and overall: mean evidence recall, the share of
questions with all their evidence (all-evidence rate), the mean characters used and recall per
1,000 characters.

The baseline, computed in the same run over the same turns: BM25 (k1 1.2, b 0.75, words
lower-cased, English stopwords dropped) over the raw turn texts, filled in rank order to 6,000
characters (one turn per line); every baseline row (BM25, dense, hybrid) fills the same
6,000 characters the same way (``fill``).

Each conversation is its own scope; the benchmark grants the ``health`` consent in those scopes
(a few turns mention allergies) and says so in its output; ``--consents none|health|all`` picks
the grant (``all``: every special category), so the policy's share of the gap can be read. The
row ``hybrid_turns_gated`` holds hybrid over raw turns to the plan's policy: the turns a plan may
not quote under the same consents (policy filter and quote gate, ``episodic.withheld``) are left
out before filling. ``entry_parts`` says where a plan's characters go (frame, section headers,
and per entry its id, version, date, key, the JSON around the text, and the text itself).
Questions without evidence are skipped.

With ``--embeddings local`` (the bundled all-MiniLM-L6-v2, ``userlore[local]``) every record and
turn is embedded by the write path and the same run reports, over the same turns and vectors:
``userlore`` (the hybrid plan: BM25 + vectors fused by RRF), ``userlore_bm25`` (the same database
planned with the vectors switched off), ``dense`` (raw turns ranked by cosine to the question,
filled to 6,000 characters like the BM25 baseline) and ``hybrid_turns`` (raw turns, BM25 and
dense fused by RRF).

Usage: python benchmarks/locomo.py --data ../shared/data/locomo/locomo_public.json [--url URL]
       [--embeddings local|none]
The last line printed is one JSON object: ``{"userlore": {...}, "bm25": {...}, ...}``.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from embedding_cache import (  # first: one BLAS thread
    DEFAULT_CACHE,
    CachedEmbeddings,
    add_embedding_arguments,
    bench_embeddings,
)
from sqlalchemy import select

from userlore import Userlore
from userlore.extract.time import question_window
from userlore.models import ConsentCategory
from userlore.planner.episodic import nearest_evidence, search_snippets, withheld
from userlore.planner.fusion import rrf_fuse
from userlore.sources.adapters.locomo import LocomoTranscriptAdapter, turn_text
from userlore.store.schema import KnowledgeSourceItem, MemoryEvidence

BUDGET = 6_000
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
CONSENT_GRANTS: dict[str, tuple[str, ...]] = {
    "none": (),
    "health": ("health",),
    "all": tuple(sorted(c.value for c in ConsentCategory)),
}
"""What ``--consents`` grants in every conversation's scope (default ``health``)."""
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_STOP = frozenset(
    {
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "but",
        "by",
        "for",
        "from",
        "had",
        "has",
        "have",
        "he",
        "her",
        "his",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "me",
        "my",
        "of",
        "on",
        "or",
        "our",
        "she",
        "so",
        "that",
        "the",
        "their",
        "them",
        "they",
        "this",
        "to",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "you",
        "your",
        "did",
        "do",
        "does",
        "how",
    }
)


def gold_ids(evidence: Iterable[Any]) -> set[str]:
    """Normalize gold evidence ids: split ``"D8:6; D9:17"``, drop leading zeros (``D30:05``)."""
    out: set[str] = set()
    for raw in evidence:
        for part in re.split(r"[;,\s]+", str(raw)):
            m = re.fullmatch(r"D0*(\d+):0*(\d+)", part.strip())
            if m:
                out.add(f"D{m.group(1)}:{m.group(2)}")
    return out


def norm_dia(dia_id: str) -> str:
    ids = gold_ids([dia_id])
    return next(iter(ids)) if ids else dia_id


# -- BM25 baseline ------------------------------------------------------------------------------


def tokens(text: str) -> list[str]:
    return [t for t in _WORD.findall(text.lower()) if t not in _STOP]


class BM25:
    """Okapi BM25 over a list of documents."""

    def __init__(self, docs: Sequence[str], k1: float = 1.2, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        self.docs = [Counter(tokens(d)) for d in docs]
        self.lengths = [sum(c.values()) for c in self.docs]
        self.avg = sum(self.lengths) / max(1, len(self.lengths))
        df: Counter[str] = Counter()
        for c in self.docs:
            df.update(c.keys())
        n = len(self.docs)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}

    def rank(self, query: str) -> list[int]:
        terms = set(tokens(query))
        scores: list[tuple[float, int]] = []
        for i, doc in enumerate(self.docs):
            s = 0.0
            norm = self.k1 * (1 - self.b + self.b * self.lengths[i] / self.avg)
            for t in terms:
                f = doc.get(t)
                if f:
                    s += self.idf[t] * f * (self.k1 + 1) / (f + norm)
            if s > 0:
                scores.append((s, i))
        scores.sort(key=lambda x: (-x[0], x[1]))
        return [i for _, i in scores]


def fill(texts: Sequence[str], order: Sequence[int], budget: int) -> tuple[list[int], int]:
    """Take documents in rank order while they fit (one per line)."""
    chosen: list[int] = []
    used = 0
    for i in order:
        cost = len(texts[i]) + (1 if chosen else 0)
        if used + cost > budget:
            continue
        chosen.append(i)
        used += cost
    return chosen, used


# -- scoring ------------------------------------------------------------------------------------


class Tally:
    def __init__(self) -> None:
        self.recall: dict[str, list[float]] = defaultdict(list)
        self.complete: list[float] = []
        self.chars: list[int] = []

    def add(self, category: str, gold: set[str], found: set[str], chars: int) -> None:
        hit = len(gold & found) / len(gold)
        self.recall[category].append(hit)
        self.recall["overall"].append(hit)
        self.complete.append(1.0 if gold <= found else 0.0)
        self.chars.append(chars)

    def summary(self) -> dict[str, Any]:
        by_cat = {
            name: round(statistics.fmean(self.recall[name]), 4)
            for name in CATEGORIES.values()
            if self.recall.get(name)
        }
        recall = statistics.fmean(self.recall["overall"])
        chars = statistics.fmean(self.chars)
        return {
            "overall_recall": round(recall, 4),
            "recall_by_category": by_cat,
            "all_evidence_rate": round(statistics.fmean(self.complete), 4),
            "mean_chars": round(chars, 1),
            # what a plan holds for the characters it spends: a plan that fills its budget with
            # turns nobody asked about scores the same recall at a worse rate
            "recall_per_1k_chars": round(recall / (chars / 1000), 4) if chars else None,
        }


_LINE = re.compile(r"(\d{4}-\d{2}-\d{2} )?\[")
"""A line of entries: a JSON list, after the day its entries share when they are dated."""


class EntryParts:
    """Where a plan's characters go: the frame, section headers, and each entry by part."""

    FIELDS = ("id", "v", "date", "key")

    def __init__(self) -> None:
        self.plans = 0
        self.entries = 0
        self.total: Counter[str] = Counter()

    def add(self, text: str) -> None:
        if not text:
            return
        self.plans += 1
        rest = len(text)
        for line in text.splitlines():
            if line.startswith("## "):
                self.total["section headers"] += len(line) + 1
                rest -= len(line) + 1
            elif match := _LINE.match(line):
                day = len(match.group(1) or "")
                entries = json.loads(line[day:])
                spent = sum(self._entry(entry) for entry in entries)
                self.entries += len(entries)
                self.total["line date"] += day
                self.total["list brackets and commas"] += len(line) + 1 - spent - day
                rest -= len(line) + 1
        self.total["frame (fence, preamble)"] += rest

    def _entry(self, entry: dict[str, Any] | list[Any]) -> int:
        full = len(json.dumps(entry, ensure_ascii=False, separators=(",", ":")))
        if not isinstance(entry, dict):
            self.total["entry: other"] += full
            return full
        text = entry.get("text", "")
        content = len(json.dumps(text, ensure_ascii=False)) - 2
        self.total["entry: text content"] += content
        spent = content
        for name in self.FIELDS:
            if name in entry:
                part = len(json.dumps({name: entry[name]}, ensure_ascii=False)) - 2 + 1
                self.total[f"entry: {name}"] += part
                spent += part
        self.total["entry: text key, braces"] += full - spent
        return full

    def summary(self) -> dict[str, Any]:
        if not self.plans:
            return {}
        per_plan = {k: round(v / self.plans, 1) for k, v in sorted(self.total.items())}
        per_entry = {
            k.removeprefix("entry: "): round(v / self.entries, 1)
            for k, v in sorted(self.total.items())
            if k.startswith("entry: ")
        }
        return {
            "entries_per_plan": round(self.entries / self.plans, 1),
            "chars_per_plan": per_plan,
            "chars_per_entry": per_entry,
        }


def evidence_map(lore: Userlore, scope: str) -> dict[str, set[str]]:
    """record id -> the dia_ids of the turns it states (``stated_in`` evidence)."""
    stmt = (
        select(MemoryEvidence.record_id, KnowledgeSourceItem.meta)
        .join(KnowledgeSourceItem, KnowledgeSourceItem.id == MemoryEvidence.source_item_id)
        .where(MemoryEvidence.scope == scope, MemoryEvidence.relation == "stated_in")
    )
    out: dict[str, set[str]] = defaultdict(set)
    with lore.memory.store.transaction() as session:
        for record_id, meta in session.execute(stmt):
            dia = (meta or {}).get("dia_id")
            if dia:
                out[record_id].add(norm_dia(str(dia)))
    return out


def item_turns(lore: Userlore, scope: str) -> dict[str, str]:
    """source item id -> the dia_id of the turn it holds (what an episodic snippet quotes)."""
    stmt = select(KnowledgeSourceItem.id, KnowledgeSourceItem.meta).where(
        KnowledgeSourceItem.scope == scope
    )
    out: dict[str, str] = {}
    with lore.memory.store.transaction() as session:
        for item_id, meta in session.execute(stmt):
            dia = (meta or {}).get("dia_id")
            if dia:
                out[item_id] = norm_dia(str(dia))
    return out


def plan_turns(plan: Any, stated: dict[str, set[str]], quoted: dict[str, str]) -> set[str]:
    """The turns a plan holds: its records' ``stated_in`` turns and the turns its snippets quote.

    Every userlore row counts through this one function, so the rows count the same things.
    """
    found: set[str] = set()
    for rid in plan.selected_ids:
        found |= stated.get(rid, set())
    found |= {quoted[s.item_id] for s in plan.snippets if s.item_id in quoted}
    return found


MISS_DEPTH = 200
"""How deep the diagnosis looks for a turn the plan never listed (\"ranked low\" vs never)."""
_PLACEMENT = {"budget", "class_budget", "duplicate", "weak_relevance"}
_STANDING = ("instructions", "profile")


def miss_reasons(
    lore: Userlore,
    scope: str,
    question: str,
    plan: Any,
    missed: set[str],
    stated: dict[str, set[str]],
    items_of: dict[str, set[str]],
) -> list[str]:
    """Why each of ``missed`` (turns hybrid raw found and the plan did not) is not in the plan.

    Read from the plan's own trace (every candidate dropped has a reason code): ``gate`` (the
    policy filter or quote gate withheld the turn), ``displaced by records`` (no room left, and
    non-standing records took part of it), ``cut by budget`` (no room, only snippets and the
    standing profile before it), ``snippet cap`` (the count of snippets was reached),
    ``duplicate``, ``weak relevance`` (found by words alone, its cosine below the vector
    floor), ``record dropped: REASON`` (the turn's record was a candidate, its snippet
    was not), ``ranked low`` (not among the plan's candidates, but within the first
    ``MISS_DEPTH`` of its rankings) and ``never retrieved``.
    """
    store = lore.memory.store
    store.flush_traces()
    payload = lore.traces.get(scope, plan.trace_id)["payload"]
    episodic = payload.get("episodic", {})
    snippet_reason = {r["id"]: r["reason"] for r in episodic.get("rejected", [])}
    record_reason = {r["id"]: r["reason"] for r in payload.get("rejected", [])}
    records_placed = any(s.section not in _STANDING for s in plan.selected)
    deep: set[str] | None = None
    out: list[str] = []
    for dia in sorted(missed):
        items = items_of.get(dia, set())
        reasons = [snippet_reason[i] for i in items if i in snippet_reason]
        if reasons:
            reason = reasons[0]
            if reason not in _PLACEMENT:
                out.append(f"gate: {reason}")
            elif reason == "budget":
                out.append("displaced by records" if records_placed else "cut by budget")
            else:
                named = {"class_budget": "snippet cap", "weak_relevance": "weak relevance"}
                out.append(named.get(reason, reason))
            continue
        dropped = [
            record_reason[r] for r, turns in stated.items() if dia in turns and r in record_reason
        ]
        if dropped:
            out.append(f"record dropped: {dropped[0]}")
            continue
        if deep is None:
            now = store.clock()
            with store.engine.connect() as conn:
                found = search_snippets(
                    conn,
                    scope,
                    question,
                    k=MISS_DEPTH,
                    now=now,
                    consented=store.consents_in(conn, scope),
                    rankings=nearest_evidence(store.vectors),
                    window=question_window(question, now),
                )
            deep = {s.item_id for s in found.kept} | {r.id for r in found.rejected}
        out.append("ranked low" if items & deep else "never retrieved")
    return out


def run(
    data: list[dict[str, Any]],
    *,
    limit: int | None = None,
    url: str = "sqlite://",
    embeddings: str = "none",
    cache: Path | None = DEFAULT_CACHE,
    quote_uncovered: bool = False,
    misses: bool = False,
    consents: str = "health",
) -> dict[str, Any]:
    """Run every row over ``data``; with ``misses`` also the miss breakdown per category.

    ``consents`` names what is granted in every scope (:data:`CONSENT_GRANTS`).
    """
    granted = CONSENT_GRANTS[consents]
    ours, base = Tally(), Tally()
    breakdown: dict[str, Counter[str]] = defaultdict(Counter)
    plain, dense, fused, gated = Tally(), Tally(), Tally(), Tally()
    parts = EntryParts()
    ingest_s = 0.0
    plan_ms: list[float] = []
    turns_total = 0
    questions = 0
    config: dict[str, Any] = {
        "memory": {"mode": "auto", "sources": ["session", "curated", "connected"]},
        # The app's opt-in to quoting text the quote gate cannot read (default: withheld).
        "planner": {"quoteUncoveredLanguages": quote_uncovered},
    }
    model = bench_embeddings(embeddings, cache)
    with Userlore.open(url, config=config, embeddings=model) as lore:
        store = lore.memory.store
        index = store.vectors
        for sample in data:
            adapter = LocomoTranscriptAdapter(sample)
            scope = "locomo-" + re.sub(r"[^A-Za-z0-9_.-]", "-", str(sample.get("sample_id")))
            for category in granted:
                lore.consent.grant(scope, category)
            t0 = time.perf_counter()
            lore.sources.ingest(scope, adapter)
            ingest_s += time.perf_counter() - t0
            stated = evidence_map(lore, scope)
            quoted = item_turns(lore, scope)
            items_of: dict[str, set[str]] = defaultdict(set)  # dia_id -> its items
            for item_id, dia in quoted.items():
                items_of[dia].add(item_id)
            turns = [
                (norm_dia(str(t["dia_id"])), turn_text(t))
                for _, _, session_turns in adapter.sessions()
                for t in session_turns
                if t.get("dia_id")
            ]
            turns_total += len(turns)
            bm25 = BM25([text for _, text in turns])
            texts = [text for _, text in turns]
            position = {dia: i for i, (dia, _) in enumerate(turns)}
            turn_of_item = item_turns(lore, scope) if index is not None else {}
            # The turns the plan's policy lets a plan quote under these consents.
            with store.engine.connect() as conn:
                blocked = withheld(
                    conn,
                    scope,
                    list(quoted),
                    now=store.clock(),
                    consented=store.consents_in(conn, scope),
                    quote_uncovered=quote_uncovered,
                )
            quotable = {dia for item, dia in quoted.items() if item not in blocked}
            for qa in sample.get("qa", []):
                gold = gold_ids(qa.get("evidence") or [])
                if not gold:
                    continue
                if limit is not None and questions >= limit:
                    break
                questions += 1
                category = CATEGORIES.get(int(qa.get("category", 0)), "other")
                question = str(qa["question"])
                t1 = time.perf_counter()
                plan = lore.plan_context(scope, question, budget=BUDGET)
                plan_ms.append((time.perf_counter() - t1) * 1000)
                held = plan_turns(plan, stated, quoted)
                ours.add(category, gold, held, plan.chars)
                parts.add(plan.text)
                lexical = bm25.rank(question)
                chosen, used = fill(texts, lexical, BUDGET)
                base.add(category, gold, {turns[i][0] for i in chosen}, used)
                if index is None:
                    continue
                store.vectors = None  # the same database, planned by BM25 alone
                try:
                    bm25_plan = lore.plan_context(scope, question, budget=BUDGET)
                finally:
                    store.vectors = index
                plain.add(category, gold, plan_turns(bm25_plan, stated, quoted), bm25_plan.chars)
                with store.engine.connect() as conn:
                    near = index.search(
                        conn, scope, "evidence", index.embed_query(question), len(turns)
                    )
                nearest = [
                    position[turn_of_item[iid]]
                    for iid, _ in near
                    if turn_of_item.get(iid) in position
                ]
                chosen, used = fill(texts, nearest, BUDGET)
                dense.add(category, gold, {turns[i][0] for i in chosen}, used)
                order = [i for i, _ in rrf_fuse([lexical, nearest])]
                chosen, used = fill(texts, order, BUDGET)
                raw_found = {turns[i][0] for i in chosen}
                fused.add(category, gold, raw_found, used)
                allowed = [i for i in order if turns[i][0] in quotable]
                chosen, used = fill(texts, allowed, BUDGET)
                gated.add(category, gold, {turns[i][0] for i in chosen}, used)
                missed = (gold & raw_found) - held
                if misses and missed:
                    for reason in miss_reasons(
                        lore, scope, question, plan, missed, stated, items_of
                    ):
                        breakdown[category][reason] += 1
                        breakdown["overall"][reason] += 1
    plan_ms.sort()
    extra = (
        {}
        if index is None
        else {
            "userlore_bm25": plain.summary(),
            "dense": dense.summary(),
            "hybrid_turns": fused.summary(),
            "hybrid_turns_gated": gated.summary(),
        }
    )
    return {
        "userlore": ours.summary(),
        "bm25": base.summary(),
        **extra,
        **({"misses": {c: dict(n.most_common()) for c, n in breakdown.items()}} if misses else {}),
        "_run": {
            "conversations": len(data),
            "turns": turns_total,
            "questions": questions,
            "ingest_and_synthesis_s": round(ingest_s, 2),
            "plan_ms_p50": round(plan_ms[len(plan_ms) // 2], 2) if plan_ms else None,
            "plan_ms_p95": round(plan_ms[int(len(plan_ms) * 0.95)], 2) if plan_ms else None,
            "consent_granted": list(granted),
            "entry_parts": parts.summary(),
            "budget_chars": BUDGET,
            "embeddings": embeddings,
            "quote_uncovered_languages": quote_uncovered,
            **(
                {"embedding_cache": {"hits": model.hits, "computed": model.misses}}
                if isinstance(model, CachedEmbeddings)
                else {}
            ),
            "backend": lore.memory.store.engine.dialect.name,
        },
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", required=True, help="a LoCoMo-format JSON file")
    parser.add_argument("--limit", type=int, help="only the first N questions (smoke runs)")
    parser.add_argument(
        "--conversations", type=int, help="only the first N conversations (iteration runs)"
    )
    parser.add_argument(
        "--select",
        help="only these conversations, 1-based, e.g. 1,2,3 (develop on some, check on others)",
    )
    parser.add_argument(
        "--misses",
        action="store_true",
        help="with --embeddings local: why each turn hybrid raw found is missing from the plan",
    )
    parser.add_argument(
        "--url", default="sqlite://", help="an empty database (default: in-memory SQLite)"
    )
    parser.add_argument(
        "--quote-uncovered",
        action="store_true",
        help="opt in to quoting languages the quote gate cannot read (its cost on recall)",
    )
    parser.add_argument(
        "--consents",
        choices=sorted(CONSENT_GRANTS),
        default="health",
        help="special categories granted in every scope: none, health (default) or all",
    )
    add_embedding_arguments(parser)
    args = parser.parse_args(argv)
    raw = json.loads(Path(args.data).read_text(encoding="utf-8"))
    data = raw if isinstance(raw, list) else [raw]
    if args.conversations is not None:
        data = data[: args.conversations]
    if args.select:
        data = [data[int(n) - 1] for n in args.select.split(",") if n.strip()]
    result = run(
        data,
        limit=args.limit,
        url=args.url,
        embeddings=args.embeddings,
        cache=Path(args.embedding_cache) if args.embedding_cache else None,
        quote_uncovered=args.quote_uncovered,
        misses=args.misses,
        consents=args.consents,
    )
    info = result.pop("_run")
    print(json.dumps({"run": info}, indent=2))
    for system in result:
        print(json.dumps({system: result[system]}, indent=2))
    print(json.dumps(result, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
