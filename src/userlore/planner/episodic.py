"""Episodic recall: what the user said (and what sources hold), found even without a record.

Every user turn and source item is stored as redacted evidence and indexed in ``episodic_items``
(``store/episodic_index.py``). :func:`search_snippets` ranks them for a query, lexically (FTS5's
postings scored with the scope's own statistics on SQLite, ``tsvector`` on PostgreSQL) and fused
by :func:`~userlore.planner.fusion.rrf_fuse` with any further best-first rankings a caller passes:
vector hits over evidence (an
:data:`EvidenceRanking`) and, for a temporal question, the items whose event time falls in the
asked window. Then the same policy as records: the one filter
(:func:`~userlore.policy.filter.rejection_reason`) reassesses every snippet's text, so a secret is
never shown and a special-category turn needs consent; an item that is evidence of a forgotten or
deleted record stays out with that record; another scope's items are never read. What passes
the filter is quoted word for word, so it passes the quote gate too
(:func:`~userlore.policy.quote_gate.quote_verdict`): a withheld snippet is rejected with the
gate's reason code and category (never its text) and the next candidate takes its place.
"""

from __future__ import annotations

import functools
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, TextClause, bindparam, func, select, text

from userlore.extract.time import TimeWindow
from userlore.models import Rejection
from userlore.planner.fusion import RRF_K, rrf_fuse
from userlore.planner.search import VECTOR_FLOOR
from userlore.planner.sentences import sentence_window
from userlore.planner.snippet_policy import refusal, screen, withdrawals
from userlore.planner.speakers import (
    OWN_WEIGHT,
    SPEAKER_HEAD,
    named_speaker,
    named_speakers,
    own_turns,
    speaker_of,
    topic_of,
)
from userlore.store.driver import fetch_all
from userlore.store.schema import (
    EpisodicItem,
    KnowledgeSourceItem,
    MemoryEvidence,
)
from userlore.store.scoped_bm25 import EPISODIC, scope_top
from userlore.store.text import query_terms, scoped_terms
from userlore.store.vectors import VectorIndex

__all__ = [
    "POSTING_BUDGET",
    "EpisodicFrequencies",
    "EvidenceRanking",
    "Snippet",
    "SnippetsFound",
    "evidence_of",
    "evidence_pairs",
    "excerpt",
    "search_snippets",
    "seed_terms",
    "sentence_window",
    "withheld",
]

POSTING_BUDGET = 1_000
"""Postings the lexical episodic ranking may score: a quarter of the records' budget, since the
section shows a few snippets and a common word's postings buy little of them."""

EvidenceRanking = Callable[[Connection, str, str, int], Sequence[str]]
"""``(conn, scope, query, k) -> item ids, best first``: a further ranking of evidence to fuse
(for example vector hits of ``VectorIndex.search(scope, "evidence", qvec, k)``)."""


@dataclass(frozen=True, slots=True)
class Snippet:
    """One source item that passed the policy, with its fused score and per-ranking ranks."""

    item_id: str
    text: str
    occurred_at: datetime | None
    score: float
    lexical_rank: int | None = None
    vector_rank: int | None = None
    in_window: bool = False
    weak: bool = False
    """Found by the question's words alone while its cosine to the question is below the
    vector floor (:func:`search_snippets`): a shared word, not a shared topic."""
    joined: bool = False
    """Found only by the multi-hop second pass (``planner/expand.py``): the other side of a
    join, which the question itself did not reach."""
    withheld: str | None = None
    """The special category of the sentences left out when the turn as a whole was withheld
    and only its part the question names is quoted (:func:`~userlore.planner.snippet_policy.
    quotable_part`); ``None`` for a whole turn."""


@dataclass(slots=True)
class SnippetsFound:
    """Snippets that may be shown, best first, and a reason for every candidate kept out."""

    kept: list[Snippet] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)
    topic: str | None = None
    """What the vector rankings were asked for when it is not the question itself: the
    question without the speakers it names (:func:`~userlore.planner.speakers.topic_of`)."""


