"""What the scope lifecycle operations return and accept: receipts and import limits."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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
