"""Graphs built from environment variables, for ``langgraph.json`` and ``langgraph dev``.

Nothing here runs at import. Each factory opens (once per process) the ``Userlore`` named by
``USERLORE_DATABASE_URL`` (default: the embedded SQLite file) and ``USERLORE_CONFIG`` (optional
``userContext`` JSON file), and compiles a graph with no checkpointer or store baked in: a
LangGraph server injects its own. ``USERLORE_REVIEW_MODEL=provider:model`` (for example
``openai:gpt-4o-mini``) enables background review in the understanding graph.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from langchain_core.language_models import BaseChatModel
from langgraph.graph.state import CompiledStateGraph

from userlore.errors import ConfigError
from userlore.extract.reviewer import LLMReviewer
from userlore.facade import Userlore
from userlore.graph.review import build_review_subgraph
from userlore.graph.understanding import build_understanding_graph

__all__ = ["lore_from_env", "review_graph_from_env", "understanding_graph_from_env"]

_LOCK = threading.Lock()
_OPEN: dict[tuple[str, str], Userlore] = {}


def lore_from_env() -> Userlore:
    """The ``Userlore`` named by the environment, opened once per process."""
    url = os.environ.get("USERLORE_DATABASE_URL", "")
    config = os.environ.get("USERLORE_CONFIG", "")
    with _LOCK:
        lore = _OPEN.get((url, config))
        if lore is None:
            lore = Userlore.open(url or None, config=config or None)
            _OPEN[(url, config)] = lore
        return lore


def _review_model() -> BaseChatModel | None:
    name = os.environ.get("USERLORE_REVIEW_MODEL")
    if not name:
        return None
    try:
        from langchain.chat_models import init_chat_model
    except ImportError:  # pragma: no cover - the ``agents`` extra is missing
        raise ConfigError("USERLORE_REVIEW_MODEL needs the 'langchain' package") from None
    model = init_chat_model(name)
    if not isinstance(model, BaseChatModel):  # pragma: no cover - a configurable model
        raise ConfigError(f"USERLORE_REVIEW_MODEL={name!r} did not name one chat model")
    return model


def understanding_graph_from_env() -> CompiledStateGraph[Any, Any, Any, Any]:
    """The understanding graph over the configured store (reviewer when a model is named)."""
    lore = lore_from_env()
    model = _review_model()
    reviewer = LLMReviewer(model, config=lore.config.understanding) if model else None
    return build_understanding_graph(lore, reviewer=reviewer)


def review_graph_from_env() -> CompiledStateGraph[Any, Any, Any, Any]:
    """The review subgraph over the configured store."""
    return build_review_subgraph(lore_from_env())