@dataclass(frozen=True, slots=True)
class _Statements:
    """The only backend differences of the episodic full-text read."""

    phrase: Callable[[tuple[str, ...]], str]
    or_join: str
    top_k: TextClause | None  # None: SQLite, scored by scoped_bm25.scope_top
    newest: TextClause
    frequencies: Callable[[int], TextClause]  # n capped counts in one statement


def _counted(one: str) -> Callable[[int], TextClause]:
    @functools.cache
    def statement(n: int) -> TextClause:
        return text("SELECT " + ", ".join(f"({one.format(i=i)}) AS c{i}" for i in range(n)))

    return statement


_SQLITE = _Statements(
    phrase=lambda tokens: '"' + " ".join(tokens) + '"',
    or_join=" OR ",
    top_k=None,
    newest=text(
        "SELECT rowid AS seq FROM episodic_items_fts "
        "WHERE episodic_items_fts MATCH :q ORDER BY rowid DESC LIMIT :k"
    ),
    frequencies=_counted(
        "SELECT count(*) FROM (SELECT 1 FROM episodic_items_fts "
        "WHERE episodic_items_fts MATCH :q{i} LIMIT :cap)"
    ),
)
_POSTGRES = _Statements(
    # A token may hold an inner apostrophe ("caroline's"); tsquery quotes double it.
    phrase=lambda tokens: (
        "(" + " <-> ".join("'" + t.replace("'", "''") + "'" for t in tokens) + ")"
    ),
    or_join=" | ",
    top_k=text(
        "SELECT seq FROM episodic_items "
        "WHERE search_tsv @@ to_tsquery('english', :q) AND scope = :scope "
        "ORDER BY ts_rank(search_tsv, to_tsquery('english', :q)) DESC, seq DESC LIMIT :k"
    ),
    newest=text(
        "SELECT seq FROM episodic_items "
        "WHERE search_tsv @@ to_tsquery('english', :q) AND scope = :scope "
        "ORDER BY seq DESC LIMIT :k"
    ),
    frequencies=_counted(
        "SELECT count(*) FROM (SELECT 1 FROM episodic_items "
        "WHERE search_tsv @@ to_tsquery('english', :q{i}) AND scope = :scope LIMIT :cap) AS m{i}"
    ),
)


class EpisodicFrequencies:
    """A small thread-safe LRU of episodic document frequencies with a time-to-live.

    As for records (``store/retrieval.py``), retrieval keeps a posting budget, rarest terms
    first, so one common word in a scope of many turns does not make every plan score all of
    them. A stale count only changes which terms are pruned; absence is never cached.
    """

    def __init__(self, max_terms: int = 50_000, ttl_s: float = 300.0) -> None:
        self.max_terms = max_terms
        self.ttl_s = ttl_s
        self._cache: OrderedDict[tuple[str, str], tuple[int, float]] = OrderedDict()
        self._lock = threading.Lock()

    def count(self, conn: Connection, scope: str, phrase: str, cap: int) -> int:
        """Items of ``scope`` holding ``phrase``, exactly up to ``cap``; ``cap + 1``: more."""
        return self.counts(conn, scope, [phrase], cap)[0]

    def counts(self, conn: Connection, scope: str, phrases: list[str], cap: int) -> list[int]:
        """:meth:`count` of each phrase; the uncached ones counted in one statement (issue 23)."""
        now = time.monotonic()
        out: list[int | None] = []
        with self._lock:
            for phrase in phrases:
                hit = self._cache.get((scope, phrase))
                if hit is not None and now - hit[1] < self.ttl_s:
                    self._cache.move_to_end((scope, phrase))
                    out.append(min(hit[0], cap + 1))
                else:
                    out.append(None)
        missing = list(dict.fromkeys(p for p, df in zip(phrases, out, strict=True) if df is None))
        if not missing:
            return [df for df in out if df is not None]
        params: dict[str, Any] = {f"q{i}": p for i, p in enumerate(missing)}
        [row] = fetch_all(
            conn,
            _statements(conn).frequencies(len(missing)),
            {**params, "cap": cap + 1, "scope": scope},
        )
        fresh = dict(zip(missing, (int(c) for c in row), strict=True))
        with self._lock:
            for phrase, df in fresh.items():
                if df:
                    self._cache[(scope, phrase)] = (df, now)
            while len(self._cache) > self.max_terms:
                self._cache.popitem(last=False)
        return [fresh[p] if df is None else df for p, df in zip(phrases, out, strict=True)]


