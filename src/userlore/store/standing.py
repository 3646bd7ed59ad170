"""The always-eligible profile of a scope, cached by record generation (issue 23 item 5).

Every plan reads the scope's standing records (profile facets, standing instructions) and its
last few daily notes: two statements returning the same rows plan after plan. They are cached
per database, scope and statement, and stamped with the scope's record generation (see
:mod:`userlore.store.posting_index`), which every inserted, updated or deleted record row bumps.
An agent writes between its reads, so the generation moves on nearly every plan; the entry is
kept when none of the rows changed since its stamp is one it holds or of a kind its statements
read (a note written in between cannot change the profile), and reloaded otherwise. The
generation is read *before* the rows, so cached rows are never older than their stamp. What the
cache holds is the filter's input, not its verdict: the
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
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, Row

from userlore.store.posting_index import scope_state

__all__ = ["MAX_ENTRIES", "standing_rows"]

MAX_ENTRIES = 256
"""Cached (scope, statement) entries per database."""

Rows = Sequence[Sequence[Row[Any]]]
_FAR = 2**62  # "no changes wanted": only the generation


@dataclass(slots=True)
class _Entry:
    generation: int
    reset: int
    seqs: frozenset[int]
    rows: Rows


class _Cache:
    def __init__(self) -> None:
        self.entries: OrderedDict[tuple[str, Hashable], _Entry] = OrderedDict()
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


def standing_rows(
    conn: Connection,
    scope: str,
    key: Hashable,
    load: Callable[[], Rows],
    kinds: frozenset[str],
) -> Rows:
    """``load()``'s rows for ``scope``: cached while no row they hold or could hold changes.

    Args:
        conn: The reading connection.
        scope: Whose records ``load`` reads.
        key: What ``load`` reads (its statements and parameters other than the scope).
        load: Runs the statements (only on a miss); each row has ``seq``.
        kinds: Every record kind the statements can return.
    """
    cache = _cache(conn)
    with cache.lock:
        entry = cache.entries.get((scope, key))
    state = scope_state(conn, scope, _FAR if entry is None else entry.generation)
    if state is None:
        return load()
    if (
        entry is not None
        and entry.reset == state.reset
        and entry.generation <= state.generation
        and state.since <= entry.generation
        and not any(c.seq in entry.seqs or c.kind in kinds for c in state.changed)
    ):
        with cache.lock:
            entry.generation = max(entry.generation, state.generation)
            cache.entries.move_to_end((scope, key))
        return entry.rows
    rows = load()
    seqs = frozenset(int(row.seq) for part in rows for row in part)
    with cache.lock:
        cache.loads += 1
        cache.entries[(scope, key)] = _Entry(state.generation, state.reset, seqs, rows)
        cache.entries.move_to_end((scope, key))
        while len(cache.entries) > MAX_ENTRIES:
            cache.entries.popitem(last=False)
    return rows


def loads(conn: Connection) -> int:
    """How many times this database's standing rows were read from it (for tests)."""
    return _cache(conn).loads
