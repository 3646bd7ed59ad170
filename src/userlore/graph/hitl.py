"""The human-approval contract of the review subgraph, shaped like LangChain's HITL middleware.

The interrupt value is a LangChain ``HITLRequest`` (``action_requests`` + ``review_configs``),
so any client that already renders ``HumanInTheLoopMiddleware`` interrupts (Agent Inbox, a
LangGraph server UI) renders a memory review too. One action request per pending candidate, all
named :data:`ACTION_NAME`; allowed decisions are ``approve``, ``edit`` and ``reject``.

The resume value is a LangChain ``HITLResponse`` (``{"decisions": [...]}``, one decision per
action request, in order). Its schema is built per interrupt (:func:`response_model`) and passed
to ``interrupt(..., response_schema=...)``: LangGraph publishes it as the interrupt's
``response_schema`` and checks every resume value against it *before* saving it, so a bad value
is refused and the same interrupt can simply be answered again. The schema pins the number of
decisions, forbids unknown fields and ``respond`` (there is no tool to answer for), and runs the
sensitivity detectors on edited content, so an edit cannot smuggle a secret in.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, create_model, field_validator

from userlore.graph.state import PendingCandidate
from userlore.policy.govern import assess_text

try:  # LangChain's own TypedDicts when the ``agents`` extra is installed
    from langchain.agents.middleware.human_in_the_loop import (
        ActionRequest,
        HITLRequest,
        ReviewConfig,
    )
except ImportError:  # pragma: no cover - the same shapes, for installs without ``langchain``
    from typing import NotRequired, TypedDict

    class ActionRequest(TypedDict):  # type: ignore[no-redef]
        name: str
        args: dict[str, Any]
        description: NotRequired[str]

    class ReviewConfig(TypedDict):  # type: ignore[no-redef]
        action_name: str
        allowed_decisions: list[Literal["approve", "edit", "reject", "respond"]]
        args_schema: NotRequired[dict[str, Any]]

    class HITLRequest(TypedDict):  # type: ignore[no-redef]
        action_requests: list[ActionRequest]
        review_configs: list[ReviewConfig]


__all__ = [
    "ACTION_NAME",
    "ALLOWED_DECISIONS",
    "ActionRequest",
    "ApproveMemory",
    "EditMemory",
    "EditedMemory",
    "EditedMemoryArgs",
    "HITLRequest",
    "RejectMemory",
    "ReviewConfig",
    "hitl_request",
    "response_model",
]

ACTION_NAME = "memory_candidate"
"""Name of every action request raised by the review subgraph."""
ALLOWED_DECISIONS: list[Literal["approve", "edit", "reject", "respond"]] = [
    "approve",
    "edit",
    "reject",
]
MAX_EDIT_CHARS = 4_000
MAX_REJECT_MESSAGE_CHARS = 500


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ApproveMemory(_Strict):
    """Activate the candidate as shown."""

    type: Literal["approve"]


class EditedMemoryArgs(_Strict):
    """What a reviewer may change: the content. It is checked like any write."""

    content: str

    @field_validator("content")
    @classmethod
    def _content(cls, v: str) -> str:
        v = v.strip()
        if not v:
            raise ValueError("edited content must not be empty")
        if len(v) > MAX_EDIT_CHARS:
            raise ValueError(f"edited content must be at most {MAX_EDIT_CHARS} characters")
        verdict = assess_text(v)
        if verdict.refused is not None:
            raise ValueError(f"edited content is refused by policy ({verdict.refused})")
        return v


class EditedMemory(_Strict):
    """LangChain's ``Action`` with the name pinned to :data:`ACTION_NAME`."""

    name: Literal["memory_candidate"]
    args: EditedMemoryArgs


class EditMemory(_Strict):
    """Activate an edited version of the candidate (LangChain ``EditDecision`` shape)."""

    type: Literal["edit"]
    edited_action: EditedMemory


class RejectMemory(_Strict):
    """Reject the candidate; ``message`` is accepted for compatibility and never stored."""

    type: Literal["reject"]
    message: str | None = Field(default=None, max_length=MAX_REJECT_MESSAGE_CHARS)


MemoryDecision = Annotated[ApproveMemory | EditMemory | RejectMemory, Discriminator("type")]


def response_model(count: int) -> type[BaseModel]:
    """The resume schema for an interrupt showing ``count`` candidates."""
    decisions: Any = Annotated[list[MemoryDecision], Field(min_length=count, max_length=count)]
    return create_model(
        "MemoryReviewResponse",
        __config__=ConfigDict(extra="forbid"),
        __doc__=(
            f"LangChain HITLResponse: exactly {count} decision(s), one per action request, "
            "in order."
        ),
        decisions=(decisions, ...),
    )


def _describe(c: PendingCandidate) -> str:
    origin = "stated by the user" if c["explicitness"] == "explicit" else "inferred"
    key = f" [{c['canonical_key']}]" if c["canonical_key"] else ""
    gate = ""
    if c["sensitivity"] == "special":
        gate = f" Sensitive ({c['sensitivity_category']}): kept out of context without consent."
    return (
        f"Remember this {c['kind']}{key}? {c['content']} "
        f"({origin}, confidence {c['confidence']:.2f}).{gate}"
    )


def hitl_request(pending: list[PendingCandidate]) -> HITLRequest:
    """The interrupt value for a batch of pending candidates."""
    actions: list[ActionRequest] = [
        {
            "name": ACTION_NAME,
            "args": {
                "record_id": c["record_id"],
                "version": c["version"],
                "kind": c["kind"],
                "content": c["content"],
                "canonical_key": c["canonical_key"],
                "value": c["value"],
                "path": c["path"],
                "memory_type": c["memory_type"],
                "explicitness": c["explicitness"],
                "producer": c["producer"],
                "confidence": c["confidence"],
                "sensitivity": c["sensitivity"],
                "evidence": list(c["evidence"]),
            },
            "description": _describe(c),
        }
        for c in pending
    ]
    configs: list[ReviewConfig] = [
        {"action_name": ACTION_NAME, "allowed_decisions": list(ALLOWED_DECISIONS)}
    ]
    return {"action_requests": actions, "review_configs": configs}
