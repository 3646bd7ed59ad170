"""``ConnectedKnowledgePipeline``: from pending source items to governed records.

Work is claimed with expiring leases. A claim is one conditional ``UPDATE ... RETURNING`` (with
``FOR UPDATE SKIP LOCKED`` on PostgreSQL), so two workers never hold the same item; it stamps the
item with a fresh lease token and counts the attempt. Finishing is fenced by that token: the
transaction that writes an item's records first marks the item done *only if the token is still
its lease owner*, so a worker whose lease expired (or whose item changed upstream meanwhile)
writes nothing, and the worker that took the item over finishes it exactly once. A worker killed
mid-item loses nothing: its items are claimed again, at once by a worker on the same host (the
lease token names the holding process, see :mod:`userlore.sources.holder`, and a holder that is
gone holds nothing), otherwise when the lease expires. A worker that stops cleanly (an exception,
``KeyboardInterrupt``, a stop request between items of a slow enriched batch) releases what it
still holds back to pending at once, without counting the attempt.

Each item is routed explicitly by its ``pipeline`` column:

- ``connected_knowledge``: one stable ``workspace_fact`` per external item, keyed
  ``source/<instance>/<external id>`` and revised in place (a new version of the same record)
  when the item changes; archived when the item is deleted upstream or becomes blocked; plus a
  bounded ``daily_note`` per source and day, linked to every item it lists.
- ``user_understanding``: the item is read like a conversation turn: explicit statements are
  extracted and governed as such, with the item as their evidence.

Items holding secret or regulated content (``blocked``) are never synthesized. Every record is
written through :meth:`GovernedStore.govern_upsert` / :meth:`GovernedStore.govern`, which run the
sensitivity detectors again; an item whose fact (or statement) the floor refuses ends
``refused`` with a fixed reason code in ``last_error`` (:data:`REFUSAL_CODES`), never silently
``done``. An optional chat model (any ``BaseChatModel``) may enrich a fact
with a summary through structured output; without one, facts are the item's own bounded text.
"""

# Over 400 lines: one worker's claim-to-write loop (routing, fencing, retries) reads as a unit.

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from datetime import UTC, date, timedelta
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import Table, and_, case, update
from sqlalchemy.orm import Session

from userlore.errors import InvalidInputError
from userlore.extract.explicit import extract_statements
from userlore.models import Pipeline, WriteAction, WriteOutcome
from userlore.policy.sensitivity import redact
from userlore.sources.holder import this_holder
from userlore.sources.ingestion import ProgressCallback, connected_enabled
from userlore.sources.leases import (
    TOKEN_CHARS,
    ClaimedItem,
    LeaseHolder,
    default_worker_id,
    token_holder,
)
from userlore.sources.normalize import bound, one_line
from userlore.sources.synthesis import (
    CONTEXT_CHARS,
    ENRICH_PROMPT,
    FACT_MAX_CHARS,
    NEIGHBOUR_WINDOW,
    NOTE_LINE_CHARS,
    NOTE_MAX_CHARS,
    THREAD_KEY,
    FactEnrichment,
    enrich,
    fact_key,
    note_key,
    retrieval_cues,
    thread_contexts,
    workspace_fact,
    write_daily_notes,
)
from userlore.sources.views import PipelineReport
from userlore.store.governed import GovernedStore
from userlore.store.schema import KnowledgeSourceItem, KnowledgeSourceState
from userlore.understanding import BatchItem, govern_upsert_batch, record_turn

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

__all__ = [
    "CONTEXT_CHARS",
    "ENRICH_PROMPT",
    "FACT_MAX_CHARS",
    "NEIGHBOUR_WINDOW",
    "NOTE_LINE_CHARS",
    "NOTE_MAX_CHARS",
    "REFUSAL_CODES",
    "THREAD_KEY",
    "TOKEN_CHARS",
    "ClaimedItem",
    "ConnectedKnowledgePipeline",
    "FactEnrichment",
    "fact_key",
    "note_key",
    "refusal_code",
    "retrieval_cues",
    "token_holder",
]

log = logging.getLogger(__name__)

MAX_ERROR_CHARS = 500
REFUSAL_CODES = {"secret": "refused:secret", "regulated": "refused:regulated"}
"""``last_error`` of an item the sensitivity floor refused, by govern's reason; never its text."""
_ITEMS = cast(Table, KnowledgeSourceItem.__table__)


