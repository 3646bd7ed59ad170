# Over 400 lines: the rebuild's one transaction (record, score, materialize, publish) and schedule.
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
Provisional   ``candidate`` (created if missing); a record that was active, or that the governed
              write activated in ``auto``, is paused to ``needs_review``.
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
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from userlore.config import MemoryMode
from userlore.errors import (
    InvalidInputError,
)
from userlore.learning.candidate import CandidateBuffer
from userlore.learning.config import LearningConfig
from userlore.learning.controls import FacetControls
from userlore.learning.events import CacheRebuilt, Subscribers
from userlore.learning.facets import (
    FacetState,
    LearningCandidate,
)
from userlore.learning.recording import EVIDENCE_KINDS, record_candidates, record_observation
from userlore.learning.selection import (
    FACET_KINDS,
    LIVE,
    KeyPlan,
    active_value,
    row_norm,
)
from userlore.models import (
    RecordState,
)
from userlore.store.governed import (
    GovernedStore,
    validate_scope,
)
from userlore.store.schema import (
    FacetObservation,
    MemoryRecord,
    MemoryTraceEvent,
)

__all__ = ["EVIDENCE_KINDS", "FacetCache", "record_observation"]

log = logging.getLogger("userlore.learning.stability_detector")
log_cache = logging.getLogger("userlore.learning.cache")


Workspace = str | Path | Callable[[str], Path | None]


class FacetCache(FacetControls):
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
                        MemoryRecord.kind.in_(FACET_KINDS),
                        MemoryRecord.state.in_(list(LIVE)),
                    )
                    .distinct()
                )
            )
        return scopes

    def _rebuild_scope(self, scope: str, candidates: Sequence[LearningCandidate]) -> CacheRebuilt:
        started = time.perf_counter()
        store = self.store
        with store.transaction(scope) as session:
            now = store.clock()
            before = self._last_active.get(scope)
            if before is None:
                before = frozenset(self._previous_keys(session, scope))
            recorded, refused = record_candidates(self.store, session, scope, candidates, now)
            keys = self._plan(session, scope, now)
            self._apply(session, scope, keys, recorded, now)
            session.flush()
            active_ids = self._active_ids(session, scope)
            after = frozenset(active_ids.values())
            facets = tuple(
                self._view(k, active_value(k)) for k in keys.values() if k.canonical_key in after
            )
            consented = store.consents_in(session, scope)
            added, evicted = len(after - before), len(before - after)
            store.trace(
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
                    MemoryRecord.kind.in_(FACET_KINDS),
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

    # -- step 4: materialize ------------------------------------------------------------------

    def _apply(
        self,
        session: Session,
        scope: str,
        keys: dict[str, KeyPlan],
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
            row: MemoryRecord | None = w.record
            wants_record = k.state in (FacetState.ACTIVE, FacetState.PROVISIONAL)
            if row is None and wants_record:
                row = self._create(session, scope, k, w)
                w.record = row
            if row is None:
                continue
            for item_id in new_items.get((k.canonical_key, w.norm), []):
                store.link_evidence(session, row, item_id, now)
            row.stability = round(w.score, 6)
            self._enforce(session, row, k, now)
            for loser in k.live:
                if loser.id == row.id or row_norm(loser) == w.norm:
                    continue
                keep_approved = (
                    mode is not MemoryMode.AUTO
                    and loser.state == RecordState.ACTIVE.value
                    and row.state != RecordState.ACTIVE.value
                )
                if not keep_approved:
                    loser_val = k.values.get(row_norm(loser))
                    if loser_val is not None:
                        loser.stability = round(loser_val.score, 6)
                    self._archive(loser, now)

    def _enforce(self, session: Session, row: MemoryRecord, k: KeyPlan, now: datetime) -> None:
        """Move ``row`` to the record state its facet state maps to (legal transitions only)."""
        state = RecordState(row.state)
        if k.state is FacetState.ACTIVE:
            waiting = state in (RecordState.CANDIDATE, RecordState.NEEDS_REVIEW)
            if waiting and (self.store.config.memory.mode is MemoryMode.AUTO or k.pinned):
                self.store.activate(session, row, now)
            return
        if state is RecordState.ACTIVE:
            # Also a record the governed write just activated in ``auto``: stability has not
            # earned it yet, and active → candidate is not a legal move, so it waits for review.
            self.store.transition(row, RecordState.NEEDS_REVIEW, now)

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
