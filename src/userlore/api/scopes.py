"""``lore.scopes``: whole-scope operations (export, import, purge)."""

from __future__ import annotations

from typing import Any

from userlore.api.records import checked_path_prefix
from userlore.api.twins import twin
from userlore.store.governed import GovernedStore
from userlore.store.lifecycle import ImportReceipt, PurgeReceipt, export_scope, import_scope
from userlore.store.lifecycle import purge as purge_scope
from userlore.store.retrieval import TermStatistics
from userlore.validation import mapping_field, validate_scope


class Scopes:
    """Move a scope in and out whole; both drop the shared term statistics they invalidate."""

    def __init__(self, store: GovernedStore, term_stats: TermStatistics) -> None:
        self._store = store
        self._term_stats = term_stats

    def purge(self, scope: str, path_prefix: str | None = None) -> PurgeReceipt:
        """Hard-delete a scope (or a path in it); the receipt counts residual rows (0)."""
        validate_scope(scope)
        checked_path_prefix(path_prefix)
        receipt = purge_scope(self._store, scope, path_prefix)
        self._term_stats.clear()
        return receipt

    def export(self, scope: str) -> dict[str, Any]:
        """The whole scope as a ``userlore.export`` v1 JSON document."""
        validate_scope(scope)
        return export_scope(self._store, scope)

    def import_(self, scope: str, data: dict[str, Any]) -> ImportReceipt:
        """Restore an export document into an empty scope (refused otherwise)."""
        validate_scope(scope)
        mapping_field(data, "data")
        receipt = import_scope(self._store, data, scope)
        self._term_stats.clear()
        return receipt

    apurge = twin(purge)
    aexport = twin(export)
    aimport_ = twin(import_)