def refusal_code(reason: str | None) -> str:
    """The fixed reason code stored on a refused item."""
    return REFUSAL_CODES.get(reason or "", "refused:policy")


class ConnectedKnowledgePipeline(LeaseHolder):
    """Claims pending source items and turns them into governed records.

    Args:
        store: The governed store.
        model: Optional chat model for fact enrichment (structured output).
        worker_id: Name of this worker in lease tokens (default: host, pid and a random suffix).
        lease_seconds: How long a claim is held before another worker may take it over.
        batch_size: Items per claim (and per write transaction).
        max_attempts: Attempts before an item is marked ``failed`` for good.
        backoff_seconds: Delay before the first retry; doubled per attempt.
        max_backoff_seconds: Upper bound on the retry delay.
        fact_max_chars: Bound on the content of one workspace fact.
        note_max_chars: Bound on the content of one daily note.
    """

    def __init__(
        self,
        store: GovernedStore,
        *,
        model: BaseChatModel | None = None,
        worker_id: str | None = None,
        lease_seconds: float = 300.0,
        batch_size: int = 100,
        max_attempts: int = 5,
        backoff_seconds: float = 30.0,
        max_backoff_seconds: float = 3_600.0,
        fact_max_chars: int = FACT_MAX_CHARS,
        note_max_chars: int = NOTE_MAX_CHARS,
    ) -> None:
        if lease_seconds <= 0 or batch_size < 1 or max_attempts < 1 or backoff_seconds < 0:
            raise InvalidInputError("lease, batch size, attempts and backoff must be positive")
        if fact_max_chars < 40 or note_max_chars < 80:
            raise InvalidInputError("fact_max_chars must be >= 40 and note_max_chars >= 80")
        worker = worker_id or default_worker_id()
        if len(worker) > 180 or "#" in worker:
            raise InvalidInputError("worker_id must be at most 180 characters, without '#'")
        self.holder = this_holder()
        self.store = store
        self.model = model
        self.worker_id = worker
        self.lease = timedelta(seconds=lease_seconds)
        self.batch_size = batch_size
        self.max_attempts = max_attempts
        self.backoff_seconds = backoff_seconds
        self.max_backoff_seconds = max_backoff_seconds
        self.fact_max_chars = fact_max_chars
        self.note_max_chars = note_max_chars
        self._structured: Any = None

    @property
    def enabled(self) -> bool:
        """Whether the memory config lets connected sources write now."""
        return connected_enabled(self.store) is None

    # -- processing ---------------------------------------------------------------------------

    def run_once(
        self, *, scope: str | None = None, source_instance_id: str | None = None
    ) -> PipelineReport:
        """Claim one batch and process it."""
        if not self.enabled:
            return PipelineReport()
        return self.process(self.claim(scope=scope, source_instance_id=source_instance_id))

    def drain(
        self,
        *,
        scope: str | None = None,
        source_instance_id: str | None = None,
        max_items: int | None = None,
        should_stop: Callable[[], bool] | None = None,
        progress: ProgressCallback | None = None,
    ) -> PipelineReport:
        """Process batches until nothing is due (or ``max_items`` were claimed).

        ``progress(done, None)`` is called after each batch with the items processed so far.

        ``should_stop`` is checked between batches: a worker asked to stop finishes the batch it
        holds (one transaction) and claims no more. Does nothing while the memory config forbids
        connected sources: items stay pending.
        """
        total = PipelineReport()
        if not self.enabled:
            return total
        while max_items is None or total.claimed < max_items:
            if should_stop is not None and should_stop():
                break
            room = self.batch_size if max_items is None else max_items - total.claimed
            claimed = self.claim(
                min(room, self.batch_size), scope=scope, source_instance_id=source_instance_id
            )
            if not claimed:
                break
            total.add(self.process(claimed, should_stop=should_stop))
            if progress is not None:
                progress(total.claimed, None)
        return total

    def process(
        self,
        claimed: Sequence[ClaimedItem],
        *,
        should_stop: Callable[[], bool] | None = None,
    ) -> PipelineReport:
        """Write the records of claimed items; failures are retried later with backoff.

        Whatever stops this call early (an exception, ``KeyboardInterrupt``, ``should_stop``
        between enrichment calls) releases the items not yet written back to pending at once.
        """
        report = PipelineReport(claimed=len(claimed))
        if not claimed:
            return report
        try:
            self._process(claimed, report, should_stop)
        except BaseException:
            try:
                report.released += self.release(claimed)
            except Exception:  # the leases still expire, or their holder is seen gone
                log.exception("could not release %d claimed source item(s)", len(claimed))
            raise
        return report

    def _process(
        self,
        claimed: Sequence[ClaimedItem],
        report: PipelineReport,
        should_stop: Callable[[], bool] | None,
    ) -> None:
        enrichment: dict[str, FactEnrichment | None] = {}
        failures: dict[str, BaseException] = {}
        if self.model is not None:
            beat = time.monotonic()
            for n, item in enumerate(claimed):
                if should_stop is not None and should_stop():
                    rest = claimed[n:]
                    report.released += self.release(rest)
                    claimed = claimed[:n]
                    break
                if time.monotonic() - beat > self.lease.total_seconds() / 3:
                    self.heartbeat(claimed)  # model calls are slow: keep the leases alive
                    beat = time.monotonic()
                if not self._synthesizes(item):
                    continue
                try:
                    enrichment[item.id] = self._enrich(item)
                except Exception as exc:  # a model failure is retried like any other
                    if item.attempts >= self.max_attempts:
                        enrichment[item.id] = None  # last attempt: the deterministic fact
                    else:
                        failures[item.id] = exc
        todo = [i for i in claimed if i.id not in failures]
        try:
            with self.store.transaction() as session:
                done = self._apply(session, todo, enrichment)
            report.add(done)  # counted only once the transaction committed
        except Exception:
            # Isolate the failing item: one transaction per item, failures recorded one by one.
            for item in todo:
                try:
                    with self.store.transaction() as session:
                        done = self._apply(session, [item], enrichment)
                    report.add(done)
                except Exception as exc:
                    failures[item.id] = exc
        by_id = {i.id: i for i in claimed}
        for item_id, error in failures.items():
            self._fail(by_id[item_id], error, report)

    @staticmethod
    def _synthesizes(item: ClaimedItem) -> bool:
        return (
            not item.deleted and not item.blocked and item.pipeline is Pipeline.CONNECTED_KNOWLEDGE
        )

    def _apply(
        self,
        session: Session,
        items: Sequence[ClaimedItem],
        enrichment: dict[str, FactEnrichment | None],
    ) -> PipelineReport:
        store = self.store
        now = store.clock()
        rep = PipelineReport()
        owned = self._fence(session, items)
        rep.lost += len(items) - len(owned)
        items = [i for i in items if i.id in owned]
        days: dict[tuple[str, str], set[date]] = {}
        facts: dict[str, list[tuple[ClaimedItem, BatchItem]]] = {}
        contexts = thread_contexts(session, [i for i in items if self._synthesizes(i)], {})
        limit = min(self.fact_max_chars, store.config.max_content_chars)
        for item in items:
            if item.pipeline is Pipeline.USER_UNDERSTANDING:
                if not item.deleted and not item.blocked:
                    written, refused = self._understand(session, item)
                    rep.statements += written
                    if refused is not None:
                        self._refused(session, item, refused, rep)
                else:
                    rep.skipped += int(item.blocked and not item.deleted)
                continue
            if item.deleted or item.blocked:
                key = fact_key(item.source_instance_id, item.external_id)
                reason = "source_deleted" if item.deleted else "source_blocked"
                rep.archived += len(store.archive_key(session, item.scope, key, reason=reason))
                rep.skipped += int(item.blocked and not item.deleted)
            else:
                context, linked = contexts[item.id]
                fact = workspace_fact(item, enrichment.get(item.id), now, context, limit=limit)
                facts.setdefault(item.scope, []).append(
                    (item, BatchItem(fact, tuple(linked), "context"))
                )
            if item.occurred_at is not None:
                days.setdefault((item.scope, item.source_instance_id), set()).add(
                    item.occurred_at.astimezone(UTC).date()
                )
        for scope, batch in facts.items():
            # One governed batch per scope; the policy still decides item by item.
            results = govern_upsert_batch(store, scope, [b for _, b in batch], session=session)
            for (item, _), result in zip(batch, results, strict=True):
                if result.error is not None:
                    raise result.error  # the caller retries item by item and records it
                assert result.outcome is not None
                self._count(session, item, result.outcome, rep)
        labels: dict[str, str] = {}
        for (scope, source), ds in sorted(days.items()):
            if source not in labels:
                state = session.get(KnowledgeSourceState, (scope, source))
                labels[source] = str((state.meta or {}).get("label") or source) if state else source
            rep.notes += write_daily_notes(
                store,
                session,
                scope,
                source,
                labels[source],
                ds,
                now,
                max_chars=self.note_max_chars,
            )
        return rep

    @staticmethod
    def _fence(session: Session, items: Sequence[ClaimedItem]) -> set[str]:
        """Mark the items this worker still owns finished; return their ids.

        The first write of the transaction (SQLite takes the write lock here), one statement per
        lease token: an item whose lease another worker took over is not returned, and nothing
        is written for it.
        """
        t = _ITEMS.c
        owned: set[str] = set()
        tokens: dict[str, list[str]] = {}
        for item in items:
            tokens.setdefault(item.lease_token, []).append(item.id)
        for token, ids in tokens.items():
            owned.update(
                session.execute(
                    update(_ITEMS)
                    .where(t.id.in_(ids), t.lease_owner == token)
                    .values(
                        synthesis_state=case(
                            (and_(t.blocked.is_(True), t.deleted_at.is_(None)), "skipped"),
                            else_="done",
                        ),
                        lease_owner=None,
                        lease_expires_at=None,
                        next_attempt_at=None,
                        last_error=None,
                    )
                    .returning(t.id)
                ).scalars()
            )
        return owned

    def _count(
        self, session: Session, item: ClaimedItem, outcome: WriteOutcome, rep: PipelineReport
    ) -> None:
        """Count one fact's outcome; a fact the floor refused archives the item's key."""
        if outcome.action is WriteAction.CREATED:
            rep.created += 1
        elif outcome.action is WriteAction.SUPERSEDING:
            rep.revised += 1
        elif outcome.action is WriteAction.REINFORCED:
            rep.unchanged += 1
        elif outcome.action is WriteAction.REFUSED:
            self._refused(session, item, outcome.reason, rep)
            key = fact_key(item.source_instance_id, item.external_id)
            rep.archived += len(
                self.store.archive_key(session, item.scope, key, reason="source_refused")
            )
        else:
            rep.skipped += 1

    @staticmethod
    def _refused(
        session: Session, item: ClaimedItem, reason: str | None, rep: PipelineReport
    ) -> None:
        """Mark an item the floor refused: state ``refused``, a fixed code, never its text."""
        code = refusal_code(reason)
        session.execute(
            update(_ITEMS)
            .where(_ITEMS.c.id == item.id)
            .values(synthesis_state="refused", last_error=code)
        )
        rep.refused += 1
        log.info("source item %s: the sensitivity floor refused its record (%s)", item.id, code)

    def _understand(self, session: Session, item: ClaimedItem) -> tuple[int, str | None]:
        """Govern the item's explicit statements: how many were written, and why the floor
        refused one (``None`` when it refused none)."""
        role = str(item.meta.get("role") or "user")
        turn = record_turn(
            self.store,
            session,
            item.scope,
            statements=extract_statements(item.text, role=role),
            item_id=item.id,
            at=item.occurred_at,
        )
        written = sum(o.record is not None for o in turn.outcomes)
        refused = next(
            (o.reason or "policy" for o in turn.outcomes if o.action is WriteAction.REFUSED), None
        )
        return written, refused

    def _enrich(self, item: ClaimedItem) -> FactEnrichment:
        assert self.model is not None
        if self._structured is None:
            self._structured = self.model.with_structured_output(FactEnrichment)
        return enrich(self._structured, item)

    def _fail(self, item: ClaimedItem, exc: BaseException, report: PipelineReport) -> None:
        now = self.store.clock()
        dead = item.attempts >= self.max_attempts
        delay = min(self.max_backoff_seconds, self.backoff_seconds * 2 ** (item.attempts - 1))
        error = bound(redact(one_line(f"{type(exc).__name__}: {exc}")), MAX_ERROR_CHARS)[0]
        log.warning("source item %s failed (attempt %d): %s", item.id, item.attempts, error)
        t = _ITEMS.c
        with self.store.connection() as conn:
            res = conn.execute(
                update(_ITEMS)
                .where(t.id == item.id, t.lease_owner == item.lease_token)
                .values(
                    synthesis_state="failed" if dead else "pending",
                    next_attempt_at=None if dead else now + timedelta(seconds=delay),
                    lease_owner=None,
                    lease_expires_at=None,
                    last_error=error,
                )
            )
        if getattr(res, "rowcount", 0) != 1:
            report.lost += 1
        elif dead:
            report.failed += 1
        else:
            report.retried += 1
