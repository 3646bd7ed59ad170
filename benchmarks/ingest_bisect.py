"""Bisect PostgreSQL ingestion: the same pull with one suspect switched off at a time.

Ingests N connected-source items (the ``ingest.py`` generator, ``synthesize=False``) into a
fresh database per variant on one throwaway server (``userlore.testing.postgres``), then once on
a SQLite file, and prints items/s beside the time and count of the heaviest statements (timed
at the cursor, so client and server cost together):

- ``baseline``: as shipped;
- ``no RLS``: row-level security disabled on the three tables ingestion writes;
- ``no episodic GIN``: the episodic ``tsvector`` GIN index dropped;
- ``no FK triggers``: ``session_replication_role = replica`` (the composite ``(scope, id)``
  foreign keys are not checked: PostgreSQL checks each row with a trigger);
- ``sqlite``: the peer.

The row that shows a regression again is the statements column: a statement run once per row
(``count`` = N) instead of once per chunk, or a variant far faster than ``baseline``.

Usage: python benchmarks/ingest_bisect.py [--items 2000]
"""

from __future__ import annotations

import argparse
import collections
import tempfile
import time
from pathlib import Path
from typing import Any

from ingest import CONFIG, SCOPE, Words, make_items
from sqlalchemy import create_engine, event, text

from userlore import Userlore
from userlore.sources import ItemListSource
from userlore.testing.postgres import ThrowawayPostgres

WRITTEN = ("knowledge_source_items", "knowledge_source_changes", "episodic_items")
VARIANTS: dict[str, list[str]] = {
    "baseline": [],
    "no RLS": [f"ALTER TABLE {t} DISABLE ROW LEVEL SECURITY" for t in WRITTEN],
    "no episodic GIN": ["DROP INDEX IF EXISTS ix_episodic_search_tsv"],
    "no FK triggers": ["ALTER DATABASE {db} SET session_replication_role = replica"],
}


def run(url: str, n: int) -> tuple[float, list[tuple[str, int, float]]]:
    """Items/s of one ingest, and the heaviest statements (name, count, seconds)."""
    lore = Userlore.open(url, config=CONFIG)
    engine = lore.memory.store.engine
    spent: collections.Counter[str] = collections.Counter()
    count: collections.Counter[str] = collections.Counter()
    started: dict[int, float] = {}

    def before(conn: Any, cursor: Any, *_: Any) -> None:
        started[id(cursor)] = time.perf_counter()

    def after(conn: Any, cursor: Any, statement: str, params: Any, ctx: Any, many: bool) -> None:
        key = " ".join(statement.split()[:3])[:40] + (" (many)" if many else "")
        spent[key] += time.perf_counter() - started.pop(id(cursor), time.perf_counter())
        count[key] += 1

    event.listen(engine, "before_cursor_execute", before)
    event.listen(engine, "after_cursor_execute", after)
    items = make_items(n, Words(kind="synthetic"))
    t0 = time.perf_counter()
    lore.sources.ingest(SCOPE, ItemListSource("bench", items), synthesize=False)
    wall = time.perf_counter() - t0
    lore.close()
    return n / wall, [(k, count[k], round(v, 2)) for k, v in spent.most_common(3)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, default=2000)
    n = parser.parse_args().items
    rows: list[tuple[str, float, list[tuple[str, int, float]]]] = []
    server = ThrowawayPostgres().start()
    try:
        admin = create_engine(server.admin_url, isolation_level="AUTOCOMMIT")
        for i, (name, statements) in enumerate(VARIANTS.items()):
            database = f"bisect_{i}"
            with admin.connect() as conn:
                conn.execute(text(f"CREATE DATABASE {database}"))
                for statement in statements:
                    if "{db}" in statement:
                        conn.execute(text(statement.format(db=database)))
            url = server.url(database)
            lore = Userlore.open(url, config=CONFIG)  # migrated before the switch
            with lore.memory.store.engine.begin() as conn:
                for statement in statements:
                    if "{db}" not in statement:
                        conn.execute(text(statement))
            lore.close()
            rows.append((name, *run(url, n)))
            print(rows[-1], flush=True)
        admin.dispose()
    finally:
        server.stop()
    with tempfile.TemporaryDirectory() as folder:
        rows.append(("sqlite", *run(f"sqlite:///{Path(folder) / 'b.db'}", n)))
    print(f"\n| variant ({n:,} items) | items/s | heaviest statements (count, s) |")
    print("|---|---:|---|")
    for name, rate, heavy in rows:
        shown = "; ".join(f"{k} ×{c} {s} s" for k, c, s in heavy)
        print(f"| {name} | {rate:,.0f} | {shown} |")


if __name__ == "__main__":
    main()
