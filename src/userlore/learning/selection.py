"""Steps 2 and 3 of a facet-cache rebuild: score every value of every key, then select.

Pure reads of a scope's facet records and observations; :class:`KeyPlan` is what the rebuild
decides for one ``(class, key)``, and the cache's materialize step and controls act on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from userlore.config import MemoryMode
from userlore.errors import (
    InvalidInputError,
)
from userlore.learning.facets import (
    CueFamily,
    FacetClass,
    FacetState,
    split_key,
)
from userlore.learning.stability import Observation, Slot, allocate, stability, state_of
from userlore.models import (
    Explicitness,
    Producer,
    RecordState,
    UserState,
)
from userlore.store.governed import (
    LIVE_STATES,
)
from userlore.store.schema import (
    FacetObservation,
    MemoryRecord,
)
from userlore.store.text import normalize_value

__all__ = [
    "FACET_KINDS",
    "LIVE",
    "KeyPlan",
    "ScoredValue",
    "active_value",
    "plan_scope",
    "row_norm",
]

FACET_KINDS = tuple(c.value for c in FacetClass)
LIVE = frozenset(s.value for s in LIVE_STATES)


@dataclass(slots=True)
class ScoredValue:
    """One candidate value of a key, with its evidence and score."""

    value: str
    norm: str
    observations: list[Observation] = field(default_factory=list)
    record: MemoryRecord | None = None  # the live record holding the value
    past: MemoryRecord | None = None  # else its latest archived record (shown, never revived)
    score: float = 0.0
    effective: float = 0.0

    @property
    def explicit(self) -> bool:
        return any(o.cue_family is CueFamily.EXPLICIT for o in self.observations)

    @property
    def last_seen(self) -> datetime | None:
        return max((o.observed_at for o in self.observations), default=None)

    @property
    def first_seen(self) -> datetime | None:
        return min((o.observed_at for o in self.observations), default=None)


@dataclass(slots=True)
class KeyPlan:
    """Everything known about one ``(class, key)`` and what the rebuild decides for it."""

    cls: FacetClass
    key: str
    rows: list[MemoryRecord] = field(default_factory=list)  # newest first, every state
    values: dict[str, ScoredValue] = field(default_factory=dict)
    forgotten: bool = False
    winner: ScoredValue | None = None
    eligible: bool = False
    state: FacetState = FacetState.DROPPED
    awaiting: bool = False

    @property
    def canonical_key(self) -> str:
        return f"{self.cls.value}/{self.key}"

    @property
    def pinned(self) -> bool:
        rec = self.winner.record if self.winner else None
        return rec is not None and rec.user_state == UserState.PINNED.value

    @property
    def live(self) -> list[MemoryRecord]:
        return [r for r in self.rows if r.state in LIVE]


def row_norm(row: MemoryRecord) -> str:
    return normalize_value(row.value if row.value else row.content)


def implicit_cue(row: MemoryRecord) -> CueFamily:
    """Cue family for a record that reached the store without observations (older data)."""
    if row.producer == Producer.SOURCE.value:
        return CueFamily.STRUCTURAL
    if row.explicitness == Explicitness.EXPLICIT.value and row.producer in (
        Producer.EXPLICIT.value,
        Producer.USER.value,
        Producer.TOOL.value,
    ):
        return CueFamily.EXPLICIT
    return CueFamily.BEHAVIORAL


def plan_scope(
    session: Session, scope: str, now: datetime, *, mode: MemoryMode, max_observations: int
) -> dict[str, KeyPlan]:
    """Steps 2 and 3 of a rebuild: score every value of every key of ``scope``, then select."""
    keys: dict[str, KeyPlan] = {}

    def entry(canonical: str) -> KeyPlan | None:
        if canonical in keys:
            return keys[canonical]
        prefix, _, key = canonical.partition("/")
        try:
            cls, key = split_key(prefix, key)
        except InvalidInputError:
            return None
        keys[canonical] = KeyPlan(cls, key)
        return keys[canonical]

    rows = session.scalars(
        select(MemoryRecord)
        .where(
            MemoryRecord.scope == scope,
            MemoryRecord.kind.in_(FACET_KINDS),
            MemoryRecord.canonical_key.is_not(None),
        )
        .order_by(MemoryRecord.seq.desc())
    )
    for row in rows:
        if not row.canonical_key or not row.canonical_key.startswith(f"{row.kind}/"):
            continue
        k = entry(row.canonical_key)
        if k is not None:
            k.rows.append(row)
    obs_rows = list(
        session.scalars(
            select(FacetObservation)
            .where(FacetObservation.scope == scope)
            .order_by(FacetObservation.observed_at.desc(), FacetObservation.id.desc())
            .limit(max_observations)
        )
    )
    cutoffs: dict[str, datetime] = {}
    for k in keys.values():
        k.forgotten = any(r.user_state == UserState.FORGOTTEN.value for r in k.rows)
        if k.rows and k.rows[0].state == RecordState.DELETED.value:
            cutoffs[k.canonical_key] = k.rows[0].updated_at
    for o in obs_rows:
        k = entry(f"{o.facet_class}/{o.key}")
        if k is None:
            continue
        cutoff = cutoffs.get(k.canonical_key)
        if cutoff is not None and o.observed_at <= cutoff:
            continue
        norm = normalize_value(o.value)
        val = k.values.setdefault(norm, ScoredValue(o.value, norm))
        val.observations.append(
            Observation(CueFamily(o.cue_family), o.observed_at, o.evidence_ref, o.confidence)
        )
    for k in keys.values():
        for row in k.live:
            norm = row_norm(row)
            if norm not in k.values:
                k.values[norm] = ScoredValue(row.value or row.content, norm)
            val = k.values[norm]
            if val.record is None:
                val.record = row
                if row.value:
                    val.value = row.value
            if not val.observations:
                cue = implicit_cue(row)
                val.observations.extend(
                    Observation(cue, row.updated_at, row.id, row.confidence)
                    for _ in range(max(1, row.evidence_count))
                )
        for row in k.rows:
            shown = k.values.get(row_norm(row))
            if (
                shown is not None
                and shown.record is None
                and shown.past is None
                and row.state != RecordState.DELETED.value
            ):
                shown.past = row
        if not k.values and k.forgotten:
            row = next(r for r in k.rows if r.user_state == UserState.FORGOTTEN.value)
            k.values[row_norm(row)] = ScoredValue(row.value or row.content, row_norm(row))
            k.values[row_norm(row)].record = row
        for val in k.values.values():
            pinned = val.record is not None and val.record.user_state == UserState.PINNED.value
            val.score = stability(k.cls, val.observations, now)
            user = UserState.PINNED if pinned else UserState.AUTO
            if k.forgotten:
                user = UserState.FORGOTTEN
            val.effective = stability(k.cls, val.observations, now, user)
        if k.values:
            k.winner = max(
                k.values.values(),
                key=lambda v: (v.effective, v.last_seen or now, v.record is not None, v.norm),
            )
    # thresholds, stated-facet hysteresis, then class budgets with the overflow pool
    slots: list[Slot] = []
    for k in keys.values():
        w = k.winner
        if w is None or k.forgotten:
            continue
        base = state_of(w.effective)
        rec = w.record
        stated = (
            base is FacetState.PROVISIONAL
            and w.explicit
            and rec is not None
            and rec.state == RecordState.ACTIVE.value
        )
        k.eligible = k.pinned or base is FacetState.ACTIVE or stated
        if k.eligible:
            slots.append(Slot(k.cls, k.key, w.effective, k.pinned))
    fits = allocate(slots)
    for k in keys.values():
        w = k.winner
        if w is None or k.forgotten:
            k.state = FacetState.DROPPED
            continue
        base = state_of(w.effective)
        if k.pinned:
            k.state = FacetState.ACTIVE
        elif k.eligible and (k.cls, k.key) in fits:
            rec = w.record
            approved = rec is not None and rec.state == RecordState.ACTIVE.value
            if mode is MemoryMode.AUTO or approved:
                k.state = FacetState.ACTIVE
            else:
                k.state, k.awaiting = FacetState.PROVISIONAL, True
        elif base in (FacetState.ACTIVE, FacetState.PROVISIONAL):
            k.state = FacetState.PROVISIONAL
        else:
            k.state = base
    return keys


def active_value(k: KeyPlan) -> ScoredValue | None:
    """The value whose record is active (the winner, or an approved loser in confirmWrite)."""
    for val in k.values.values():
        if val.record is not None and val.record.state == RecordState.ACTIVE.value:
            return val
    for row in k.rows:
        if row.state == RecordState.ACTIVE.value:
            val = ScoredValue(row.value or row.content, row_norm(row), record=row)
            val.score = val.effective = row.stability
            return val
    return k.winner
