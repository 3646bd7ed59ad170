"""The one write path: how a turn, a proposal or a correction becomes records.

Every producer ends in :func:`govern`: the facade's ``observe`` and ``write``, the understanding
graph's govern node, the connected-source pipeline, feedback corrections and the LLM reviewer.
A conversation turn goes through :func:`observe_turn` (or :func:`record_turn` inside a caller's
transaction): the redacted turn becomes a conversation evidence item, each explicit statement a
governed candidate, and each governed facet statement Explicit evidence for the facet cache
(seed 002 producer (a)). The review trace is written by :func:`trace_review` alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypedDict

from sqlalchemy import select
from sqlalchemy.orm import Session

from userlore.config import MemoryMode
from userlore.errors import InvalidInputError, RecordNotFoundError, UserloreError
from userlore.extract.explicit import Statement, extract_statements
from userlore.extract.reversal import Reversal, ended_value, find_reversals, naming, new_state
from userlore.extract.time import validity
from userlore.learning.producers.explicit import observe_statements
from userlore.models import (
    CandidateInput,
    MemoryType,
    Producer,
    RecordState,
    WriteAction,
    WriteOutcome,
)
from userlore.policy.govern import Assessment
from userlore.policy.session_keys import checked_session_key
from userlore.store.concurrency import hold_write_lock
from userlore.store.governed import GovernedStore
from userlore.store.ids import derived_id
from userlore.store.record_batch import FreshRecord
from userlore.store.revisions import Revision, held_rows
from userlore.store.schema import KnowledgeSourceItem, MemoryRecord
from userlore.store.text import normalize_value
from userlore.store.views import record_view
from userlore.validation import (
    optional_identifier,
    optional_instant,
    text_field,
    validate_scope,
)

__all__ = [
    "MAX_TURN_CHARS",
    "ROLES",
    "BatchItem",
    "BatchOutcome",
    "TurnAuthor",
    "TurnRecord",
    "govern",
    "govern_batch",
    "govern_upsert_batch",
    "observe_turn",
    "record_turn",
    "review_counts",
    "statement_candidate",
    "trace_review",
    "turn_item",
    "turn_statements",
]

ROLES = frozenset({"user", "assistant", "system", "tool"})
MAX_TURN_CHARS = 32_000


@dataclass(frozen=True, slots=True)
class TurnAuthor:
    """Who wrote a turn (attribution copied onto every candidate it yields)."""

    agent_id: str | None = None
    client: str | None = None
    device: str | None = None
    thread_id: str | None = None
    run_id: str | None = None

    def attribution(self, session_key: str | None) -> Attribution:
        """The session and author fields of every candidate a turn yields, written once for
        statements and for the records a reversal ends."""
        return Attribution(
            session_key=session_key,
            author_agent_id=self.agent_id,
            author_client=self.client,
            author_device=self.device,
            thread_id=self.thread_id,
            run_id=self.run_id,
        )


class Attribution(TypedDict):
    """The :class:`~userlore.models.CandidateInput` fields that say who said it, and where."""

    session_key: str | None
    author_agent_id: str | None
    author_client: str | None
    author_device: str | None
    thread_id: str | None
    run_id: str | None


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """What the write path did with one turn: its evidence item, outcomes, new facet evidence."""

    source_item_id: str | None
    outcomes: tuple[WriteOutcome, ...] = ()
    facet_evidence: int = 0


def govern(
    store: GovernedStore,
    scope: str,
    candidate: CandidateInput,
    *,
    session: Session | None = None,
) -> WriteOutcome:
    """The governed write of one candidate: inside ``session``, or in its own transaction."""
    if session is None:
        with store.transaction(scope) as own:
            return store.govern(own, scope, candidate)
    return store.govern(session, scope, candidate)


def govern_batch(
    store: GovernedStore,
    scope: str,
    candidates: Sequence[CandidateInput],
    *,
    verdicts: Sequence[Assessment] | None = None,
    session: Session | None = None,
) -> list[WriteOutcome]:
    """:func:`govern` of many candidates, fresh keys in bulk (:meth:`GovernedStore.govern_batch`).

    The outcomes are those of governing the candidates one after another, in order; inside
    ``session``, or in one transaction of its own.
    """
    if session is None:
        with store.transaction(scope) as own:
            return store.govern_batch(own, scope, candidates, verdicts=verdicts)
    return store.govern_batch(session, scope, candidates, verdicts=verdicts)


@dataclass(frozen=True, slots=True)
class BatchItem:
    """One keyed candidate of a batch, with further evidence items to link (see
    :meth:`GovernedStore.govern_upsert`)."""

    candidate: CandidateInput
    evidence: tuple[str, ...] = ()
    evidence_relation: str = "stated_in"


@dataclass(frozen=True, slots=True)
class BatchOutcome:
    """What the batch did with one item: its outcome, or the typed error that refused it
    alone (nothing of that item was written)."""

    outcome: WriteOutcome | None
    error: UserloreError | None = None


def govern_upsert_batch(
    store: GovernedStore,
    scope: str,
    items: Sequence[BatchItem],
    *,
    session: Session | None = None,
) -> list[BatchOutcome]:
    """:meth:`GovernedStore.govern_upsert` for many keyed candidates, in a few statements.

    The policy runs per item (fields, mode, sources, the sensitivity floor, forgotten and
    deleted keys), so one refused or malformed item is refused alone and reported in its
    :class:`BatchOutcome`, while the others land. Keys nothing in ``scope`` ever held (the
    common case of a first import) are written in bulk by :meth:`RecordWriter.insert_fresh`;
    a key already held, or repeated in the batch, takes the per-item path inside a savepoint.
    All of it is one transaction (``session``'s, or its own): a storage error rolls the whole
    batch back. Outcomes are in the order of ``items``.
    """
    if session is None:
        with store.transaction(scope) as own:
            return govern_upsert_batch(store, scope, items, session=own)
    validate_scope(scope)
    results: list[BatchOutcome | None] = [None] * len(items)
    admitted: dict[int, Assessment] = {}
    for n, item in enumerate(items):
        try:
            if not item.candidate.canonical_key:
                raise InvalidInputError("govern_upsert needs a canonical_key")
            verdict = store.admit(session, scope, item.candidate)
        except UserloreError as exc:
            results[n] = BatchOutcome(None, exc)
            continue
        if isinstance(verdict, WriteOutcome):
            results[n] = BatchOutcome(verdict)
        else:
            admitted[n] = verdict
    if admitted:
        hold_write_lock(session, scope)  # which keys the scope holds is read below
    held = held_rows(
        session, scope, sorted({items[n].candidate.canonical_key or "" for n in admitted})
    )
    wanted = {i for n in admitted for i in (items[n].candidate.source_item_id, *items[n].evidence)}
    known: set[str] = set()
    for part in _parts(wanted - {None}):
        known.update(
            session.scalars(
                select(KnowledgeSourceItem.id).where(
                    KnowledgeSourceItem.scope == scope, KnowledgeSourceItem.id.in_(part)
                )
            )
        )
    fresh: dict[int, tuple[tuple[str, str], ...]] = {}
    revise: list[int] = []
    slow: list[int] = []
    seen: set[str] = set()
    for n in admitted:
        key = items[n].candidate.canonical_key or ""
        if key in seen or items[n].candidate.evidence_text:
            slow.append(n)  # a repeat of a key revises what the batch wrote; or evidence text
            seen.add(key)  # to store as an item first: the per-item path, after the batch
            continue
        seen.add(key)
        if key in held:
            revise.append(n)  # revised in place, in bulk below
            continue
        links = _links(items[n], known)
        if links is None:
            results[n] = BatchOutcome(
                None, RecordNotFoundError("an evidence item is not in this scope")
            )
            continue
        fresh[n] = links
    rows = store.insert_fresh(
        session,
        scope,
        [FreshRecord(items[n].candidate, admitted[n], links) for n, links in fresh.items()],
        store.clock(),
    )
    for n, row in zip(fresh, rows, strict=True):
        results[n] = BatchOutcome(WriteOutcome(WriteAction.CREATED, record_view(row)))
    revised = store.revise_held(
        session,
        scope,
        [
            Revision(
                items[n].candidate,
                admitted[n],
                held[items[n].candidate.canonical_key or ""],
                items[n].evidence,
                items[n].evidence_relation,
                missing=_links(items[n], known) is None,
            )
            for n in revise
        ],
    )
    for n, result in zip(revise, revised, strict=True):
        if isinstance(result, WriteOutcome):
            results[n] = BatchOutcome(result)
        elif result is not None:
            results[n] = BatchOutcome(None, result)
        else:
            slow.append(n)  # no live record of the key: govern_upsert decides (a new one)
    for n in sorted(slow):
        item = items[n]
        try:
            with session.begin_nested():
                results[n] = BatchOutcome(
                    store.govern_upsert(
                        session,
                        scope,
                        item.candidate,
                        evidence=item.evidence,
                        evidence_relation=item.evidence_relation,
                    )
                )
        except UserloreError as exc:
            results[n] = BatchOutcome(None, exc)
    return [r for r in results if r is not None]


def _parts(values: set[Any], size: int = 1_000) -> list[list[Any]]:
    """``values`` in lists of at most ``size``: an ``IN`` list stays under SQLite's bound
    parameter limit however large a caller's batch is."""
    ordered = sorted(values)
    return [ordered[i : i + size] for i in range(0, len(ordered), size)]


def _links(item: BatchItem, known: set[str]) -> tuple[tuple[str, str], ...] | None:
    """The (item id, relation) links of a fresh record; ``None`` if one is not in the scope."""
    own = item.candidate.source_item_id
    links = [(own, "stated_in")] if own is not None else []
    links += [(i, item.evidence_relation) for i in sorted(set(item.evidence) - {own})]
    if any(i not in known for i, _ in links):
        return None
    return tuple(links)


def turn_item(
    store: GovernedStore,
    session: Session,
    scope: str,
    content: str,
    *,
    role: str,
    session_key: str | None,
    external_id: str | None,
    at: datetime | None = None,
) -> str:
    """Store a turn as a redacted conversation evidence item (idempotent per ``external_id``).

    ``at`` is when the turn was said (default: now): the item's event time, so a snippet of it
    shows the day it was said and a temporal question finds it by that day.
    """
    return store.add_source_item(
        session,
        scope=scope,
        source_instance_id=derived_id("conversation", scope, session_key or "default"),
        external_id=external_id or store.new_id("turn"),
        text=content,
        meta={"role": role, "session_key": session_key},
        occurred_at=at,
    ).id


def statement_candidate(
    st: Statement,
    item_id: str | None,
    *,
    session_key: str | None = None,
    author: TurnAuthor | None = None,
    supersedes: str | None = None,
    at: datetime | None = None,
) -> CandidateInput:
    """The typed candidate for one explicit statement, with its evidence and attribution.

    ``at`` is when the statement was made: a relative expression in it ("until Friday", "next
    month", "下个月") becomes the candidate's validity interval counted from then.
    """
    who = author or TurnAuthor()
    holds = validity(st.content, at) if at is not None else None
    return CandidateInput(
        kind=st.kind,
        content=st.content,
        canonical_key=st.canonical_key,
        value=st.value,
        memory_type=st.memory_type,
        confidence=st.confidence,
        importance=st.importance,
        durability=st.durability,
        producer=Producer.EXPLICIT,
        supersedes_record_id=supersedes,
        source_item_id=item_id,
        **who.attribution(session_key),
        valid_from=holds.valid_from if holds else None,
        valid_until=holds.valid_until if holds else None,
    )


def record_turn(
    store: GovernedStore,
    session: Session,
    scope: str,
    *,
    statements: Sequence[Statement],
    item_id: str,
    session_key: str | None = None,
    author: TurnAuthor | None = None,
    at: datetime | None = None,
    reversals: Sequence[Reversal] = (),
) -> TurnRecord:
    """Govern a turn's explicit statements inside ``session`` and record their facet evidence.

    ``at`` is when the turn was said (default: now); relative times in it count from then.
    ``reversals`` (:func:`~userlore.extract.reversal.find_reversals` of the turn) end the live
    records they name (see :func:`_end_reversed`).
    """
    checked_session_key(session_key)
    said = at or store.clock()
    outcomes = tuple(
        govern(
            store,
            scope,
            statement_candidate(st, item_id, session_key=session_key, author=author, at=said),
            session=session,
        )
        for st in statements
    )
    ended = _end_reversed(
        store, session, scope, reversals, statements, outcomes, item_id, session_key, author
    )
    refused = refusal_reasons(outcomes + ended)
    if refused:
        # A turn whose statement was refused is never quoted as a snippet (planner/episodic).
        item = session.get(KnowledgeSourceItem, item_id)
        if item is not None and item.scope == scope:
            item.meta = {**(item.meta or {}), "refused": refused}
    # seed 002 producer (a): each governed facet statement is Explicit evidence.
    added = observe_statements(session, scope, statements, outcomes, item_id, store.clock())
    return TurnRecord(item_id, outcomes + ended, added)


def turn_statements(content: str, *, role: str = "user") -> list[Statement]:
    """What a turn states: its explicit statements, plus the new state and the rejected option
    its reversals name ("switched from MySQL to Postgres", "I use pnpm, not npm")."""
    statements = extract_statements(content, role=role)
    if role != "user":
        return statements
    return statements + new_state(content, find_reversals(content), statements)


def observe_turn(
    store: GovernedStore,
    scope: str,
    role: str,
    content: str,
    *,
    session_key: str | None = None,
    turn_id: str | None = None,
    author: TurnAuthor | None = None,
    at: datetime | None = None,
) -> TurnRecord:
    """Record one conversation turn and govern the explicit statements it makes.

    ``at`` is when the turn was said (default: now): the turn's evidence item is dated by it and
    relative times in the turn ("until Friday") count from it.

    Raises:
        InvalidInputError: unknown role; content that is not ``str``, empty, oversized or holds
            NUL characters or unpaired surrogates; a malformed id or author field.
        ScopeError: malformed scope.
    """
    validate_scope(scope)
    checked_session_key(session_key)
    if not isinstance(role, str) or role not in ROLES:
        raise InvalidInputError(f"role must be one of {sorted(ROLES)}, got {role!r}")
    text_field(content, "content", max_chars=MAX_TURN_CHARS)
    optional_identifier(turn_id, "turn_id", max_chars=500)
    optional_instant(at, "at")
    who = author or TurnAuthor()
    for name, value in (("agent_id", who.agent_id), ("client", who.client), ("device", who.device)):
        optional_identifier(value, name)
    if store.config.memory.mode in (MemoryMode.OFF, MemoryMode.READ_ONLY):
        return TurnRecord(None)
    statements = turn_statements(content, role=role)
    reversals = find_reversals(content) if role == "user" else []
    with store.transaction(scope) as session:
        item_id = turn_item(
            store,
            session,
            scope,
            content,
            role=role,
            session_key=session_key,
            external_id=turn_id,
            at=at,
        )
        return record_turn(
            store,
            session,
            scope,
            statements=statements,
            item_id=item_id,
            session_key=session_key,
            author=who,
            at=at,
            reversals=reversals,
        )


def refusal_reasons(outcomes: Sequence[WriteOutcome]) -> list[str]:
    """The distinct reason codes of the refused outcomes, sorted (never a value)."""
    return sorted({o.reason for o in outcomes if o.action is WriteAction.REFUSED and o.reason})


def _end_reversed(
    store: GovernedStore,
    session: Session,
    scope: str,
    reversals: Sequence[Reversal],
    statements: Sequence[Statement],
    outcomes: Sequence[WriteOutcome],
    item_id: str,
    session_key: str | None,
    author: TurnAuthor | None,
) -> tuple[WriteOutcome, ...]:
    """End what the user took back: the new state supersedes the record, which stops being live.

    A record the turn restates under its own key ("I switched from npm to pnpm") is superseded
    by that statement; any other record the reversal names gets a superseding record whose
    content is the user's sentence ("I'm not vegetarian anymore, I eat fish now"). Where the
    new record waits for approval (``confirmWrite``) the old one is paused (``needs_review``):
    a fact the user took back is never planned as current, in any mode. Records written by
    this turn are never ended by it ("I quit smoking" is itself the new state).
    """
    if not reversals:
        return ()
    own = {o.record.id for o in outcomes if o.record is not None}
    restated = {st.canonical_key for st in statements}
    live = session.scalars(
        select(MemoryRecord)
        .where(MemoryRecord.scope == scope, MemoryRecord.state == RecordState.ACTIVE.value)
        .order_by(MemoryRecord.seq)
    ).all()
    who = author or TurnAuthor()
    done: list[WriteOutcome] = []
    ended: set[str] = set()
    for rev in reversals:
        # A new value this sentence stated has already superseded its key's record ("I've gone
        # back to vim" in auto): the trace still names the form that ended it.
        for st, o in zip(statements, outcomes, strict=True):
            took = o.record is not None and o.record.state is RecordState.ACTIVE
            if not took or o.superseded_record_id is None:
                continue  # a candidate supersedes nothing yet: the old record is paused below
            if not rev.span[0] <= st.span[0] < rev.span[1]:
                continue
            gone = session.scalars(
                select(MemoryRecord).where(
                    MemoryRecord.scope == scope, MemoryRecord.id == o.superseded_record_id
                )
            ).first()
            if gone is not None and gone.state != RecordState.ACTIVE.value:
                _trace_reversal(store, session, scope, session_key, gone, rev, "same_key")
        open_rows = [
            r
            for r in live
            if r.id not in own and r.id not in ended and r.state == RecordState.ACTIVE.value
        ]
        # A resumption's own new value ("I've gone back to vim") ends what its key held.
        resumed = {
            st.canonical_key: normalize_value(st.value or st.content)
            for st in statements
            if rev.resumes and rev.span[0] <= st.span[0] < rev.span[1]
        }
        scores = {r.id: naming(rev, r.canonical_key or "", r.value, r.content) for r in open_rows}
        best = max(scores.values(), default=0.0)
        for row in open_rows:
            key = row.canonical_key or ""
            named = best > 0 and scores[row.id] == best  # only the record it names closest
            replaced = key in resumed and resumed[key] != normalize_value(row.value or row.content)
            if not named and not replaced and not (rev.obj == "" and key in restated):
                continue
            ended.add(row.id)
            rule = _reversal_rule(rev, key, named)
            _trace_reversal(store, session, scope, session_key, row, rev, rule)
            if key not in restated:
                done.append(
                    govern(
                        store,
                        scope,
                        CandidateInput(
                            kind=row.kind,
                            content=rev.content,
                            canonical_key=row.canonical_key,
                            value=ended_value(row.value, resumed=rev.resumes),
                            memory_type=MemoryType(row.memory_type),
                            path=row.path,
                            confidence=row.confidence,
                            importance=row.importance,
                            producer=Producer.EXPLICIT,
                            supersedes_record_id=row.id,
                            source_item_id=item_id,
                            **who.attribution(session_key),
                        ),
                        session=session,
                    )
                )
            if row.state == RecordState.ACTIVE.value:
                store.transition(row, RecordState.NEEDS_REVIEW, store.clock())
    return tuple(done)


def _trace_reversal(
    store: GovernedStore,
    session: Session,
    scope: str,
    session_key: str | None,
    row: MemoryRecord,
    rev: Reversal,
    rule: str,
) -> None:
    """Trace one record a reversal ended: which form, by which rule (fixed codes, no text)."""
    store.trace(
        session,
        scope,
        "governance",
        reason_code="reversal",
        session_key=session_key,
        payload={
            "record_id": row.id,
            "v": row.version,
            "operation": "reverse",
            "form": rev.form,
            "rule": rule,
        },
    )


def _reversal_rule(rev: Reversal, key: str, named: bool) -> str:
    """Why a reversal ended a record, as a fixed code for its trace (never user text)."""
    if not named:
        return "same_key"
    cls = next((c for c, k in rev.opposes if k == key), None)
    if cls is not None:
        return f"class:{cls}"
    return "resumed_named" if rev.resumes else "named"


def review_counts(outcomes: Sequence[WriteOutcome]) -> dict[str, int]:
    """How many reviewer proposals ended in each write action (every action, zeros included)."""
    counts = {a.value: 0 for a in WriteAction}
    for o in outcomes:
        counts[o.action.value] += 1
    return counts


def trace_review(
    store: GovernedStore,
    scope: str,
    status: str,
    payload: Mapping[str, Any],
    *,
    session_key: str | None = None,
    outcomes: Sequence[WriteOutcome] | None = None,
    session: Session | None = None,
) -> str:
    """Write the ``review`` trace of one reviewer pass; returns its id.

    ``outcomes`` (of a pass that reached govern) add the per-action counts; ``session`` writes
    the trace in the same transaction as those writes, otherwise in its own.
    """
    body = dict(payload)
    if outcomes is not None:
        body |= review_counts(outcomes)
    if session is None:
        return store.record_trace(
            scope, "review", reason_code=status, session_key=session_key, payload=body
        )
    return store.trace(
        session, scope, "review", reason_code=status, session_key=session_key, payload=body
    )
