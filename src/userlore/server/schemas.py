# Over 400 lines: declarations only, one pydantic class per body of the gateway's OpenAPI schema.
"""Request and response bodies of the HTTP gateway (they are its OpenAPI schema).

Receipts use the same snake_case keys as the facade, the LangChain tools and the MCP server, so
one walkthrough gives identical receipts on every surface. Request bodies accept the camelCase
names of seed 000 (``memoryType``, ``pathPrefix``) as well as snake_case.

Every constraint on a request field (pattern, length, range) comes from the constant the core's
own check uses (:mod:`userlore.validation`, :mod:`userlore.memory`, the configuration's default),
so a request the schema allows is one the core accepts; what the schema cannot say (a secret
refused by the safety policy, an unknown id) is a documented ``4xx``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from pydantic.alias_generators import to_camel

from userlore.config import UserContextConfig
from userlore.memory import MAX_QUERY_CHARS, MAX_RECALL_K
from userlore.validation import (
    IDENTIFIER_PATTERN,
    MAX_KEY_CHARS,
    MAX_PATH_CHARS,
    NON_BLANK_PATTERN,
    PATH_PATTERN,
    PATH_PREFIX_PATTERN,
)

__all__ = [
    "HTTP_PATH_PATTERN",
    "HTTP_PREFIX_PATTERN",
    "MAX_CONTENT_CHARS",
    "AuthorOut",
    "CandidateDecisionIn",
    "CandidateEditIn",
    "CitationOut",
    "ErrorBody",
    "ErrorDetail",
    "EvidenceListOut",
    "EvidenceOut",
    "FeedbackResultOut",
    "HistoryOut",
    "ImportOut",
    "MemoriesOut",
    "MemoryOut",
    "PlanIn",
    "PlanOut",
    "PurgeIn",
    "PurgeOut",
    "QualityOut",
    "RecallIn",
    "RecallOut",
    "ReceiptOut",
    "RememberIn",
    "ResponseFeedbackIn",
    "ResponseFeedbackOut",
    "SourceChangeOut",
    "SourceChangesOut",
    "SourceItemOut",
    "SourceItemsOut",
    "SyncRunOut",
    "SyncRunsOut",
    "Timestamp",
    "TraceFeedbackIn",
    "TraceFeedbackOut",
    "TraceOut",
    "TracesOut",
    "TrashOut",
    "UpdateIn",
    "VersionOut",
]

MemoryTypeName = Literal["semantic", "episodic", "procedural", "working", "identity"]
FeedbackName = Literal["helpful", "not_helpful"]


def _json_schema_reading(pattern: str) -> str:
    """``pattern`` with ``\\w`` spelled as JSON Schema (ECMA-262) reads it: ASCII only.

    Python reads ``\\w`` over Unicode, pydantic's engine over a slightly different Unicode set;
    spelled out, the schema, the gateway's enforcement and every client agree (a subset of what
    the Python API accepts).
    """
    return pattern.replace(r"\w", "A-Za-z0-9_")


HTTP_PATH_PATTERN = _json_schema_reading(PATH_PATTERN)
"""The logical path rule (``projects/x/decisions``) as the gateway states and enforces it."""
HTTP_PREFIX_PATTERN = _json_schema_reading(PATH_PREFIX_PATTERN)
"""A path filter: the same rule, surrounding slashes ignored, empty for "everywhere"."""
MAX_CONTENT_CHARS: int = UserContextConfig.model_fields["max_content_chars"].default
"""The default content limit; a store configured lower refuses longer content (422)."""

# Free text the core refuses when blank (a search: at least one non-blank character).
Content = Annotated[
    str, Field(min_length=1, max_length=MAX_CONTENT_CHARS, pattern=NON_BLANK_PATTERN)
]
# An identifier (a session key): one line, no control character, not blank.
SessionKey = Annotated[
    str, Field(min_length=1, max_length=MAX_KEY_CHARS, pattern=IDENTIFIER_PATTERN)
]
PathPrefix = Annotated[str, Field(max_length=MAX_PATH_CHARS, pattern=HTTP_PREFIX_PATTERN)]


def _iso_text(value: Any) -> Any:
    """Only ISO 8601 text is a timestamp: pydantic would also read ``0.5`` as Unix seconds."""
    if isinstance(value, datetime):
        return value
    if isinstance(value, str):
        try:
            float(value)
        except ValueError:
            return value
    raise ValueError("must be an ISO 8601 date-time string")


Timestamp = Annotated[datetime, BeforeValidator(_iso_text)]


class _In(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="forbid", frozen=True
    )


class ErrorDetail(BaseModel):
    code: str = Field(description="Stable machine-readable code, e.g. not_found.")
    message: str = Field(description="What went wrong, for a human.")


class ErrorBody(BaseModel):
    """Every 4xx/5xx answer of the gateway."""

    error: ErrorDetail


class AuthorOut(BaseModel):
    agent_id: str | None
    client: str | None
    device: str | None
    instance: str | None


class ReceiptOut(BaseModel):
    """Receipt of a lifecycle operation (same keys on every surface)."""

    id: str
    version: int
    citation: str = Field(description="id@vN of the live version.")
    state: str
    action: str
    memory_type: str
    path: str
    parent_version: int | None
    parent_state: str | None
    diff: str | None
    restorable: bool
    author: AuthorOut
    superseded_record_id: str | None


class TrashOut(BaseModel):
    memories: list[ReceiptOut]


class CitationOut(BaseModel):
    citation: str
    id: str
    version: int
    content: str
    memory_type: str
    path: str
    kind: str
    score: float
    author: AuthorOut
    updated_at: datetime


class RecallOut(BaseModel):
    citations: list[str]
    count: int
    memories: list[CitationOut]
    excluded: list[dict[str, str]]
    trace_id: str | None


class VersionOut(BaseModel):
    citation: str
    id: str
    version: int
    parent_version: int | None
    state: str
    content: str
    diff: str | None
    author: AuthorOut
    created_at: datetime


class HistoryOut(BaseModel):
    id: str
    versions: list[VersionOut]


class MemoryOut(BaseModel):
    """One stored record (any state)."""

    model_config = ConfigDict(from_attributes=True)

    id: str
    kind: str
    content: str
    canonical_key: str | None
    value: str | None
    memory_type: str
    path: str
    state: str
    user_state: str
    version: int
    explicitness: str
    confidence: float
    importance: float
    durability: str
    disclosure: str
    sensitivity: str
    sensitivity_category: str | None
    pipeline: str
    producer: str
    valid_from: datetime | None
    valid_until: datetime | None
    review_after: datetime | None
    supersedes_record_id: str | None
    conflict_group: str | None
    stability: float
    evidence_count: int
    created_at: datetime
    updated_at: datetime
    author_agent_id: str | None
    author_client: str | None
    author_device: str | None


class MemoriesOut(BaseModel):
    memories: list[MemoryOut]
    count: int


class EvidenceOut(BaseModel):
    source_item_id: str
    relation: str
    text: str
    source: str
    external_id: str
    occurred_at: datetime | None


class EvidenceListOut(BaseModel):
    id: str
    evidence: list[EvidenceOut]


class TraceOut(BaseModel):
    id: str
    event_type: str
    session_key: str | None
    reason_code: str | None
    feedback: str | None
    payload: dict[str, Any]
    chars: int
    created_at: datetime
    parent_trace_id: str | None


class TracesOut(BaseModel):
    traces: list[TraceOut]
    count: int


class SourceItemOut(BaseModel):
    id: str
    source_instance_id: str
    external_id: str
    content_hash: str
    title: str | None
    text: str
    meta: dict[str, Any]
    occurred_at: datetime | None
    pipeline: str
    blocked: bool
    synthesis_state: str
    synthesis_attempts: int
    next_attempt_at: datetime | None
    last_error: str | None
    deleted_at: datetime | None
    created_at: datetime
    updated_at: datetime


class SourceItemsOut(BaseModel):
    items: list[SourceItemOut]
    count: int


class SourceChangeOut(BaseModel):
    sequence: int
    source_instance_id: str
    source_item_id: str
    external_id: str
    change_type: str
    content_hash: str | None
    created_at: datetime


class SourceChangesOut(BaseModel):
    changes: list[SourceChangeOut]
    count: int
    next_after_sequence: int = Field(description="Pass as afterSequence to continue.")


class SyncRunOut(BaseModel):
    id: str
    source_instance_id: str
    status: str
    counts: dict[str, int]
    warnings: list[str]
    error: str | None
    started_at: datetime
    finished_at: datetime | None


class SyncRunsOut(BaseModel):
    runs: list[SyncRunOut]
    count: int


class QualityOut(BaseModel):
    """Understanding quality over a window (seed 000), from the feedback engine."""

    model_config = ConfigDict(extra="allow")

    scope: str
    window_days: int
    since: datetime
    generated_at: datetime
    funnel: dict[str, Any] = Field(description="Candidates proposed and where they are now.")
    states: dict[str, int] = Field(description="Current record states.")
    acceptance: dict[str, Any]
    acceptance_rate: float | None
    helpfulness: dict[str, Any]
    recall_helpfulness: float | None
    remediation: dict[str, int]
    cadence: dict[str, Any] = Field(description="The effective review cadence decision.")


class ResponseFeedbackOut(BaseModel):
    scope: str
    session_key: str | None
    response_at: datetime
    resolved: bool = Field(description="Whether an inject trace precedes the response.")
    trace_id: str | None
    feedback: str | None
    planned_at: datetime | None
    selected: list[str]
    in_review: list[str]


class FeedbackResultOut(BaseModel):
    scope: str
    session_key: str | None
    response_at: datetime
    trace_id: str
    feedback: str
    previous: str | None
    changed: bool
    selected: list[str]
    remediation: dict[str, Any]


class TraceFeedbackOut(BaseModel):
    trace_id: str
    feedback: str
    previous: str | None
    changed: bool
    selected: list[str]
    remediation: dict[str, Any]


class PurgeOut(BaseModel):
    scope: str
    path_prefix: str | None
    status: str
    deleted_rows: int
    residual_rows: int
    deleted: dict[str, int]
    residual: dict[str, int]


class ImportOut(BaseModel):
    scope: str
    source_scope: str
    imported: dict[str, int]
    imported_rows: int
    remapped: bool
    id_map: dict[str, str]


class SelectedOut(BaseModel):
    id: str
    version: int
    section: str
    score: float
    chars: int


class RejectedOut(BaseModel):
    id: str
    reason: str


class PlanOut(BaseModel):
    text: str
    selected: list[SelectedOut]
    rejected: list[RejectedOut]
    trace_id: str | None
    chars: int
    budget: int


# -- requests -----------------------------------------------------------------------------------


class RememberIn(_In):
    content: Content
    path: str = Field(
        min_length=1,
        max_length=MAX_PATH_CHARS,
        pattern=HTTP_PATH_PATTERN,
        examples=["projects/memory-os/decisions"],
    )
    memory_type: MemoryTypeName


class RecallIn(_In):
    query: str = Field(max_length=MAX_QUERY_CHARS)
    path: PathPrefix | None = None
    memory_type: MemoryTypeName | None = None
    k: int = Field(default=5, ge=1, le=MAX_RECALL_K)
    session_key: SessionKey | None = None


class UpdateIn(_In):
    content: Content


class CandidateDecisionIn(_In):
    content: Content | None = Field(default=None, description="Approve an edited version.")


class CandidateEditIn(_In):
    content: Content


class PlanIn(_In):
    query: str = Field(max_length=4000)
    session_key: SessionKey | None = None
    budget: int | None = Field(default=None, ge=200, le=200_000)


class PurgeIn(_In):
    confirm: Literal[True] = Field(description="Must be true: purge cannot be undone.")
    path_prefix: PathPrefix | None = None


class TraceFeedbackIn(_In):
    feedback: FeedbackName


class ResponseFeedbackIn(_In):
    session_key: SessionKey
    response_at: Timestamp
    feedback: FeedbackName
