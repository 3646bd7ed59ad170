"""The always-eligible profile of a scope, cached by record generation (issue 23 item 5).

Every plan reads the scope's standing records (profile facets, standing instructions) and its
last few daily notes: two statements returning the same rows plan after plan. They are cached
per database, scope and statement, and reused only while the scope's record generation (see
:mod:`userlore.store.posting_index`) is the one they were read at; every inserted, updated or
deleted record row bumps it. The generation is read *before* the rows, so cached rows are never
older than their generation. What the cache holds is the filter's input, not its verdict: the
policy filter still runs on every row of every plan with that plan's clock and consents, so a
withdrawn consent or a lapsed validity takes effect at once, and a superseded or deleted record,
being a changed row, is never served from a stale entry. PostgreSQL reads no generation and
runs the statements every time.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from sqlalchemy import Connection, Engine, Row

from userlore.store.posting_index import scope_generation

__all__ = ["MAX_ENTRIES", "standing_rows"]

MAX_ENTRIES = 256
"""Cached (scope, statement) entries per database."""

Rows = Sequence[Sequence[Row[Any]]]


class _Cache:
    def __init__(self) -> None:
        self.entries: OrderedDict[tuple[str, Hashable], tuple[tuple[int, int], Rows]] = (
            OrderedDict()
        )
        self.lock = threading.Lock()
        self.loads = 0


_CACHES: weakref.WeakKeyDictionary[Engine, _Cache] = weakref.WeakKeyDictionary()
_CACHES_LOCK = threading.Lock()


def _cache(conn: Connection) -> _Cache:
    with _CACHES_LOCK:
        held = _CACHES.get(conn.engine)
        if held is None:
            held = _CACHES[conn.engine] = _Cache()
        return held


def standing_rows(conn: Connection, scope: str, key: Hashable, load: Callable[[], Rows]) -> Rows:
    """``load()``'s rows for ``scope``: cached while the scope's records are unchanged.

    Args:
        conn: The reading connection.
        scope: Whose records ``load`` reads.
        key: What ``load`` reads (its statements and parameters other than the scope).
        load: Runs the statements (only on a miss).
    """
    generation = scope_generation(conn, scope)
    if generation is None:
        return load()
    cache = _cache(conn)
    with cache.lock:
        hit = cache.entries.get((scope, key))
        if hit is not None and hit[0] == generation:
            cache.entries.move_to_end((scope, key))
            return hit[1]
    rows = load()
    with cache.lock:
        cache.loads += 1
        cache.entries[(scope, key)] = (generation, rows)
        cache.entries.move_to_end((scope, key))
        while len(cache.entries) > MAX_ENTRIES:
            cache.entries.popitem(last=False)
    return rows


def loads(conn: Connection) -> int:
    """How many times this database's standing rows were read from it (for tests)."""
    return _cache(conn).loads
