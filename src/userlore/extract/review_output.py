"""The strict output schema of the LLM reviewer and its validation helpers.

:class:`ReviewerOutput` is what :class:`~userlore.extract.reviewer.LLMReviewer` asks a model for
(structured output, or reply text parsed as JSON against the same schema). Every field is
required and checked by validators rather than the JSON schema, so strict provider modes accept
it. Malformed output becomes a ``ValidationError`` whose field locations and error types (never
user text) go back to the model as a correction and into traces. :func:`to_candidates` turns a
validated reply into inferred :class:`~userlore.models.CandidateInput` objects, keeping only
candidates whose evidence quotes a user message.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Any, Literal, get_args

from langchain_core.messages import BaseMessage
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from userlore.models import CandidateInput, Explicitness, MemoryType, Producer
from userlore.policy.sensitivity import redact

__all__ = [
    "INFERRED_CONFIDENCE_CAP",
    "LEVEL_LABELS",
    "MAX_CANDIDATES",
    "MAX_CONTENT_CHARS",
    "MAX_EVIDENCE_CHARS",
    "MAX_VALUE_CHARS",
    "REVIEW_KINDS",
    "Kind",
    "ProposedCandidate",
    "ReviewerOutput",
    "SensitivityLabel",
    "as_validation_error",
    "correction",
    "fold",
    "parse_text",
    "problems",
    "raw_text",
    "to_candidates",
    "validate_output",
]

Kind = Literal[
    "instruction",
    "preference",
    "style",
    "identity",
    "tooling",
    "veto",
    "goal",
    "channel",
    "workspace_fact",
    "note",
]
REVIEW_KINDS: tuple[str, ...] = get_args(Kind)
"""Record kinds a reviewer may propose."""

MAX_CANDIDATES = 20
MAX_CONTENT_CHARS = 500
MAX_VALUE_CHARS = 200
MAX_EVIDENCE_CHARS = 500
INFERRED_CONFIDENCE_CAP = 0.7
"""Inferred understanding never starts as confident as an explicit statement."""

_KEY = re.compile(r"[a-z][a-z0-9_]{0,39}/[a-z0-9][a-z0-9_.-]{0,79}")
_MEMORY_TYPE = {
    "instruction": MemoryType.PROCEDURAL,
    "style": MemoryType.PROCEDURAL,
    "tooling": MemoryType.PROCEDURAL,
    "identity": MemoryType.IDENTITY,
}
SensitivityLabel = Literal[
    "none",
    "personal",
    "special",
    "secret",
    "regulated",
    "health",
    "religion",
    "sexual_orientation",
    "ethnicity",
    "political_opinion",
    "biometric",
    "trade_union",
    "genetic",
    "criminal_record",
]
"""The model's own label: a level, or the special category by name (the floor's category wins).

