"""LangGraph's store filter semantics, for ``search(filter=...)`` and ``list_namespaces``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langgraph.store.base import MatchCondition

from userlore.errors import InvalidInputError

__all__ = ["matches_condition", "matches_filter", "value_at"]


def matches_condition(cond: MatchCondition, ns: tuple[str, ...]) -> bool:
    """A ``list_namespaces`` prefix/suffix condition (``*`` matches any label)."""
    path = tuple(cond.path)
    if len(ns) < len(path):
        return False
    pairs = (
        zip(ns, path, strict=False)
        if cond.match_type == "prefix"
        else zip(reversed(ns), reversed(path), strict=False)
    )
    return all(p == "*" or n == p for n, p in pairs)


def value_at(value: Mapping[str, Any], key: str) -> Any:
    """The value a filter key names: the field itself, else a dotted path into nested dicts.

    SqliteStore and PostgresStore read ``"user.access-level"`` as ``value["user"]["access-level"]``;
    a field literally named with a dot (LangGraph's stores cannot filter on one) still matches.
    """
    if key in value:
        return value[key]
    found: Any = value
    for part in key.split("."):
        if not isinstance(found, Mapping) or part not in found:
            return None
        found = found[part]
    return found


def matches_filter(item_value: Any, filter_value: Any) -> bool:
    """LangGraph filter semantics: equality, nested dicts, and ``$`` comparison operators."""
    if isinstance(filter_value, dict):
        if any(str(k).startswith("$") for k in filter_value):
            return all(_operator(item_value, op, v) for op, v in filter_value.items())
        if not isinstance(item_value, dict):
            return False
        return all(matches_filter(item_value.get(k), v) for k, v in filter_value.items())
    return bool(item_value == filter_value)


def _operator(value: Any, op: str, target: Any) -> bool:
    if op == "$eq":
        return bool(value == target)
    if op == "$ne":
        return bool(value != target)
    if value is None:
        return False
    try:
        a, b = float(value), float(target)
    except (TypeError, ValueError):
        return False
    if op == "$gt":
        return a > b
    if op == "$gte":
        return a >= b
    if op == "$lt":
        return a < b
    if op == "$lte":
        return a <= b
    raise InvalidInputError(f"unsupported filter operator {op!r}")
