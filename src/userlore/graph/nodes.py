"""Graph nodes, one verb each, bound to a :class:`~userlore.Userlore` at build time.

Understanding graph: :class:`Extract` → (:class:`Review` when the cadence says so) →
:class:`Govern` → :class:`PlanContext`. Review subgraph: :class:`CollectPending` →
:class:`AskReviewer` (``interrupt``) → :class:`ApplyDecisions`, which live in
:mod:`userlore.graph.review_nodes` and are re-exported here.

Nodes are synchronous callables; LangGraph runs them in a worker thread under ``ainvoke``, so the
same body serves both. Every write goes through the governed store; nodes never touch tables.
"""

from __future__ import annotations

from dataclasses import asdict, replace
from typing import TYPE_CHECKING, Any

from langchain_core.messages import AnyMessage, HumanMessage
from langgraph.config import get_config

from userlore.config import MemoryMode
from userlore.errors import InvalidInputError
from userlore.extract.explicit import Statement
from userlore.extract.reversal import find_reversals
from userlore.extract.reviewer import LLMReviewer, ReviewReport
from userlore.graph.cadence import Cadence
from userlore.graph.review_nodes import (
    EVIDENCE_EXCERPT_CHARS,
    EVIDENCE_EXCERPTS,
    ApplyDecisions,
    AskReviewer,
    CollectPending,
)
from userlore.graph.state import (
    UnderstandingState,
    WriteOutcomeRecord,
    candidate_from_dict,
    candidate_to_dict,
)
from userlore.models import CandidateInput, MemoryType, WriteAction, WriteOutcome
from userlore.store.governed import validate_scope
from userlore.understanding import (
    MAX_TURN_CHARS,
    TurnAuthor,
    govern,
    read_turn,
    record_turn,
    trace_review,
    turn_item,
    turn_statements,
)

if TYPE_CHECKING:
    from userlore.facade import Userlore

__all__ = [
    "EVIDENCE_EXCERPTS",
    "EVIDENCE_EXCERPT_CHARS",
    "ApplyDecisions",
    "AskReviewer",
    "CollectPending",
    "Extract",
    "Govern",
    "PlanContext",
    "Review",
    "latest_user_message",
]


def latest_user_message(messages: list[AnyMessage]) -> HumanMessage | None:
    """The most recent user message of a conversation, if any."""
    for message in reversed(messages):
        if isinstance(message, HumanMessage):
            return message
    return None


def _turn_text(message: HumanMessage) -> str:
    """The text of a user turn; ``""`` for a turn without text (an image, a file).

    Raises:
        InvalidInputError: the text is longer than a turn may be (as for ``Userlore.observe``).
    """
    text = message.text
    if len(text) > MAX_TURN_CHARS:
        raise InvalidInputError(f"turn is {len(text)} characters; the limit is {MAX_TURN_CHARS}")
    return text if text.strip() else ""


def _outcome(o: WriteOutcome, producer: str) -> WriteOutcomeRecord:
    rec = o.record
    return {
        "record_id": rec.id if rec else None,
        "action": o.action.value,
        "reason": o.reason,
        "state": rec.state.value if rec else None,
        "producer": producer,
    }


# -- understanding graph ----------------------------------------------------------------------


class Extract:
    """Deterministic explicit extraction of the latest user turn; also counts user turns."""

    def __init__(self, lore: Userlore, cadence: Cadence, reviewer: LLMReviewer | None) -> None:
        self.lore = lore
        self.cadence = cadence
        self.reviewer = reviewer

    def __call__(self, state: UnderstandingState) -> dict[str, Any]:
        scope = validate_scope(state["scope"])
        latest = latest_user_message(state.get("messages", []))
        turns = state.get("user_turns", 0)
        proposals: list[dict[str, Any]] = []
        if latest is not None and state.get("messages", [])[-1] is latest:
            turns += 1
            for st in turn_statements(_turn_text(latest), role="user"):
                data = asdict(st)
                data["memory_type"] = st.memory_type.value
                proposals.append({"producer": "explicit", "statement": data})
        decision = self.cadence.should_review(
            scope, user_turns=turns, last_review_turn=state.get("last_review_turn", 0)
        )
        due = decision.review and self.reviewer is not None
        review = {
            "due": due,
            "reason": decision.reason if self.reviewer is not None else "no_reviewer",
            "interval": decision.interval,
        }
        return {"user_turns": turns, "proposals": proposals, "outcomes": [], "review": review}


