"""The candidates inbox: list, approve, edit, reject."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from fastapi import Body, FastAPI

from userlore.models import RecordState
from userlore.server.auth import Grant
from userlore.server.errors import ERROR_RESPONSES
from userlore.server.routes import Limit, RecordId
from userlore.server.schemas import (
    CandidateDecisionIn,
    CandidateEditIn,
    MemoriesOut,
    MemoryOut,
)

if TYPE_CHECKING:
    from userlore.facade import Userlore


def install(app: FastAPI, lore: Userlore) -> None:
    """Add the review routes over ``lore`` to ``app``, each confined to the token's scope."""

    @app.get(
        "/api/user-context/candidates",
        response_model=MemoriesOut,
        responses=ERROR_RESPONSES,
        tags=["review"],
        summary="The review inbox: candidates and records paused for review.",
    )
    def candidates(g: Grant, limit: Limit = 100) -> dict[str, Any]:
        views = lore.records.list(
            g.scope, [RecordState.CANDIDATE, RecordState.NEEDS_REVIEW], limit=limit
        )
        out = [MemoryOut.model_validate(v) for v in views]
        return {"memories": out, "count": len(out)}

    @app.post(
        "/api/user-context/candidates/{record_id}/approve",
        response_model=MemoryOut,
        responses=ERROR_RESPONSES,
        tags=["review"],
        summary="Approve a candidate, optionally with edited content.",
    )
    def approve(
        g: Grant,
        record_id: RecordId,
        body: Annotated[CandidateDecisionIn | None, Body()] = None,
    ) -> Any:
        content = body.content if body is not None else None
        return lore.records.approve(g.scope, record_id, content=content, reviewer=g.agent_id)

    @app.post(
        "/api/user-context/candidates/{record_id}/edit",
        response_model=MemoryOut,
        responses=ERROR_RESPONSES,
        tags=["review"],
        summary="Approve an edited version of a candidate.",
    )
    def edit(g: Grant, record_id: RecordId, body: CandidateEditIn) -> Any:
        return lore.records.approve(g.scope, record_id, content=body.content, reviewer=g.agent_id)

    @app.post(
        "/api/user-context/candidates/{record_id}/reject",
        response_model=MemoryOut,
        responses=ERROR_RESPONSES,
        tags=["review"],
        summary="Reject a candidate (kept for the acceptance rate).",
    )
    def reject(g: Grant, record_id: RecordId) -> Any:
        return lore.records.reject(g.scope, record_id, reviewer=g.agent_id)
