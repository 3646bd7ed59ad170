"""``langgraph.json`` store entry: userlore as the LangGraph Server's long-term memory store.

``"store": {"path": "./graphs/store.py:make_store"}`` makes the server (``langgraph dev`` or a
deployment) use the same database as the graphs for ``runtime.store``, ``client.store`` and
Studio's memory browser. The database is ``USERLORE_DATABASE_URL``, else the platform's
``POSTGRES_URI``/``DATABASE_URI``, else the embedded SQLite file. A factory: nothing is opened at
import. Pair it with ``graphs/auth.py`` so every ``client.store`` namespace starts with the
caller's identity.
"""

from __future__ import annotations

from userlore.graph.serve import store_from_env
from userlore.integrations.langgraph_store import UserloreStore


def make_store() -> UserloreStore:
    """Open the configured store (once per process; the server calls this at startup)."""
    return store_from_env()
