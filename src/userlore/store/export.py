"""Export: the userlore.export v1 document of one scope, and the table specs import shares."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Column,
    Table,
    select,
)

from userlore.errors import (
    ImportRejectedError,
)
from userlore.models import (
    Disclosure,
    Explicitness,
    MemoryType,
    Pipeline,
    Producer,
    RecordKind,
    RecordState,
    Sensitivity,
    UserState,
)
from userlore.store.engine import head_revision
from userlore.store.governed import GovernedStore, validate_scope
from userlore.store.receipts import EXPORT_FORMAT, EXPORT_FORMAT_VERSION
from userlore.store.schema import (
    Base,
    ConsentGrant,
    FacetObservation,
    KnowledgeConsumerWatermark,
    KnowledgeSourceChange,
    KnowledgeSourceItem,
    KnowledgeSourceState,
    KnowledgeSyncRun,
    MemoryEvidence,
    MemoryRecord,
    MemoryRecordVersion,
    MemoryRelation,
    MemoryTraceEvent,
    ReviewDecision,
)

# -- export / import --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Spec:
    """How one table travels in the export document."""

    key: str
    model: type[Base]
    order: tuple[str, ...]
    drop: tuple[str, ...] = ()
    """Surrogate keys the importing database assigns again."""
    refs: tuple[str, ...] = ()
    """Columns holding ids that are renamed together when ids must be remapped."""
    json_refs: tuple[str, ...] = ()
    """JSON columns whose nested strings are renamed with the ids they mention."""

    @property
    def table(self) -> Table:
        table = self.model.__table__
        assert isinstance(table, Table)
        return table

    def columns(self) -> list[Column[Any]]:
        return [c for c in self.table.columns if c.name not in self.drop]


# Insert order: parents before children.
_SPECS: tuple[_Spec, ...] = (
    _Spec(
        "records", MemoryRecord, ("seq",), ("seq", "search_text"), ("id", "supersedes_record_id")
    ),
    _Spec("versions", MemoryRecordVersion, ("id",), ("id",), ("record_id",)),
    _Spec("source_items", KnowledgeSourceItem, ("created_at", "id"), (), ("id",), ("meta",)),
    _Spec("evidence", MemoryEvidence, ("id",), ("id",), ("record_id", "source_item_id")),
    _Spec("relations", MemoryRelation, ("id",), ("id",), ("from_record_id", "to_record_id")),
    _Spec("review_decisions", ReviewDecision, ("id",), ("id",), ("record_id",)),
    _Spec("consent_grants", ConsentGrant, ("id",), ("id",)),
    _Spec("facet_observations", FacetObservation, ("id",), ("id",), ("evidence_ref",)),
    _Spec(
        "traces",
        MemoryTraceEvent,
        ("created_at", "id"),
        (),
        ("id", "parent_trace_id"),
        ("payload",),
    ),
    _Spec("source_changes", KnowledgeSourceChange, ("sequence",), (), ("source_item_id",)),
    _Spec("consumer_watermarks", KnowledgeConsumerWatermark, ("consumer_id",)),
    _Spec("sync_runs", KnowledgeSyncRun, ("started_at", "id"), (), ("id",)),
    _Spec("source_state", KnowledgeSourceState, ("source_instance_id",)),
)
_ID_KEYS = {"records": "mem", "source_items": "src", "traces": "trc", "sync_runs": "run"}
_HEADER_KEYS = frozenset(
    {"format", "format_version", "schema_revision", "exported_at", "scope", "counts"}
)
_SOURCE_INSTANCE_KEYS = ("source_items", "source_changes", "sync_runs", "source_state")
_ENUMS: dict[str, Callable[[str], object]] = {
    "kind": RecordKind,  # the governed write accepts no other kind, so neither does import
    "memory_type": MemoryType,
    "state": RecordState,
    "user_state": UserState,
    "explicitness": Explicitness,
    "disclosure": Disclosure,
    "sensitivity": Sensitivity,
    "pipeline": Pipeline,
    "producer": Producer,
}


def _dump(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


def export_scope(store: GovernedStore, scope: str) -> dict[str, Any]:
    """Every row a scope owns, as one JSON-ready document (``userlore.export`` v1).

    The document is complete: importing it into an empty scope gives the same records, versions,
    evidence, relations, review decisions, consent, facet observations, traces and source
    bookkeeping. Derived data (the full-text index, ``search_text``) is rebuilt on import.
    """
    validate_scope(scope)
    doc: dict[str, Any] = {
        "format": EXPORT_FORMAT,
        "format_version": EXPORT_FORMAT_VERSION,
        "schema_revision": head_revision(),
        "exported_at": store.clock().isoformat(),
        "scope": scope,
    }
    with store.transaction(scope) as session:
        for spec in _SPECS:
            cols = spec.columns()
            table = spec.table
            rows = session.execute(
                select(*cols)
                .where(table.c.scope == scope)
                .order_by(*(table.c[name] for name in spec.order))
            )
            doc[spec.key] = [
                {c.name: _dump(v) for c, v in zip(cols, row, strict=True)} for row in rows
            ]
    doc["counts"] = {spec.key: len(doc[spec.key]) for spec in _SPECS}
    return doc


def _fail(where: str, message: str) -> ImportRejectedError:
    return ImportRejectedError(f"invalid export document: {where}: {message}")


def _dangling(where: str, column: str) -> ImportRejectedError:
    """The one refusal for every reference outside the document: it never depends on whether
    the id exists in this database."""
    return _fail(where, f"{column} does not name a row of this document")
