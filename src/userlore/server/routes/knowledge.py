"""Seed 000 connected-knowledge routes: source items, the change ledger, sync runs."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import FastAPI, Query

from userlore.server.auth import Grant
from userlore.server.errors import ERROR_RESPONSES
from userlore.server.routes import Limit
from userlore.server.schemas import (
    SourceChangesOut,
    SourceItemsOut,
    SyncRunsOut,
)
from userlore.validation import MAX_KEY_CHARS

if TYPE_CHECKING:
    from userlore.facade import Userlore

MAX_SEQUENCE = 2**62
SourceInstanceId = Annotated[str | None, Query(alias="sourceInstanceId", max_length=MAX_KEY_CHARS)]
"""The optional ``sourceInstanceId`` filter of the source-items and sync-runs listings."""


def install(app: FastAPI, lore: Userlore) -> None:
    """Add the knowledge routes over ``lore`` to ``app``, each confined to the token's scope."""

    @app.get(
        "/api/knowledge/source-items",
        response_model=SourceItemsOut,
        responses=ERROR_RESPONSES,
        tags=["knowledge"],
        summary="Normalized, redacted source items of the scope, newest first.",
    )
    def source_items(
        g: Grant,
        source_instance_id: SourceInstanceId = None,
        limit: Limit = 100,
    ) -> dict[str, Any]:
        views = lore.sources.items(
            g.scope, source_instance_id=source_instance_id, include_deleted=True, limit=limit
        )
        items = [dataclasses.asdict(v) for v in views]
        return {"items": items, "count": len(items)}

    @app.get(
        "/api/knowledge/source-changes",
        response_model=SourceChangesOut,
        responses=ERROR_RESPONSES,
        tags=["knowledge"],
        summary="The ordered added/modified/deleted ledger after a sequence number.",
    )
    def source_changes(
        g: Grant,
        after_sequence: Annotated[int, Query(alias="afterSequence", ge=0, le=MAX_SEQUENCE)] = 0,
        limit: Limit = 100,
    ) -> dict[str, Any]:
        views = lore.sources.changes(g.scope, after_sequence=after_sequence, limit=limit)
        changes = [dataclasses.asdict(v) for v in views]
        last = changes[-1]["sequence"] if changes else after_sequence
        return {"changes": changes, "count": len(changes), "next_after_sequence": last}

    @app.get(
        "/api/knowledge/sync-runs",
        response_model=SyncRunsOut,
        responses=ERROR_RESPONSES,
        tags=["knowledge"],
        summary="Ingestion runs with counts, warnings, failure and timing, newest first.",
    )
    def sync_runs(
        g: Grant,
        source_instance_id: SourceInstanceId = None,
        limit: Limit = 100,
    ) -> dict[str, Any]:
        views = lore.sources.sync_runs(g.scope, source_instance_id=source_instance_id, limit=limit)
        runs = [dataclasses.asdict(v) for v in views]
        return {"runs": runs, "count": len(runs)}
