"""``langgraph.json`` entry point: the review subgraph (human approval of candidates).

A factory: nothing is opened or compiled at import, and no checkpointer or store is baked in.
Invoke with ``{"scope": "<user>"}``; the run interrupts with a LangChain ``HITLRequest`` and
resumes with ``Command(resume={"decisions": [...]})``.
"""

from __future__ import annotations

from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.graph.state import CompiledStateGraph

from userlore.graph.serve import review_graph_from_env


def make_graph(config: RunnableConfig | None = None) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Build the review subgraph over the configured store."""
    return review_graph_from_env()
