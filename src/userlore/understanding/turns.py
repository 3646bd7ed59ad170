"""A conversation turn becomes records: its evidence item, its statements, their facet evidence.

:func:`observe_turn` validates and records a turn in its own transaction; :func:`record_turn`
does the same inside a caller's (the connected-source pipeline's).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from userlore.config import MemoryMode
from userlore.errors import InvalidInputError
from userlore.extract.explicit import Statement, extract_statements
from userlore.extract.reversal import Reversal, find_reversals, new_state
from userlore.extract.time import validity
from userlore.learning.producers.explicit import observe_statements
from userlore.models import CandidateInput, Producer, WriteAction, WriteOutcome
from userlore.policy.govern import context_claim, context_values
from userlore.policy.sensitivity import SensitivityReport, classify
from userlore.policy.session_keys import checked_session_key
from userlore.store.governed import GovernedStore
from userlore.store.ids import derived_id
from userlore.store.schema import KnowledgeSourceItem
from userlore.understanding.attribution import TurnAuthor
from userlore.understanding.reversals import end_reversed
from userlore.understanding.write import govern
from userlore.validation import (
    optional_identifier,
    optional_instant,
    text_field,
    validate_scope,
)

ROLES = frozenset({"user", "assistant", "system", "tool"})
MAX_TURN_CHARS = 32_000


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """What the write path did with one turn: its evidence item, outcomes, new facet evidence,
    and the floor's reading of the turn when the write path read it (:func:`read_turn`), which
    the turn's safety report reuses."""

    source_item_id: str | None
    outcomes: tuple[WriteOutcome, ...] = ()
    facet_evidence: int = 0
    report: SensitivityReport | None = None


def read_turn(content: str) -> SensitivityReport:
    """The floor's reading of a turn, once: its evidence item's redaction (:func:`turn_item`)
    and its statements' claims (:func:`record_turn`) both read it."""
    return classify(content)


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
    report: SensitivityReport | None = None,
) -> str:
    """Store a turn as a redacted conversation evidence item (idempotent per ``external_id``).

    ``at`` is when the turn was said (default: now): the item's event time, so a snippet of it
    shows the day it was said and a temporal question finds it by that day. ``report`` is the
    floor's reading of ``content`` when the caller has it (:func:`read_turn`).
    """
    return store.add_source_item(
        session,
        scope=scope,
        source_instance_id=derived_id("conversation", scope, session_key or "default"),
        external_id=external_id or store.new_id("turn"),
        text=content,
        meta={"role": role, "session_key": session_key},
        occurred_at=at,
        report=report,
    ).id


def statement_candidate(
    st: Statement,
    item_id: str | None,
    *,
    session_key: str | None = None,
    author: TurnAuthor | None = None,
    supersedes: str | None = None,
    at: datetime | None = None,
    claim: str | None = None,
) -> CandidateInput:
    """The typed candidate for one explicit statement, with its evidence and attribution.

    ``at`` is when the statement was made: a relative expression in it ("until Friday", "next
    month", "下个月") becomes the candidate's validity interval counted from then. ``claim``
    is the floor's reading of the whole turn (:func:`~userlore.policy.govern.context_claim`).
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
        sensitivity_claim=claim,
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
    content: str | None = None,
    report: SensitivityReport | None = None,
) -> TurnRecord:
    """Govern a turn's explicit statements inside ``session`` and record their facet evidence.

    ``at`` is when the turn was said (default: now); relative times in it count from then.
    ``reversals`` (:func:`~userlore.extract.reversal.find_reversals` of the turn) end the live
    records they name (see :func:`~userlore.understanding.reversals.end_reversed`).
    ``content`` is the turn's raw text: a statement holding a value the floor finds in the
    whole turn is refused like the value, though its own words carry no cue; ``report`` is the
    floor's reading of ``content`` when the caller has it (:func:`read_turn`).
    """
    checked_session_key(session_key)
    said = at or store.clock()
    found = context_values(content, report) if content and statements else ()
    outcomes = tuple(
        govern(
            store,
            scope,
            statement_candidate(
                st,
                item_id,
                session_key=session_key,
                author=author,
                at=said,
                claim=context_claim(found, st.content, st.value),
            ),
            session=session,
        )
        for st in statements
    )
    ended = end_reversed(
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
    return TurnRecord(item_id, outcomes + ended, added, report)


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
    report = read_turn(content)
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
            report=report,
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
            content=content,
            report=report,
        )


def refusal_reasons(outcomes: Sequence[WriteOutcome]) -> list[str]:
    """The distinct reason codes of the refused outcomes, sorted (never a value)."""
    return sorted({o.reason for o in outcomes if o.action is WriteAction.REFUSED and o.reason})
