"""LangGraph's own stores as the benchmarks' peers, opened the same way by every benchmark.

``SqliteStore`` ranks a ``search(query=...)`` with sqlite-vec (``vec_distance_cosine`` over the
namespace's vectors). This Python's ``sqlite3`` cannot load extensions, so the peer runs on
``pysqlite3`` (the dev extra), which can: without it the store silently lists items instead of
ranking them, which is not the peer the issue measures against.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pysqlite3  # type: ignore[import-not-found]
from langgraph.store.sqlite import SqliteStore

__all__ = ["sqlite_store"]


@contextmanager
def sqlite_store(path: Path, index: Any) -> Iterator[SqliteStore]:
    """``SqliteStore`` on the file ``path`` with its vector index (``index``), set up.

    WAL journal and ``synchronous=NORMAL``, as ``Userlore.open`` sets for a SQLite file, so both
    stores read and write on the same terms. ``setup()`` runs here (it also loads sqlite-vec
    into the connection), so a store opened on an existing file is ready to search, as a new
    process would be.
    """
    # autocommit (isolation_level=None), as SqliteStore.from_conn_string opens its connection
    conn = pysqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    store = SqliteStore(conn, index=index)
    try:
        store.setup()
        yield store
    finally:
        conn.close()
