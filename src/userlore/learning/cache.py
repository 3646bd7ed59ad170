"""The facet cache: the stability detector's rebuild, the user controls and the rebuild schedule.

One rebuild of a scope, in one transaction:

1. **Record**: drain the candidate buffer; every candidate passes the governed checks (memory
   mode, the ``sources`` setting, the sensitivity detectors through
   :func:`~userlore.policy.govern.assess`, forgotten keys) and cites evidence, stored redacted
   as a source item; it becomes one ``facet_observations`` row (idempotent per evidence).
2. **Score**: per ``(class, key, value)``, stability = base × cue × user state
   (:mod:`userlore.learning.stability`); conflict per ``(class, key)`` is argmax.
3. **Select**: thresholds, then class budgets with the overflow pool.
4. **Materialize**: the winning value becomes (or stays) a record of kind = class through
   :meth:`GovernedStore.govern`; its lifecycle state follows the facet state (below); losing
   values are archived and may re-emerge through the same path.
5. **Publish** ``CacheRebuilt`` (after commit) and write a ``learning`` trace (counts only).

Facet state ↔ record state:

============  ==================================================================================
facet         record
============  ==================================================================================
Active        ``active`` (in context, in ``PROFILE.md``). In ``confirmWrite`` stability never
              activates anything: the record waits as ``candidate`` for approval
              (``awaiting_approval``); an approved record stays active.
Provisional   ``candidate`` (created if missing); a record that was active is paused to
              ``needs_review``.
Candidate     no new record (the evidence stays in ``facet_observations``, the seed's buffer);
              an existing record is paused (``needs_review``) or stays ``candidate``.
Dropped       live record ``archived`` (history kept); nothing is created.
============  ==================================================================================

Two userlore rules sit on top of the seed's thresholds:

* **Stated facets keep their place.** A value the user stated explicitly and that the memory
  mode let in (``auto``) or the user approved stays active while it is at least Provisional
  (stability ≥ 0.7): one explicit statement scores 2 × ln 2 ≈ 1.39, below the promotion
  threshold, and dropping what a user just said would be wrong. It still decays out (a style
  stated once leaves after about two weeks, an identity fact after about three months) unless it
  is restated or pinned.
* **User overrides lock.** Pinned locks Active (also in ``confirmWrite``: pinning is the
  user's own decision); forgotten locks Dropped, and the governed write refuses the key until the
  user unforgets it (``unpin_facet``) or sets a value (``update_facet``). A key whose latest record
  the user deleted ignores the evidence observed before the deletion.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from userlore.config import MemoryMode
from userlore.errors import (
    InvalidInputError,
    InvalidTransitionError,
    MemoryDisabledError,
    PolicyViolationError,
    RecordNotFoundError,
)
from userlore.learning.candidate import CandidateBuffer
from userlore.learning.config import LearningConfig
from userlore.learning.events import CacheRebuilt, Subscribers
from userlore.learning.facets import (
    IMPORTANCE,
    MEMORY_TYPES,
    CueFamily,
    EvidenceRef,
    Facet,
    FacetClass,
    FacetState,
    LearningCandidate,
    check_value,
    describe,
    facet_class,
    split_key,
)
from userlore.learning.stability import Observation, Slot, allocate, stability, state_of
from userlore.models import (
    CandidateInput,
    Disclosure,
    Explicitness,
    Pipeline,
    Producer,
    RecordState,
    UserState,
    WriteAction,
)
from userlore.policy.govern import assess
from userlore.policy.sensitivity import redact
from userlore.store.governed import (
    _PRODUCER_SOURCE,
    LIVE_STATES,
    GovernedStore,
    validate_scope,
)
from userlore.store.ids import derived_id, scoped_digest
from userlore.store.schema import (
    FacetObservation,
    KnowledgeSourceItem,
    MemoryRecord,
    MemoryTraceEvent,
)
from userlore.store.text import normalize_value

__all__ = ["EVIDENCE_KINDS", "FacetCache"]

log = logging.getLogger("userlore.learning.stability_detector")
log_cache = logging.getLogger("userlore.learning.cache")

EVIDENCE_KINDS = frozenset(
    {"turn", "email_message", "source_item", "review", "heuristic", "provider", "tool_call", "user"}
)
_CLASSES = tuple(c.value for c in FacetClass)
_LIVE = frozenset(s.value for s in LIVE_STATES)
_INFERRED_CONFIDENCE_CAP = 0.7
_MAX_EVIDENCE_PER_FACET = 5

Workspace = str | Path | Callable[[str], Path | None]


@dataclass(slots=True)
class _Value:
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
class _Key:
    """Everything known about one ``(class, key)`` and what the rebuild decides for it."""

    cls: FacetClass
    key: str
    rows: list[MemoryRecord] = field(default_factory=list)  # newest first, every state
    values: dict[str, _Value] = field(default_factory=dict)
    forgotten: bool = False
    winner: _Value | None = None
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
        return [r for r in self.rows if r.state in _LIVE]


def _row_norm(row: MemoryRecord) -> str:
    return normalize_value(row.value if row.value else row.content)


def _implicit_cue(row: MemoryRecord) -> CueFamily:
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


class FacetCache:
    """Seed 002's personalization cache over one :class:`GovernedStore`.

    Example:
        >>> from userlore import Userlore
        >>> lore = Userlore.open("sqlite://", config={"memory": {"mode": "auto"}})
        >>> _ = lore.observe("u1", "user", "From now on, keep answers short.")
        >>> [f.canonical_key for f in lore.facets.list("u1")]
        ['style/verbosity']

    Args:
        store: The governed store facets live in.
        config: Buffer capacity, rebuild interval, event-driven rebuilds.
        workspace: Where ``PROFILE.md`` is written: a directory (one sub-directory per scope,
            named by the URL-quoted scope) or a callable mapping a scope to the file path (or
            ``None`` to skip that scope). ``None`` writes no file.
    """

    def __init__(
        self,
        store: GovernedStore,
        *,
        config: LearningConfig | None = None,
        workspace: Workspace | None = None,
    ) -> None:
        self.store = store
        self.config = config or LearningConfig()
        self.buffer = CandidateBuffer(self.config.buffer_capacity)
        self.subscribers = Subscribers()
        self._rebuild_lock = threading.RLock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._renderer_unsubscribe: Callable[[], None] | None = None
        self._last_active: dict[str, frozenset[str]] = {}
        self.renderer: Any = None
        if workspace is not None:
            self.set_workspace(workspace)

    # -- configuration ------------------------------------------------------------------------

    def set_workspace(self, workspace: Workspace | None) -> None:
        """Write ``PROFILE.md`` on every rebuild (``None`` stops writing it)."""
        from userlore.learning.profile_md import ProfileMdRenderer

        if self._renderer_unsubscribe is not None:
            self._renderer_unsubscribe()
            self._renderer_unsubscribe = None
            self.renderer = None
        if workspace is None:
            return
        renderer = ProfileMdRenderer(workspace)
        self.renderer = renderer
        self._renderer_unsubscribe = self.subscribers.subscribe(renderer)

    def subscribe(self, callback: Callable[[CacheRebuilt], None]) -> Callable[[], None]:
        """Call ``callback(event)`` after every rebuild; returns the unsubscribe function."""
        return self.subscribers.subscribe(callback)

    # -- producers ----------------------------------------------------------------------------

    def submit(self, candidates: Iterable[LearningCandidate]) -> int:
        """Push candidates into the buffer; with event-driven rebuilds, rebuild their scopes.

        Returns the number of candidates buffered. Candidates are only checked and recorded by
        the next rebuild (every one passes the governed checks there).
        """
        if not self.config.enabled:
            return 0
        items = list(candidates)
        for cand in items:  # all or nothing: a bad candidate buffers none of them
            if not isinstance(cand, LearningCandidate):
                raise InvalidInputError("submit takes LearningCandidate values")
            validate_scope(cand.scope)
        self.buffer.extend(items)
        if items and self.config.event_driven:
            for scope in sorted({c.scope for c in items}):
                self.rebuild(scope)
        return len(items)

    def notify(self, scope: str) -> None:
        """New facet evidence reached ``scope`` outside the buffer (explicit statements)."""
        if self.config.enabled and self.config.event_driven:
            self.rebuild(scope)

    # -- the stability detector ---------------------------------------------------------------

    def rebuild(self, scope: str | None = None) -> list[CacheRebuilt]:
        """Drain the buffer, record, score, select and materialize; publish one event per scope.

        Args:
            scope: Rebuild this scope (plus any scope with buffered candidates); ``None``
                rebuilds every scope that has facets or facet evidence.

        Returns:
            The published events (empty when memory is ``off``/``readOnly`` or learning is
            disabled: buffered candidates are then discarded, nothing is written).
        """
        if scope is not None:
            validate_scope(scope)
        with self._rebuild_lock:
            drained = self.buffer.drain()
            mode = self.store.config.memory.mode
            if not self.config.enabled or mode in (MemoryMode.OFF, MemoryMode.READ_ONLY):
                if drained:
                    log.info(
                        "[learning::stability_detector] memory mode %s: discarded %d candidate(s)",
                        mode.value,
                        len(drained),
                    )
                return []
            by_scope: dict[str, list[LearningCandidate]] = defaultdict(list)
            for cand in drained:
                by_scope[cand.scope].append(cand)
            scopes = set(by_scope)
            if scope is not None:
                scopes.add(scope)
            else:
                scopes |= self._known_scopes()
            events = [self._rebuild_scope(s, by_scope.get(s, [])) for s in sorted(scopes)]
        for event in events:
            self.subscribers.publish(event)
        return events

    def _known_scopes(self) -> set[str]:
        with self.store.transaction() as session:
            scopes = set(session.scalars(select(FacetObservation.scope).distinct()))
            scopes |= set(
                session.scalars(
                    select(MemoryRecord.scope)
                    .where(
                        MemoryRecord.kind.in_(_CLASSES),
                        MemoryRecord.state.in_(list(_LIVE)),
                    )
                    .distinct()
                )
            )
        return scopes

    def _rebuild_scope(self, scope: str, candidates: Sequence[LearningCandidate]) -> CacheRebuilt:
        started = time.perf_counter()
        store = self.store
        with store.transaction() as session:
            now = store.clock()
            before = self._last_active.get(scope)
            if before is None:
                before = frozenset(self._previous_keys(session, scope))
            recorded, refused = self._record(session, scope, candidates, now)
            keys = self._plan(session, scope, now)
            self._apply(session, scope, keys, recorded, now)
            session.flush()
            active_ids = self._active_ids(session, scope)
            after = frozenset(active_ids.values())
            facets = tuple(
                self._view(k, _active_value(k)) for k in keys.values() if k.canonical_key in after
            )
            consented = store._consented(session, scope)
            added, evicted = len(after - before), len(before - after)
            store._trace(
                session,
                scope,
                "learning",
                reason_code="rebuilt",
                payload={
                    "added": added,
                    "evicted": evicted,
                    "kept": len(after & before),
                    "total_size": len(after),
                    "observations": len(recorded),
                    "refused": refused,
                    "active": sorted(active_ids),
                },
            )
        self._last_active[scope] = after
        event = CacheRebuilt(
            scope=scope,
            added=added,
            evicted=evicted,
            kept=len(after & before),
            total_size=len(after),
            rebuilt_at=now,
            observations=len(recorded),
            refused=refused,
            duration_ms=(time.perf_counter() - started) * 1000,
            facets=facets,
            consented=consented,
        )
        log.info(
            "[learning::stability_detector] rebuilt: added=%d evicted=%d kept=%d total=%d "
            "observations=%d refused=%d in %.1f ms",
            event.added,
            event.evicted,
            event.kept,
            event.total_size,
            event.observations,
            event.refused,
            event.duration_ms,
        )
        return event

    def _active_ids(self, session: Session, scope: str) -> dict[str, str]:
        """``{record id: canonical key}`` of the active facet records of ``scope``."""
        return {
            rid: key
            for rid, key, kind in session.execute(
                select(MemoryRecord.id, MemoryRecord.canonical_key, MemoryRecord.kind).where(
                    MemoryRecord.scope == scope,
                    MemoryRecord.kind.in_(_CLASSES),
                    MemoryRecord.state == RecordState.ACTIVE.value,
                    MemoryRecord.canonical_key.is_not(None),
                )
            )
            if key and key.startswith(f"{kind}/")
        }

    def _previous_keys(self, session: Session, scope: str) -> set[str]:
        """Keys in the cache after the previous rebuild, read from its trace's record ids.

        Used once per scope and process; later rebuilds compare with what this one kept.
        """
        payload = session.scalars(
            select(MemoryTraceEvent.payload)
            .where(
                MemoryTraceEvent.scope == scope,
                MemoryTraceEvent.event_type == "learning",
                MemoryTraceEvent.reason_code == "rebuilt",
            )
            .order_by(MemoryTraceEvent.created_at.desc(), MemoryTraceEvent.id.desc())
            .limit(1)
        ).first()
        ids = [i for i in (payload or {}).get("active", []) if isinstance(i, str)]
        if not ids:
            return set()
        return {
            key
            for key in session.scalars(
                select(MemoryRecord.canonical_key).where(
                    MemoryRecord.scope == scope, MemoryRecord.id.in_(ids)
                )
            )
            if key
        }

    # -- step 1: record -----------------------------------------------------------------------

    def _record(
        self,
        session: Session,
        scope: str,
        candidates: Sequence[LearningCandidate],
        now: datetime,
    ) -> tuple[list[tuple[str, str, str]], int]:
        """Govern and store candidates as observations; returns (key, norm value, item id)s."""
        store = self.store
        recorded: list[tuple[str, str, str]] = []
        refused = 0
        if not candidates:
            return recorded, refused
        forgotten = set(
            session.scalars(
                select(MemoryRecord.canonical_key).where(
                    MemoryRecord.scope == scope,
                    MemoryRecord.kind.in_(_CLASSES),
                    MemoryRecord.user_state == UserState.FORGOTTEN.value,
                )
            )
        )
        for cand in candidates:
            reason = self._check(session, scope, cand, forgotten)
            if reason is not None:
                refused += 1
                store._trace(
                    session,
                    scope,
                    "governance",
                    reason_code=reason,
                    payload={"producer": cand.producer.value, "origin": "learning"},
                )
                continue
            cls, key = split_key(cand.facet_class, cand.key)
            value = check_value(cand.value)
            item_id = self._evidence_item(session, scope, cand.evidence)
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

    def _check(
        self, session: Session, scope: str, cand: LearningCandidate, forgotten: set[str | None]
    ) -> str | None:
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
        if _PRODUCER_SOURCE[cand.producer] not in self.store.config.memory.sources:
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

    def _evidence_item(self, session: Session, scope: str, ref: EvidenceRef) -> str | None:
        if ref.source_item_id:
            item = session.get(KnowledgeSourceItem, ref.source_item_id)
            return item.id if item is not None and item.scope == scope else None
        if not ref.text or not ref.text.strip():
            return None
        digest = scoped_digest(scope, redact(ref.text))
        item = self.store.add_source_item(
            session,
            scope=scope,
            source_instance_id=derived_id("learning", scope, ref.kind),
            external_id=digest,
            text=ref.text[:4_000],
            pipeline=Pipeline.USER_UNDERSTANDING,
        )
        return item.id

    # -- steps 2 and 3: score and select ------------------------------------------------------

    def _plan(self, session: Session, scope: str, now: datetime) -> dict[str, _Key]:
        mode = self.store.config.memory.mode
        keys: dict[str, _Key] = {}

        def entry(canonical: str) -> _Key | None:
            if canonical in keys:
                return keys[canonical]
            prefix, _, key = canonical.partition("/")
            try:
                cls, key = split_key(prefix, key)
            except InvalidInputError:
                return None
            keys[canonical] = _Key(cls, key)
            return keys[canonical]

        rows = session.scalars(
            select(MemoryRecord)
            .where(
                MemoryRecord.scope == scope,
                MemoryRecord.kind.in_(_CLASSES),
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
                .limit(self.config.max_observations_per_scope)
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
            val = k.values.setdefault(norm, _Value(o.value, norm))
            val.observations.append(
                Observation(CueFamily(o.cue_family), o.observed_at, o.evidence_ref, o.confidence)
            )
        for k in keys.values():
            for row in k.live:
                norm = _row_norm(row)
                if norm not in k.values:
                    k.values[norm] = _Value(row.value or row.content, norm)
                val = k.values[norm]
                if val.record is None:
                    val.record = row
                    if row.value:
                        val.value = row.value
                if not val.observations:
                    cue = _implicit_cue(row)
                    val.observations.extend(
                        Observation(cue, row.updated_at, row.id, row.confidence)
                        for _ in range(max(1, row.evidence_count))
                    )
            for row in k.rows:
                shown = k.values.get(_row_norm(row))
                if (
                    shown is not None
                    and shown.record is None
                    and shown.past is None
                    and row.state != RecordState.DELETED.value
                ):
                    shown.past = row
            if not k.values and k.forgotten:
                row = next(r for r in k.rows if r.user_state == UserState.FORGOTTEN.value)
                k.values[_row_norm(row)] = _Value(row.value or row.content, _row_norm(row))
                k.values[_row_norm(row)].record = row
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

    # -- step 4: materialize ------------------------------------------------------------------

    def _apply(
        self,
        session: Session,
        scope: str,
        keys: dict[str, _Key],
        recorded: Sequence[tuple[str, str, str]],
        now: datetime,
    ) -> None:
        store = self.store
        mode = store.config.memory.mode
        new_items: dict[tuple[str, str], list[str]] = defaultdict(list)
        for canonical, norm, item_id in recorded:
            new_items[(canonical, norm)].append(item_id)
        for k in keys.values():
            w = k.winner
            if w is None:
                continue
            if k.forgotten or k.state is FacetState.DROPPED:
                for stale in k.live:
                    self._archive(stale, now)
                continue
            created: str | None = None
            row: MemoryRecord | None = w.record
            wants_record = k.state in (FacetState.ACTIVE, FacetState.PROVISIONAL)
            if row is None and wants_record:
                row = self._create(session, scope, k, w)
                created = row.id if row is not None else None
                w.record = row
            if row is None:
                continue
            for item_id in new_items.get((k.canonical_key, w.norm), []):
                store._link_evidence(session, row, item_id, now)
            row.stability = round(w.score, 6)
            self._enforce(session, row, k, created == row.id, now)
            for loser in k.live:
                if loser.id == row.id or _row_norm(loser) == w.norm:
                    continue
                keep_approved = (
                    mode is not MemoryMode.AUTO
                    and loser.state == RecordState.ACTIVE.value
                    and row.state != RecordState.ACTIVE.value
                )
                if not keep_approved:
                    loser_val = k.values.get(_row_norm(loser))
                    if loser_val is not None:
                        loser.stability = round(loser_val.score, 6)
                    self._archive(loser, now)

    def _create(self, session: Session, scope: str, k: _Key, w: _Value) -> MemoryRecord | None:
        """Materialize a winning value through the governed write."""
        refs = sorted(
            (o for o in w.observations if o.evidence_ref),
            key=lambda o: o.observed_at,
            reverse=True,
        )
        item_id = None
        for o in refs:
            item = session.get(KnowledgeSourceItem, o.evidence_ref)
            if item is not None and item.scope == scope:
                item_id = item.id
                break
        explicit = w.explicit
        confidence = max((o.confidence for o in w.observations), default=0.5)
        if not explicit:
            confidence = min(confidence, _INFERRED_CONFIDENCE_CAP)
        candidate = CandidateInput(
            kind=k.cls.value,
            content=describe(k.cls, k.key, w.value),
            canonical_key=k.canonical_key,
            value=w.value,
            memory_type=MEMORY_TYPES[k.cls],
            explicitness=Explicitness.EXPLICIT if explicit else Explicitness.INFERRED,
            confidence=round(min(1.0, max(0.0, confidence)), 4),
            importance=IMPORTANCE[k.cls],
            producer=Producer.FACET,
            source_item_id=item_id,
        )
        outcome = self.store.govern(session, scope, candidate)
        if outcome.record is None:
            log.info(
                "[learning::cache] governed write did not store a facet (%s)",
                outcome.reason or outcome.action.value,
            )
            return None
        return self.store.get_row(session, scope, outcome.record.id)

    def _enforce(
        self, session: Session, row: MemoryRecord, k: _Key, created_now: bool, now: datetime
    ) -> None:
        """Move ``row`` to the record state its facet state maps to (legal transitions only)."""
        state = RecordState(row.state)
        if k.state is FacetState.ACTIVE:
            waiting = state in (RecordState.CANDIDATE, RecordState.NEEDS_REVIEW)
            if waiting and (self.store.config.memory.mode is MemoryMode.AUTO or k.pinned):
                self.store._activate(session, row, now)
            return
        if state is RecordState.ACTIVE:
            if created_now:
                # The governed write activates in ``auto``; stability has not earned it yet.
                row.state = RecordState.CANDIDATE.value
            else:
                self.store._move(row, RecordState.NEEDS_REVIEW, now)

    def _archive(self, row: MemoryRecord, now: datetime) -> None:
        if row.state in _LIVE:
            self.store._move(row, RecordState.ARCHIVED, now)
            row.valid_until = now

    # -- reads --------------------------------------------------------------------------------

    def _view(self, k: _Key, shown: _Value | None = None) -> Facet:
        """The facet view of ``k`` (of its winning value, or of ``shown``)."""
        w = shown or k.winner
        assert w is not None
        rec = w.record or w.past
        refs = sorted(
            (o for o in w.observations if o.evidence_ref),
            key=lambda o: o.observed_at,
            reverse=True,
        )
        user_state = UserState(rec.user_state) if rec is not None else UserState.AUTO
        if k.forgotten:
            user_state = UserState.FORGOTTEN
        families = sorted({o.cue_family for o in w.observations}, key=lambda c: c.value)
        others = sorted(
            ((v.value, v.effective) for v in k.values.values() if v is not w),
            key=lambda item: -item[1],
        )
        return Facet(
            facet_class=k.cls,
            key=k.key,
            value=w.value,
            state=k.state,
            user_state=user_state,
            stability=w.effective,
            score=w.score,
            record_id=rec.id if rec is not None else None,
            record_state=RecordState(rec.state) if rec is not None else None,
            version=rec.version if rec is not None else None,
            cue_families=tuple(families),
            evidence_refs=tuple(dict.fromkeys(o.evidence_ref for o in refs if o.evidence_ref)),
            evidence_count=len(w.observations),
            first_seen_at=w.first_seen,
            last_seen_at=w.last_seen,
            awaiting_approval=k.awaiting,
            disclosure=Disclosure(rec.disclosure) if rec is not None else Disclosure.NORMAL,
            sensitivity_category=rec.sensitivity_category if rec is not None else None,
            alternatives=tuple(others),
        )

    def _facets(self, scope: str) -> list[Facet]:
        validate_scope(scope)
        with self.store.transaction() as session:
            keys = self._plan(session, scope, self.store.clock())
            return [self._view(k) for k in keys.values() if k.winner is not None]

    def list_facets(
        self,
        scope: str,
        facet_cls: FacetClass | str | None = None,
        *,
        states: Iterable[FacetState | str] = (FacetState.ACTIVE, FacetState.PROVISIONAL),
    ) -> list[Facet]:
        """Facets of a scope (active and provisional by default), optionally of one class.

        Ordered by class, then pinned first, then stability. The states are computed at the
        store clock's current time with the same rules as a rebuild, so a facet that has decayed
        shows its new state even before the next rebuild.
        """
        wanted = {FacetState(s) for s in states}
        cls = facet_class(facet_cls) if facet_cls is not None else None
        order = {c: i for i, c in enumerate(FacetClass)}
        out = [
            f
            for f in self._facets(scope)
            if f.state in wanted and (cls is None or f.facet_class is cls)
        ]
        out.sort(key=lambda f: (order[f.facet_class], not f.pinned, -f.stability, f.key))
        return out

    def get_facet(self, scope: str, facet_cls: FacetClass | str, key: str) -> Facet:
        """One facet, in whatever state it is (forgotten and dropped included).

        Raises:
            RecordNotFoundError: nothing is known about that key in this scope.
        """
        cls, key = split_key(facet_cls, key)
        for f in self._facets(scope):
            if f.facet_class is cls and f.key == key:
                return f
        raise RecordNotFoundError(f"no facet {cls.value}/{key} in scope {scope!r}")

    def cache_stats(self, scope: str) -> dict[str, Any]:
        """``{total, active, provisional, candidate, dropped, by_class, pinned, forgotten}``."""
        facets = self._facets(scope)
        counts = {s.value: 0 for s in FacetState}
        by_class: dict[str, dict[str, int]] = {
            c.value: {s.value: 0 for s in FacetState} for c in FacetClass
        }
        for f in facets:
            counts[f.state.value] += 1
            by_class[f.facet_class.value][f.state.value] += 1
        return {
            "total": len(facets),
            **counts,
            "by_class": by_class,
            "pinned": sum(1 for f in facets if f.user_state is UserState.PINNED),
            "forgotten": sum(1 for f in facets if f.user_state is UserState.FORGOTTEN),
            "buffered": len(self.buffer),
            "buffer_dropped": self.buffer.dropped,
        }

    def about(self, scope: str, *, include_provisional: bool = False) -> list[dict[str, Any]]:
        """ "What do you know about me?": each facet with the evidence behind it.

        Every entry carries up to five receipts (source item id, redacted text, when, where
        from): the record's evidence links plus the observations' own evidence.
        """
        states = [FacetState.ACTIVE]
        if include_provisional:
            states.append(FacetState.PROVISIONAL)
        facets = self.list_facets(scope, states=states)
        linked = {
            f.record_id: [e["source_item_id"] for e in self.store.evidence(scope, f.record_id)]
            for f in facets
            if f.record_id is not None
        }
        out: list[dict[str, Any]] = []
        with self.store.transaction() as session:
            for f in facets:
                receipts: dict[str, dict[str, Any]] = {}
                ids = [*f.evidence_refs, *(linked.get(f.record_id, []) if f.record_id else [])]
                for item_id in dict.fromkeys(ids):
                    if len(receipts) >= _MAX_EVIDENCE_PER_FACET:
                        break
                    item = session.get(KnowledgeSourceItem, item_id)
                    if item is None or item.scope != scope:
                        continue
                    receipts[item.id] = {
                        "source_item_id": item.id,
                        "text": item.text,
                        "source": item.source_instance_id,
                        "occurred_at": item.occurred_at.isoformat() if item.occurred_at else None,
                    }
                out.append({**f.as_dict(), "evidence": list(receipts.values())})
        return out

    # -- user controls ------------------------------------------------------------------------

    def _writable(self) -> None:
        mode = self.store.config.memory.mode
        if mode in (MemoryMode.OFF, MemoryMode.READ_ONLY):
            raise MemoryDisabledError(f"memory mode {mode.value!r} forbids changing facets")

    def _after_control(self, scope: str) -> None:
        if self.config.enabled and self.config.event_driven:
            self.rebuild(scope)

    def _key_rows(self, session: Session, scope: str, canonical: str) -> list[MemoryRecord]:
        return list(
            session.scalars(
                select(MemoryRecord)
                .where(MemoryRecord.scope == scope, MemoryRecord.canonical_key == canonical)
                .order_by(MemoryRecord.seq.desc())
            )
        )

    def _winner_row(
        self, session: Session, scope: str, cls: FacetClass, key: str
    ) -> MemoryRecord | None:
        """The live record of the facet's winning value, materializing it if needed."""
        keys = self._plan(session, scope, self.store.clock())
        k = keys.get(f"{cls.value}/{key}")
        if k is None or k.winner is None:
            return None
        if k.winner.record is not None and k.winner.record.state in _LIVE:
            return k.winner.record
        if k.forgotten:
            return None
        return self._create(session, scope, k, k.winner)

    def update_facet(self, scope: str, facet_cls: FacetClass | str, key: str, value: str) -> Facet:
        """Set a facet's value as the user: it overwrites, activates and pins (seed 002).

        A forgotten key is unforgotten: setting a value is the user's own decision.

        Raises:
            MemoryDisabledError: memory ``off`` or ``readOnly``, or the curated source is off.
            PolicyViolationError: the value is secret or regulated.
        """
        validate_scope(scope)
        self._writable()
        cls, key = split_key(facet_cls, key)
        value = check_value(value)
        canonical = f"{cls.value}/{key}"
        store = self.store
        with store.transaction() as session:
            now = store.clock()
            for row in self._key_rows(session, scope, canonical):
                if row.user_state != UserState.AUTO.value:
                    row.user_state = UserState.AUTO.value
            session.flush()
            outcome = store.govern(
                session,
                scope,
                CandidateInput(
                    kind=cls.value,
                    content=describe(cls, key, value),
                    canonical_key=canonical,
                    value=value,
                    memory_type=MEMORY_TYPES[cls],
                    explicitness=Explicitness.EXPLICIT,
                    confidence=1.0,
                    importance=IMPORTANCE[cls],
                    producer=Producer.USER,
                ),
            )
            if outcome.action is WriteAction.REFUSED:
                raise PolicyViolationError(f"facet value refused: content is {outcome.reason}")
            if outcome.record is None:
                raise MemoryDisabledError(f"facet not written: {outcome.reason}")
            row = store.get_row(session, scope, outcome.record.id)
            if row.state != RecordState.ACTIVE.value:
                store._activate(session, row, now)
            row.user_state = UserState.PINNED.value
            record_observation(
                session, scope, cls, key, value, CueFamily.EXPLICIT, row.id, 1.0, now
            )
            store._trace(
                session,
                scope,
                "learning",
                reason_code="update_facet",
                payload={"record_id": row.id, "v": row.version, "class": cls.value},
            )
        log_cache.info("[learning::cache] update_facet: %s pinned", cls.value)
        self._after_control(scope)
        return self.get_facet(scope, cls, key)

    def pin_facet(self, scope: str, facet_cls: FacetClass | str, key: str) -> Facet:
        """``user_state = pinned``: the facet's current value is locked Active.

        Raises:
            RecordNotFoundError: nothing known about that key, or it is forgotten.
        """
        return self._set_user_state(scope, facet_cls, key, UserState.PINNED)

    def unpin_facet(self, scope: str, facet_cls: FacetClass | str, key: str) -> Facet:
        """``user_state = auto``: scoring decides again (also lifts a forget)."""
        return self._set_user_state(scope, facet_cls, key, UserState.AUTO)

    def forget_facet(self, scope: str, facet_cls: FacetClass | str, key: str) -> Facet:
        """``user_state = forgotten``: locks Dropped, leaves context and ``PROFILE.md`` at once
        and blocks re-promotion (the governed write skips the key)."""
        return self._set_user_state(scope, facet_cls, key, UserState.FORGOTTEN)

    def _set_user_state(
        self, scope: str, facet_cls: FacetClass | str, key: str, target: UserState
    ) -> Facet:
        validate_scope(scope)
        self._writable()
        cls, key = split_key(facet_cls, key)
        canonical = f"{cls.value}/{key}"
        store = self.store
        with store.transaction() as session:
            now = store.clock()
            rows = self._key_rows(session, scope, canonical)
            if target is UserState.AUTO:
                changed = [r for r in rows if r.user_state != UserState.AUTO.value]
                if not changed:
                    raise RecordNotFoundError(f"facet {canonical} is neither pinned nor forgotten")
                for r in changed:
                    r.user_state = UserState.AUTO.value
                    r.updated_at = now
                record_id = changed[0].id
            else:
                forgotten = any(r.user_state == UserState.FORGOTTEN.value for r in rows)
                if target is UserState.PINNED and forgotten:
                    raise InvalidTransitionError(
                        f"facet {canonical} is forgotten; unpin it or set a value first"
                    )
                row = None
                if target is UserState.FORGOTTEN:
                    # mark what exists; only evidence with no record yet gets one to carry it
                    row = next((r for r in rows if r.state in _LIVE), None) or next(
                        (r for r in rows if r.state != RecordState.DELETED.value), None
                    )
                if row is None and not forgotten:
                    row = self._winner_row(session, scope, cls, key)
                if row is None:
                    raise RecordNotFoundError(f"no facet {canonical} in scope {scope!r}")
                if target is UserState.PINNED:
                    for r in rows:
                        if r.user_state == UserState.PINNED.value and r.id != row.id:
                            r.user_state = UserState.AUTO.value
                    if row.state != RecordState.ACTIVE.value:
                        store._activate(session, row, now)
                else:
                    for r in [row, *rows]:
                        if r.state in _LIVE:
                            self._archive(r, now)
                row.user_state = target.value
                row.updated_at = now
                record_id = row.id
            store._trace(
                session,
                scope,
                "learning",
                reason_code={
                    UserState.PINNED: "pin_facet",
                    UserState.AUTO: "unpin_facet",
                    UserState.FORGOTTEN: "forget_facet",
                }[target],
                payload={"record_id": record_id, "class": cls.value},
            )
        log_cache.info("[learning::cache] %s facet of class %s", target.value, cls.value)
        self._after_control(scope)
        return self.get_facet(scope, cls, key)

    def reset_cache(self, scope: str) -> int:
        """Clear the cache's automatic rows (archive every live ``auto`` facet record).

        Pinned and forgotten facets stay; the evidence stays, so the next rebuild repopulates
        the cache from it. Returns how many records were cleared.
        """
        validate_scope(scope)
        self._writable()
        store = self.store
        with store.transaction() as session:
            now = store.clock()
            rows = list(
                session.scalars(
                    select(MemoryRecord).where(
                        MemoryRecord.scope == scope,
                        MemoryRecord.kind.in_(_CLASSES),
                        MemoryRecord.state.in_(list(_LIVE)),
                        MemoryRecord.user_state == UserState.AUTO.value,
                    )
                )
            )
            for row in rows:
                self._archive(row, now)
            store._trace(
                session,
                scope,
                "learning",
                reason_code="reset_cache",
                payload={"cleared": len(rows)},
            )
        log_cache.info("[learning::cache] reset: cleared %d automatic facet(s)", len(rows))
        if self.renderer is not None:
            self.renderer.render_scope(self, scope)
        return len(rows)

    def rebuild_cache(self, scope: str) -> CacheRebuilt:
        """Manual trigger of the stability rebuild for one scope."""
        self._writable()
        events = self.rebuild(scope)
        return next(e for e in events if e.scope == scope)

    # -- periodic rebuilds --------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self, interval_secs: float | None = None) -> None:
        """Rebuild every scope periodically (default every 30 minutes) in a daemon thread."""
        if not self.config.stability_detector_enabled:
            log.info("[learning::stability_detector] disabled by configuration")
            return
        if self.running:
            return
        interval = interval_secs if interval_secs is not None else self.config.rebuild_interval_secs
        if not interval > 0 or math.isinf(interval):
            raise InvalidInputError("rebuild interval must be a positive number of seconds")
        self._stop.clear()
        self._thread = threading.Thread(
            target=self._loop, args=(interval,), name="userlore-facet-rebuild", daemon=True
        )
        self._thread.start()
        log.info("[learning::stability_detector] periodic rebuild every %.0f s", interval)

    def stop(self, timeout: float | None = 5.0) -> None:
        """Stop the periodic rebuild (waits for a running rebuild to finish)."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
        self._thread = None

    def _loop(self, interval: float) -> None:
        while not self._stop.wait(interval):
            try:
                self.rebuild()
            except Exception:  # keep the schedule alive; the next tick retries
                log.exception("[learning::stability_detector] periodic rebuild failed")


def _active_value(k: _Key) -> _Value | None:
    """The value whose record is active (the winner, or an approved loser in confirmWrite)."""
    for val in k.values.values():
        if val.record is not None and val.record.state == RecordState.ACTIVE.value:
            return val
    for row in k.rows:
        if row.state == RecordState.ACTIVE.value:
            val = _Value(row.value or row.content, _row_norm(row), record=row)
            val.score = val.effective = row.stability
            return val
    return k.winner


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
