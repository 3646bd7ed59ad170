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

The parts live in :mod:`~userlore.store.purge`, :mod:`~userlore.store.export`,
:mod:`~userlore.store.importing` and :mod:`~userlore.store.receipts`; this module is their one
import path.
"""

from __future__ import annotations

from userlore.store.export import export_scope
from userlore.store.importing import import_scope, load_export_document
from userlore.store.purge import _scoped_tables as _scoped_tables  # tests count every scoped table
from userlore.store.purge import purge
from userlore.store.receipts import (
    DEFAULT_IMPORT_LIMITS,
    EXPORT_FORMAT,
    EXPORT_FORMAT_VERSION,
    ImportLimits,
    ImportReceipt,
    PurgeReceipt,
)

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
