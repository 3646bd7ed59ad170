"""``lore.sources``: connected sources — sync, synthesis and read-only views."""

from __future__ import annotations

from typing import TYPE_CHECKING

from userlore.api.twins import twin
from userlore.sources.service import KnowledgeSources
from userlore.store.governed import GovernedStore
from userlore.store.retrieval import TermStatistics
from userlore.validation import MAX_KEY_CHARS, int_field, optional_identifier, validate_scope

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from userlore.sources import (
        KnowledgeSourceAdapter,
        PipelineReport,
        SourceCoordinator,
        SyncReport,
    )
    from userlore.sources.ingestion import ProgressCallback


class Sources(KnowledgeSources):
    """Views of connected sources plus the operations that feed them."""

    def __init__(self, store: GovernedStore, term_stats: TermStatistics) -> None:
        super().__init__(store)
        self._term_stats = term_stats

    def ingest(
        self,
        scope: str,
        adapter: KnowledgeSourceAdapter,
        *,
        synthesize: bool = True,
        model: BaseChatModel | None = None,
        progress: ProgressCallback | None = None,
        synthesis_progress: ProgressCallback | None = None,
    ) -> SyncReport:
        """Sync one connected source into ``scope`` (incremental, idempotent, recorded).

        With ``synthesize`` (the default) that source's pending items are turned into workspace
        facts and daily notes before returning, so the call is synchronous for the caller.
        Connected knowledge must be enabled: ``"connected"`` in ``memory.sources``.

        Raises:
            MemoryDisabledError: memory mode ``off``/``readOnly``, or connected sources disabled.
            ScopeError: malformed scope.
            SourceSyncError: the adapter failed (the run is recorded as failed).
        """
        coordinator = self.coordinator(model=model)
        if synthesize:
            report = coordinator.sync_now(
                scope, adapter, progress=progress, synthesis_progress=synthesis_progress
            )
        else:
            report = coordinator.ingestion.sync(scope, adapter, progress=progress)
        self._term_stats.clear()
        return report

    def sync_pending(
        self,
        scope: str,
        *,
        source_instance_id: str | None = None,
        max_items: int | None = None,
        model: BaseChatModel | None = None,
    ) -> PipelineReport:
        """Process a scope's pending items now (leased; failures retried with backoff).

        Every scope at once is the coordinator's job (``coordinator().pipeline.drain()``), as
        ``serve`` and ``worker`` run it.
        """
        validate_scope(scope)
        optional_identifier(source_instance_id, "source_instance_id", max_chars=MAX_KEY_CHARS)
        if max_items is not None:
            int_field(max_items, "max_items", lo=1, hi=10_000_000)
        report = self.coordinator(model=model).pipeline.drain(
            scope=scope, source_instance_id=source_instance_id, max_items=max_items
        )
        if report.claimed:
            self._term_stats.clear()
        return report

    def coordinator(
        self,
        *,
        interval_seconds: float = 60.0,
        model: BaseChatModel | None = None,
        worker_id: str | None = None,
        lease_seconds: float = 300.0,
    ) -> SourceCoordinator:
        """A coordinator that drains pending synthesis (every scope) now and periodically.

        ``serve`` and ``worker`` run one (``coordinator.start()`` / ``run_forever()``); several
        may share a database, leases keep them from processing an item twice. A crashed
        worker's items wait at most ``lease_seconds`` (none when it ran on this host).
        """
        from userlore.sources.coordinator import SourceCoordinator
        from userlore.sources.pipeline import ConnectedKnowledgePipeline

        pipeline = ConnectedKnowledgePipeline(
            self.store, model=model, worker_id=worker_id, lease_seconds=lease_seconds
        )
        return SourceCoordinator(
            pipeline,
            interval_seconds=interval_seconds,
            on_drain=lambda _report: self._term_stats.clear(),
        )

    aitems = twin(KnowledgeSources.items)
    aitem = twin(KnowledgeSources.item)
    achanges = twin(KnowledgeSources.changes)
    async_runs = twin(KnowledgeSources.sync_runs)
    asources = twin(KnowledgeSources.sources)
    awatermark = twin(KnowledgeSources.watermark)
    aadvance_watermark = twin(KnowledgeSources.advance_watermark)
    apending_changes = twin(KnowledgeSources.pending_changes)
    aget = twin(KnowledgeSources.get)
    aingest = twin(ingest)
    async_pending = twin(sync_pending)
    acoordinator = twin(coordinator)
