"""What a fresh in-memory SQLite database costs the test suite: migrated vs copied.

Every test that opens ``sqlite://`` needs the whole schema. Running the Alembic migrations
(``userlore.store.engine.setup``) is the peer; the suite's way (``tests/conftest.py``) copies a
database migrated once with ``sqlite3``'s backup API. Both are timed in the same run, alternated,
and the copy is checked to hold the same schema. Also: ``Userlore.open("sqlite://")`` each way,
since that is what most tests call.

Usage: python benchmarks/suite_setup.py [--rounds 30]
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import time
from collections.abc import Callable

from sqlalchemy import Engine, text

from userlore import Userlore
from userlore.store import engine as engine_module
from userlore.store.engine import create_store_engine, setup


def _schema(engine: Engine) -> list[tuple[str, str]]:
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT name, sql FROM sqlite_master ORDER BY name"))
        return [(str(r[0]), str(r[1])) for r in rows]


def _percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()

    migrate = engine_module._upgrade
    template = create_store_engine("sqlite://")
    setup(template)
    source = template.raw_connection().driver_connection
    assert isinstance(source, sqlite3.Connection)

    def copy(engine: Engine) -> None:
        with engine.connect() as conn:
            raw = conn.connection.driver_connection
            assert isinstance(raw, sqlite3.Connection)
            source.backup(raw)

    def fresh_engine(upgrade: Callable[[Engine], None]) -> float:
        engine_module._upgrade = upgrade  # type: ignore[assignment]
        engine = create_store_engine("sqlite://")
        start = time.perf_counter()
        setup(engine)
        took = time.perf_counter() - start
        engine.dispose()
        return took

    def fresh_lore(upgrade: Callable[[Engine], None]) -> float:
        engine_module._upgrade = upgrade  # type: ignore[assignment]
        start = time.perf_counter()
        lore = Userlore.open("sqlite://")
        took = time.perf_counter() - start
        lore.close()
        return took

    migrated, copied = create_store_engine("sqlite://"), create_store_engine("sqlite://")
    setup(migrated)
    engine_module._upgrade = copy  # type: ignore[assignment]
    setup(copied)
    same = _schema(migrated) == _schema(copied)
    print(f"schema objects: {len(_schema(migrated))}; copy identical to migration: {same}")

    for label, measure in (("setup(engine)", fresh_engine), ("Userlore.open", fresh_lore)):
        runs: dict[str, list[float]] = {"migrate": [], "copy": []}
        for _ in range(args.rounds):  # alternated: load on the machine hits both alike
            runs["migrate"].append(measure(migrate))
            runs["copy"].append(measure(copy))
        m50, m95 = _percentiles(runs["migrate"])
        c50, c95 = _percentiles(runs["copy"])
        print(
            f"{label:14s} migrate p50 {m50 * 1000:7.1f} ms p95 {m95 * 1000:7.1f} ms | "
            f"copy p50 {c50 * 1000:6.1f} ms p95 {c95 * 1000:6.1f} ms | "
            f"migrate/copy p50 {m50 / c50:5.1f}x"
        )
    engine_module._upgrade = migrate  # type: ignore[assignment]


if __name__ == "__main__":
    main()
