"""Frozen views of stored rows and the path helpers every reader shares."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Any, TypeVar, cast

from sqlalchemy import ColumnElement, Row, or_

from userlore.models import (
    Disclosure,
    Explicitness,
    MemoryType,
    Pipeline,
    Producer,
    RecordState,
    RecordView,
    Sensitivity,
    UserState,
)
from userlore.store.schema import MemoryRecord

__all__ = ["VersionView", "path_clause", "record_view", "under_path", "word_diff"]

E = TypeVar("E", bound=Enum)


def under_path(path: str | None, prefix: str) -> bool:
    """Whether ``path`` is ``prefix`` or below it (``projects/x`` holds ``projects/x/notes``)."""
    prefix = prefix.strip("/")
    return not prefix or (path is not None and (path == prefix or path.startswith(prefix + "/")))


def path_clause(prefix: str | None) -> list[ColumnElement[bool]]:
    """:func:`under_path` as a SQL condition (none for an empty prefix)."""
    prefix = (prefix or "").strip("/")
    if not prefix:
        return []
    return [
        or_(
            MemoryRecord.path == prefix,
            MemoryRecord.path.startswith(prefix + "/", autoescape=True),
        )
    ]


def _member(enum_type: type[E], value: str) -> E:
    """``enum_type(value)``: its lookup first, without the call (eight a record view)."""
    member = enum_type._value2member_map_.get(value) if isinstance(value, str) else None
    return enum_type(value) if member is None else cast(E, member)


def record_view(row: MemoryRecord | Row[Any]) -> RecordView:
    """Freeze an ORM row, or a Core row holding every record column, into the public view."""
    return RecordView(
        id=row.id,
        scope=row.scope,
        kind=row.kind,
        content=row.content,
        canonical_key=row.canonical_key,
        value=row.value,
        memory_type=_member(MemoryType, row.memory_type),
        path=row.path,
        state=_member(RecordState, row.state),
        user_state=_member(UserState, row.user_state),
        version=row.version,
        explicitness=_member(Explicitness, row.explicitness),
        confidence=row.confidence,
        importance=row.importance,
        durability=row.durability,
        disclosure=_member(Disclosure, row.disclosure),
        sensitivity=_member(Sensitivity, row.sensitivity),
        sensitivity_category=row.sensitivity_category,
        pipeline=_member(Pipeline, row.pipeline),
        producer=_member(Producer, row.producer),
        valid_from=row.valid_from,
        valid_until=row.valid_until,
        review_after=row.review_after,
        supersedes_record_id=row.supersedes_record_id,
        conflict_group=row.conflict_group,
        stability=row.stability,
        evidence_count=row.evidence_count,
        created_at=row.created_at,
        updated_at=row.updated_at,
        author_agent_id=row.author_agent_id,
        author_client=row.author_client,
        author_device=row.author_device,
    )


@dataclass(frozen=True, slots=True)
class VersionView:
    """One immutable version snapshot; ``live`` is false once a newer version exists."""

    record_id: str
    version: int
    parent_version: int | None
    content: str
    value: str | None
    diff: str | None
    live: bool
    created_at: datetime
    author_agent_id: str | None
    author_client: str | None
    author_device: str | None
    author_instance: str | None


def word_diff(old: str, new: str) -> str:
    """A short, readable word-level diff: ``-old words`` / ``+new words``."""
    a, b = old.split(), new.split()
    parts: list[str] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag in ("replace", "delete"):
            parts.append("-" + " ".join(a[i1:i2]))
        if tag in ("replace", "insert"):
            parts.append("+" + " ".join(b[j1:j2]))
    return " ".join(parts) if parts else "(no change)"
