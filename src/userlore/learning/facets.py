"""Facet vocabulary of seed 002: classes, cue families, states and the numbers that govern them.

A facet is a record inside userlore's record model: its ``kind`` is the facet class, its
``canonical_key`` is ``class/key`` (``style/verbosity``) and its ``value`` is the canonical value
(``terse``). Evidence for it accumulates as rows of ``facet_observations`` (one per cue), which
the stability detector scores. Every number here is the seed's.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from userlore.errors import InvalidInputError
from userlore.models import Disclosure, MemoryType, Producer, RecordState, UserState

__all__ = [
    "CLASS_BUDGETS",
    "CUE_WEIGHTS",
    "EXPLICIT_CUE_MULTIPLIER",
    "HALF_LIFE_DAYS",
    "OVERFLOW_POOL",
    "TAU_CANDIDATE",
    "TAU_PROMOTE",
    "TAU_PROVISIONAL",
    "CueFamily",
    "EvidenceRef",
    "Facet",
    "FacetClass",
    "FacetState",
    "LearningCandidate",
    "describe",
    "split_key",
]


class FacetClass(StrEnum):
    """The six facet classes; the class is the record ``kind`` and the key prefix."""

    STYLE = "style"
    IDENTITY = "identity"
    TOOLING = "tooling"
    VETO = "veto"
    GOAL = "goal"
    CHANNEL = "channel"


class CueFamily(StrEnum):
    """What kind of signal an observation is; it sets the observation's weight."""

    EXPLICIT = "explicit"
    STRUCTURAL = "structural"
    BEHAVIORAL = "behavioral"
    RECURRENCE = "recurrence"


class FacetState(StrEnum):
    """Seed 002 ``state``: where a facet stands in the cache."""

    ACTIVE = "active"
    PROVISIONAL = "provisional"
    CANDIDATE = "candidate"
    DROPPED = "dropped"


CUE_WEIGHTS: dict[CueFamily, float] = {
    CueFamily.EXPLICIT: 1.0,  # a direct user statement: declaration is intent
    CueFamily.STRUCTURAL: 0.9,  # provider data, manifests, signatures: data does not lie
    CueFamily.BEHAVIORAL: 0.7,  # heuristics and summary mining: must accumulate
    CueFamily.RECURRENCE: 0.6,  # statistics over the substrate: emerging
}
EXPLICIT_CUE_MULTIPLIER = 2.0
"""``cue`` factor when any evidence for the value is Explicit (1.0 otherwise)."""

HALF_LIFE_DAYS: dict[FacetClass, float] = {
    FacetClass.IDENTITY: 90.0,
    FacetClass.VETO: 60.0,
    FacetClass.TOOLING: 30.0,
    FacetClass.GOAL: 30.0,
    FacetClass.STYLE: 14.0,
    FacetClass.CHANNEL: 7.0,
}

TAU_PROMOTE = 1.5
"""Active at or above this stability."""
TAU_PROVISIONAL = 0.7
"""Provisional from here up to ``TAU_PROMOTE``."""
TAU_CANDIDATE = 0.4
"""Candidate from here up to ``TAU_PROVISIONAL``; below it a facet is dropped."""

CLASS_BUDGETS: dict[FacetClass, int] = {
    FacetClass.STYLE: 4,
    FacetClass.IDENTITY: 4,
    FacetClass.TOOLING: 5,
    FacetClass.VETO: 3,
    FacetClass.GOAL: 3,
    FacetClass.CHANNEL: 1,
}
OVERFLOW_POOL = 5
"""Shared slots a class may take beyond its own budget when another class leaves room."""