class Review:
    """Background synthesis by the LLM reviewer; proposes candidates, writes nothing itself."""

    def __init__(self, lore: Userlore, reviewer: LLMReviewer) -> None:
        self.lore = lore
        self.reviewer = reviewer

    def __call__(self, state: UnderstandingState) -> dict[str, Any]:
        scope = validate_scope(state["scope"])
        report = self.reviewer.propose(state.get("messages", []))
        review = {**state.get("review", {}), **_report_summary(report)}
        update: dict[str, Any] = {"review": review, "last_review_turn": state.get("user_turns", 0)}
        if report.status not in ("ok", "skipped"):
            # A failed pass is recorded; nothing it produced reaches govern.
            review["trace_id"] = trace_review(
                self.lore.memory.store,
                scope,
                report.status,
                report.trace_payload(max_errors=5),
                session_key=state.get("session_key"),
            )
            return update
        update["proposals"] = [
            *state.get("proposals", []),
            *(
                {"producer": "reviewer", "candidate": candidate_to_dict(c)}
                for c in report.candidates
            ),
        ]
        return update


def _report_summary(report: ReviewReport) -> dict[str, Any]:
    return {
        "status": report.status,
        "attempts": report.attempts,
        "proposed": len(report.candidates),
        "dropped": report.dropped,
    }


class Govern:
    """The governed write for the turn's evidence and every proposal, in one transaction."""

    def __init__(self, lore: Userlore) -> None:
        self.lore = lore

    def __call__(self, state: UnderstandingState) -> dict[str, Any]:
        scope = validate_scope(state["scope"])
        proposals = state.get("proposals", [])
        mode = self.lore.config.memory.mode
        if mode in (MemoryMode.OFF, MemoryMode.READ_ONLY):
            reason = "memory_off" if mode is MemoryMode.OFF else "read_only"
            skipped: list[WriteOutcomeRecord] = [
                {
                    "record_id": None,
                    "action": WriteAction.SKIPPED.value,
                    "reason": reason,
                    "state": None,
                    "producer": p["producer"],
                }
                for p in proposals
            ]
            return {"outcomes": skipped}
        session_key = state.get("session_key")
        messages = state.get("messages", [])
        latest = latest_user_message(messages)
        fresh = latest is not None and messages[-1] is latest
        thread_id, run_id = _ids()
        store = self.lore.memory.store
        text = _turn_text(latest) if fresh and latest is not None else ""
        proposed = [p for p in proposals if p["producer"] != "explicit"]
        outcomes: list[WriteOutcomeRecord] = []
        with store.transaction(scope) as session:
            if text and latest is not None:
                report = read_turn(text)
                item_id = turn_item(
                    store,
                    session,
                    scope,
                    text,
                    role="user",
                    session_key=session_key,
                    external_id=latest.id,
                    report=report,
                )
                turn = record_turn(
                    store,
                    session,
                    scope,
                    statements=[
                        _statement(p["statement"]) for p in proposals if p["producer"] == "explicit"
                    ],
                    item_id=item_id,
                    session_key=session_key,
                    author=TurnAuthor(thread_id=thread_id, run_id=run_id),
                    reversals=find_reversals(text),
                    content=text,
                    report=report,
                )
                outcomes.extend(_outcome(o, "explicit") for o in turn.outcomes)
            reviewed: list[WriteOutcome] = []
            for p in proposed:
                candidate = _with_ids(
                    candidate_from_dict(p["candidate"]), thread_id, run_id, session_key
                )
                outcome = govern(store, scope, candidate, session=session)
                if p["producer"] == "reviewer":
                    reviewed.append(outcome)
                outcomes.append(_outcome(outcome, p["producer"]))
            review = state.get("review", {})
            if review.get("status") == "ok":
                trace_review(
                    store,
                    scope,
                    "ok",
                    {k: v for k, v in review.items() if k != "due"},
                    session_key=session_key,
                    outcomes=reviewed,
                    session=session,
                )
        return {"outcomes": outcomes}


def _statement(data: dict[str, Any]) -> Statement:
    """An explicit statement back from its graph-state dict."""
    fields = dict(data)
    fields["memory_type"] = MemoryType(fields["memory_type"])
    fields["span"] = tuple(fields["span"])
    return Statement(**fields)


def _ids() -> tuple[str | None, str | None]:
    """Thread and run ids of the current LangGraph run, for author attribution."""
    try:
        config = get_config()
    except RuntimeError:
        return None, None
    thread = config.get("configurable", {}).get("thread_id")
    run = config.get("run_id")
    return (str(thread) if thread else None), (str(run) if run else None)


def _with_ids(
    candidate: CandidateInput, thread_id: str | None, run_id: str | None, session_key: str | None
) -> CandidateInput:
    return replace(
        candidate,
        thread_id=candidate.thread_id or thread_id,
        run_id=candidate.run_id or run_id,
        session_key=candidate.session_key or session_key,
    )


class PlanContext:
    """The read path for the latest user turn: the fenced block and its trace."""

    def __init__(self, lore: Userlore) -> None:
        self.lore = lore

    def __call__(self, state: UnderstandingState) -> dict[str, Any]:
        latest = latest_user_message(state.get("messages", []))
        query = latest.text[:MAX_TURN_CHARS] if latest is not None else ""  # the query's bound
        plan = self.lore.plan_context(state["scope"], query, session_key=state.get("session_key"))
        return {"context": plan.text, "trace_id": plan.trace_id}
