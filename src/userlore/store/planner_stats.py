"""Planner statistics for tables a bulk write fills faster than autovacuum describes them.

PostgreSQL checks every foreign key with a query it plans once per connection and keeps. Planned
against a table with no statistics (a fresh database, the first sync of a source), the check of
a ``(scope, id)`` key picked an index that matches the scope alone, ``ix_items_scope_source`` or
``ix_records_scope_state``, and filtered the id row by row: every inserted link read every row
of its scope, so a first load of N items cost O(N²) until autovacuum analyzed the table (up to a
minute later, its naptime). Measured at 3,000 prose items: 6,000 checks read 8,993,000 item
rows, and the insert of 500 episodic rows grew from 0.18 s (first chunk) to 2.1 s (sixteenth).
``ANALYZE`` invalidates the kept plans; with statistics the check uses the unique
``(scope, id)`` index.

:class:`StatsWatch` counts the rows a process writes to such tables and, at 100 rows and then at
every fourfold, analyzes a table whose statistics describe fewer than half of them. SQLite has
no such planner cache (and is left alone); a role that may not analyze a table gets a warning
from the server, not an error, and the write goes on as before. The shared batched write counts
what it inserts with :func:`count_on_commit`, so every caller of it (store puts, synthesis,
the connected pipeline) is watched without a call of its own.
"""

from __future__ import annotations

import logging
import threading
import weakref
from collections import Counter
from typing import Any

from sqlalchemy import Engine, event, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, SessionTransaction

__all__ = ["FIRST_CHECK", "WATCHED", "StatsWatch", "count_on_commit", "stats_watch"]

log = logging.getLogger(__name__)

FIRST_CHECK = 100
"""Rows written to a table before its statistics are first checked."""
WATCHED = frozenset({"knowledge_source_items", "memory_records"})
"""Tables whose ``(scope, id)`` key other tables' foreign keys check on every insert."""
_RELTUPLES = text("SELECT reltuples FROM pg_class WHERE oid = to_regclass(:table)")


class StatsWatch:
    """Analyzes a watched table when this process has written more rows to it than twice what
    its statistics describe (PostgreSQL only)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.enabled = engine.dialect.name == "postgresql"
        self.written: Counter[str] = Counter()
        self.next_check: dict[str, int] = {}
        self.analyzed: Counter[str] = Counter()
        self._lock = threading.Lock()

    def wrote(self, table: str, rows: int) -> None:
        """Count ``rows`` committed to ``table``; check its statistics when due.

        Call it after the transaction commits (``ANALYZE`` sees committed rows only).
        """
        if not self.enabled or rows <= 0 or table not in WATCHED:
            return
        with self._lock:
            self.written[table] += rows
            total = self.written[table]
            if total < self.next_check.get(table, FIRST_CHECK):
                return
            self.next_check[table] = total * 4
        self._refresh(table, total)

    def _refresh(self, table: str, written: int) -> None:
        try:
            with self.engine.connect() as conn:
                described = conn.scalar(_RELTUPLES, {"table": table})
                if described is not None and described >= written / 2:
                    conn.rollback()
                    return
                # Waits for no one long: autovacuum yields its lock, another ANALYZE may not.
                conn.execute(text("SET LOCAL lock_timeout = '2s'"))
                conn.execute(text(f'ANALYZE "{table}"'))  # a name from WATCHED, not input
                conn.commit()
            self.analyzed[table] += 1
        except SQLAlchemyError as exc:  # statistics are an optimisation: the write committed
            log.warning("could not analyze %s: %s", table, exc)


_WATCHES: weakref.WeakKeyDictionary[Engine, StatsWatch] = weakref.WeakKeyDictionary()
_WATCHES_LOCK = threading.Lock()


def stats_watch(engine: Engine) -> StatsWatch:
    """The engine's one :class:`StatsWatch`, shared by every writer of the process."""
    with _WATCHES_LOCK:
        watch = _WATCHES.get(engine)
        if watch is None:
            watch = _WATCHES[engine] = StatsWatch(engine)
        return watch


_PENDING = "userlore.stats_pending"
"""``Session.info`` key: the engine and the rows written in the session's open transaction."""


def count_on_commit(session: Session, table: str, rows: int) -> None:
    """Count ``rows`` inserted into ``table`` in ``session``'s transaction once it commits.

    The watch reads committed rows only, and a rolled-back write wrote nothing: the count is
    handed to :meth:`StatsWatch.wrote` after the outermost commit and dropped otherwise.
    PostgreSQL only (nothing is registered on SQLite).
    """
    if rows <= 0:
        return
    pending: tuple[Engine, Counter[str]] | None = session.info.get(_PENDING)
    if pending is None:
        bind: Any = session.get_bind()
        engine: Engine = bind if isinstance(bind, Engine) else bind.engine
        if engine.dialect.name != "postgresql":
            return
        pending = session.info[_PENDING] = (engine, Counter())
        if not event.contains(session, "after_commit", _report):
            event.listen(session, "after_commit", _report)
            event.listen(session, "after_transaction_end", _drop)
    pending[1][table] += rows


def _report(session: Session) -> None:
    pending: tuple[Engine, Counter[str]] | None = session.info.pop(_PENDING, None)
    if pending is not None:
        watch = stats_watch(pending[0])
        for table, rows in pending[1].items():
            watch.wrote(table, rows)


def _drop(session: Session, transaction: SessionTransaction) -> None:
    if transaction.parent is None:  # the outermost ended without a commit: nothing written
        session.info.pop(_PENDING, None)
