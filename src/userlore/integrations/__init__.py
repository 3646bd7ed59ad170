"""LangChain integrations: the retriever, the ``create_agent`` middleware and the memory tools.

Names are imported lazily so that using the retriever needs only ``langchain-core``, while the
middleware (which needs the ``langchain`` package, the ``agents`` extra) loads on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from userlore.integrations.middleware import (
        MEMORY_ACCESS_SECTION,
        UserloreAgentState,
        UserloreMiddleware,
    )
    from userlore.integrations.retriever import UserloreRetriever

__all__ = [
    "MEMORY_ACCESS_SECTION",
    "UserloreAgentState",
    "UserloreMiddleware",
    "UserloreRetriever",
]

_WHERE = {
    "MEMORY_ACCESS_SECTION": "userlore.integrations.middleware",
    "UserloreAgentState": "userlore.integrations.middleware",
    "UserloreMiddleware": "userlore.integrations.middleware",
    "UserloreRetriever": "userlore.integrations.retriever",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
