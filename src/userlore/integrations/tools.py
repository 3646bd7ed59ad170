"""LangChain tools for seed 003: ``remember``, ``recall``, ``update_memory``, ``forget``.

The tools are built per scope by :func:`make_memory_tools`. The scope and the agent's identity are
bound when the tools are made, never exposed as tool arguments: a model can choose *what* to
remember, never *whose* memory it writes to or who it claims to be.

Each tool returns its receipt as JSON text (``{"id", "version", "state", ...}``; recall returns
``id@vN`` citations of live versions only). A refused or invalid call comes back as a tool error
message the model can read, not as an exception that ends the run.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine, Sequence
from typing import TYPE_CHECKING, Any, Literal

from langchain_core.tools import BaseTool, StructuredTool, ToolException
from pydantic import BaseModel, Field

from userlore.errors import UserloreError
from userlore.memory import MAX_RECALL_K, Author
from userlore.store.governed import validate_scope

if TYPE_CHECKING:
    from userlore.facade import Userlore

__all__ = ["MEMORY_TOOL_NAMES", "ToolSpec", "make_memory_tools", "structured_tools"]

MEMORY_TOOL_NAMES = ("remember", "recall", "update_memory", "forget")

MemoryTypeName = Literal["semantic", "episodic", "procedural", "working", "identity"]


class RememberInput(BaseModel):
    """Arguments of ``remember``."""

    content: str = Field(
        min_length=1,
        max_length=4000,
        description="The fact, decision, preference or note to keep, as one clear statement.",
    )
    path: str = Field(
        min_length=1,
        max_length=500,
        description="Logical path it belongs to, e.g. projects/memory-os/decisions.",
    )
    memory_type: MemoryTypeName = Field(
        description=(
            "semantic: durable fact or decision; episodic: something that happened; "
            "procedural: how work is done here; working: state of the task in progress; "
            "identity: stable facts about the owner or the agent."
        )
    )


class RecallInput(BaseModel):
    """Arguments of ``recall``."""

    query: str = Field(max_length=2000, description="What to look for, in plain words.")
    path: str | None = Field(
        default=None, max_length=500, description="Only memories under this path prefix."
    )
    memory_type: MemoryTypeName | None = Field(
        default=None, description="Only memories of this type."
    )
    k: int = Field(default=5, ge=1, le=MAX_RECALL_K, description="How many memories at most.")


class UpdateMemoryInput(BaseModel):
    """Arguments of ``update_memory``."""

    id: str = Field(min_length=1, max_length=40, description="Memory id from a receipt.")
    content: str = Field(min_length=1, max_length=4000, description="The corrected statement.")


class ForgetInput(BaseModel):
    """Arguments of ``forget``."""

    id: str = Field(min_length=1, max_length=40, description="Memory id from a receipt.")


def _dump(payload: dict[str, Any]) -> str:
    return json.dumps(payload, ensure_ascii=False, sort_keys=True)


def make_memory_tools(
    lore: Userlore,
    *,
    scope: str,
    agent_id: str | None = None,
    client: str | None = "langchain",
    device: str | None = None,
    instance: str | None = None,
    include: Sequence[str] = MEMORY_TOOL_NAMES,
) -> list[BaseTool]:
    """Build the memory tools for one scope and one agent identity.

    Args:
        lore: The :class:`~userlore.Userlore` to operate on.
        scope: The scope every call is confined to (not a tool argument).
        agent_id: Author attribution stored on every version this agent writes.
        client: Client name stored with the attribution.
        device: Device name stored with the attribution.
        instance: Instance hash stored with the attribution.
        include: Which of ``remember``, ``recall``, ``update_memory``, ``forget`` to build.

    Raises:
        ScopeError: malformed scope.
        InvalidInputError: an unknown tool name in ``include`` or a bad author field.
    """
    from userlore.errors import InvalidInputError

    validate_scope(scope)
    unknown = sorted(set(include) - set(MEMORY_TOOL_NAMES))
    if unknown:
        raise InvalidInputError(f"unknown memory tools {unknown}")
    author = Author(agent_id, client, device, instance)
    service = lore.memory

    def remember(content: str, path: str, memory_type: str) -> dict[str, Any]:
        return service.remember(
            scope, content, path=path, memory_type=memory_type, author=author
        ).as_dict()

    def recall(
        query: str, path: str | None = None, memory_type: str | None = None, k: int = 5
    ) -> dict[str, Any]:
        return service.recall(scope, query, path=path, memory_type=memory_type, k=k).as_dict()

    def update_memory(id: str, content: str) -> dict[str, Any]:
        return service.update(scope, id, content, author=author).as_dict()

    def forget(id: str) -> dict[str, Any]:
        return service.forget(scope, id).as_dict()

    specs: dict[str, ToolSpec] = {
        "remember": (
            remember,
            RememberInput,
            "Save a durable memory (content, logical path and memory type). Returns a receipt "
            "with the memory id, version and state; in review mode it waits for approval.",
        ),
        "recall": (
            recall,
            RecallInput,
            "Find memories relevant to a query, optionally under a path prefix or of one type. "
            "Returns citations id@vN of live versions only; cite them when you use a memory.",
        ),
        "update_memory": (
            update_memory,
            UpdateMemoryInput,
            "Correct a memory by id. The new text becomes the next version; the old version "
            "is kept as a superseded snapshot. Returns the receipt with the diff.",
        ),
        "forget": (
            forget,
            ForgetInput,
            "Delete a memory by id (moved to the trash, restorable by the owner). It is "
            "excluded from recall at once.",
        ),
    }
    return structured_tools(specs, include, _dump)


ToolSpec = tuple[Callable[..., Any], type[BaseModel], str]
"""A tool's plain function, its argument schema and its description."""


def structured_tools(
    specs: dict[str, ToolSpec], include: Sequence[str], dump: Callable[[Any], str]
) -> list[BaseTool]:
    """LangChain tools over plain functions, shared by every tool family of userlore.

    Results are returned as JSON text (``dump``); a :class:`UserloreError` becomes a
    ``ToolException`` the model can read; the async twin runs the same body in a worker thread.
    """

    def guarded(fn: Callable[..., Any]) -> Callable[..., str]:
        def run(**kwargs: Any) -> str:
            try:
                return dump(fn(**kwargs))
            except UserloreError as exc:
                raise ToolException(f"{type(exc).__name__}: {exc}") from None

        return run

    def threaded(fn: Callable[..., str]) -> Callable[..., Coroutine[Any, Any, str]]:
        async def run(**kwargs: Any) -> str:
            return await asyncio.to_thread(fn, **kwargs)

        return run

    tools: list[BaseTool] = []
    for name in include:
        fn, schema, description = specs[name]
        sync = guarded(fn)
        tools.append(
            StructuredTool.from_function(
                func=sync,
                coroutine=threaded(sync),
                name=name,
                description=description,
                args_schema=schema,
                handle_tool_error=True,
            )
        )
    return tools
