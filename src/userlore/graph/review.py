"""The review subgraph: human approval of pending candidates, embeddable in any LangGraph app.

``resolve_scope`` finds the run's user (as every userlore graph does); ``collect`` loads its
pending candidates; ``ask`` raises one ``interrupt()`` whose value is a LangChain
``HITLRequest`` (see :mod:`userlore.graph.hitl`) with a ``response_schema``; ``apply`` applies
approve / edit / reject through the governed API (``lore.records.approve``, with the edited
content for an edit, and ``lore.records.reject``).

Run it with any checkpointer; a pending review lives in the checkpoint, so it survives a restart::

    graph = build_review_subgraph(lore, checkpointer=embedded_checkpointer(lore))
    config = {"configurable": {"thread_id": "t1", "user_id": "u1"}}
    graph.invoke({}, config)                                     # -> interrupt
    graph.invoke(Command(resume={"decisions": [{"type": "approve"}]}), config)

Embedded as a node of a parent graph, it shares the parent's checkpointer; the parent state needs
a ``scope`` key (and ``pending``/``decisions``/``review_results`` to read the results).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.store.base import BaseStore
from langgraph.types import Checkpointer

from userlore.errors import InvalidInputError
from userlore.graph.review_nodes import ApplyDecisions, AskReviewer, CollectPending
from userlore.graph.scope import ResolveScope
from userlore.graph.state import ReviewState
from userlore.integrations.scope import DEFAULT_SCOPE_KEY, ScopeResolver

if TYPE_CHECKING:
    from userlore.facade import Userlore

__all__ = ["DEFAULT_MAX_BATCH", "build_review_subgraph"]

DEFAULT_MAX_BATCH = 20


def _has_pending(state: ReviewState) -> str:
    return "ask" if state.get("pending") else END


def build_review_subgraph(
    lore: Userlore | str,
    *,
    max_batch: int = DEFAULT_MAX_BATCH,
    checkpointer: Checkpointer = None,
    store: BaseStore | None = None,
    name: str = "userlore_review",
    scope_key: str = DEFAULT_SCOPE_KEY,
    default_scope: str | None = None,
) -> CompiledStateGraph[ReviewState, Any, ReviewState, ReviewState]:
    """Build and compile the review subgraph over one ``Userlore``.

    Args:
        lore: The ``Userlore`` whose candidates are reviewed, or a database URL to open one.
        max_batch: Most candidates shown in one interrupt (oldest first).
        checkpointer: Any LangGraph checkpointer; ``None`` inherits the parent graph's one when
            embedded (a LangGraph server injects its own).
        store: Optional LangGraph store passed through to ``compile``.
        name: Graph name.
        scope_key: Name of the user field in ``context`` and ``configurable``.
        default_scope: Explicit fallback scope for runs that name no user (none by default).

    Raises:
        InvalidInputError: ``max_batch`` outside 1-200.
        ScopeError: a malformed default scope.
    """
    if not 1 <= max_batch <= 200:
        raise InvalidInputError("max_batch must be within [1, 200]")
    resolver = ScopeResolver(key=scope_key, default=default_scope)
    lore = _open(lore)
    builder: StateGraph[ReviewState, Any, ReviewState, ReviewState] = StateGraph(ReviewState)
    builder.add_node("resolve_scope", ResolveScope[ReviewState](resolver))
    builder.add_node("collect", CollectPending(lore, max_batch))
    builder.add_node("ask", AskReviewer())
    builder.add_node("apply", ApplyDecisions(lore))
    builder.add_edge(START, "resolve_scope")
    builder.add_edge("resolve_scope", "collect")
    builder.add_conditional_edges("collect", _has_pending, ["ask", END])
    builder.add_edge("ask", "apply")
    builder.add_edge("apply", END)
    return builder.compile(checkpointer=checkpointer, store=store, name=name)


def _open(lore: Userlore | str) -> Userlore:
    from userlore.facade import Userlore

    if isinstance(lore, Userlore):
        return lore
    if isinstance(lore, str):
        return Userlore.open(lore)
    raise InvalidInputError(f"expected a Userlore or a database URL, got {type(lore).__name__}")
