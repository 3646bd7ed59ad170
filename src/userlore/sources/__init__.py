"""Connected sources: adapters, incremental ingestion, the change ledger and the pipeline.

```
adapter.pull(cursor) ──► KnowledgeIngestionService ──► knowledge_source_items (+ ledger, runs)
                                                              │
                         ConnectedKnowledgePipeline ◄─────────┘ (leases, retries, routing)
                                 │
                                 └──► govern ──► workspace_fact / daily_note + evidence
```

The names below load on first use (``userlore._lazy``): the CLI reads ``views`` without the
pipeline.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from userlore._lazy import load_export

if TYPE_CHECKING:
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

_EXPORTS: Final = {
    "ChangeLedger": "userlore.sources.ledger",
    "ConnectedKnowledgePipeline": "userlore.sources.pipeline",
    "FactEnrichment": "userlore.sources.pipeline",
    "ItemListSource": "userlore.sources.base",
    "KnowledgeIngestionService": "userlore.sources.ingestion",
    "KnowledgeSourceAdapter": "userlore.sources.base",
    "KnowledgeSources": "userlore.sources.service",
    "PipelineReport": "userlore.sources.views",
    "PullResult": "userlore.sources.base",
    "SourceChangeView": "userlore.sources.views",
    "SourceCoordinator": "userlore.sources.coordinator",
    "SourceItem": "userlore.sources.base",
    "SourceItemView": "userlore.sources.views",
    "SourceStateView": "userlore.sources.views",
    "SyncCounts": "userlore.sources.views",
    "SyncReport": "userlore.sources.views",
    "SyncRunView": "userlore.sources.views",
}
"""Each public name and the module it is defined in, imported on first access."""


def _load(name: str) -> object:
    return load_export(globals(), _EXPORTS, name)


if not TYPE_CHECKING:
    __getattr__ = _load  # run time only, as in ``userlore/__init__.py``


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


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
