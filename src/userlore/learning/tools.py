"""Deprecated import path: the facet tools live in :mod:`userlore.integrations.facet_tools`.

A thin re-export kept for one release so existing imports keep working.
"""

from __future__ import annotations

from userlore.integrations.facet_tools import FACET_TOOL_NAMES, make_facet_tools

__all__ = ["FACET_TOOL_NAMES", "make_facet_tools"]