def _statements(conn: Connection) -> _Statements:
    return _POSTGRES if conn.dialect.name == "postgresql" else _SQLITE


_ITEMS = (
    select(
        EpisodicItem.seq,
        KnowledgeSourceItem.id,
        KnowledgeSourceItem.scope,
        KnowledgeSourceItem.title,
        KnowledgeSourceItem.text,
        KnowledgeSourceItem.occurred_at,
        KnowledgeSourceItem.created_at,
        KnowledgeSourceItem.deleted_at,
        KnowledgeSourceItem.meta,
    )
    .join(
        KnowledgeSourceItem,
        (KnowledgeSourceItem.scope == EpisodicItem.scope)
        & (KnowledgeSourceItem.id == EpisodicItem.item_id),
    )
    .where(EpisodicItem.scope == bindparam("scope"))
)
_BY_SEQ = _ITEMS.where(EpisodicItem.seq.in_(bindparam("seqs", expanding=True)))
_BY_ID = _ITEMS.where(EpisodicItem.item_id.in_(bindparam("ids", expanding=True)))
_HEADS = select(
    KnowledgeSourceItem.id,
    KnowledgeSourceItem.meta,
    func.substr(KnowledgeSourceItem.text, 1, SPEAKER_HEAD).label("text"),
).where(
    KnowledgeSourceItem.scope == bindparam("scope"),
    KnowledgeSourceItem.id.in_(bindparam("ids", expanding=True)),
)
"""Enough of an item to tell who said it (``speakers.speaker_of``), without its whole text."""
_IN_WINDOW = (
    _ITEMS.where(
        KnowledgeSourceItem.occurred_at >= bindparam("start"),
        KnowledgeSourceItem.occurred_at < bindparam("end"),
    )
    .order_by(KnowledgeSourceItem.occurred_at.desc())
    .limit(bindparam("k"))
)
_EVIDENCE_OF = select(MemoryEvidence.source_item_id).where(
    MemoryEvidence.scope == bindparam("scope"),
    MemoryEvidence.record_id.in_(bindparam("ids", expanding=True)),
)
_EVIDENCE_PAIRS = select(MemoryEvidence.record_id, MemoryEvidence.source_item_id).where(
    MemoryEvidence.scope == bindparam("scope"),
    MemoryEvidence.record_id.in_(bindparam("ids", expanding=True)),
    # The turn a record states, not the neighbours linked as its context: those turns'
    # own words are not in the record, so their snippets repeat nothing.
    MemoryEvidence.relation == "stated_in",
)


def _lexical(
    conn: Connection, scope: str, query: str, k: int, stats: EpisodicFrequencies
) -> list[int]:
    """Episodic index rows matching the query's rarest terms, best first (their ``seq``).

    Terms are taken rarest first while their summed frequency fits the posting budget; when even
    the rarest is too common to rank, the newest items holding it are returned instead.
    """
    dialect = _statements(conn)
    terms = scoped_terms(scope, query)
    phrases = [dialect.phrase(term) for term in terms]
    counts = stats.counts(conn, scope, phrases, POSTING_BUDGET) if phrases else []
    sized = sorted((df, p, t) for df, p, t in zip(counts, phrases, terms, strict=True) if df > 0)
    if not sized:
        return []
    params: dict[str, Any] = {"scope": scope, "k": k}
    if sized[0][0] > POSTING_BUDGET:
        rows = conn.execute(dialect.newest, {**params, "q": sized[0][1]})
        return [int(seq) for (seq,) in rows]
    chosen: list[tuple[str, tuple[str, ...]]] = []
    total = 0
    for df, phrase, words in sized:
        if total + df > POSTING_BUDGET:
            break
        chosen.append((phrase, words))
        total += df
    if dialect.top_k is None:  # SQLite: the scope's own BM25 statistics, not FTS5's table-wide
        return [seq for seq, _ in scope_top(conn, EPISODIC, scope, [w for _, w in chosen], k)]
    rows = conn.execute(dialect.top_k, {**params, "q": dialect.or_join.join(p for p, _ in chosen)})
    return [int(seq) for (seq,) in rows]


