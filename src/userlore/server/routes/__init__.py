"""The gateway's data routes, one module per area, installed by ``create_app`` in this order.

Order matters: routing takes the first matching template (``/memories/recall`` before
``/memories/{record_id}``).
"""

from __future__ import annotations

from typing import Annotated

__all__ = ["RecordId"]

RecordId = Annotated[str, "record id"]
