"""The understanding graph: the write path and the read path of one turn as a LangGraph graph.

``resolve_scope`` (the run's user: ``context``/``configurable``/LangGraph Server identity, or
the input's ``scope``) → ``correct`` (an explicit correction of the previous answer's
understanding is handled first, so the turn is planned without what it corrects) → ``extract``
(deterministic explicit extraction of the latest user turn) → ``review`` (LLM reviewer
synthesis, only when the cadence says so) → ``govern`` (sensitivity, dedupe, evidence,
promotion: the same governed write as the core) → ``plan_context`` (the fenced block and its
trace). With ``human_review=True`` a ``review_inbox`` node (the review subgraph) sits between
``govern`` and ``plan_context`` and interrupts while candidates wait for a decision. One compiled
graph serves every user.

It runs with any LangGraph checkpointer. The embedded default, :func:`embedded_checkpointer`,
is LangGraph's SQLite checkpointer on the same database file as the store.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any, Literal

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.store.base import BaseStore
from langgraph.types import Checkpointer

from userlore.errors import ConfigError
from userlore.extract.reviewer import LLMReviewer
from userlore.graph.cadence import Cadence, ReviewCadence
from userlore.graph.correct import Correct
from userlore.graph.nodes import Extract, Govern, PlanContext, Review
from userlore.graph.review import DEFAULT_MAX_BATCH, _open, build_review_subgraph
from userlore.graph.scope import ResolveScope
from userlore.graph.state import UnderstandingState
from userlore.integrations.scope import DEFAULT_SCOPE_KEY, ScopeResolver

if TYPE_CHECKING:
    from userlore.facade import Userlore

__all__ = ["build_understanding_graph", "embedded_checkpointer"]


def embedded_checkpointer(lore: Userlore) -> SqliteSaver | InMemorySaver:
    """LangGraph's SQLite checkpointer on the store's own database file.

    Checkpoint tables (``checkpoints``, ``writes``) live next to the userlore tables in the same
    file, so one file holds the whole embedded deployment. An in-memory store gets an in-memory
    checkpointer. Close it with ``saver.conn.close()`` when done (SQLite only).

    Raises:
        ConfigError: the store is not SQLite (use the PostgreSQL checkpointer at scale).
    """
    url = lore.memory.store.engine.url
    if url.get_backend_name() != "sqlite":
        raise ConfigError(
            "the embedded checkpointer needs a SQLite store; pass "
            "langgraph.checkpoint.postgres.PostgresSaver for PostgreSQL"
        )
    if url.database in (None, "", ":memory:"):
        return InMemorySaver()
    conn = sqlite3.connect(url.database, check_same_thread=False, timeout=30)
    saver = SqliteSaver(conn)
    saver.setup()
    return saver


def _route_review(state: UnderstandingState) -> str:
    return "review" if state.get("review", {}).get("due") else "govern"


def _route_inbox(state: UnderstandingState) -> str:
    pending = any(o["state"] == "candidate" for o in state.get("outcomes", []))
    return "review_inbox" if pending else "plan_context"


def build_understanding_graph(
    lore: Userlore | str,
    *,
    reviewer: LLMReviewer | None = None,
    cadence: Cadence | None = None,
    human_review: bool = False,
    max_batch: int = DEFAULT_MAX_BATCH,
    checkpointer: Checkpointer | Literal["embedded"] = None,
    store: BaseStore | None = None,
    name: str = "userlore_understanding",
    scope_key: str = DEFAULT_SCOPE_KEY,
    default_scope: str | None = None,
) -> CompiledStateGraph[UnderstandingState, Any, UnderstandingState, UnderstandingState]:
    """Build and compile the understanding graph over one ``Userlore``.

    Args:
        lore: The ``Userlore`` to write to and plan from, or a database URL to open one.
        reviewer: The LLM reviewer; without one only deterministic extraction runs.
        cadence: When the reviewer runs (default: :class:`ReviewCadence` over the config:
            every ``reviewIntervalTurns`` user turns, only in ``confirmWrite``/``auto``, never
            when ``understanding.enabled`` is false).
        human_review: Add the review subgraph so new candidates interrupt for approval.
        max_batch: Most candidates per approval interrupt.
        checkpointer: Any LangGraph checkpointer, ``"embedded"`` for
            :func:`embedded_checkpointer`, or ``None`` (a LangGraph server injects its own).
        store: Optional LangGraph store passed through to ``compile``.
        name: Graph name.
        scope_key: Name of the user field in ``context`` and ``configurable``.
        default_scope: Explicit fallback scope for runs that name no user (none by default).

    Raises:
        ScopeError: a malformed default scope.
    """
    resolver = ScopeResolver(key=scope_key, default=default_scope)
    lore = _open(lore)
    saver: Checkpointer = (
        embedded_checkpointer(lore) if checkpointer == "embedded" else checkpointer
    )
    builder: StateGraph[UnderstandingState, Any, UnderstandingState, UnderstandingState] = (
        StateGraph(UnderstandingState)
    )
    builder.add_node("resolve_scope", ResolveScope[UnderstandingState](resolver))
    builder.add_node("correct", Correct(lore))
    default_cadence = ReviewCadence(lore.config, lore.feedback.store)  # adaptive when configured
    builder.add_node("extract", Extract(lore, cadence or default_cadence, reviewer))
    builder.add_node("govern", Govern(lore))
    builder.add_node("plan_context", PlanContext(lore))
    builder.add_edge(START, "resolve_scope")
    builder.add_edge("resolve_scope", "correct")
    builder.add_edge("correct", "extract")
    if reviewer is not None:
        builder.add_node("review", Review(lore, reviewer))
        builder.add_conditional_edges("extract", _route_review, ["review", "govern"])
        builder.add_edge("review", "govern")
    else:
        builder.add_edge("extract", "govern")
    if human_review:
        inbox = build_review_subgraph(
            lore, max_batch=max_batch, scope_key=scope_key, default_scope=default_scope
        )
        builder.add_node("review_inbox", inbox)
        builder.add_conditional_edges("govern", _route_inbox, ["review_inbox", "plan_context"])
        builder.add_edge("review_inbox", "plan_context")
    else:
        builder.add_edge("govern", "plan_context")
    builder.add_edge("plan_context", END)
    return builder.compile(checkpointer=saver, store=store, name=name)
