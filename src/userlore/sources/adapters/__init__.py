"""Offline adapters for sources people have on disk, and a bridge from LangChain loaders."""

from __future__ import annotations

import os

from userlore.errors import InvalidInputError
from userlore.sources.adapters.langchain import LangChainLoaderAdapter
from userlore.sources.adapters.locomo import LocomoTranscriptAdapter
from userlore.sources.adapters.markdown import MarkdownVaultAdapter
from userlore.sources.adapters.mbox import MboxAdapter
from userlore.sources.adapters.slack import SlackExportAdapter
from userlore.sources.base import KnowledgeSourceAdapter

__all__ = [
    "ADAPTER_KINDS",
    "LangChainLoaderAdapter",
    "LocomoTranscriptAdapter",
    "MarkdownVaultAdapter",
    "MboxAdapter",
    "SlackExportAdapter",
    "adapters_for_path",
]

ADAPTER_KINDS = ("markdown", "mbox", "slack", "locomo")


def adapters_for_path(
    path: str | os.PathLike[str], kind: str, *, source_instance_id: str | None = None
) -> list[KnowledgeSourceAdapter]:
    """The adapter(s) reading ``path`` as ``kind`` (a LoCoMo file gives one per conversation).

    Raises:
        InvalidInputError: unknown kind, or ``path`` does not hold that kind of source.
    """
    if kind == "markdown":
        return [MarkdownVaultAdapter(path, source_instance_id=source_instance_id)]
    if kind == "mbox":
        return [MboxAdapter(path, source_instance_id=source_instance_id)]
    if kind == "slack":
        return [SlackExportAdapter(path, source_instance_id=source_instance_id)]
    if kind == "locomo":
        return list(LocomoTranscriptAdapter.from_file(path, prefix=source_instance_id))
    raise InvalidInputError(f"unknown source kind {kind!r}; use one of {', '.join(ADAPTER_KINDS)}")
