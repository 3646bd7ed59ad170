"""UserloreStore's cost per operation on PostgreSQL beside SQLite: statements, client and
server CPU, for the op mix of LangGraph's ``test_large_batches`` (put, get, list, search, put
again, delete; the suites' TTL with refresh on read), run one op at a time.

CPU, not wall time: on a shared machine a round trip's wall time is mostly the wait for the
server process to be scheduled, while the CPU each side spends and the statements it sends do
not depend on the load. Statements are counted with a ``before_cursor_execute`` listener (on
SQLite, the read path's driver-level statements are not seen by it). Server CPU is the
throwaway server's processes' (``/proc``), so Linux only.

Usage: ``python benchmarks/store_round_trips.py [--n 40]`` (``--n`` keys; 60 ops per key).
To compare two revisions, run it with ``PYTHONPATH=<other checkout>/src`` as the peer.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable

from sqlalchemy import create_engine, event, text

from userlore import Userlore
from userlore.integrations.langgraph_store import UserloreStore
from userlore.integrations.scope import ScopeResolver
from userlore.testing.postgres import ThrowawayPostgres

TTL = {"default_ttl": 5 / 60, "refresh_on_read": True}


def measure(url: str, label: str, n: int, server: Callable[[], float]) -> None:
    lore = Userlore.open(url, config={"memory": {"mode": "auto"}})
    store = UserloreStore(lore, scope=ScopeResolver(default="u1"), ttl=TTL)  # type: ignore[arg-type]
    count = [0]

    @event.listens_for(lore.memory.store.engine, "before_cursor_execute")
    def _count(*_: object) -> None:
        count[0] += 1

    cpu: dict[str, list[float]] = defaultdict(list)
    statements: dict[str, int] = defaultdict(int)

    def op(name: str, call: Callable[[], object]) -> None:
        before, seen = time.process_time(), count[0]
        call()
        cpu[name].append(1000 * (time.process_time() - before))
        statements[name] += count[0] - seen

    def mix(m: int, i: int) -> None:
        ns = ("test", "foo", "bar", "baz", str(m % 2))
        op("put", lambda: store.put(ns, f"key{i}", {"foo": f"bar{i}"}))
        op("get", lambda: store.get(ns, f"key{i}"))
        op("list", lambda: store.list_namespaces(max_depth=m + 1))
        op("search", lambda: store.search(("test",)))
        op("put again", lambda: store.put(ns, f"key{i}", {"foo": f"bar{i}"}))
        op("delete", lambda: store.delete(ns, f"key{i}"))

    for i in range(10):  # warm-up: one-time loads (the floor's vocabularies) are not counted
        mix(0, 10_000 + i)
    cpu.clear()
    statements.clear()
    server_before, client_before = server(), time.process_time()
    for m in range(10):
        for i in range(n):
            mix(m, i)
    client = time.process_time() - client_before
    server_used = server() - server_before
    ops = sum(len(v) for v in cpu.values())
    print(
        f"{label}: {ops} ops, client CPU {1000 * client / ops:.2f} ms/op, server CPU "
        f"{1000 * server_used / ops:.2f} ms/op, {sum(statements.values()) / ops:.2f} statements/op"
    )
    for name, values in cpu.items():
        values.sort()
        p50, p95 = values[len(values) // 2], values[int(len(values) * 0.95)]
        print(
            f"  {label} {name:9s} client CPU p50 / p95 {p50:5.2f} / {p95:5.2f} ms, "
            f"statements {statements[name] / len(values):.2f}"
        )
    lore.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=40)
    args = parser.parse_args()
    measure(f"sqlite:///{tempfile.mkdtemp()}/store.db", "sqlite", args.n, lambda: 0.0)
    pg = ThrowawayPostgres().start()
    try:
        admin = create_engine(pg.admin_url, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text("CREATE DATABASE round_trips"))
        admin.dispose()

        def server_cpu() -> float:
            cpu = pg.cpu_seconds()
            assert cpu is not None, "the server's CPU time cannot be read here"
            return cpu

        measure(pg.url("round_trips"), "postgres", args.n, server_cpu)
    finally:
        pg.stop()


if __name__ == "__main__":
    main()
