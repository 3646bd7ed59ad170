"""Seed 003 memory: the operations (``remember``, ``recall``, ``update_memory``, ``forget``,
history and trash) in :mod:`~userlore.memory.service`, and the receipts every surface
serialises in :mod:`~userlore.memory.results`.
"""

from __future__ import annotations

from userlore.memory.results import (
    Author,
    Citation,
    Episode,
    MemoryReceipt,
    RecallResult,
    VersionEntry,
)
from userlore.memory.service import (
    MAX_QUERY_CHARS,
    MAX_RECALL_K,
    MemoryService,
    parse_memory_type,
)

__all__ = [
    "MAX_QUERY_CHARS",
    "MAX_RECALL_K",
    "Author",
    "Citation",
    "Episode",
    "MemoryReceipt",
    "MemoryService",
    "RecallResult",
    "VersionEntry",
    "parse_memory_type",
]