def search_snippets(
    conn: Connection,
    scope: str,
    query: str | None,
    *,
    k: int,
    now: datetime,
    consented: frozenset[str],
    rankings: Sequence[EvidenceRanking] = (),
    window: TimeWindow | None = None,
    limit: int | None = None,
    stats: EpisodicFrequencies | None = None,
    quote_uncovered: bool = False,
    judged: bool = False,
    own: bool = False,
) -> SnippetsFound:
    """Source items of ``scope`` that may be shown now for ``query``, best first.

    Args:
        conn: An open connection.
        scope: Whose items; every statement filters by it and the filter checks it again.
        query: The question; without terms only ``window`` (if any) retrieves.
        k: Candidates per ranking.
        now: The "as of" time: items stored later are kept out (``not_yet_valid``).
        consented: Special categories the user has consented to.
        rankings: Further best-first item-id rankings fused with the lexical one (RRF).
        window: Event-time window of a temporal question: items in it form a ranking too.
        limit: Stop once this many snippets are kept.
        stats: Document-frequency cache (the planner keeps one; default: count every time).
        quote_uncovered: The app's opt-in to quoting languages the quote gate cannot read.
        judged: The first of ``rankings`` is :func:`nearest_evidence`, which lists every item
            above the vector floor: an item only the words found is then ``Snippet.weak``.
        own: A question naming one speaker gives that speaker's turns a share
            (:func:`~userlore.planner.speakers.own_turns`, over the rankings' full depth),
            and a question naming speakers asks the further rankings for its topic, the
            question without their names (:func:`~userlore.planner.speakers.topic_of`;
            ``SnippetsFound.topic``).
    """
    lexical = (
        _lexical(conn, scope, query, k, stats or EpisodicFrequencies(ttl_s=0)) if query else []
    )
    rows: dict[str, Any] = {}  # item id -> its row
    lexical_ids: list[str] = []
    if lexical:
        for row in conn.execute(_BY_SEQ, {"scope": scope, "seqs": lexical}):
            rows[row.id] = row
        by_seq = {row.seq: row.id for row in rows.values()}
        lexical_ids = [by_seq[s] for s in lexical if s in by_seq]
    # A question naming a speaker asks the vectors for its topic (``speakers.topic_of``).
    topic = _topic(query, rows) if own and query else None
    # A ranking may list more than ``k`` (the nearest vectors list every item above the floor
    # up to ``WEAK_DEPTH`` times ``k``): the first ``k`` are fused, the rest only vouch that an
    # item the words found is related (see ``Snippet.weak``).
    deep = [list(rank(conn, scope, topic or query, k)) if query else [] for rank in rankings]
    extra = [ranking[:k] for ranking in deep]
    window_ids: list[str] = []
    if window is not None:
        params = {"scope": scope, "start": window.start, "end": window.end, "k": k}
        for row in conn.execute(_IN_WINDOW, params):
            rows.setdefault(row.id, row)
            window_ids.append(row.id)
    missing = sorted({i for ranking in extra for i in ranking} - rows.keys())
    if missing:
        for row in conn.execute(_BY_ID, {"scope": scope, "ids": missing}):
            rows[row.id] = row
    fused = rrf_fuse([lexical_ids, *extra, window_ids])
    if own and query:
        fused = _with_own_turns(
            conn, scope, query, fused, [lexical_ids, *deep, window_ids], rows, k
        )
    withdrawn = withdrawals(conn, scope, sorted(rows), now) if rows else {}
    lexical_rank = {iid: n for n, iid in enumerate(lexical_ids, 1)}
    related = {i for ranking in (*deep, window_ids) for i in ranking}
    vector_rank = {iid: n for n, iid in enumerate(extra[0], 1)} if extra else {}
    found = SnippetsFound(topic=topic)
    for item_id, score in fused:
        hit = rows.get(item_id)
        if hit is None:
            continue  # a ranking named an item this scope does not hold
        text_, rejection = screen(
            hit, topic or query, scope, now, consented, withdrawn, quote_uncovered
        )
        if text_ is None:
            if rejection is not None:
                found.rejected.append(rejection)
            continue
        found.kept.append(
            Snippet(
                item_id,
                text_,
                hit.occurred_at,
                score,
                lexical_rank.get(item_id),
                vector_rank.get(item_id),
                window is not None and hit.occurred_at in window,
                judged and item_id not in related,
                withheld=rejection.category if rejection is not None else None,
            )
        )
        if limit is not None and len(found.kept) >= limit:
            break
    return found


