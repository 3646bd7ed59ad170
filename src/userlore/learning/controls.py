# Over 400 lines: nine seed 002 controls and the reads they answer with, sharing the key lookups.
"""The facet cache's reads and user controls (seed 002 RPC controllers), as a mixin.

:class:`~userlore.learning.cache.FacetCache` inherits them; they share its store, config and
buffer, and act on the plan of :mod:`userlore.learning.selection`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from userlore.config import MemoryMode
from userlore.errors import (
    InvalidTransitionError,
    MemoryDisabledError,
    PolicyViolationError,
    RecordNotFoundError,
)
from userlore.learning.candidate import CandidateBuffer
from userlore.learning.config import LearningConfig
from userlore.learning.events import CacheRebuilt
from userlore.learning.facets import (
    IMPORTANCE,
    MEMORY_TYPES,
    CueFamily,
    Facet,
    FacetClass,
    FacetState,
    check_value,
    describe,
    facet_class,
    split_key,
)
from userlore.learning.recording import record_observation
from userlore.learning.selection import (
    FACET_KINDS,
    LIVE,
    KeyPlan,
    ScoredValue,
    plan_scope,
)
from userlore.models import (
    CandidateInput,
    Disclosure,
    Explicitness,
    Producer,
    RecordState,
    UserState,
    WriteAction,
)
from userlore.store.governed import (
    GovernedStore,
    validate_scope,
)
from userlore.store.schema import (
    KnowledgeSourceItem,
    MemoryRecord,
)

__all__ = ["FacetControls"]

log = logging.getLogger("userlore.learning.stability_detector")
log_cache = logging.getLogger("userlore.learning.cache")
_INFERRED_CONFIDENCE_CAP = 0.7
_MAX_EVIDENCE_PER_FACET = 5


class FacetControls:
    """Reads (list, get, stats, about) and user controls (update, pin, forget, reset)."""

    store: GovernedStore
    config: LearningConfig
    buffer: CandidateBuffer
    renderer: Any

    def rebuild(self, scope: str | None = None) -> list[CacheRebuilt]:
        """Run the stability detector; :class:`FacetCache` implements it."""
        raise NotImplementedError  # FacetCache runs the stability detector

    def _plan(self, session: Session, scope: str, now: datetime) -> dict[str, KeyPlan]:
        return plan_scope(
            session,
            scope,
            now,
            mode=self.store.config.memory.mode,
            max_observations=self.config.max_observations_per_scope,
        )

    def _create(
        self, session: Session, scope: str, k: KeyPlan, w: ScoredValue
    ) -> MemoryRecord | None:
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

    def _archive(self, row: MemoryRecord, now: datetime) -> None:
        if row.state in LIVE:
            self.store.transition(row, RecordState.ARCHIVED, now)
            row.valid_until = now

    # -- reads --------------------------------------------------------------------------------

    def _view(self, k: KeyPlan, shown: ScoredValue | None = None) -> Facet:
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
        with self.store.transaction(scope) as session:
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
        with self.store.transaction(scope) as session:
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
        if k.winner.record is not None and k.winner.record.state in LIVE:
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
        with store.transaction(scope) as session:
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
                store.activate(session, row, now)
            row.user_state = UserState.PINNED.value
            record_observation(
                session, scope, cls, key, value, CueFamily.EXPLICIT, row.id, 1.0, now
            )
            store.trace(
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
        with store.transaction(scope) as session:
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
                    row = next((r for r in rows if r.state in LIVE), None) or next(
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
                        store.activate(session, row, now)
                else:
                    for r in [row, *rows]:
                        if r.state in LIVE:
                            self._archive(r, now)
                row.user_state = target.value
                row.updated_at = now
                record_id = row.id
            store.trace(
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
        with store.transaction(scope) as session:
            now = store.clock()
            rows = list(
                session.scalars(
                    select(MemoryRecord).where(
                        MemoryRecord.scope == scope,
                        MemoryRecord.kind.in_(FACET_KINDS),
                        MemoryRecord.state.in_(list(LIVE)),
                        MemoryRecord.user_state == UserState.AUTO.value,
                    )
                )
            )
            for row in rows:
                self._archive(row, now)
            store.trace(
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
