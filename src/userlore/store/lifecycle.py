"""Scope-level lifecycle: purge (hard delete), export and import.

``forget`` is a tombstone; :func:`purge` is the other end of the lifecycle: it destroys every row
a scope (or a path inside it) owns, in one transaction, and then *counts* what is left with
fresh queries, so the receipt's ``residual_rows`` is a measurement, not a promise. The full-text
index is included in that count (SQLite ``fts5vocab``), because a deleted record whose words
still sit in the index would still be a leak.

:func:`export_scope` writes a self-describing JSON document (format ``userlore.export`` version
1, documented in ``docs/export-format.md``); :func:`import_scope` restores it into an *empty*
scope. An import document is untrusted input: its size, nesting depth and row count are bounded
before anything else looks at it, every id in it is replaced by a fresh id of the importing
scope, and a reference to an id the document does not itself contain refuses the whole document
with one :class:`~userlore.errors.ImportRejectedError` that reads the same whether that id exists
in another scope or nowhere. Imported content passes the same sensitivity rules as any write: a
document carrying a secret is refused whole.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Float,
    Integer,
    String,
    Table,
    delete,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session
from sqlalchemy.sql import FromClause

from userlore.config import MemoryMode
from userlore.errors import (
    ImportRejectedError,
    InvalidInputError,
    InvalidTransitionError,
    MemoryDisabledError,
)
from userlore.models import (
    Disclosure,
    Explicitness,
    MemoryType,
    Pipeline,
    Producer,
    RecordState,
    Sensitivity,
    UserState,
)
from userlore.policy.govern import assess_text
from userlore.policy.sensitivity import redact
from userlore.store.engine import head_revision
from userlore.store.governed import GovernedStore, path_clause, validate_path, validate_scope
from userlore.store.ids import escape_part
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
    UTCDateTime,
)
from userlore.store.text import scope_prefix, search_text

__all__ = [
    "DEFAULT_IMPORT_LIMITS",
    "EXPORT_FORMAT",
    "EXPORT_FORMAT_VERSION",
    "ImportLimits",
    "ImportReceipt",
    "PurgeReceipt",
    "export_scope",
    "import_scope",
    "load_export_document",
    "purge",
]

EXPORT_FORMAT = "userlore.export"
EXPORT_FORMAT_VERSION = 1


@dataclass(frozen=True, slots=True)
class ImportLimits:
    """Bounds an import document must respect; checked before it is parsed or processed.

    Attributes:
        max_bytes: Size of the serialized document (:func:`load_export_document`).
        max_depth: Nesting of objects and lists; an export is about 6 deep.
        max_rows: Rows of all sections together.
        max_nodes: Values of every kind together (objects, lists, strings, numbers).
    """

    max_bytes: int = 256 * 1024 * 1024
    max_depth: int = 32
    max_rows: int = 1_000_000
    max_nodes: int = 50_000_000


DEFAULT_IMPORT_LIMITS = ImportLimits()


@dataclass(frozen=True, slots=True)
class PurgeReceipt:
    """What a purge destroyed and what a query found left afterwards (always 0 on success).

    Attributes:
        deleted: Rows deleted per table (``memory_records_fts`` counts index rows).
        residual: Rows still found per table by a query run after the purge committed.
    """

    scope: str
    path_prefix: str | None
    deleted: dict[str, int]
    residual: dict[str, int]

    @property
    def residual_rows(self) -> int:
        return sum(self.residual.values())

    @property
    def status(self) -> str:
        return "purged" if self.residual_rows == 0 else "incomplete"

    def as_dict(self) -> dict[str, Any]:
        return {
            "scope": self.scope,
            "path_prefix": self.path_prefix,
            "status": self.status,
            "deleted_rows": sum(self.deleted.values()),
            "residual_rows": self.residual_rows,
            "deleted": dict(self.deleted),
            "residual": dict(self.residual),
        }


@dataclass(frozen=True, slots=True)
class ImportReceipt:
    """What an import wrote; ``id_map`` is non-empty when ids had to be renamed."""

    scope: str
    source_scope: str
    imported: dict[str, int]
    id_map: dict[str, str] = field(default_factory=dict)

    @property
    def remapped(self) -> bool:
        return bool(self.id_map)

    def as_dict(self) -> dict[str, Any]:
        return {
            "scope": self.scope,
            "source_scope": self.source_scope,
            "imported": dict(self.imported),
            "imported_rows": sum(self.imported.values()),
            "remapped": self.remapped,
            "id_map": dict(self.id_map),
        }


# -- purge ------------------------------------------------------------------------------------


def _scoped_tables() -> list[Table]:
    """Every table carrying a ``scope`` column, dependents first (safe delete order)."""
    return [
        t for t in reversed(Base.metadata.sorted_tables) if "scope" in t.c and isinstance(t, Table)
    ]


def _fts_prefix_range(scope: str) -> tuple[str, str]:
    prefix = scope_prefix(scope)
    return prefix, prefix[:-1] + chr(ord(prefix[-1]) + 1)


def _fts_vocab(conn: Connection | Session) -> bool:
    """Create the per-connection ``fts5vocab`` view of the index (SQLite only)."""
    bind = conn.get_bind() if isinstance(conn, Session) else conn
    if bind.dialect.name != "sqlite":
        return False
    conn.execute(
        text(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.userlore_fts_instances "
            "USING fts5vocab(main, memory_records_fts, instance)"
        )
    )
    return True


def _fts_rows_of_scope(conn: Session, scope: str) -> int:
    if not _fts_vocab(conn):
        return 0
    lo, hi = _fts_prefix_range(scope)
    return int(
        conn.execute(
            text(
                "SELECT count(*) FROM temp.userlore_fts_instances WHERE term >= :lo AND term < :hi"
            ),
            {"lo": lo, "hi": hi},
        ).scalar_one()
    )


def _fts_rows_of_docs(conn: Session, seqs: list[int]) -> int:
    if not seqs or not _fts_vocab(conn):
        return 0
    total = 0
    for start in range(0, len(seqs), 500):
        chunk = seqs[start : start + 500]
        marks = ",".join(str(int(s)) for s in chunk)
        total += int(
            conn.execute(
                text(f"SELECT count(*) FROM temp.userlore_fts_instances WHERE doc IN ({marks})")
            ).scalar_one()
        )
    return total


def _count(session: Session, table: FromClause, *where: Any) -> int:
    return int(session.scalar(select(func.count()).select_from(table).where(*where)) or 0)


def _mentions(value: Any, ids: frozenset[str]) -> bool:
    if isinstance(value, str):
        return value in ids
    if isinstance(value, Mapping):
        return any(_mentions(v, ids) for v in value.values())
    if isinstance(value, list | tuple):
        return any(_mentions(v, ids) for v in value)
    return False


def _chunks(ids: Iterable[str], size: int = 500) -> Iterable[list[str]]:
    items = list(ids)
    for start in range(0, len(items), size):
        yield items[start : start + size]


def purge(store: GovernedStore, scope: str, path_prefix: str | None = None) -> PurgeReceipt:
    """Hard-delete a scope (or the records under ``path_prefix``) and measure what is left.

    A scope purge deletes every row of every table whose ``scope`` column equals ``scope`` —
    records, versions, evidence links, relations, source items, changes, sync runs, cursors,
    watermarks, traces, review decisions, facet observations and consent grants — plus the
    records' full-text index entries. A path purge deletes the records under the path with their
    versions, evidence links, relations, review decisions, the traces that mention them, the
    facet observations that cite them and the evidence items no surviving record still cites.
    Other scopes are never touched: every statement filters by ``scope``.

    Purge works in every memory mode: erasure is always allowed.

    Raises:
        ScopeError: malformed scope.
        InvalidInputError: malformed path prefix.
    """
    validate_scope(scope)
    prefix = None
    if path_prefix is not None and path_prefix.strip().strip("/"):
        prefix = validate_path(path_prefix.strip().strip("/"))
    if prefix is None:
        deleted = _purge_scope(store, scope)
        residual = _residual_scope(store, scope)
    else:
        deleted, ids, seqs, items = _purge_path(store, scope, prefix)
        residual = _residual_path(store, scope, prefix, ids, seqs, items)
    return PurgeReceipt(scope, prefix, deleted, residual)


def _purge_scope(store: GovernedStore, scope: str) -> dict[str, int]:
    deleted: dict[str, int] = {}
    with store.transaction(scope) as session:
        deleted["memory_records_fts"] = _fts_rows_of_scope(session, scope)
        for table in _scoped_tables():
            result = session.execute(delete(table).where(table.c.scope == scope))
            deleted[table.name] = int(getattr(result, "rowcount", 0) or 0)
    return deleted


def _residual_scope(store: GovernedStore, scope: str) -> dict[str, int]:
    with store.transaction(scope) as session:
        residual = {t.name: _count(session, t, t.c.scope == scope) for t in _scoped_tables()}
        residual["memory_records_fts"] = _fts_rows_of_scope(session, scope)
    return residual


def _purge_path(
    store: GovernedStore, scope: str, prefix: str
) -> tuple[dict[str, int], list[str], list[int], list[str]]:
    if not prefix:  # an empty prefix would select the whole scope
        raise InvalidInputError("a path purge needs a non-empty path prefix")
    deleted: dict[str, int] = {}
    with store.transaction(scope) as session:
        rows = session.execute(
            select(MemoryRecord.id, MemoryRecord.seq).where(
                MemoryRecord.scope == scope, *path_clause(prefix)
            )
        ).all()
        ids = [r.id for r in rows]
        seqs = [int(r.seq) for r in rows]
        idset = frozenset(ids)
        deleted["memory_records_fts"] = _fts_rows_of_docs(session, seqs)
        linked: set[str] = set()
        for chunk in _chunks(ids):
            linked.update(
                session.scalars(
                    select(MemoryEvidence.source_item_id).where(
                        MemoryEvidence.scope == scope, MemoryEvidence.record_id.in_(chunk)
                    )
                )
            )

        def run(name: str, stmt: Any) -> None:
            result = session.execute(stmt)
            deleted[name] = deleted.get(name, 0) + int(getattr(result, "rowcount", 0) or 0)

        for chunk in _chunks(ids):
            run(
                "memory_evidence",
                delete(MemoryEvidence).where(
                    MemoryEvidence.scope == scope, MemoryEvidence.record_id.in_(chunk)
                ),
            )
            run(
                "memory_relations",
                delete(MemoryRelation).where(
                    MemoryRelation.scope == scope,
                    or_(
                        MemoryRelation.from_record_id.in_(chunk),
                        MemoryRelation.to_record_id.in_(chunk),
                    ),
                ),
            )
            run(
                "memory_record_versions",
                delete(MemoryRecordVersion).where(
                    MemoryRecordVersion.scope == scope, MemoryRecordVersion.record_id.in_(chunk)
                ),
            )
            run(
                "review_decisions",
                delete(ReviewDecision).where(
                    ReviewDecision.scope == scope, ReviewDecision.record_id.in_(chunk)
                ),
            )
            session.execute(
                update(MemoryRecord)
                .where(MemoryRecord.scope == scope, MemoryRecord.supersedes_record_id.in_(chunk))
                .values(supersedes_record_id=None)
            )
        for chunk in _chunks(ids):
            run(
                "memory_records",
                delete(MemoryRecord).where(MemoryRecord.scope == scope, MemoryRecord.id.in_(chunk)),
            )
        still_cited: set[str] = set()
        for chunk in _chunks(linked):
            still_cited.update(
                session.scalars(
                    select(MemoryEvidence.source_item_id).where(
                        MemoryEvidence.source_item_id.in_(chunk)
                    )
                )
            )
        orphans = sorted(linked - still_cited)
        for chunk in _chunks(orphans):
            run(
                "knowledge_source_changes",
                delete(KnowledgeSourceChange).where(
                    KnowledgeSourceChange.scope == scope,
                    KnowledgeSourceChange.source_item_id.in_(chunk),
                ),
            )
            run(
                "knowledge_source_items",
                delete(KnowledgeSourceItem).where(
                    KnowledgeSourceItem.scope == scope, KnowledgeSourceItem.id.in_(chunk)
                ),
            )
        gone = idset | frozenset(orphans)
        for chunk in _chunks(gone):
            run(
                "facet_observations",
                delete(FacetObservation).where(
                    FacetObservation.scope == scope, FacetObservation.evidence_ref.in_(chunk)
                ),
            )
        trace_ids = _traces_mentioning(session, scope, idset)
        for chunk in _chunks(trace_ids):
            # A surviving trace keeps its row but no longer points at a deleted parent.
            session.execute(
                update(MemoryTraceEvent)
                .where(MemoryTraceEvent.scope == scope, MemoryTraceEvent.parent_trace_id.in_(chunk))
                .values(parent_trace_id=None)
            )
        for chunk in _chunks(trace_ids):
            run(
                "memory_trace_events",
                delete(MemoryTraceEvent).where(
                    MemoryTraceEvent.scope == scope, MemoryTraceEvent.id.in_(chunk)
                ),
            )
    return deleted, ids, seqs, orphans


def _traces_mentioning(session: Session, scope: str, ids: frozenset[str]) -> list[str]:
    if not ids:
        return []
    return [
        tid
        for tid, payload in session.execute(
            select(MemoryTraceEvent.id, MemoryTraceEvent.payload).where(
                MemoryTraceEvent.scope == scope
            )
        )
        if _mentions(payload, ids)
    ]


def _residual_path(
    store: GovernedStore,
    scope: str,
    prefix: str,
    ids: list[str],
    seqs: list[int],
    items: list[str],
) -> dict[str, int]:
    idset = frozenset(ids)
    with store.transaction(scope) as session:
        residual = {
            "memory_records": _count(
                session, MemoryRecord.__table__, MemoryRecord.scope == scope, *path_clause(prefix)
            ),
            "memory_records_fts": _fts_rows_of_docs(session, seqs),
            "memory_record_versions": 0,
            "memory_evidence": 0,
            "memory_relations": 0,
            "review_decisions": 0,
            "knowledge_source_items": 0,
            "memory_trace_events": len(_traces_mentioning(session, scope, idset)),
        }
        for chunk in _chunks(ids):
            residual["memory_record_versions"] += _count(
                session,
                MemoryRecordVersion.__table__,
                MemoryRecordVersion.record_id.in_(chunk),
            )
            residual["memory_evidence"] += _count(
                session, MemoryEvidence.__table__, MemoryEvidence.record_id.in_(chunk)
            )
            residual["memory_relations"] += _count(
                session,
                MemoryRelation.__table__,
                or_(
                    MemoryRelation.from_record_id.in_(chunk),
                    MemoryRelation.to_record_id.in_(chunk),
                ),
            )
            residual["review_decisions"] += _count(
                session, ReviewDecision.__table__, ReviewDecision.record_id.in_(chunk)
            )
        for chunk in _chunks(items):
            residual["knowledge_source_items"] += _count(
                session, KnowledgeSourceItem.__table__, KnowledgeSourceItem.id.in_(chunk)
            )
    return residual


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
_KIND = re.compile(r"[a-z][a-z0-9_]{0,39}")
_ENUMS: dict[str, Callable[[str], object]] = {
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


_BRACKETS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def load_export_document(
    raw: bytes | str, limits: ImportLimits = DEFAULT_IMPORT_LIMITS
) -> dict[str, Any]:
    """Parse a serialized export document within ``limits`` (size and depth before parsing).

    Raises:
        ImportRejectedError: too large, too deep, not JSON, or not a JSON object.
    """
    if len(raw) > limits.max_bytes:
        raise ImportRejectedError(
            f"import document is larger than {limits.max_bytes} bytes; split or raise the limit"
        )
    text_ = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else raw
    depth = 0
    for match in _BRACKETS.finditer(text_):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > limits.max_depth:
                raise ImportRejectedError(
                    f"import document is nested deeper than {limits.max_depth} levels"
                )
        elif token in "]}":
            depth -= 1
    try:
        data = json.loads(text_)
    except (ValueError, RecursionError):
        raise ImportRejectedError("import document is not valid JSON") from None
    if not isinstance(data, dict):
        raise ImportRejectedError("import document must be a JSON object")
    return data


def _check_bounds(data: Mapping[str, Any], limits: ImportLimits) -> None:
    """Walk the parsed document without recursion: depth, size and string contents.

    A nested payload can be thousands of levels deep; every later step (and the JSON encoder of
    the database driver) recurses, so this runs first and refuses with a typed error.
    """
    rows = 0
    for key, value in data.items():
        if key not in _HEADER_KEYS and isinstance(value, list):
            rows += len(value)
    if rows > limits.max_rows:
        raise ImportRejectedError(f"import document has more than {limits.max_rows} rows")
    nodes = 0
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        nodes += 1
        if nodes > limits.max_nodes:
            raise ImportRejectedError(f"import document has more than {limits.max_nodes} values")
        if isinstance(value, str):
            if "\x00" in value:
                raise ImportRejectedError("import document contains a NUL character")
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise ImportRejectedError(
                    "import document contains text that is not valid Unicode"
                ) from None
            continue
        if isinstance(value, Mapping):
            children: Iterable[Any] = [*value.keys(), *value.values()]
        elif isinstance(value, list | tuple):
            children = value
        else:
            continue
        if depth >= limits.max_depth:
            raise ImportRejectedError(
                f"import document is nested deeper than {limits.max_depth} levels"
            )
        stack.extend((child, depth + 1) for child in children)


def _parse_value(col: Column[Any], value: Any, where: str) -> Any:
    if value is None:
        if not col.nullable:
            raise _fail(where, f"{col.name} must not be null")
        return None
    kind = col.type
    if isinstance(kind, UTCDateTime):
        if not isinstance(value, str):
            raise _fail(where, f"{col.name} must be an ISO 8601 string")
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError:
            raise _fail(where, f"{col.name} is not an ISO 8601 datetime") from None
        if parsed.tzinfo is None:
            raise _fail(where, f"{col.name} must carry a timezone")
        return parsed
    if isinstance(kind, Boolean):
        if not isinstance(value, bool):
            raise _fail(where, f"{col.name} must be a boolean")
        return value
    if isinstance(kind, Integer):
        if isinstance(value, bool) or not isinstance(value, int):
            raise _fail(where, f"{col.name} must be an integer")
        if not -(2**63) <= value < 2**63:
            raise _fail(where, f"{col.name} is out of range")
        return value
    if isinstance(kind, Float):
        if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
            raise _fail(where, f"{col.name} must be a number")
        return float(value)
    if isinstance(kind, String):  # also Text
        if not isinstance(value, str):
            raise _fail(where, f"{col.name} must be a string")
        if kind.length is not None and len(value) > kind.length:
            raise _fail(where, f"{col.name} is longer than {kind.length} characters")
        return value
    # JSON columns
    if not isinstance(value, dict):
        raise _fail(where, f"{col.name} must be a JSON object")
    return value


def _parse_rows(spec: _Spec, raw: Any, source_scope: str) -> list[dict[str, Any]]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise _fail(spec.key, "must be a list")
    cols = {c.name: c for c in spec.columns()}
    out: list[dict[str, Any]] = []
    for i, item in enumerate(raw):
        where = f"{spec.key}[{i}]"
        if not isinstance(item, dict):
            raise _fail(where, "must be an object")
        unknown = sorted(set(item) - set(cols))
        if unknown:
            raise _fail(where, f"unknown fields {unknown}")
        row: dict[str, Any] = {}
        for name, col in cols.items():
            if name in item:
                row[name] = _parse_value(col, item[name], where)
            elif col.nullable:
                row[name] = None
            elif col.default is not None and getattr(col.default, "is_scalar", False):
                row[name] = getattr(col.default, "arg", None)
            else:
                raise _fail(where, f"missing field {name}")
        if row.get("scope") != source_scope:
            raise _fail(where, "scope differs from the document's scope")
        out.append(row)
    return out


def _check_records(records: list[dict[str, Any]], versions: list[dict[str, Any]]) -> None:
    seen: set[str] = set()
    for i, row in enumerate(records):
        where = f"records[{i}]"
        for name, enum in _ENUMS.items():
            try:
                enum(row[name])
            except ValueError:
                raise _fail(where, f"{name} {row[name]!r} is not a known value") from None
        if row["state_before_delete"] is not None:
            try:
                RecordState(row["state_before_delete"])
            except ValueError:
                raise _fail(where, "state_before_delete is not a known state") from None
        if not _KIND.fullmatch(row["kind"]):
            raise _fail(where, f"invalid kind {row['kind']!r}")
        try:
            validate_path(row["path"])
        except InvalidInputError as exc:
            raise _fail(where, str(exc)) from None
        if row["id"] in seen:
            raise _fail(where, f"duplicate id {row['id']!r}")
        seen.add(row["id"])
        if row["version"] < 1:
            raise _fail(where, "version must be at least 1")
        if assess_text(row["content"], row["value"], row["canonical_key"]).refused:
            raise _fail(where, "content is a secret or regulated value")
    for i, row in enumerate(versions):
        if assess_text(row["content"], row["value"]).refused:
            raise _fail(f"versions[{i}]", "content is a secret or regulated value")


# Every column holding an id: the section whose ids it must name (a tuple: any of them).
_REFERENCES: dict[str, dict[str, tuple[str, ...]]] = {
    "records": {"supersedes_record_id": ("records",)},
    "versions": {"record_id": ("records",)},
    "evidence": {"record_id": ("records",), "source_item_id": ("source_items",)},
    "relations": {"from_record_id": ("records",), "to_record_id": ("records",)},
    "review_decisions": {"record_id": ("records",)},
    "facet_observations": {"evidence_ref": ("source_items", "records")},
    "traces": {"parent_trace_id": ("traces",)},
    "source_changes": {"source_item_id": ("source_items",)},
}


def _check_references(rows: dict[str, list[dict[str, Any]]]) -> None:
    """Every id a row points at must be an id of the document itself (or null).

    Ids of the four id-bearing sections must be unique within the document, and one id may not
    appear in two sections. Checked before any database access, so a refusal cannot depend on
    what the database holds.
    """
    owned: dict[str, set[str]] = {}
    every: set[str] = set()
    for key in _ID_KEYS:
        ids: set[str] = set()
        for i, row in enumerate(rows[key]):
            if row["id"] in ids or row["id"] in every:
                raise _fail(f"{key}[{i}]", "id is used twice in the document")
            ids.add(row["id"])
        owned[key] = ids
        every |= ids
    for key, columns in _REFERENCES.items():
        for i, row in enumerate(rows[key]):
            for column, targets in columns.items():
                value = row.get(column)
                if value is not None and not any(value in owned[t] for t in targets):
                    raise _dangling(f"{key}[{i}]", column)


def _rewrite_instance(value: str, old: str, new: str) -> str:
    """Move a source instance id such as ``tool:<old scope>`` to the importing scope.

    Derived ids escape each part (``store/ids.py``), so the old scope is matched as one whole
    ``:``-separated part and replaced by the new scope, escaped the same way.
    """
    if old == new:
        return value
    old_part, new_part = escape_part(old), escape_part(new)
    return ":".join(new_part if part == old_part else part for part in value.split(":"))


def _remap(value: Any, mapping: Mapping[str, str]) -> Any:
    if isinstance(value, str):
        return mapping.get(value, value)
    if isinstance(value, dict):
        return {k: _remap(v, mapping) for k, v in value.items()}
    if isinstance(value, list):
        return [_remap(v, mapping) for v in value]
    return value


def import_scope(
    store: GovernedStore,
    data: Mapping[str, Any],
    scope: str,
    *,
    limits: ImportLimits = DEFAULT_IMPORT_LIMITS,
) -> ImportReceipt:
    """Restore an export document into ``scope``, which must be empty.

    The document is untrusted: it is bounded by ``limits`` first, every reference in it must
    name a row of the document itself, and every id is replaced by a fresh one (the receipt's
    ``id_map`` says how), so nothing in it can point at, or learn about, a row of another scope.
    Source instance ids naming the exported scope are moved to ``scope``. The whole import is
    one transaction: on any error nothing is written.

    Raises:
        ImportRejectedError: too large or too deep, not a ``userlore.export`` v1 document,
            malformed rows, a reference outside the document, or content that is a secret or
            regulated value.
        InvalidTransitionError: ``scope`` already holds data.
        MemoryDisabledError: the memory mode is ``off`` or ``readOnly``.
    """
    validate_scope(scope)
    if store.config.memory.mode in (MemoryMode.OFF, MemoryMode.READ_ONLY):
        raise MemoryDisabledError(f"memory mode {store.config.memory.mode.value!r} forbids import")
    if not isinstance(data, Mapping):
        raise ImportRejectedError("import data must be a JSON object")
    _check_bounds(data, limits)
    if data.get("format") != EXPORT_FORMAT:
        raise ImportRejectedError(f"import data is not a {EXPORT_FORMAT!r} document")
    if data.get("format_version") != EXPORT_FORMAT_VERSION:
        raise ImportRejectedError(
            f"unsupported export format_version {data.get('format_version')!r}; "
            f"this userlore reads version {EXPORT_FORMAT_VERSION}"
        )
    source_scope = data.get("scope")
    if not isinstance(source_scope, str):
        raise ImportRejectedError("import data has no scope")
    try:
        validate_scope(source_scope)
    except InvalidInputError as exc:
        raise ImportRejectedError(f"import data: {exc}") from None
    known = {spec.key for spec in _SPECS} | _HEADER_KEYS
    unknown = sorted(map(str, set(data) - known))
    if unknown:
        raise ImportRejectedError(f"import data has unknown sections {unknown}")
    rows = {spec.key: _parse_rows(spec, data.get(spec.key), source_scope) for spec in _SPECS}
    _check_records(rows["records"], rows["versions"])
    _check_references(rows)
    for row in rows["source_items"]:
        row["text"] = redact(row["text"])
        if row["title"] is not None:
            row["title"] = redact(row["title"])
    for key in _SOURCE_INSTANCE_KEYS:
        for i, row in enumerate(rows[key]):
            moved = _rewrite_instance(row["source_instance_id"], source_scope, scope)
            if len(moved) > 300:
                raise _fail(f"{key}[{i}]", "source_instance_id is too long in this scope")
            row["source_instance_id"] = moved
    for table_rows in rows.values():
        for row in table_rows:
            row["scope"] = scope
    try:
        with store.transaction(scope) as session:
            for table in _scoped_tables():
                if _count(session, table, table.c.scope == scope):
                    raise InvalidTransitionError(
                        f"scope {scope!r} is not empty; import only restores into an empty scope "
                        "(purge it first)"
                    )
            id_map = _id_map(store, rows)
            imported = _insert_all(session, rows, id_map, scope)
    except (DBAPIError, UnicodeError):
        # Every reference was checked above; what is left is data the database refuses. The
        # driver's message could name rows outside the document, so it is not passed on.
        raise ImportRejectedError(
            "import data is inconsistent with the database schema; nothing was imported"
        ) from None
    return ImportReceipt(scope, source_scope, imported, id_map)


def _id_map(store: GovernedStore, rows: dict[str, list[dict[str, Any]]]) -> dict[str, str]:
    """A fresh id for every id of the document, whatever the database holds.

    Keeping an id "unless it is taken" would tell the importer whether it exists elsewhere.
    """
    return {
        row["id"]: store.new_id(prefix) for key, prefix in _ID_KEYS.items() for row in rows[key]
    }


def _insert_all(
    session: Session,
    rows: dict[str, list[dict[str, Any]]],
    id_map: dict[str, str],
    scope: str,
) -> dict[str, int]:
    imported: dict[str, int] = {}
    sequence_map: dict[int, int] = {}
    for spec in _SPECS:
        batch = rows[spec.key]
        for row in batch:
            for name in spec.refs:
                if row.get(name) is not None:
                    row[name] = id_map.get(row[name], row[name])
            for name in spec.json_refs:
                row[name] = _remap(row[name], id_map)
        if spec.key == "records":
            for row in batch:
                row["search_text"] = search_text(
                    scope, row["content"], row["value"], row["canonical_key"], row["path"]
                )
        if spec.key == "source_changes":
            for row in batch:
                old = row.pop("sequence")
                new = session.execute(
                    insert(spec.table).values(**row).returning(spec.table.c.sequence)
                ).scalar_one()
                sequence_map[int(old)] = int(new)
            imported[spec.key] = len(batch)
            continue
        if spec.key == "consumer_watermarks":
            for row in batch:
                earlier = [new for old, new in sequence_map.items() if old <= row["sequence"]]
                row["sequence"] = max(earlier) if earlier else 0
        if batch:
            session.execute(insert(spec.table), batch)
        imported[spec.key] = len(batch)
    session.flush()
    return imported