def _topic(query: str, rows: dict[str, Any]) -> str | None:
    """The question without the speakers it names, read from who said the words' hits (the
    question's own words find a named speaker's turns); ``None`` when it names none."""
    names = named_speakers(query, {s for r in rows.values() if (s := speaker_of(r))})
    topic = topic_of(query, names) if names else query
    return topic if topic != query else None


def _with_own_turns(
    conn: Connection,
    scope: str,
    query: str,
    fused: list[tuple[str, float]],
    deep: list[list[str]],
    rows: dict[str, Any],
    k: int,
) -> list[tuple[str, float]]:
    """``fused`` with the named speaker's turns credited as one more ranking (``rows`` grows)."""
    if named_speaker(query, {s for r in rows.values() if (s := speaker_of(r))}) is None:
        return fused  # nobody named among the candidates: no deeper read
    order = [i for i, _ in rrf_fuse(deep)]
    heads: dict[str, Any] = dict(rows)
    missing = sorted(set(order) - rows.keys())
    if missing:  # who said each deeper item: its metadata and the head of its text only
        for row in conn.execute(_HEADS, {"scope": scope, "ids": missing}):
            heads[row.id] = row
    ranking = own_turns(query, order, heads, k=k)
    if not ranking:
        return fused
    unread = sorted(set(ranking) - rows.keys())
    if unread:  # the whole row only for what the ranking lists (it may be screened)
        for row in conn.execute(_BY_ID, {"scope": scope, "ids": unread}):
            rows[row.id] = row
    score = dict(fused)
    for rank, item_id in enumerate(ranking, start=1):
        score[item_id] = score.get(item_id, 0.0) + OWN_WEIGHT / (RRF_K + rank)
    return sorted(score.items(), key=lambda item: -item[1])


def withheld(
    conn: Connection,
    scope: str,
    item_ids: Sequence[str],
    *,
    now: datetime,
    consented: frozenset[str],
    quote_uncovered: bool = False,
) -> dict[str, Rejection]:
    """The items of ``item_ids`` a plan may not quote now, with the reason for each.

    The same verdict :func:`search_snippets` gives a candidate (policy filter, then the quote
    gate), without a query: what a baseline over raw turns must leave out to be held to the
    plan's policy.
    """
    if not item_ids:
        return {}
    ids = sorted(set(item_ids))
    rows = {row.id: row for row in conn.execute(_BY_ID, {"scope": scope, "ids": ids})}
    withdrawn = withdrawals(conn, scope, ids, now)
    out: dict[str, Rejection] = {}
    for item_id, row in rows.items():
        rejection = refusal(row, scope, now, consented, withdrawn, quote_uncovered)
        if rejection is not None:
            out[item_id] = rejection
    return out


