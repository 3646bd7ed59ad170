"""``SourceCoordinator``: keeps pending synthesis drained inside ``serve`` and ``worker``.

It drains once at startup and then every ``interval_seconds`` (a minute by default), in a
background thread or in the foreground (``userlore worker``); on PostgreSQL a ``NOTIFY`` from
ingestion wakes it at once (see :func:`~userlore.sources.leases.work_wakeups`). A manual sync of
one source (:meth:`SourceCoordinator.sync_now`) ingests it and processes that source's items at
once, so the call is synchronous from the caller's view; its report is ``partial`` when items of
the source are still waiting (leased by another worker, or due for a retry). Several coordinators
(threads or processes) may run against one database: the pipeline's leases keep them from
processing an item twice. Stopping a coordinator (or leaving the interpreter) releases what it
still holds.
"""

from __future__ import annotations

import atexit
import logging
import threading
from collections.abc import Callable

from userlore.sources.base import KnowledgeSourceAdapter
from userlore.sources.ingestion import KnowledgeIngestionService, ProgressCallback
from userlore.sources.leases import work_wakeups
from userlore.sources.pipeline import ConnectedKnowledgePipeline
from userlore.sources.views import PipelineReport, SyncReport

__all__ = ["SourceCoordinator"]

log = logging.getLogger(__name__)


class SourceCoordinator:
    """Runs the connected-knowledge pipeline periodically; syncs sources on demand.

    Args:
        pipeline: The pipeline to drain (its worker id names this coordinator's leases).
        ingestion: Used by :meth:`sync_now`; built from the pipeline's store when omitted.
        interval_seconds: Pause between drains.
        on_drain: Called with the report of every drain that processed something.
    """

    def __init__(
        self,
        pipeline: ConnectedKnowledgePipeline,
        *,
        ingestion: KnowledgeIngestionService | None = None,
        interval_seconds: float = 60.0,
        on_drain: Callable[[PipelineReport], None] | None = None,
    ) -> None:
        if interval_seconds <= 0:
            raise ValueError("interval_seconds must be positive")
        self.pipeline = pipeline
        self.ingestion = ingestion or KnowledgeIngestionService(pipeline.store)
        self.interval_seconds = interval_seconds
        self.on_drain = on_drain
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._drain_lock = threading.Lock()

    def drain_once(self) -> PipelineReport:
        """Process everything that is due now (all scopes); errors are logged, not raised."""
        with self._drain_lock:
            try:
                # A stop request (SIGTERM) ends the drain after the batch in flight commits.
                report = self.pipeline.drain(should_stop=self._stop.is_set)
            except Exception:
                log.exception("connected-knowledge drain failed")
                return PipelineReport()
        if report.claimed and self.on_drain is not None:
            self.on_drain(report)
        return report

    def sync_now(
        self,
        scope: str,
        adapter: KnowledgeSourceAdapter,
        *,
        progress: ProgressCallback | None = None,
        synthesis_progress: ProgressCallback | None = None,
    ) -> SyncReport:
        """Ingest ``adapter`` and process that source's pending items before returning."""
        report = self.ingestion.sync(scope, adapter, progress=progress)
        synthesis = self.pipeline.drain(
            scope=scope, source_instance_id=report.source_instance_id, progress=synthesis_progress
        )
        return self.ingestion.finish_synthesis(report, synthesis)

    def run_forever(self) -> None:
        """Drain now, then whenever work is announced (PostgreSQL ``LISTEN``) or the interval
        passes, until :meth:`stop` is called (blocking)."""
        self._stop.clear()
        with work_wakeups(self.pipeline.store.engine) as wait:
            while not self._stop.is_set():
                self.drain_once()
                wait(self.interval_seconds, self._stop)

    def start(self) -> None:
        """Run :meth:`run_forever` in a daemon thread (idempotent)."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(
            target=self.run_forever, name="userlore-source-coordinator", daemon=True
        )
        self._thread.start()
        # A daemon thread dies mid-batch at interpreter exit: stop it cleanly first.
        atexit.register(self.stop)

    def stop(self, timeout: float | None = 30.0) -> None:
        """Ask the loop to stop and wait for the current drain to finish.

        The drain ends after the item in flight: an enriched batch hands its remaining items
        back to pending at once (see :meth:`ConnectedKnowledgePipeline.process`).
        """
        self._stop.set()
        atexit.unregister(self.stop)
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def __enter__(self) -> SourceCoordinator:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
