"""LangGraph graphs: the understanding graph and the human-approval review subgraph."""

from __future__ import annotations

from userlore.graph.cadence import Cadence, CadenceDecision, ReviewCadence
from userlore.graph.hitl import ACTION_NAME, hitl_request, response_model
from userlore.graph.review import build_review_subgraph
from userlore.graph.state import ReviewState, UnderstandingState
from userlore.graph.understanding import build_understanding_graph, embedded_checkpointer

__all__ = [
    "ACTION_NAME",
    "Cadence",
    "CadenceDecision",
    "ReviewCadence",
    "ReviewState",
    "UnderstandingState",
    "build_review_subgraph",
    "build_understanding_graph",
    "embedded_checkpointer",
    "hitl_request",
    "response_model",
]
