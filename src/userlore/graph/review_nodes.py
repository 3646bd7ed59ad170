"""Review subgraph nodes, bound to a :class:`~userlore.Userlore` at build time:
:class:`CollectPending` → :class:`AskReviewer` (``interrupt``) → :class:`ApplyDecisions`
(wired by :mod:`userlore.graph.review`).

Nodes are synchronous callables; LangGraph runs them in a worker thread under ``ainvoke``, so the
same body serves both. Decisions go through the governed API; nodes never touch tables.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from langgraph.types import interrupt
from pydantic import BaseModel, ValidationError

from userlore.config import MemoryMode
from userlore.errors import (
    InvalidInputError,
    InvalidTransitionError,
    MemoryDisabledError,
    PolicyViolationError,
    RecordNotFoundError,
)
from userlore.graph.hitl import hitl_request, response_model
from userlore.graph.state import (
    PendingCandidate,
    ReviewDecisionRecord,
    ReviewOutcome,
    ReviewState,
)
from userlore.models import RecordState
from userlore.store.governed import validate_scope

if TYPE_CHECKING:
    from userlore.facade import Userlore

__all__ = [
    "EVIDENCE_EXCERPTS",
    "EVIDENCE_EXCERPT_CHARS",
    "ApplyDecisions",
    "AskReviewer",
    "CollectPending",
]

EVIDENCE_EXCERPTS = 2
EVIDENCE_EXCERPT_CHARS = 300


class CollectPending:
    """Load the scope's oldest pending candidates (at most ``max_batch``) with their receipts."""

    def __init__(self, lore: Userlore, max_batch: int) -> None:
        self.lore = lore
        self.max_batch = max_batch

    def __call__(self, state: ReviewState) -> dict[str, Any]:
        scope = validate_scope(state["scope"])
        reset: dict[str, Any] = {"pending": [], "decisions": [], "review_results": []}
        if self.lore.config.memory.mode in (MemoryMode.OFF, MemoryMode.READ_ONLY):
            return reset
        records = self.lore.records.list(scope, state=RecordState.CANDIDATE, limit=self.max_batch)
        pending: list[PendingCandidate] = []
        for r in reversed(records):
            excerpts = [
                str(e["text"])[:EVIDENCE_EXCERPT_CHARS]
                for e in self.lore.records.evidence(scope, r.id)[:EVIDENCE_EXCERPTS]
            ]
            pending.append(
                {
                    "record_id": r.id,
                    "version": r.version,
                    "kind": r.kind,
                    "content": r.content,
                    "canonical_key": r.canonical_key,
                    "value": r.value,
                    "path": r.path,
                    "memory_type": r.memory_type.value,
                    "explicitness": r.explicitness.value,
                    "producer": r.producer.value,
                    "confidence": r.confidence,
                    "sensitivity": r.sensitivity.value,
                    "sensitivity_category": r.sensitivity_category,
                    "evidence": excerpts,
                }
            )
        return {**reset, "pending": pending}


class AskReviewer:
    """Interrupt with a LangChain ``HITLRequest``; refuse a resume that does not validate."""

    def __call__(self, state: ReviewState) -> dict[str, Any]:
        pending = state.get("pending", [])
        if not pending:
            return {"decisions": []}
        model = response_model(len(pending))
        payload = {**hitl_request(pending), "response_schema": model.model_json_schema()}
        try:
            answer = interrupt(payload, response_schema=model)
        except ValidationError as exc:
            raise InvalidInputError(_resume_problem(exc, len(pending))) from None
        return {"decisions": _decisions(answer)}


def _resume_problem(exc: ValidationError, count: int) -> str:
    parts = []
    for err in exc.errors()[:5]:
        loc = ".".join(str(p) for p in err["loc"]) or "<root>"
        parts.append(f"{loc}: {err['msg']}")
    return (
        f"invalid review decision: expected {{'decisions': [...]}} with {count} decision(s) "
        f"of type approve / edit / reject; " + "; ".join(parts)
    )


def _decisions(answer: BaseModel) -> list[ReviewDecisionRecord]:
    out: list[ReviewDecisionRecord] = []
    for d in getattr(answer, "decisions", []):
        if d.type == "edit":
            out.append({"type": "edit", "content": d.edited_action.args.content})
        else:
            out.append({"type": d.type})
    return out


class ApplyDecisions:
    """Apply each decision through the governed API; a stale candidate is left untouched."""

    def __init__(self, lore: Userlore) -> None:
        self.lore = lore

    def __call__(self, state: ReviewState) -> dict[str, Any]:
        scope = validate_scope(state["scope"])
        results: list[ReviewOutcome] = []
        for shown, decision in zip(
            state.get("pending", []), state.get("decisions", []), strict=True
        ):
            results.append(self._apply(scope, shown, decision))
        return {"review_results": results}

    def _apply(
        self, scope: str, shown: PendingCandidate, decision: ReviewDecisionRecord
    ) -> ReviewOutcome:
        rid = shown["record_id"]
        kind = decision["type"]
        try:
            current = self.lore.records.get(scope, rid)
            if current.state is not RecordState.CANDIDATE or current.version != shown["version"]:
                # Someone changed it since the reviewer saw it: their decision was about
                # different content, so it is not applied.
                return _result(rid, kind, False, current.state.value, "stale")
            if kind == "reject":
                view = self.lore.records.reject(scope, rid)
            else:
                view = self.lore.records.approve(scope, rid, content=decision.get("content"))
        except RecordNotFoundError:
            return _result(rid, kind, False, None, "not_found")
        except InvalidTransitionError:
            return _result(rid, kind, False, None, "invalid_transition")
        except PolicyViolationError:
            return _result(rid, kind, False, None, "policy")
        except MemoryDisabledError:
            return _result(rid, kind, False, None, "read_only")
        except InvalidInputError:
            return _result(rid, kind, False, None, "invalid_input")
        return _result(rid, kind, True, view.state.value, None)


def _result(
    record_id: str, decision: str, applied: bool, state: str | None, reason: str | None
) -> ReviewOutcome:
    return {
        "record_id": record_id,
        "decision": decision,
        "applied": applied,
        "state": state,
        "reason": reason,
    }
