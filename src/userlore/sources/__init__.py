"""Connected sources: adapters, incremental ingestion, the change ledger and the pipeline.

```
adapter.pull(cursor) ──► KnowledgeIngestionService ──► knowledge_source_items (+ ledger, runs)
                                                              │
                         ConnectedKnowledgePipeline ◄─────────┘ (leases, retries, routing)
                                 │
                                 └──► govern ──► workspace_fact / daily_note + evidence
```
"""

from __future__ import annotations

from userlore.sources.base import ItemListSource, KnowledgeSourceAdapter, PullResult, SourceItem
from userlore.sources.coordinator import SourceCoordinator
from userlore.sources.ingestion import KnowledgeIngestionService
from userlore.sources.ledger import ChangeLedger
from userlore.sources.pipeline import ConnectedKnowledgePipeline, FactEnrichment
from userlore.sources.service import KnowledgeSources
from userlore.sources.views import (
    PipelineReport,
    SourceChangeView,
    SourceItemView,
    SourceStateView,
    SyncCounts,
    SyncReport,
    SyncRunView,
)

__all__ = [
    "ChangeLedger",
    "ConnectedKnowledgePipeline",
    "FactEnrichment",
    "ItemListSource",
    "KnowledgeIngestionService",
    "KnowledgeSourceAdapter",
    "KnowledgeSources",
    "PipelineReport",
    "PullResult",
    "SourceChangeView",
    "SourceCoordinator",
    "SourceItem",
    "SourceItemView",
    "SourceStateView",
    "SyncCounts",
    "SyncReport",
    "SyncRunView",
]
