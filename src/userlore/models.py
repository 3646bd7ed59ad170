"""Domain types shared by every layer.

Enums are ``StrEnum`` so they store as plain text; value objects are frozen dataclasses so a
record handed to a caller can never be mutated behind the store's back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from userlore.validation import enum_field

__all__ = [
    "CandidateInput",
    "ConsentCategory",
    "ContextPlan",
    "Disclosure",
    "Explicitness",
    "MemoryType",
    "ObserveResult",
    "Pipeline",
    "Producer",
    "RecordKind",
    "RecordState",
    "RecordView",
    "Rejection",
    "SelectedRecord",
    "SelectedSnippet",
    "Sensitivity",
    "TurnSafety",
    "UserState",
    "WriteAction",
    "WriteOutcome",
    "consent_category",
]


class MemoryType(StrEnum):
    """Seed 003 memory types."""

    SEMANTIC = "semantic"
    EPISODIC = "episodic"
    PROCEDURAL = "procedural"
    WORKING = "working"
    IDENTITY = "identity"


class RecordKind(StrEnum):
    """What a record is; it picks the planner section (standing instructions, profile...)."""

    INSTRUCTION = "instruction"
    PREFERENCE = "preference"
    STYLE = "style"
    IDENTITY = "identity"
    TOOLING = "tooling"
    VETO = "veto"
    GOAL = "goal"
    CHANNEL = "channel"
    WORKSPACE_FACT = "workspace_fact"
    DAILY_NOTE = "daily_note"
    NOTE = "note"
    AGENT_EVENT = "agent_event"


class RecordState(StrEnum):
    """Lifecycle state of a record."""

    CANDIDATE = "candidate"
    ACTIVE = "active"
    NEEDS_REVIEW = "needs_review"
    SUPERSEDED = "superseded"
    ARCHIVED = "archived"
    REJECTED = "rejected"
    DELETED = "deleted"


class UserState(StrEnum):
    """User override on top of the lifecycle (seed 002)."""

    AUTO = "auto"
    PINNED = "pinned"
    FORGOTTEN = "forgotten"


class Explicitness(StrEnum):
    EXPLICIT = "explicit"
    INFERRED = "inferred"


class Disclosure(StrEnum):
    NORMAL = "normal"
    ASK_BEFORE_REFERENCE = "ask_before_reference"
    NEVER = "never"


class Sensitivity(StrEnum):
    """Stored sensitivity. Secret and regulated content is never stored, so never appears here."""

    NONE = "none"
    PERSONAL = "personal"
    SPECIAL = "special"


class ConsentCategory(StrEnum):
    """Special categories a user can consent to; the names the sensitivity floor reports.

    Kept equal to ``policy.sensitivity.SPECIAL_CATEGORIES`` (a unit test checks it), so every
    category a record can be gated on can be granted, and a typo cannot be.
    """

    HEALTH = "health"
    RELIGION = "religion"
    SEXUAL_ORIENTATION = "sexual_orientation"
    ETHNICITY = "ethnicity"
    POLITICAL_OPINION = "political_opinion"
    BIOMETRIC = "biometric"
    TRADE_UNION = "trade_union"
    GENETIC = "genetic"
    CRIMINAL_RECORD = "criminal_record"


def consent_category(category: object) -> str:
    """A consent category by member or value (case and surrounding spaces ignored).

    Raises:
        InvalidInputError: not a :class:`ConsentCategory` or one of its values.
    """
    if isinstance(category, str) and not isinstance(category, ConsentCategory):
        category = category.strip().lower()
    return enum_field(ConsentCategory, category, "category").value


class Pipeline(StrEnum):
    USER_UNDERSTANDING = "user_understanding"
    CONNECTED_KNOWLEDGE = "connected_knowledge"


class Producer(StrEnum):
    """Who proposed a candidate; kept for the acceptance funnel."""

    EXPLICIT = "explicit"
    REVIEWER = "reviewer"
    SOURCE = "source"
    TOOL = "tool"
    FACET = "facet"
    USER = "user"


class WriteAction(StrEnum):
    """What the governed write did with one candidate."""

    CREATED = "created"
    REINFORCED = "reinforced"
    SUPERSEDING = "superseding"
    REFUSED = "refused"
    SKIPPED = "skipped"


@dataclass(frozen=True, slots=True)
class CandidateInput:
    """A typed candidate proposed by any producer; the only input of the governed write.

    Enum fields and ``kind`` accept their string values; an unknown value (``kind="bogus"``)
    raises :class:`~userlore.errors.InvalidInputError` naming the field at construction. The
    governed write checks the rest (text, ranges, times) before writing anything.

    Attributes:
        kind: Record kind, one of :class:`RecordKind` (``instruction``, ``workspace_fact``...).
        content: Human-readable statement, stored after redaction.
        canonical_key: Dedupe key such as ``style/verbosity``; ``None`` dedupes by content.
        value: Optional canonical value for keyed records (``terse``).
        sensitivity_claim: What the producer says about sensitivity. Informational only: the
            governed write always runs its own detectors and ignores a lower claim.
        evidence_text: Text of the evidence turn or item; stored redacted as a source item.
        source_item_id: An existing source item to link as evidence instead of ``evidence_text``.
    """

    kind: str
    content: str
    canonical_key: str | None = None
    value: str | None = None
    memory_type: MemoryType = MemoryType.SEMANTIC
    path: str = ""
    explicitness: Explicitness = Explicitness.EXPLICIT
    confidence: float = 0.8
    importance: float = 0.5
    durability: str = "durable"
    producer: Producer = Producer.EXPLICIT
    pipeline: Pipeline = Pipeline.USER_UNDERSTANDING
    sensitivity_claim: str | None = None
    disclosure: Disclosure = Disclosure.NORMAL
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    conflict_group: str | None = None
    supersedes_record_id: str | None = None
    evidence_text: str | None = None
    source_item_id: str | None = None
    session_key: str | None = None
    author_agent_id: str | None = None
    author_client: str | None = None
    author_device: str | None = None
    author_instance: str | None = None
    thread_id: str | None = None
    run_id: str | None = None

    def __post_init__(self) -> None:
        # Enum fields accept their string values ("episodic"); anything else is refused here,
        # not stored. Text and ranges are checked by the governed write (``_validate_candidate``).
        # ``kind`` stays a plain ``str`` (the RecordKind value), so it is checked, not converted.
        object.__setattr__(self, "kind", enum_field(RecordKind, self.kind, "kind").value)
        for enum_type, name in (
            (MemoryType, "memory_type"),
            (Explicitness, "explicitness"),
            (Producer, "producer"),
            (Pipeline, "pipeline"),
            (Disclosure, "disclosure"),
        ):
            value = getattr(self, name)
            if not isinstance(value, enum_type):
                object.__setattr__(self, name, enum_field(enum_type, value, name))


@dataclass(frozen=True, slots=True)
class RecordView:
    """A read-only view of one stored record."""

    id: str
    scope: str
    kind: str
    content: str
    canonical_key: str | None
    value: str | None
    memory_type: MemoryType
    path: str
    state: RecordState
    user_state: UserState
    version: int
    explicitness: Explicitness
    confidence: float
    importance: float
    durability: str
    disclosure: Disclosure
    sensitivity: Sensitivity
    sensitivity_category: str | None
    pipeline: Pipeline
    producer: Producer
    valid_from: datetime | None
    valid_until: datetime | None
    review_after: datetime | None
    supersedes_record_id: str | None
    conflict_group: str | None
    stability: float
    evidence_count: int
    created_at: datetime
    updated_at: datetime
    author_agent_id: str | None = None
    author_client: str | None = None
    author_device: str | None = None


@dataclass(frozen=True, slots=True)
class WriteOutcome:
    """Receipt of one governed write.

    ``record`` is ``None`` when the candidate was refused or skipped; ``reason`` is then a fixed
    reason code (``secret``, ``regulated``, ``memory_off``, ``read_only``, ``forgotten``...).
    """

    action: WriteAction
    record: RecordView | None = None
    reason: str | None = None
    superseded_record_id: str | None = None


@dataclass(frozen=True, slots=True)
class TurnSafety:
    """What the safety floor and the quote gate did with one turn, by category, never a value,
    so an app can tell its user to rotate a key they just pasted.

    Attributes:
        redacted: ``level:category`` of each value redacted from the stored turn
            (``secret:password_in_prose``, ``regulated:government_id``...).
        refused: Reason codes of the turn's statements that were refused.
        quote: The quote gate's reason for never quoting the turn as said (before any consent),
            or ``None`` when it may be quoted.
        quote_category: What the gate found, by category (``health``, ``credential``...).
        withheld_languages: Languages of the turn the gate cannot read (withheld unless the app
            opted in to quoting them).
    """

    redacted: tuple[str, ...] = ()
    refused: tuple[str, ...] = ()
    quote: str | None = None
    quote_category: str | None = None
    withheld_languages: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ObserveResult:
    """What the write path did with one conversation turn, and its safety report."""

    source_item_id: str | None
    outcomes: tuple[WriteOutcome, ...] = ()
    safety: TurnSafety = TurnSafety()

    @property
    def candidates(self) -> tuple[RecordView, ...]:
        return tuple(o.record for o in self.outcomes if o.record is not None)

    @property
    def refused(self) -> tuple[WriteOutcome, ...]:
        return tuple(o for o in self.outcomes if o.action is WriteAction.REFUSED)


@dataclass(frozen=True, slots=True)
class SelectedRecord:
    """One record placed into a context plan."""

    id: str
    version: int
    section: str
    score: float
    chars: int


@dataclass(frozen=True, slots=True)
class SelectedSnippet:
    """One episodic snippet (a source item: what the user said) placed into a context plan."""

    item_id: str
    score: float
    chars: int
    lexical_rank: int | None = None
    vector_rank: int | None = None
    withheld: str | None = None
    """The special category of the sentences left out when only a part of the turn is quoted
    (the turn as a whole was withheld); ``None`` for a whole turn."""


@dataclass(frozen=True, slots=True)
class Rejection:
    """One candidate the planner dropped, with a fixed reason code (and, for the quote gate,
    what it found by category: ``health``, ``credential``, a language code; never text)."""

    id: str
    reason: str
    category: str | None = None


@dataclass(frozen=True, slots=True)
class ContextPlan:
    """The read path's answer for one turn: the fenced block plus its trace."""

    text: str
    selected: tuple[SelectedRecord, ...]
    rejected: tuple[Rejection, ...]
    trace_id: str | None
    chars: int
    budget: int
    sections: dict[str, tuple[str, ...]] = field(default_factory=dict)
    snippets: tuple[SelectedSnippet, ...] = ()
    """Episodic snippets in the plan's own section (``sections["episodes"]`` lists their ids)."""

    @property
    def selected_ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.selected)

    def as_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "selected": [_slots(s) for s in self.selected],
            "rejected": [_slots(r) for r in self.rejected],
            "trace_id": self.trace_id,
            "chars": self.chars,
            "budget": self.budget,
            "snippets": [_slots(s) for s in self.snippets],
        }


def _slots(obj: object) -> dict[str, Any]:
    return {name: getattr(obj, name) for name in getattr(obj, "__slots__", ())}
