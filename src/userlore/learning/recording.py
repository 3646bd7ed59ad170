"""Step 1 of a facet-cache rebuild: govern learning candidates and record them as observations.

Every candidate passes the governed checks (memory mode, the ``sources`` setting, the
sensitivity detectors through :func:`~userlore.policy.govern.assess`, forgotten keys) and cites
evidence, stored redacted as a source item; it becomes one ``facet_observations`` row
(idempotent per evidence).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from userlore.errors import (
    InvalidInputError,
)
from userlore.learning.facets import (
    CueFamily,
    EvidenceRef,
    FacetClass,
    LearningCandidate,
    check_value,
    describe,
    split_key,
)
from userlore.learning.selection import (
    FACET_KINDS,
)
from userlore.models import (
    CandidateInput,
    Pipeline,
    UserState,
)
from userlore.policy.govern import assess
from userlore.policy.sensitivity import redact
from userlore.store.governed import (
    GovernedStore,
)
from userlore.store.ids import derived_id, scoped_digest
from userlore.store.schema import (
    FacetObservation,
    KnowledgeSourceItem,
    MemoryRecord,
)
from userlore.store.text import normalize_value

__all__ = ["EVIDENCE_KINDS", "record_candidates", "record_observation"]

log = logging.getLogger("userlore.learning.stability_detector")

EVIDENCE_KINDS = frozenset(
    {"turn", "email_message", "source_item", "review", "heuristic", "provider", "tool_call", "user"}
)


def record_candidates(
    store: GovernedStore,
    session: Session,
    scope: str,
    candidates: Sequence[LearningCandidate],
    now: datetime,
) -> tuple[list[tuple[str, str, str]], int]:
    """Govern and store candidates as observations; returns (key, norm value, item id)s."""
    recorded: list[tuple[str, str, str]] = []
    refused = 0
    if not candidates:
        return recorded, refused
    forgotten = set(
        session.scalars(
            select(MemoryRecord.canonical_key).where(
                MemoryRecord.scope == scope,
                MemoryRecord.kind.in_(FACET_KINDS),
                MemoryRecord.user_state == UserState.FORGOTTEN.value,
            )
        )
    )
    for cand in candidates:
        reason = _check(store, cand, forgotten)
        if reason is not None:
            refused += 1
            store.trace(
                session,
                scope,
                "governance",
                reason_code=reason,
                payload={"producer": cand.producer.value, "origin": "learning"},
            )
            continue
        cls, key = split_key(cand.facet_class, cand.key)
        value = check_value(cand.value)
        item_id = _evidence_item(store, session, scope, cand.evidence)
        if item_id is None:
            refused += 1
            log.debug("[learning::candidate] candidate without usable evidence refused")
            continue
        when = min(cand.observed_at or now, now)
        if record_observation(
            session,
            scope,
            cls,
            key,
            value,
            cand.cue_family,
            item_id,
            cand.initial_confidence,
            when,
        ):
            recorded.append((f"{cls.value}/{key}", normalize_value(value), item_id))
    return recorded, refused


def _check(store: GovernedStore, cand: LearningCandidate, forgotten: set[str | None]) -> str | None:
    """The governed checks for one candidate; a fixed reason code when it may not count."""
    try:
        cls, key = split_key(cand.facet_class, cand.key)
        value = check_value(cand.value)
    except InvalidInputError:
        return "invalid"
    if not isinstance(cand.cue_family, CueFamily):
        return "invalid"
    if not 0.0 <= cand.initial_confidence <= 1.0:
        return "invalid"
    if cand.evidence.kind not in EVIDENCE_KINDS:
        return "invalid"
    if not store.source_enabled(cand.producer):
        return "source_disabled"
    canonical = f"{cls.value}/{key}"
    if canonical in forgotten:
        return "forgotten"
    probe = CandidateInput(
        kind=cls.value,
        content=cand.content or describe(cls, key, value),
        canonical_key=canonical,
        value=value,
        producer=cand.producer,
    )
    verdict = assess(probe)
    return verdict.refused


def _evidence_item(
    store: GovernedStore, session: Session, scope: str, ref: EvidenceRef
) -> str | None:
    if ref.source_item_id:
        item = session.get(KnowledgeSourceItem, ref.source_item_id)
        return item.id if item is not None and item.scope == scope else None
    if not ref.text or not ref.text.strip():
        return None
    digest = scoped_digest(scope, redact(ref.text))
    item = store.add_source_item(
        session,
        scope=scope,
        source_instance_id=derived_id("learning", scope, ref.kind),
        external_id=digest,
        text=ref.text[:4_000],
        pipeline=Pipeline.USER_UNDERSTANDING,
    )
    return item.id


def record_observation(
    session: Session,
    scope: str,
    cls: FacetClass,
    key: str,
    value: str,
    cue: CueFamily,
    evidence_ref: str,
    confidence: float,
    observed_at: datetime,
) -> bool:
    """Insert one ``facet_observations`` row unless the same evidence already counts for it."""
    exists = session.scalar(
        select(FacetObservation.id).where(
            FacetObservation.scope == scope,
            FacetObservation.facet_class == cls.value,
            FacetObservation.key == key,
            FacetObservation.value == value,
            FacetObservation.cue_family == cue.value,
            FacetObservation.evidence_ref == evidence_ref,
        )
    )
    if exists is not None:
        return False
    session.add(
        FacetObservation(
            scope=scope,
            facet_class=cls.value,
            key=key,
            value=value,
            cue_family=cue.value,
            evidence_ref=evidence_ref,
            confidence=round(min(1.0, max(0.0, confidence)), 4),
            observed_at=observed_at,
        )
    )
    return True
