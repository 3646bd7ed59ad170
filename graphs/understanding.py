"""``langgraph.json`` entry point: the understanding graph.

A factory, not a module-level graph: nothing is opened or compiled at import, and no checkpointer
or store is baked in (the LangGraph server injects its own). Configure with
``USERLORE_DATABASE_URL``, ``USERLORE_CONFIG`` and, for background review,
``USERLORE_REVIEW_MODEL=provider:model`` (see ``userlore.graph.serve``).
"""

from __future__ import annotations

from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.graph.state import CompiledStateGraph

from userlore.graph.serve import understanding_graph_from_env


def make_graph(config: RunnableConfig | None = None) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Build the understanding graph over the configured store."""
    return understanding_graph_from_env()
