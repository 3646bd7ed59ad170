"""The gateway's data routes, one module per area, installed by ``create_app`` in this order.

Order matters: routing takes the first matching template (``/memories/recall`` before
``/memories/{record_id}``).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Query
from fastapi import Path as PathParam

from userlore.errors import InvalidInputError, RecordNotFoundError, TraceNotFoundError
from userlore.validation import IDENTIFIER_PATTERN, MAX_ID_CHARS, identifier

__all__ = ["Limit", "RecordId", "TraceId"]


def _record_id(
    record_id: Annotated[
        str,
        PathParam(
            description="A record id; any other is answered 404, like an unknown one.",
            json_schema_extra={"maxLength": MAX_ID_CHARS, "pattern": IDENTIFIER_PATTERN},
        ),
    ],
) -> str:
    """The path's record id, or 404: a malformed id names no record, exactly like a missing one."""
    try:
        return identifier(record_id, "record_id")
    except InvalidInputError:
        raise RecordNotFoundError("record_id: no such record in this scope") from None


RecordId = Annotated[str, Depends(_record_id)]
"""A record id path parameter, checked by the core's identifier rule (refusal: ``404``)."""


def _trace_id(
    trace_id: Annotated[
        str,
        PathParam(
            description="A trace id; any other is answered 404, like an unknown one.",
            json_schema_extra={"maxLength": MAX_ID_CHARS, "pattern": IDENTIFIER_PATTERN},
        ),
    ],
) -> str:
    """The path's trace id, or 404: a malformed id names no trace, exactly like a missing one."""
    try:
        return identifier(trace_id, "trace_id")
    except InvalidInputError:
        raise TraceNotFoundError("trace_id: no such trace in this scope") from None


TraceId = Annotated[str, Depends(_trace_id)]
"""A trace id path parameter, checked by the core's identifier rule (refusal: ``404``)."""


Limit = Annotated[int, Query(ge=1, le=1000)]
"""How many rows a listing route answers with at most (1 to 1000); each route sets its default."""
