"""LangChain tools for seed 003: ``remember``, ``recall``, ``update_memory``, ``forget``.

Built once by :func:`make_memory_tools`, one tools list serves any number of users: every call
resolves its scope from the run (``runtime.context``, ``config["configurable"]``, the LangGraph
Server identity, then an explicit ``default_scope``; see :mod:`userlore.integrations.scope`).
The scope is never a tool argument and the agent's identity is bound when the tools are made: a
model can choose *what* to remember, never *whose* memory it writes to or who it claims to be.

Each tool returns its receipt as JSON text (``{"id", "version", "state", ...}``; recall returns
``id@vN`` citations of live versions only). A refused or invalid call comes back as a tool error
message the model can read, not as an exception that ends the run.
"""

from __future__ import annotations

import asyncio
import json
import warnings
from collections.abc import Callable, Coroutine, Sequence
from typing import TYPE_CHECKING, Any, Literal

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, StructuredTool, ToolException
from langgraph.prebuilt import ToolRuntime
from pydantic import BaseModel, Field

from userlore.errors import UserloreError
from userlore.integrations.scope import DEFAULT_SCOPE_KEY, ScopeResolver
from userlore.memory import MAX_RECALL_K, Author

if TYPE_CHECKING:
    from userlore.facade import Userlore

__all__ = [
    "MEMORY_TOOL_NAMES",
    "ToolSpec",
    "make_memory_tools",
    "structured_tools",
    "tool_scope_resolver",
]

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


def tool_scope_resolver(
    *, scope_key: str, default_scope: str | None, scope: str | None, family: str
) -> ScopeResolver:
    """The per-call scope rule of a tool family, honouring the deprecated ``scope=`` keyword.

    ``scope=`` used to bind the user when the tools were built; it now acts as
    ``default_scope=`` (the explicit fallback) and warns.

    Raises:
        ScopeError: a malformed default scope.
        InvalidInputError: both ``scope`` and ``default_scope`` given.
    """
    from userlore.errors import InvalidInputError

    if scope is not None:
        if default_scope is not None:
            raise InvalidInputError("pass default_scope only; scope= is its deprecated name")
        warnings.warn(
            f"{family}(scope=...) is deprecated and will be removed in 0.3: the scope is "
            "resolved per call from the run; pass default_scope= for an explicit fallback",
            DeprecationWarning,
            stacklevel=3,
        )
        default_scope = scope
    return ScopeResolver(key=scope_key, default=default_scope)


def make_memory_tools(
    lore: Userlore,
    *,
    default_scope: str | None = None,
    scope_key: str = DEFAULT_SCOPE_KEY,
    agent_id: str | None = None,
    client: str | None = "langchain",
    device: str | None = None,
    instance: str | None = None,
    include: Sequence[str] = MEMORY_TOOL_NAMES,
    scope: str | None = None,
) -> list[BaseTool]:
    """Build the memory tools once for any number of users, with one agent identity.

    Each call resolves its user from the run: ``context={"user_id": ...}`` (``runtime.context``),
    ``config={"configurable": {"user_id": ...}}``, the LangGraph Server identity, then
    ``default_scope``. A call that names no user fails with a ``ScopeError`` tool message.

    Args:
        lore: The :class:`~userlore.Userlore` to operate on.
        default_scope: Explicit fallback scope for runs that name no user (none by default).
        scope_key: Name of the user field in ``runtime.context`` and ``configurable``.
        agent_id: Author attribution stored on every version this agent writes.
        client: Client name stored with the attribution.
        device: Device name stored with the attribution.
        instance: Instance hash stored with the attribution.
        include: Which of ``remember``, ``recall``, ``update_memory``, ``forget`` to build.
        scope: Deprecated name of ``default_scope`` (warns).

    Raises:
        ScopeError: malformed default scope.
        InvalidInputError: an unknown tool name in ``include`` or a bad author field.
    """
    from userlore.errors import InvalidInputError

    resolver = tool_scope_resolver(
        scope_key=scope_key, default_scope=default_scope, scope=scope, family="make_memory_tools"
    )
    unknown = sorted(set(include) - set(MEMORY_TOOL_NAMES))
    if unknown:
        raise InvalidInputError(f"unknown memory tools {unknown}")
    author = Author(agent_id, client, device, instance)
    service = lore.memory

    def remember(scope: str, content: str, path: str, memory_type: str) -> dict[str, Any]:
        return service.remember(
            scope, content, path=path, memory_type=memory_type, author=author
        ).as_dict()

    def recall(
        scope: str,
        query: str,
        path: str | None = None,
        memory_type: str | None = None,
        k: int = 5,
    ) -> dict[str, Any]:
        return service.recall(scope, query, path=path, memory_type=memory_type, k=k).as_dict()

    def update_memory(scope: str, id: str, content: str) -> dict[str, Any]:
        return service.update(scope, id, content, author=author).as_dict()

    def forget(scope: str, id: str) -> dict[str, Any]:
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
    return structured_tools(specs, include, _dump, resolver)


ToolSpec = tuple[Callable[..., Any], type[BaseModel], str]
"""A tool's plain function (scope first, then its arguments), its schema and its description."""

# LangChain injects an argument annotated ``ToolRuntime`` (from a ToolNode / create_agent) and
# one annotated ``RunnableConfig`` (always); outside a ToolNode there is no runtime.
_ABSENT: Any = None


def structured_tools(
    specs: dict[str, ToolSpec],
    include: Sequence[str],
    dump: Callable[[Any], str],
    resolver: ScopeResolver,
) -> list[BaseTool]:
    """LangChain tools over plain functions, shared by every tool family of userlore.

    Each call resolves the scope from its run with ``resolver`` (the injected ``ToolRuntime``
    and ``RunnableConfig``, never a tool argument) and passes it first. Results are returned as
    JSON text (``dump``); a :class:`UserloreError` (a missing scope included) becomes a
    ``ToolException`` the model can read; the async twin runs the same body in a worker thread.
    """

    def guarded(fn: Callable[..., Any]) -> Callable[..., str]:
        def run(
            runtime: ToolRuntime = _ABSENT, config: RunnableConfig = _ABSENT, **kwargs: Any
        ) -> str:
            try:
                scope = resolver.resolve(runtime=runtime, config=config)
                return dump(fn(scope, **kwargs))
            except UserloreError as exc:
                raise ToolException(f"{type(exc).__name__}: {exc}") from None

        return run

    def threaded(fn: Callable[..., str]) -> Callable[..., Coroutine[Any, Any, str]]:
        async def run(
            runtime: ToolRuntime = _ABSENT, config: RunnableConfig = _ABSENT, **kwargs: Any
        ) -> str:
            return await asyncio.to_thread(fn, runtime=runtime, config=config, **kwargs)

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
