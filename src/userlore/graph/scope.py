"""The ``resolve_scope`` node: the first step of every userlore graph finds the run's user.

One compiled graph serves many users, so the user comes from the run by the rule of
:mod:`userlore.integrations.scope` (``runtime.context``, ``config["configurable"]``, the
LangGraph Server identity, then an explicit default). An input ``scope`` is still accepted when
the run names nobody; when both name a user they must agree, so a client cannot reach another
user's memory by writing a different ``scope`` into the input (or into a thread's state).
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from langgraph.runtime import Runtime

from userlore.errors import ScopeError
from userlore.graph.state import ReviewState, UnderstandingState
from userlore.integrations.scope import ScopeResolver
from userlore.store.governed import validate_scope

__all__ = ["ResolveScope"]

S = TypeVar("S", UnderstandingState, ReviewState)


class ResolveScope(Generic[S]):
    """Write the run's user into ``state["scope"]`` before any node reads or writes memory."""

    def __init__(self, resolver: ScopeResolver) -> None:
        self.resolver = resolver

    def __call__(self, state: S, runtime: Runtime[Any]) -> dict[str, Any]:
        given = state.get("scope")
        if given is not None:
            given = validate_scope(given)
        found = self.resolver.find(runtime=runtime)
        if found is not None and given is not None and found != given:
            raise ScopeError("the input's scope is not the run's user")
        scope = found or given or self.resolver.resolve(runtime=runtime)
        return {"scope": scope}