MEMORY_TYPES: dict[FacetClass, MemoryType] = {
    FacetClass.STYLE: MemoryType.PROCEDURAL,
    FacetClass.TOOLING: MemoryType.PROCEDURAL,
    FacetClass.IDENTITY: MemoryType.IDENTITY,
    FacetClass.VETO: MemoryType.SEMANTIC,
    FacetClass.GOAL: MemoryType.SEMANTIC,
    FacetClass.CHANNEL: MemoryType.SEMANTIC,
}
IMPORTANCE: dict[FacetClass, float] = {
    FacetClass.STYLE: 0.8,
    FacetClass.VETO: 0.85,
    FacetClass.IDENTITY: 0.7,
    FacetClass.TOOLING: 0.7,
    FacetClass.GOAL: 0.6,
    FacetClass.CHANNEL: 0.6,
}

_KEY = re.compile(r"[^\W_][\w.+#=-]{0,119}")  # explicit slugs of Chinese goals keep CJK text
MAX_VALUE_CHARS = 300


def facet_class(value: FacetClass | str) -> FacetClass:
    """Parse a class name.

    Raises:
        InvalidInputError: not one of the six classes.
    """
    try:
        return FacetClass(str(value).strip().lower())
    except ValueError:
        names = ", ".join(c.value for c in FacetClass)
        raise InvalidInputError(f"unknown facet class {value!r}; use one of {names}") from None


def split_key(facet_cls: FacetClass | str, key: str) -> tuple[FacetClass, str]:
    """Normalize ``(class, key)``; ``key`` may carry the class prefix (``style/verbosity``).

    Raises:
        InvalidInputError: unknown class, a prefix naming another class, or a malformed key.
    """
    cls = facet_class(facet_cls)
    if not isinstance(key, str):
        raise InvalidInputError("facet key must be a string")
    key = key.strip()
    if "/" in key:
        prefix, _, key = key.partition("/")
        if prefix != cls.value:
            raise InvalidInputError(f"key {prefix}/{key} does not belong to class {cls.value}")
    if not _KEY.fullmatch(key) or key != key.lower():
        raise InvalidInputError(
            f"invalid facet key {key!r}: lowercase letters, digits and _ . + # = - only"
        )
    return cls, key


def check_value(value: str) -> str:
    """Return the stripped value.

    Raises:
        InvalidInputError: empty, multi-line or longer than 300 characters.
    """
    if not isinstance(value, str) or not value.strip():
        raise InvalidInputError("facet value must not be empty")
    value = " ".join(value.split())
    if len(value) > MAX_VALUE_CHARS:
        raise InvalidInputError(f"facet value is longer than {MAX_VALUE_CHARS} characters")
    return value


def describe(cls: FacetClass, key: str, value: str) -> str:
    """The human-readable content of a facet record the cache creates."""
    words = key.replace("_", " ")
    if cls is FacetClass.GOAL:
        return f"Goal: {value}"
    if cls is FacetClass.VETO:
        return f"Veto: {words} ({value})"
    if cls is FacetClass.IDENTITY:
        return f"{words[:1].upper()}{words[1:]}: {value}"
    if cls is FacetClass.STYLE:
        return f"Preferred {words}: {value}"
    if cls is FacetClass.TOOLING:
        return f"Tooling, {words}: {value}"
    return f"Preferred channel, {words}: {value}"


@dataclass(frozen=True, slots=True)
class EvidenceRef:
    """A pointer back into the substrate for one observation.

    Attributes:
        kind: Where it comes from: ``turn``, ``email_message``, ``source_item``, ``review``,
            ``heuristic``, ``provider``, ``tool_call`` or ``user``.
        source_item_id: An existing ``knowledge_source_items`` id in the candidate's scope.
        text: The evidence text itself, stored redacted as a new source item when no id is
            given. One of the two is required: a facet without evidence is refused.
    """

    kind: str
    source_item_id: str | None = None
    text: str | None = None


