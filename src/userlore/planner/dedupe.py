"""One statement, one entry: records read out of the same clause are not rendered twice.

A clause can yield several keys ("I'm a data engineer at Northwind" gives ``identity/role`` and
``identity/employer``; "I use pnpm for JavaScript" a package manager and a language). Each is a
record of its own, with the clause as its receipt, so rendering every record's content spends
the budget on the same sentence twice. The best-ranked record of such a group keeps the
sentence; each other one renders its own value under its own key, which says the same thing in
a word.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["render_texts"]


def _same(text: str) -> str:
    return " ".join(text.casefold().split())


def render_texts(ranked: Iterable[tuple[str, str, str | None, str | None]]) -> dict[str, str]:
    """Text to render instead of the content, by record id, for repeats of a statement.

    Args:
        ranked: ``(id, content, shown key, value)`` best first; the shown key is the key the
            entry renders (``None`` where the entry shows none: a bare value would mean nothing).

    Returns:
        ``{id: value}`` for each keyed record whose content an earlier record already carries
        and which has a value of its own (shorter than the content); every other record is
        absent and renders its content.
    """
    seen: set[str] = set()
    out: dict[str, str] = {}
    for record_id, content, key, value in ranked:
        same = _same(content)
        if same in seen and key and value and value.strip() and len(value) < len(content):
            out[record_id] = value
        seen.add(same)
    return out
