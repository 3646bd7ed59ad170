"""``lore.traces``: the trace events of a scope (ids, versions and reason codes, never text)."""

from __future__ import annotations

import builtins
from typing import Any, Unpack

from userlore.api.twins import deprecated, twin
from userlore.errors import TraceNotFoundError
from userlore.store.governed import GovernedStore
from userlore.store.traces import TraceFields
from userlore.validation import (
    MAX_ID_CHARS,
    MAX_NAME_CHARS,
    identifier,
    int_field,
    optional_identifier,
    validate_scope,
)


class Traces:
    """Read and write trace events; integrations record theirs here, not on the store."""

    def __init__(self, store: GovernedStore) -> None:
        self._store = store

    def list(
        self, scope: str, *, event_type: str | None = None, limit: int = 100
    ) -> builtins.list[dict[str, Any]]:
        """The newest trace events of a scope, optionally of one type."""
        validate_scope(scope)
        optional_identifier(event_type, "event_type", max_chars=MAX_NAME_CHARS)
        int_field(limit, "limit", lo=1, hi=100_000)
        return self._store.traces(scope, event_type=event_type, limit=limit)

    def get(self, scope: str, trace_id: str) -> dict[str, Any]:
        """One trace event of a scope.

        Raises:
            TraceNotFoundError: no such trace in this scope (nor is another scope's).
        """
        validate_scope(scope)
        identifier(trace_id, "trace_id", max_chars=MAX_ID_CHARS)
        found = self._store.traces(scope, trace_id=trace_id, limit=1)
        if not found:
            raise TraceNotFoundError(f"no trace {trace_id!r} in this scope")
        return found[0]

    def record(self, scope: str, event_type: str, **fields: Unpack[TraceFields]) -> str:
        """Write one trace event and return its id (ids and reason codes only, never text)."""
        validate_scope(scope)
        return self._store.record_trace(scope, event_type, **fields)

    __call__ = deprecated("traces", "traces.list")(list)  # 0.1: lore.traces(scope, ...)

    alist = twin(list)
    aget = twin(get)
    arecord = twin(record)
