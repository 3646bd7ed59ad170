# Over 400 lines: the checks an untrusted document passes (bounds, types, references) chain.
"""Import: parse, bound and check an export document, then restore it into an empty scope."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    Integer,
    String,
    insert,
)
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from userlore.config import MemoryMode
from userlore.errors import (
    ImportRejectedError,
    InvalidInputError,
    InvalidTransitionError,
    MemoryDisabledError,
)
from userlore.models import (
    RecordState,
)
from userlore.policy.govern import assess_text
from userlore.policy.sensitivity import redact
from userlore.store.episodic_index import index_rows
from userlore.store.export import (
    _ENUMS,
    _HEADER_KEYS,
    _ID_KEYS,
    _SOURCE_INSTANCE_KEYS,
    _SPECS,
    _dangling,
    _fail,
    _Spec,
)
from userlore.store.governed import GovernedStore, validate_path, validate_scope
from userlore.store.ids import escape_part
from userlore.store.purge import _count, _scoped_tables
from userlore.store.receipts import (
    DEFAULT_IMPORT_LIMITS,
    EXPORT_FORMAT,
    EXPORT_FORMAT_VERSION,
    ImportLimits,
    ImportReceipt,
)
from userlore.store.schema import (
    UTCDateTime,
)
from userlore.store.text import search_text
from userlore.validation import json_depth_exceeds


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
    body = raw if isinstance(raw, bytes) else raw.encode("utf-8", errors="replace")
    if json_depth_exceeds(body, limits.max_depth):
        raise ImportRejectedError(
            f"import document is nested deeper than {limits.max_depth} levels"
        )
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
        if spec.key == "source_items":
            index_rows(session, batch)  # the episodic index is derived, never imported
        imported[spec.key] = len(batch)
    session.flush()
    return imported