def evidence_of(conn: Connection, scope: str, record_ids: Sequence[str]) -> frozenset[str]:
    """Source items that are evidence of these records (their snippets would repeat them)."""
    return frozenset(
        item for items in evidence_pairs(conn, scope, record_ids).values() for item in items
    )


def evidence_pairs(
    conn: Connection, scope: str, record_ids: Sequence[str]
) -> dict[str, frozenset[str]]:
    """Record id -> the source items it states (a record and its own turn are one unit)."""
    if not record_ids:
        return {}
    out: dict[str, set[str]] = {}
    for record_id, item_id in conn.execute(
        _EVIDENCE_PAIRS, {"scope": scope, "ids": list(record_ids)}
    ):
        out.setdefault(record_id, set()).add(item_id)
    return {rid: frozenset(items) for rid, items in out.items()}


def excerpt(text_: str, query: str | None, max_chars: int) -> str:
    """At most ``max_chars`` of ``text_``, around the first query term it contains."""
    if len(text_) <= max_chars:
        return text_
    folded = text_.casefold()
    start = 0
    for term in query_terms(query or ""):
        at = folded.find(term)
        if at >= 0:
            start = max(0, min(at - max_chars // 4, len(text_) - max_chars))
            break
    return text_[start : start + max_chars]


_ENTITY = re.compile(r"(?<![.!?:]\s)(?<!^)\b([A-Z][\w'-]+|\d{2,4})\b(?!:)")
"""A capitalised word that does not open a sentence or name a speaker (``"Mel:"``), or a
number: names, places and times, the joins a multi-hop question leaves unsaid."""
SEED_RECORDS = 3
"""The first pass's best records whose entities seed the second pass."""
SEED_TERMS = 8
"""Most seed terms in the second pass (rarest first within the posting budget anyway)."""


def seed_terms(texts: Sequence[str], query: str) -> str:
    """Entities (names, places, numbers) of the first pass's best hits that the question lacks.

    A question that joins two sessions ("what did the friend Caroline met at the support group
    recommend?") names one side; the hits for that side name the other.
    """
    asked = {t.casefold() for t in query_terms(query)}
    seen: dict[str, None] = {}
    for body in texts:
        for match in _ENTITY.finditer(body):
            word = match.group(1)
            if word.casefold() not in asked:
                seen.setdefault(word, None)
    return " ".join(list(seen)[:SEED_TERMS])


WEAK_DEPTH = 5
"""How many times ``k`` nearest evidence vectors :func:`nearest_evidence` lists: deep enough
that an item missing from the list is below the vector floor, not merely past ``k``."""


def nearest_evidence(
    vectors: VectorIndex | None, *, sentences: bool = False
) -> tuple[EvidenceRanking, ...]:
    """The ranking of stored evidence vectors nearest a query (none without embeddings).

    Put first among a read's rankings: its place is what the trace calls ``vector_rank``. It
    lists every item at or above :data:`VECTOR_FLOOR` up to ``WEAK_DEPTH * k``; a read fuses
    the first ``k`` and reads the rest only to tell a related item from a shared word. With
    ``sentences`` an item scores the best of its whole vector and its sentences' (a list
    question: "I'm doing kickboxing" inside a turn of greetings answers "what martial arts…");
    without, its whole vector alone (other questions: measured on LoCoMo, the sentences moved
    short turns out of temporal plans, ``docs/benchmarks.md`` multihop11).
    """
    if vectors is None:
        return ()

    def ranking(conn: Connection, scope: str, query: str, k: int) -> list[str]:
        depth = k * WEAK_DEPTH
        qvec = vectors.embed_query(query)
        if sentences:
            hits = vectors.search_best(conn, scope, qvec, depth, kind="evidence")
        else:
            hits = vectors.search(conn, scope, "evidence", qvec, depth)
        return [item_id for item_id, cosine in hits if cosine >= VECTOR_FLOOR]

    return (ranking,)
