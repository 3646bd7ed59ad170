"""The gate of every governed write: candidate fields, memory mode, enabled source, the floor."""

from __future__ import annotations

from enum import StrEnum

from sqlalchemy.orm import Session

from userlore.config import MemoryMode
from userlore.errors import InvalidInputError
from userlore.models import (
    CandidateInput,
    Disclosure,
    Explicitness,
    MemoryType,
    Pipeline,
    Producer,
    RecordKind,
    WriteAction,
    WriteOutcome,
)
from userlore.policy.govern import Assessment, FloorVerdict, assess
from userlore.policy.session_keys import checked_session_key
from userlore.store.transitions import Transitions
from userlore.validation import (
    bounded,
    enum_field,
    identifier,
    optional_identifier,
    optional_instant,
    optional_text,
    text_field,
    unit_interval,
    validate_path,
)

__all__ = ["PRODUCER_SOURCE", "CandidateGate"]

PRODUCER_SOURCE = {
    Producer.EXPLICIT: "session",
    Producer.REVIEWER: "session",
    Producer.FACET: "session",
    Producer.TOOL: "curated",
    Producer.USER: "curated",
    Producer.SOURCE: "connected",
}


_ENUM_FIELDS: tuple[tuple[type[StrEnum], str], ...] = (
    (MemoryType, "memory_type"),
    (Explicitness, "explicitness"),
    (Producer, "producer"),
    (Pipeline, "pipeline"),
    (Disclosure, "disclosure"),
)


_BOUNDED_FIELDS = (
    "author_agent_id",
    "author_client",
    "author_device",
    "author_instance",
    "thread_id",
    "run_id",
)


class CandidateGate(Transitions):
    """Admission of a candidate, before any row of it is written (``admit``)."""

    def validate_candidate(self, c: CandidateInput) -> None:
        """Every field of a candidate, typed, before anything is written (``validation``)."""
        limit = self.config.max_content_chars
        text_field(c.content, "content", max_chars=limit)
        optional_text(c.value, "value", max_chars=limit)
        enum_field(RecordKind, c.kind, "kind")
        for enum_type, name in _ENUM_FIELDS:
            enum_field(enum_type, getattr(c, name), name)
        validate_path(c.path)
        optional_identifier(c.canonical_key, "canonical_key", max_chars=300)
        unit_interval(c.confidence, "confidence")
        unit_interval(c.importance, "importance")
        valid_from = optional_instant(c.valid_from, "valid_from")
        valid_until = optional_instant(c.valid_until, "valid_until")
        if valid_from and valid_until and valid_until <= valid_from:
            raise InvalidInputError("valid_until must be after valid_from")
        for name in _BOUNDED_FIELDS:
            bounded(name, getattr(c, name), 200)
        checked_session_key(c.session_key)
        bounded("conflict_group", c.conflict_group, 300)
        bounded("sensitivity_claim", c.sensitivity_claim, 40)
        identifier(c.durability, "durability", max_chars=20)
        optional_identifier(c.supersedes_record_id, "supersedes_record_id")
        optional_identifier(c.source_item_id, "source_item_id")
        optional_text(c.evidence_text, "evidence_text", max_chars=None)

    def source_enabled(self, producer: Producer) -> bool:
        """Whether ``memory.sources`` lets this producer's source (session, curated...) write."""
        return PRODUCER_SOURCE[producer] in self.config.memory.sources

    def admit(
        self,
        session: Session,
        scope: str,
        candidate: CandidateInput,
        judged: FloorVerdict | None = None,
    ) -> Assessment | WriteOutcome:
        """The gate of every governed write: fields, memory mode, enabled source, safety floor.

        Returns the :class:`Assessment` (what the candidate may become), or the
        :class:`WriteOutcome` that ends the write here: skipped, or refused with a traced
        reason code.

        Args:
            judged: The floor's verdict, when the caller already ran it (a store batch): used
                only if it was made for this very candidate's texts, else the floor runs.

        Raises:
            InvalidInputError: a field of the candidate is malformed.
        """
        self.validate_candidate(candidate)
        mode = self.config.memory.mode
        if mode is MemoryMode.OFF:
            return WriteOutcome(WriteAction.SKIPPED, reason="memory_off")
        if mode is MemoryMode.READ_ONLY:
            return WriteOutcome(WriteAction.SKIPPED, reason="read_only")
        if not self.source_enabled(candidate.producer):
            return WriteOutcome(WriteAction.SKIPPED, reason="source_disabled")
        verdict = None if judged is None else judged.of(candidate)
        if verdict is None:
            verdict = assess(candidate)
        if verdict.refused is not None:
            self.trace(
                session,
                scope,
                "governance",
                reason_code=verdict.refused,
                session_key=candidate.session_key,
                payload={"producer": candidate.producer.value, "kind": candidate.kind},
            )
            return WriteOutcome(WriteAction.REFUSED, reason=verdict.refused)
        return verdict
