"""Deprecated import path: ``UserloreStore`` lives in :mod:`userlore.integrations.langgraph_store`.

A thin re-export kept for one release so existing imports keep working.
"""

from __future__ import annotations

from userlore.integrations.langgraph_store import STORE_KEY_PREFIX, UserloreStore

__all__ = ["STORE_KEY_PREFIX", "UserloreStore"]
