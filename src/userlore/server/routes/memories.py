"""Seed 003 lifecycle routes (remember … history), the plan, purge, export and import."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from fastapi import Body, FastAPI

from userlore.server.auth import Grant
from userlore.server.errors import ERROR_RESPONSES
from userlore.server.routes import RecordId
from userlore.server.schemas import (
    EvidenceListOut,
    HistoryOut,
    ImportOut,
    MemoryOut,
    PlanIn,
    PlanOut,
    PurgeIn,
    PurgeOut,
    RecallIn,
    RecallOut,
    ReceiptOut,
    RememberIn,
    TrashOut,
    UpdateIn,
)

if TYPE_CHECKING:
    from userlore.facade import Userlore


def install(app: FastAPI, lore: Userlore) -> None:
    """Add the memories routes over ``lore`` to ``app``, each confined to the token's scope."""
    memory = lore.memory

    @app.post(
        "/api/user-context/memories",
        response_model=ReceiptOut,
        responses=ERROR_RESPONSES,
        tags=["memories"],
        summary="remember: write a durable memory (content, path, memory type).",
    )
    def remember(g: Grant, body: RememberIn) -> dict[str, Any]:
        receipt = memory.remember(
            g.scope, body.content, path=body.path, memory_type=body.memory_type, author=g.author
        )
        return receipt.as_dict()

    @app.post(
        "/api/user-context/memories/recall",
        response_model=RecallOut,
        responses=ERROR_RESPONSES,
        tags=["memories"],
        summary="recall: cite live versions (id@vN) matching a query.",
    )
    def recall(g: Grant, body: RecallIn) -> dict[str, Any]:
        result = memory.recall(
            g.scope,
            body.query,
            path=body.path,
            memory_type=body.memory_type,
            k=body.k,
            session_key=body.session_key,
        )
        return result.as_dict()

    @app.get(
        "/api/user-context/memories/{record_id}",
        response_model=MemoryOut,
        responses=ERROR_RESPONSES,
        tags=["memories"],
        summary="One record of the scope.",
    )
    def get_memory(g: Grant, record_id: RecordId) -> Any:
        return lore.records.get(g.scope, record_id)

    @app.patch(
        "/api/user-context/memories/{record_id}",
        response_model=ReceiptOut,
        responses=ERROR_RESPONSES,
        tags=["memories"],
        summary="update_memory: v(n+1) live, v(n) a superseded snapshot with a diff.",
    )
    def update_memory(g: Grant, record_id: RecordId, body: UpdateIn) -> dict[str, Any]:
        return memory.update(g.scope, record_id, body.content, author=g.author).as_dict()

    @app.delete(
        "/api/user-context/memories/{record_id}",
        response_model=ReceiptOut,
        responses=ERROR_RESPONSES,
        tags=["memories"],
        summary="forget: tombstone into the trash (restorable).",
    )
    def forget(g: Grant, record_id: RecordId) -> dict[str, Any]:
        return memory.forget(g.scope, record_id).as_dict()

    @app.post(
        "/api/user-context/memories/{record_id}/restore",
        response_model=ReceiptOut,
        responses=ERROR_RESPONSES,
        tags=["memories"],
        summary="restore: bring a tombstoned record back unchanged.",
    )
    def restore(g: Grant, record_id: RecordId) -> dict[str, Any]:
        return memory.restore(g.scope, record_id).as_dict()

    @app.get(
        "/api/user-context/memories/{record_id}/history",
        response_model=HistoryOut,
        responses=ERROR_RESPONSES,
        tags=["memories"],
        summary="history: every version with its diff and author.",
    )
    def history(g: Grant, record_id: RecordId) -> dict[str, Any]:
        versions = [v.as_dict() for v in memory.history(g.scope, record_id)]
        return {"id": record_id, "versions": versions}

    @app.get(
        "/api/user-context/memories/{record_id}/evidence",
        response_model=EvidenceListOut,
        responses=ERROR_RESPONSES,
        tags=["memories"],
        summary="The redacted evidence items a record was learned from.",
    )
    def evidence(g: Grant, record_id: RecordId) -> dict[str, Any]:
        return {"id": record_id, "evidence": lore.records.evidence(g.scope, record_id)}

    @app.get(
        "/api/user-context/trash",
        response_model=TrashOut,
        responses=ERROR_RESPONSES,
        tags=["memories"],
        summary="The trash view: tombstoned records, each restorable.",
    )
    def trash(g: Grant) -> dict[str, Any]:
        return {"memories": [r.as_dict() for r in memory.trash(g.scope)]}

    @app.post(
        "/api/user-context/plan",
        response_model=PlanOut,
        responses=ERROR_RESPONSES,
        tags=["memories"],
        summary="plan_context: the fenced <user-context> block for one turn, with its trace.",
    )
    def plan(g: Grant, body: PlanIn) -> dict[str, Any]:
        result = lore.plan_context(
            g.scope, body.query, session_key=body.session_key, budget=body.budget
        )
        return result.as_dict()

    @app.post(
        "/api/user-context/purge",
        response_model=PurgeOut,
        responses=ERROR_RESPONSES,
        tags=["lifecycle"],
        summary="Hard-delete the token's scope (or a path in it); reports residual rows.",
    )
    def purge(g: Grant, body: PurgeIn) -> dict[str, Any]:
        return lore.scopes.purge(g.scope, body.path_prefix).as_dict()

    @app.get(
        "/api/user-context/export",
        responses=ERROR_RESPONSES,
        tags=["lifecycle"],
        summary="The whole scope as a userlore.export v1 JSON document.",
    )
    def export(g: Grant) -> dict[str, Any]:
        return lore.scopes.export(g.scope)

    @app.post(
        "/api/user-context/import",
        response_model=ImportOut,
        responses=ERROR_RESPONSES,
        tags=["lifecycle"],
        summary="Restore an export document into the token's scope, which must be empty.",
    )
    def import_(g: Grant, body: Annotated[dict[str, Any], Body()]) -> dict[str, Any]:
        return lore.scopes.import_(g.scope, body).as_dict()
