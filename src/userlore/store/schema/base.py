"""The declarative base, the UTC datetime type and the same-scope foreign keys every table uses."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import JSON, DateTime, ForeignKeyConstraint
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.types import TypeDecorator

__all__ = ["Base", "JSONType", "UTCDateTime", "item_fk", "record_fk"]


_UNSET: Any = object()


class UTCDateTime(TypeDecorator[datetime]):
    """Timezone-aware UTC datetimes on every backend (SQLite stores naive text)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def bind_processor(self, dialect: Dialect) -> Callable[[Any], Any] | None:
        """The type's bind processor, remembering its last answer: a batch's rows all carry
        the transaction's one ``now`` (a bulk put binds it about six times a row)."""
        inner = super().bind_processor(dialect)
        if inner is None:  # pragma: no cover - a TypeDecorator with process_bind_param has one
            return None
        memo: tuple[Any, Any] = (_UNSET, None)

        def process(value: Any) -> Any:
            nonlocal memo
            last = memo  # one read: another thread may replace it meanwhile
            if value is last[0]:  # the same immutable datetime object: the same answer
                return last[1]
            out = inner(value)
            memo = (value, out)
            return out

        return process

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


JSONType = JSON().with_variant(JSONB(), "postgresql")


JSONType = JSON().with_variant(JSONB(), "postgresql")


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {
        datetime: UTCDateTime(),
        dict[str, Any]: JSONType,
    }


def _record_fk(column: str, name: str) -> ForeignKeyConstraint:
    """``(scope, column)`` references a record of the same scope."""
    return ForeignKeyConstraint(
        ["scope", column], ["memory_records.scope", "memory_records.id"], name=name
    )


def _item_fk(column: str, name: str) -> ForeignKeyConstraint:
    """``(scope, column)`` references a source item of the same scope."""
    return ForeignKeyConstraint(
        ["scope", column],
        ["knowledge_source_items.scope", "knowledge_source_items.id"],
        name=name,
    )


def record_fk(column: str, name: str) -> ForeignKeyConstraint:
    """``(scope, column)`` references a record of the same scope."""
    return ForeignKeyConstraint(
        ["scope", column], ["memory_records.scope", "memory_records.id"], name=name
    )


def item_fk(column: str, name: str) -> ForeignKeyConstraint:
    """``(scope, column)`` references a source item of the same scope."""
    return ForeignKeyConstraint(
        ["scope", column],
        ["knowledge_source_items.scope", "knowledge_source_items.id"],
        name=name,
    )
