"""Graphs built from environment variables, for ``langgraph.json`` and ``langgraph dev``.

Nothing here runs at import. Each factory opens (once per process) the ``Userlore`` named by
:func:`database_url_from_env` and ``USERLORE_CONFIG`` (optional ``userContext`` JSON file), and
compiles a graph with no checkpointer or store baked in: a LangGraph server injects its own.
:func:`store_from_env` is the same database as a LangGraph ``BaseStore`` for ``langgraph.json``'s
``"store"`` entry, so the graphs, ``client.store`` and Studio's memory browser see one store.
``USERLORE_REVIEW_MODEL=provider:model`` (for example ``openai:gpt-4o-mini``) enables background
review in the understanding graph. Every graph resolves its user per run (``context`` or
``configurable`` ``user_id``, or the LangGraph Server identity).
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
from userlore.integrations.langgraph_store import UserloreStore

__all__ = [
    "SERVER_NAMESPACE_TEMPLATE",
    "database_url_from_env",
    "lore_from_env",
    "review_graph_from_env",
    "store_from_env",
    "understanding_graph_from_env",
]

_LOCK = threading.Lock()
_OPEN: dict[tuple[str, str], Userlore] = {}

_URL_VARIABLES = ("USERLORE_DATABASE_URL", "POSTGRES_URI", "DATABASE_URI")
_PLATFORM_SCHEMES = ("postgres://", "postgresql://")

SERVER_NAMESPACE_TEMPLATE = ("{user_id}",)
"""Store layout on LangGraph Server: the identity first, as ``graphs/auth.py``'s
``@auth.on.store`` writes it (``client.store`` calls run outside any graph run)."""


def database_url_from_env() -> str:
    """The database URL: ``USERLORE_DATABASE_URL``, else the platform's ``POSTGRES_URI`` or
    ``DATABASE_URI``, else ``""`` (the embedded SQLite default).

    The platform's ``postgres://``/``postgresql://`` URIs are given the psycopg 3 driver that
    the ``postgres`` extra installs.
    """
    for name in _URL_VARIABLES:
        url = os.environ.get(name, "").strip()
        if url:
            if name != "USERLORE_DATABASE_URL":
                for scheme in _PLATFORM_SCHEMES:
                    if url.startswith(scheme):
                        url = "postgresql+psycopg://" + url.removeprefix(scheme)
            return url
    return ""


def lore_from_env() -> Userlore:
    """The ``Userlore`` named by the environment, opened once per process."""
    url = database_url_from_env()
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


def store_from_env() -> UserloreStore:
    """The configured database as a LangGraph store for ``langgraph.json``'s ``"store"`` entry.

    Inside a graph run the run's user (the server identity) owns every item; a ``client.store``
    call names its user as the first namespace label (:data:`SERVER_NAMESPACE_TEMPLATE`), which
    the ``@auth.on.store`` handler of ``graphs/auth.py`` puts there.
    """
    return UserloreStore(lore_from_env(), namespace_template=SERVER_NAMESPACE_TEMPLATE)


def review_graph_from_env() -> CompiledStateGraph[Any, Any, Any, Any]:
    """The review subgraph over the configured store."""
    return build_review_subgraph(lore_from_env())
