"""Typed state of the understanding graph and the review subgraph.

State holds plain JSON values only (strings, numbers, lists, dicts) plus LangChain messages, so
every LangGraph checkpointer (in-memory, SQLite, PostgreSQL, a LangGraph server's own) can store
it without custom serializers. Candidates travel between nodes as dicts and are rebuilt into
:class:`~userlore.models.CandidateInput` only at the governed write.
"""

from __future__ import annotations

from dataclasses import asdict, fields
from enum import Enum
from typing import Annotated, Any, NotRequired, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages

from userlore.errors import InvalidInputError
from userlore.models import (
    CandidateInput,
    Disclosure,
    Explicitness,
    MemoryType,
    Pipeline,
    Producer,
)

__all__ = [
    "PendingCandidate",
    "ReviewDecisionRecord",
    "ReviewOutcome",
    "ReviewState",
    "UnderstandingState",
    "WriteOutcomeRecord",
    "candidate_from_dict",
    "candidate_to_dict",
]


class WriteOutcomeRecord(TypedDict):
    """What the governed write did with one proposal (ids and reason codes only)."""

    record_id: str | None
    action: str
    reason: str | None
    state: str | None
    producer: str


class PendingCandidate(TypedDict):
    """A candidate as it was shown to the human reviewer (the version they decided on)."""

    record_id: str
    version: int
    kind: str
    content: str
    canonical_key: str | None
    value: str | None
    path: str
    memory_type: str
    explicitness: str
    producer: str
    confidence: float
    sensitivity: str
    sensitivity_category: str | None
    evidence: list[str]


class ReviewDecisionRecord(TypedDict):
    """One validated human decision, by position of the pending candidate."""

    type: str
    content: NotRequired[str]


class ReviewOutcome(TypedDict):
    """What applying one human decision did."""

    record_id: str
    decision: str
    applied: bool
    state: str | None
    reason: str | None


class ReviewState(TypedDict, total=False):
    """State of the review subgraph.

    Attributes:
        scope: Whose inbox to review; written by ``resolve_scope`` from the run's user (an input
            ``scope`` is accepted when the run names nobody).
        pending: Candidates presented in the current interrupt.
        decisions: Validated decisions, one per pending candidate.
        review_results: What applying them did.
    """

    scope: str
    pending: list[PendingCandidate]
    decisions: list[ReviewDecisionRecord]
    review_results: list[ReviewOutcome]


class UnderstandingState(TypedDict, total=False):
    """State of the understanding graph.

    Input is ``{"messages": [...]}`` with the user named by the run (``context`` or
    ``configurable`` ``user_id``, or the LangGraph Server identity), or ``{"scope": ...,
    "messages": [...]}``; a thread accumulates messages and each run processes the latest user
    message.

    Attributes:
        scope: Tenant/user key, written by ``resolve_scope``; every read and write is filtered
            by it.
        session_key: Optional session key recorded on evidence and traces.
        messages: The conversation (LangGraph ``add_messages`` reducer).
        user_turns: User turns seen on this thread (drives the review cadence).
        last_review_turn: ``user_turns`` at the last review pass.
        proposals: Candidates proposed in this run by ``extract`` and ``review``.
        outcomes: What ``govern`` did with each proposal.
        review: Summary of this run's review decision and pass (codes and counts only).
        context: The fenced ``<user-context>`` block planned for the latest turn.
        trace_id: Trace id of that plan.
        correction: What the ``correct`` node did with the latest turn when it was an explicit
            correction (``CorrectionResult.as_dict()``: ids and codes), else ``None``.
    """

    scope: str
    session_key: str | None
    messages: Annotated[list[AnyMessage], add_messages]
    user_turns: int
    last_review_turn: int
    proposals: list[dict[str, Any]]
    outcomes: list[WriteOutcomeRecord]
    review: dict[str, Any]
    context: str
    trace_id: str | None
    pending: list[PendingCandidate]
    decisions: list[ReviewDecisionRecord]
    review_results: list[ReviewOutcome]
    correction: dict[str, Any] | None


_ENUMS: dict[str, type[Enum]] = {
    "memory_type": MemoryType,
    "explicitness": Explicitness,
    "producer": Producer,
    "pipeline": Pipeline,
    "disclosure": Disclosure,
}
_FIELDS = frozenset(f.name for f in fields(CandidateInput))


def candidate_to_dict(candidate: CandidateInput) -> dict[str, Any]:
    """A JSON-safe dict of a candidate (enums as their values; datetimes are not carried)."""
    out: dict[str, Any] = {}
    for name, value in asdict(candidate).items():
        if value is None or name in ("valid_from", "valid_until"):
            continue
        out[name] = value.value if isinstance(value, Enum) else value
    return out


def candidate_from_dict(data: dict[str, Any]) -> CandidateInput:
    """Rebuild a candidate from :func:`candidate_to_dict` output.

    Raises:
        InvalidInputError: unknown fields or enum values.
    """
    unknown = set(data) - _FIELDS
    if unknown:
        raise InvalidInputError(f"unknown candidate fields: {sorted(unknown)}")
    kwargs = dict(data)
    try:
        for name, enum in _ENUMS.items():
            if name in kwargs:
                kwargs[name] = enum(kwargs[name])
    except ValueError as exc:
        raise InvalidInputError(f"invalid candidate field: {exc}") from None
    return CandidateInput(**kwargs)
