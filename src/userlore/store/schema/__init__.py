"""SQLAlchemy 2.0 typed schema of the whole record model (DESIGN.md "One record model").

Every table carries ``scope`` and every query filters by it. Every reference between rows is a
composite foreign key on ``(scope, id)`` (parents carry ``UNIQUE(scope, id)``), so no row can
point into another scope whatever a caller sends: the database refuses it on every backend. Text
columns hold enum values as plain strings so both SQLite and PostgreSQL read them without native
enum types. The schema is created only by migrations (``store/migrations``); these classes are
the typed view the code uses.

One module per part of the model: ``base`` (declarative base, UTC datetimes, same-scope foreign
keys), ``records``, ``sources``, ``activity`` (traces, work queue) and ``vectors``. Import the
tables from here.
"""

from __future__ import annotations

from userlore.store.schema.activity import MemoryTraceEvent, WorkItem
from userlore.store.schema.base import Base, UTCDateTime
from userlore.store.schema.records import (
    ConsentGrant,
    FacetObservation,
    MemoryEvidence,
    MemoryRecord,
    MemoryRecordVersion,
    MemoryRelation,
    ReviewDecision,
)
from userlore.store.schema.sources import (
    EpisodicItem,
    KnowledgeConsumerWatermark,
    KnowledgeSourceChange,
    KnowledgeSourceItem,
    KnowledgeSourceState,
    KnowledgeSyncRun,
)
from userlore.store.schema.vectors import (
    EmbeddingModel,
    EvidenceVector,
    FieldVector,
    RecordVector,
    SentenceVector,
    VectorGeneration,
)

__all__ = [
    "Base",
    "ConsentGrant",
    "EmbeddingModel",
    "EpisodicItem",
    "EvidenceVector",
    "FacetObservation",
    "FieldVector",
    "KnowledgeConsumerWatermark",
    "KnowledgeSourceChange",
    "KnowledgeSourceItem",
    "KnowledgeSourceState",
    "KnowledgeSyncRun",
    "MemoryEvidence",
    "MemoryRecord",
    "MemoryRecordVersion",
    "MemoryRelation",
    "MemoryTraceEvent",
    "RecordVector",
    "ReviewDecision",
    "SentenceVector",
    "UTCDateTime",
    "VectorGeneration",
    "WorkItem",
]
