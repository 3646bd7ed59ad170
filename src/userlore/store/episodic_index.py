"""The episodic index: which source items a plan may quote, and their full-text rows.

Written by the one write path (``RecordWriter.add_source_item``) in the same transaction as the
item, so an item is findable exactly when it exists; the database removes the row with its item.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from sqlalchemy import Table, delete
from sqlalchemy.orm import Session

from userlore.store.bulk_rows import insert_rows
from userlore.store.concurrency import dialect_insert
from userlore.store.schema import EpisodicItem, KnowledgeSourceItem
from userlore.store.text import search_text

__all__ = ["EPISODIC_ROLES", "episodic_indexed", "index_item", "index_rows"]

_INDEX = cast(Table, EpisodicItem.__table__)

EPISODIC_ROLES = frozenset({"user"})
"""Conversation roles whose turns are episodic: what the user said, not what agents replied."""


def episodic_indexed(meta: Mapping[str, Any] | None) -> bool:
    """Whether an item with this ``meta`` is episodic: a user turn, or a source's own item."""
    role = (meta or {}).get("role")
    return role is None or role in EPISODIC_ROLES


def index_item(session: Session, item: KnowledgeSourceItem) -> None:
    """Insert or refresh the index row of ``item`` (its title and redacted text)."""
    if not episodic_indexed(item.meta):
        return
    text = search_text(item.scope, item.title, item.text)
    # One statement: a concurrent writer indexing the same item never breaks the unique row.
    stmt = dialect_insert(session, _INDEX).values(
        scope=item.scope, item_id=item.id, search_text=text
    )
    session.execute(
        stmt.on_conflict_do_update(
            index_elements=["item_id"],
            set_={"search_text": stmt.excluded.search_text},
            where=_INDEX.c.search_text != stmt.excluded.search_text,
        )
    )


def index_rows(
    session: Session, rows: Sequence[Mapping[str, Any]], *, fresh_items: bool = False
) -> None:
    """(Re)index items written in bulk (``id``, ``scope``, ``title``, ``text``, ``meta`` each).

    ``fresh_items``: every item was inserted by this transaction just now, so none has an
    index row yet and there is nothing to delete first.
    """
    if not rows:
        return
    ids = [r["id"] for r in rows]
    for start in range(0, 0 if fresh_items else len(ids), 500):
        session.execute(
            delete(EpisodicItem).where(EpisodicItem.item_id.in_(ids[start : start + 500]))
        )
    fresh = [
        {
            "scope": r["scope"],
            "item_id": r["id"],
            "search_text": search_text(r["scope"], r.get("title"), r["text"]),
        }
        for r in rows
        if episodic_indexed(r.get("meta"))
    ]
    if fresh:  # a plain executemany: the ORM's bulk insert cost 0.3 ms a row here
        insert_rows(session, _INDEX, fresh)