A ``Literal`` has to be spelled out for the type checker and the JSON schema, so the categories
repeat ``policy.findings.SPECIAL_CATEGORIES``; ``LEVEL_LABELS`` names the rest, and
``tests/unit/test_review_sensitivity.py`` fails when the two drift apart."""
LEVEL_LABELS: frozenset[str] = frozenset({"none", "personal", "special", "secret", "regulated"})
"""The labels that are levels, not special categories."""
_CLAIMS = frozenset(get_args(SensitivityLabel)) - {"none", "personal"}


class ProposedCandidate(BaseModel):
    """One thing worth remembering about the user, supported by a verbatim quote."""

    # Every field is required (nullable where optional) so the schema also works with
    # providers' strict structured-output modes; lengths and patterns are checked by the
    # validators below rather than in the JSON schema, which some strict modes reject.
    model_config = ConfigDict(extra="forbid")

    kind: Kind = Field(description="What sort of understanding this is.")
    content: str = Field(description="One short third-person sentence about the user.")
    canonical_key: str | None = Field(description='Dedupe key such as "style/verbosity", or null.')
    value: str | None = Field(description='Short canonical value such as "terse", or null.')
    confidence: float = Field(description="How sure you are, from 0 to 1.")
    sensitivity: SensitivityLabel = Field(description="Honest sensitivity label.")
    evidence: str = Field(description="A verbatim quote from one of the user's messages.")

    @field_validator("content")
    @classmethod
    def _content(cls, v: str) -> str:
        v = v.strip()
        if not 3 <= len(v) <= MAX_CONTENT_CHARS:
            raise ValueError(f"must be 3-{MAX_CONTENT_CHARS} characters")
        return v

    @field_validator("canonical_key")
    @classmethod
    def _key(cls, v: str | None) -> str | None:
        if v is None or not v.strip():
            return None
        v = v.strip()
        if not _KEY.fullmatch(v):
            raise ValueError("must look like 'family/name' in lowercase, e.g. 'style/verbosity'")
        return v

    @field_validator("value")
    @classmethod
    def _value(cls, v: str | None) -> str | None:
        if v is None or not v.strip():
            return None
        v = v.strip()
        if len(v) > MAX_VALUE_CHARS:
            raise ValueError(f"must be at most {MAX_VALUE_CHARS} characters")
        return v

    @field_validator("confidence")
    @classmethod
    def _confidence(cls, v: float) -> float:
        if not 0.0 <= v <= 1.0:
            raise ValueError("must be within [0, 1]")
        return v

    @field_validator("evidence")
    @classmethod
    def _evidence(cls, v: str) -> str:
        v = v.strip()
        if not 3 <= len(v) <= MAX_EVIDENCE_CHARS:
            raise ValueError(f"must be 3-{MAX_EVIDENCE_CHARS} characters")
        return v


class ReviewerOutput(BaseModel):
    """Candidates proposed from the conversation; an empty list when nothing qualifies."""

    model_config = ConfigDict(extra="forbid")

    candidates: list[ProposedCandidate]

    @field_validator("candidates")
    @classmethod
    def _bounded(cls, v: list[ProposedCandidate]) -> list[ProposedCandidate]:
        if len(v) > MAX_CANDIDATES:
            raise ValueError(f"at most {MAX_CANDIDATES} candidates per pass")
        return v


def raw_text(message: Any) -> str:
    """The text of a model reply (a message, ``None`` or anything else)."""
    if isinstance(message, BaseMessage):
        return message.text
    return "" if message is None else str(message)


_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.IGNORECASE)


def parse_text(text: str) -> ReviewerOutput | ValidationError:
    """Reply text (optionally in a code fence) validated as JSON, or the ``ValidationError``."""
    try:
        return ReviewerOutput.model_validate_json(_FENCE.sub("", text.strip()))
    except ValidationError as exc:
        return exc


def validate_output(parsed: Any) -> ReviewerOutput | ValidationError:
    """Re-validate whatever the provider integration parsed against our own schema."""
    try:
        if isinstance(parsed, BaseModel):
            parsed = parsed.model_dump()
        return ReviewerOutput.model_validate(parsed)
    except ValidationError as exc:
        return exc


def as_validation_error(exc: Exception) -> ValidationError:
    """A ``ValidationError`` naming the failure class, so every malformed reply is handled alike."""
    return ValidationError.from_exception_data(
        "ReviewerOutput",
        [
            {
                "type": "value_error",
                "loc": (type(exc).__name__,),
                "input": None,
                "ctx": {"error": "malformed output"},
            }
        ],
    )


def problems(exc: ValidationError) -> list[str]:
    """Field locations and error types only: these go back to the model and into traces."""
    out = []
    for err in exc.errors()[:5]:
        loc = ".".join(str(p) for p in err["loc"]) or "<root>"
        out.append(f"{loc}:{err['type']}")
    return out


def correction(codes: list[str]) -> str:
    """The retry message naming the failing fields (``problems`` codes), never user text."""
    return (
        "Your previous reply did not validate ("
        + "; ".join(codes)
        + "). Reply again with JSON only, exactly matching the schema: "
        '{"candidates": [{"kind", "content", "canonical_key", "value", "confidence", '
        '"sensitivity", "evidence"}]}.'
    )


def fold(text: str) -> str:
    """Text normalised for quote matching: NFKC, casefolded, whitespace collapsed."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def to_candidates(
    output: ReviewerOutput, user_texts: Sequence[str]
) -> tuple[tuple[CandidateInput, ...], int]:
    """Turn validated proposals into inferred candidates; drop any without a real quote."""
    folded = [(text, fold(text), fold(redact(text))) for text in user_texts]
    out: list[CandidateInput] = []
    dropped = 0
    for p in output.candidates:
        quote = fold(p.evidence)
        source = next((t for t, raw, red in folded if quote in raw or quote in red), None)
        if source is None:
            dropped += 1
            continue
        out.append(
            CandidateInput(
                kind=p.kind,
                content=p.content,
                canonical_key=p.canonical_key,
                value=p.value,
                memory_type=_MEMORY_TYPE.get(p.kind, MemoryType.SEMANTIC),
                explicitness=Explicitness.INFERRED,
                confidence=round(min(p.confidence, INFERRED_CONFIDENCE_CAP), 4),
                importance=0.5,
                producer=Producer.REVIEWER,
                sensitivity_claim=p.sensitivity if p.sensitivity in _CLAIMS else None,
                evidence_text=source,
            )
        )
    return tuple(out), dropped