@dataclass(frozen=True, slots=True)
class LearningCandidate:
    """One observation a producer proposes (seed 002 ``LearningCandidate``).

    Attributes:
        scope: Whose facet this is.
        facet_class: One of the six classes.
        key: Canonical slug within the class (``verbosity``), without the class prefix.
        value: Canonical value (``terse``).
        cue_family: The kind of signal; sets the observation's weight.
        evidence: Where it was observed.
        initial_confidence: The producer's hint in ``[0, 1]``; stored, not scored (the seed's
            formula does not use it).
        observed_at: When it was observed; ``None`` means when the buffer is drained.
        producer: Who proposed it, for the memory sources setting (``source`` for connected
            sources, ``facet`` otherwise).
        content: Optional human-readable statement for a record the cache creates.
    """

    scope: str
    facet_class: FacetClass
    key: str
    value: str
    cue_family: CueFamily
    evidence: EvidenceRef
    initial_confidence: float = 0.5
    observed_at: datetime | None = None
    producer: Producer = Producer.FACET
    content: str | None = None

    @property
    def canonical_key(self) -> str:
        return f"{self.facet_class.value}/{self.key}"


@dataclass(frozen=True, slots=True)
class Facet:
    """A read-only view of one facet: its winning value, score, state and provenance.

    Attributes:
        state: Cache state after the userlore rules (thresholds, hysteresis for stated
            facets, class budgets, pin and forget, the memory mode): ``active`` facets are in
            context and in ``PROFILE.md``.
        stability: Effective stability: ``inf`` when pinned, ``0`` when forgotten.
        score: ``base × cue`` before the user override.
        record_id: The record holding the value, when one exists.
        record_state: That record's lifecycle state.
        cue_families: Families of the evidence behind the value.
        evidence_refs: Source item (or record) ids of that evidence, newest first.
        awaiting_approval: Stable enough to be active, but the memory mode is
            ``confirmWrite`` and the user has not approved it yet.
        disclosure: The record's disclosure; special categories are ``ask_before_reference``
            and stay out of context and ``PROFILE.md`` until the user consents.
    """

    facet_class: FacetClass
    key: str
    value: str
    state: FacetState
    user_state: UserState
    stability: float
    score: float
    record_id: str | None
    record_state: RecordState | None
    version: int | None
    cue_families: tuple[CueFamily, ...]
    evidence_refs: tuple[str, ...]
    evidence_count: int
    first_seen_at: datetime | None
    last_seen_at: datetime | None
    awaiting_approval: bool = False
    disclosure: Disclosure = Disclosure.NORMAL
    sensitivity_category: str | None = None
    alternatives: tuple[tuple[str, float], ...] = field(default=())
    """Losing values of the same key with their stability (conflict resolution is argmax)."""

    @property
    def canonical_key(self) -> str:
        return f"{self.facet_class.value}/{self.key}"

    @property
    def pinned(self) -> bool:
        return self.user_state is UserState.PINNED

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form (``stability`` is ``null`` when pinned, i.e. infinite)."""
        return {
            "class": self.facet_class.value,
            "key": self.key,
            "canonical_key": self.canonical_key,
            "value": self.value,
            "state": self.state.value,
            "user_state": self.user_state.value,
            "stability": None if math.isinf(self.stability) else round(self.stability, 4),
            "score": round(self.score, 4),
            "record_id": self.record_id,
            "record_state": self.record_state.value if self.record_state else None,
            "version": self.version,
            "cue_families": [c.value for c in self.cue_families],
            "evidence_refs": list(self.evidence_refs),
            "evidence_count": self.evidence_count,
            "first_seen_at": self.first_seen_at.isoformat() if self.first_seen_at else None,
            "last_seen_at": self.last_seen_at.isoformat() if self.last_seen_at else None,
            "awaiting_approval": self.awaiting_approval,
            "disclosure": self.disclosure.value,
            "sensitivity_category": self.sensitivity_category,
            "alternatives": [
                {"value": v, "stability": None if math.isinf(s) else round(s, 4)}
                for v, s in self.alternatives
            ],
        }
