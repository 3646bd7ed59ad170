"""What one sync checks and bounds: the connected-source switch, batches, warnings, metadata."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from userlore.config import MemoryMode
from userlore.policy.sensitivity import redact
from userlore.sources.base import MetaValue, SourceItem
from userlore.sources.normalize import (
    bound,
    normalize_external_id,
    one_line,
)
from userlore.store.governed import GovernedStore

MAX_WARNINGS = 50
MAX_WARNING_CHARS = 200
MAX_ERROR_CHARS = 1000
STALE_RUN_SECONDS = 6 * 3600.0
ABANDONED_GONE = "abandoned: the process running this sync is gone"
ABANDONED_STALE = "abandoned: still running after {seconds:.0f}s"
_KIND = re.compile(r"[a-z][a-z0-9_]{0,39}")


def connected_enabled(store: GovernedStore) -> str | None:
    """Why connected sources may not write now, or ``None`` when they may."""
    memory = store.config.memory
    if memory.mode in (MemoryMode.OFF, MemoryMode.READ_ONLY):
        return f"memory mode {memory.mode.value!r} forbids writes"
    if "connected" not in memory.sources:
        return "connected sources are disabled: add 'connected' to memory.sources"
    return None


@dataclass(slots=True)
class _Known:
    id: str
    content_hash: str
    deleted: bool


class _Warnings:
    """Bounded, redacted warning messages (file names and counts, never item text)."""

    def __init__(self) -> None:
        self.messages: list[str] = []
        self.dropped = 0

    def add(self, message: str) -> None:
        if len(self.messages) >= MAX_WARNINGS:
            self.dropped += 1
            return
        self.messages.append(bound(redact(one_line(str(message))), MAX_WARNING_CHARS)[0])

    def as_json(self) -> dict[str, Any]:
        return {"messages": list(self.messages), "dropped": self.dropped}


def _batched(items: Iterable[SourceItem], size: int) -> Iterator[list[SourceItem]]:
    it = iter(items)
    while chunk := list(itertools.islice(it, size)):
        yield chunk


def _groups(values: list[str], size: int) -> Iterator[list[str]]:
    for start in range(0, len(values), size):
        yield values[start : start + size]


def _chunk_ids(chunk: list[SourceItem]) -> set[str]:
    ids = set()
    for item in chunk:
        eid = normalize_external_id(item.external_id) if isinstance(item.external_id, str) else None
        if eid:
            ids.add(eid)
    return ids


def _redact_meta(meta: dict[str, MetaValue]) -> tuple[dict[str, MetaValue], bool]:
    out: dict[str, MetaValue] = {}
    changed = False
    for key, value in meta.items():
        if isinstance(value, str):
            clean = redact(value)
            changed = changed or clean != value
            out[key] = clean
        else:
            out[key] = value
    return out, changed
