"""SQLite must load full-text hits by primary key, never by scanning the scope.

With a ``scope =`` term SQLite's planner once preferred the scope index and scanned the whole
scope for every plan (10x slower at 20k records); this pins the query plan instead of a timing.
"""

from __future__ import annotations

from userlore import Userlore
from userlore.planner.planner import PLAN_COLUMNS
from userlore.store.retrieval import _BY_SEQ, _SQLITE, RECORD_HITS


def test_hit_rows_are_loaded_by_primary_key() -> None:
    lore = Userlore.open("sqlite://")
    try:
        with lore.store.connection() as conn:
            for hits in (PLAN_COLUMNS.hits, RECORD_HITS):
                for source in (_SQLITE.newest, _BY_SEQ):
                    compiled = hits._statement(conn, source).compile(conn)
                    params = tuple(
                        {"q": "x", "k": 5, "scope": "u1", "hits": '{"1": 2.0}'}[name]
                        for name in compiled.positiontup or ()
                    )
                    plan = conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {compiled}", params).fetchall()
                    details = [row[3] for row in plan]
                    assert any("memory_records USING INTEGER PRIMARY KEY" in d for d in details), (
                        details
                    )
                    assert not any("SCAN memory_records " in f"{d} " for d in details), details
    finally:
        lore.close()
