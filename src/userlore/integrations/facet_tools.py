"""LangChain tools for the facet cache controls (seed 002 RPC controllers).

Built once by :func:`make_facet_tools`, one tools list serves any number of users: each call
resolves its scope from the run (the rule of :mod:`userlore.integrations.scope`) and the scope is
never a tool argument, so a model can change *which* facet, never *whose*. Each tool returns JSON
text; a refused or invalid call comes back as a tool error message the model can read.

"What do you know about me?" is ``about_me``: every active facet with the evidence (redacted
receipts) behind it. "Forget that I prefer terse answers" is
``forget_facet(facet_class="style", key="verbosity")``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from langchain_core.tools import BaseTool
from pydantic import BaseModel, Field

from userlore.errors import InvalidInputError
from userlore.integrations.scope import DEFAULT_SCOPE_KEY
from userlore.integrations.tools import ToolSpec, structured_tools, tool_scope_resolver

if TYPE_CHECKING:
    from userlore.facade import Userlore

__all__ = ["FACET_TOOL_NAMES", "make_facet_tools"]

FACET_TOOL_NAMES = (
    "list_facets",
    "get_facet",
    "update_facet",
    "pin_facet",
    "unpin_facet",
    "forget_facet",
    "reset_cache",
    "rebuild_cache",
    "cache_stats",
    "about_me",
)

ClassName = Literal["style", "identity", "tooling", "veto", "goal", "channel"]
_CLASS_HELP = (
    "Facet class: style (how to answer), identity (name, role, timezone...), tooling "
    "(languages, package managers...), veto (things never to suggest), goal, channel."
)


class ListFacetsInput(BaseModel):
    facet_class: ClassName | None = Field(default=None, description=_CLASS_HELP + " Optional.")


class FacetKeyInput(BaseModel):
    facet_class: ClassName = Field(description=_CLASS_HELP)
    key: str = Field(
        min_length=1, max_length=120, description="Facet key within the class, e.g. verbosity."
    )


class UpdateFacetInput(FacetKeyInput):
    value: str = Field(
        min_length=1, max_length=300, description="The value the user wants, e.g. terse."
    )


class NoInput(BaseModel):
    pass


def _dump(payload: Any) -> str:
    return json.dumps(payload, ensure_ascii=False, sort_keys=True, default=str)


def make_facet_tools(
    lore: Userlore,
    *,
    default_scope: str | None = None,
    scope_key: str = DEFAULT_SCOPE_KEY,
    include: Sequence[str] = FACET_TOOL_NAMES,
    scope: str | None = None,
) -> list[BaseTool]:
    """Build the facet control tools once for any number of users.

    Each call resolves its user from the run (``runtime.context``, ``configurable``, the
    LangGraph Server identity), else ``default_scope``; ``scope=`` is its deprecated name.

    Raises:
        ScopeError: malformed default scope.
        InvalidInputError: an unknown tool name in ``include``.
    """
    resolver = tool_scope_resolver(
        scope_key=scope_key, default_scope=default_scope, scope=scope, family="make_facet_tools"
    )
    unknown = sorted(set(include) - set(FACET_TOOL_NAMES))
    if unknown:
        raise InvalidInputError(f"unknown facet tools {unknown}")

    def list_facets(scope: str, facet_class: str | None = None) -> Any:
        return [f.as_dict() for f in lore.facets.list(scope, facet_class)]

    def get_facet(scope: str, facet_class: str, key: str) -> Any:
        return lore.facets.get(scope, facet_class, key).as_dict()

    def update_facet(scope: str, facet_class: str, key: str, value: str) -> Any:
        return lore.facets.update(scope, facet_class, key, value).as_dict()

    def pin_facet(scope: str, facet_class: str, key: str) -> Any:
        return lore.facets.pin(scope, facet_class, key).as_dict()

    def unpin_facet(scope: str, facet_class: str, key: str) -> Any:
        return lore.facets.unpin(scope, facet_class, key).as_dict()

    def forget_facet(scope: str, facet_class: str, key: str) -> Any:
        facet = lore.facets.forget(scope, facet_class, key)
        return {"class": facet.facet_class.value, "key": facet.key, "state": facet.state.value}

    def reset_cache(scope: str) -> Any:
        return {"cleared": lore.facets.reset(scope)}

    def rebuild_cache(scope: str) -> Any:
        return lore.facets.rebuild(scope).as_dict()

    def cache_stats(scope: str) -> Any:
        return lore.facets.stats(scope)

    def about_me(scope: str) -> Any:
        return lore.facets.about(scope)

    specs: dict[str, ToolSpec] = {
        "list_facets": (
            list_facets,
            ListFacetsInput,
            "List what is known about the user's preferences and profile (active and "
            "provisional facets, optionally of one class), with stability and provenance.",
        ),
        "get_facet": (get_facet, FacetKeyInput, "Look up one facet by class and key."),
        "update_facet": (
            update_facet,
            UpdateFacetInput,
            "Set a facet to the value the user asked for. It becomes active and pinned so "
            "automatic learning will not overwrite it.",
        ),
        "pin_facet": (
            pin_facet,
            FacetKeyInput,
            "Pin a facet's current value: it stays active however weak its evidence.",
        ),
        "unpin_facet": (
            unpin_facet,
            FacetKeyInput,
            "Unpin a facet (or undo a forget): automatic scoring decides again.",
        ),
        "forget_facet": (
            forget_facet,
            FacetKeyInput,
            "Forget a facet when the user asks: it leaves context at once and is never "
            "learned again unless the user sets it.",
        ),
        "reset_cache": (
            reset_cache,
            NoInput,
            "Clear every automatically learned facet (pinned ones stay); it is relearned from "
            "the evidence at the next rebuild.",
        ),
        "rebuild_cache": (rebuild_cache, NoInput, "Rescore the facets now."),
        "cache_stats": (
            cache_stats,
            NoInput,
            "Counts of facets by state (active, provisional, candidate, dropped) and class.",
        ),
        "about_me": (
            about_me,
            NoInput,
            "Answer 'what do you know about me?': every active facet with the evidence it "
            "rests on (quote those receipts when you answer).",
        ),
    }
    return structured_tools(specs, include, _dump, resolver)
