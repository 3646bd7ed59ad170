"""Run LangGraph's own store test suites against ``UserloreStore`` (part of ``make test``).

For each package below, the source distribution of the INSTALLED version is downloaded from
PyPI with pip into ``.cache/langgraph-suites/`` (gitignored; reused while the version holds),
unpacked, and its store tests run in their own pytest session with
``userlore_lg_plugin`` (which builds a ``UserloreStore`` wherever they build their store),
once per user mode (``fixed`` and ``first-label``). Sync and async tests both run. The
``langgraph-checkpoint`` and ``-sqlite`` stores are SQLite files; the ``-postgres`` suites run on
one PostgreSQL server (the test command's throwaway server with pgvector, started here, or
``USERLORE_TEST_DATABASE_URL``), each test's store on a database of a per-session pool that is
the migrated template (copied once, then emptied and checked between tests).
``USERLORE_SKIP_POSTGRES=1`` skips the PostgreSQL suites and says so. The PostgreSQL
package's two large-batch tests run in a session of their own (``SPLIT``), beside one that
deselects them; three sessions run at a time (``--jobs``). The exit status is non-zero when
any session fails.

``--beside COMMAND`` runs COMMAND (``make test``: the rest of the command, pytest last) at the
same time, its output live, and the suites' sessions beside it (the longest first), their
output printed when COMMAND ends; the exit status is non-zero when either fails. The main run
is the longest serial path, so once it has started everything else (this process, the
PostgreSQL server it starts, the suites' sessions) runs at a lower priority (``nice`` 10) and
takes the core the main run leaves: on 2 cores the suites had taken three quarters of it.

``--shard`` (with ``--beside``) splits our own pytest run in two: COMMAND's pytest runs the
``main`` share and this process runs the ``beside`` share (``tests/conftest.py``'s
``BESIDE_SHARD``, through ``USERLORE_TEST_SHARD``) in a pytest session of its own, at the lowest
priority (``nice`` 19): it takes what the suites' sessions leave of their core while they wait
on round trips, and the whole core once they end. Its output comes with theirs; its failure
fails the command.

Usage: ``python tests/langgraph_suites/run.py [--mode fixed|first-label] [--package DIST]
[--beside COMMAND [--shard]] [pytest args...]``
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import shlex
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CACHE = ROOT / ".cache" / "langgraph-suites"

SUITES: dict[str, list[str]] = {
    # distribution: its store test files (the checkpointer tests are not about stores).
    "langgraph-checkpoint": ["tests/test_store.py"],
    "langgraph-checkpoint-sqlite": [
        "tests/test_store.py",
        "tests/test_async_store.py",
        "tests/test_ttl.py",
    ],
    "langgraph-checkpoint-postgres": ["tests/test_store.py", "tests/test_async_store.py"],
}
POSTGRES = "langgraph-checkpoint-postgres"
# The PostgreSQL suites' two large-batch tests (60,000 and 6,000 operations on one store) take
# about two thirds of the fixed-user session, waiting on round trips more than using a core: they
# run as a session of their own beside the rest of the package's tests (which deselects them),
# so the longest session is no longer their sum. Every test still runs once per user mode.
SPLIT: dict[str, list[str]] = {
    POSTGRES: [
        "tests/test_async_store.py::test_large_batches",
        "tests/test_async_store.py::test_large_batches_async",
    ],
}
TEMPLATE = "userlore_lg_template"
MODES = ("fixed", "first-label")


def unpacked(dist: str) -> Path:
    """The unpacked sdist of the installed version of ``dist`` (downloaded once)."""
    version = importlib.metadata.version(dist)
    name = dist.replace("-", "_")
    target = CACHE / f"{name}-{version}"
    if (target / "tests").is_dir():
        return target
    CACHE.mkdir(parents=True, exist_ok=True)
    archive = CACHE / f"{name}-{version}.tar.gz"
    if not archive.exists():
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "-q",
                "--no-deps",
                "--no-binary",
                ":all:",
                "--dest",
                str(CACHE),
                f"{dist}=={version}",
            ],
            check=True,
        )
    with tarfile.open(archive) as tar:
        tar.extractall(CACHE, filter="data")
    if not (target / "tests").is_dir():
        raise SystemExit(f"{archive.name} has no tests/ directory")
    return target


def postgres_server() -> tuple[str, Callable[[], None]]:
    """An admin URL of a server with a migrated ``TEMPLATE`` database, and how to stop it."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from userlore.store.engine import create_store_engine, setup
    from userlore.testing.postgres import ThrowawayPostgres

    external = os.environ.get("USERLORE_TEST_DATABASE_URL")
    server = None if external else ThrowawayPostgres().start()
    admin_url = external or server.admin_url  # type: ignore[union-attr]
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{TEMPLATE}" WITH (FORCE)'))
        conn.execute(text(f'CREATE DATABASE "{TEMPLATE}"'))
    admin.dispose()
    url = make_url(admin_url).set(database=TEMPLATE).render_as_string(hide_password=False)
    engine = create_store_engine(url)
    setup(engine)  # migrated once; every store of the suites is a file copy of it
    engine.dispose()

    def stop() -> None:
        if server is not None:
            cpu = server.cpu_seconds()
            if cpu is not None:
                print(f"== {POSTGRES}: the PostgreSQL server's CPU: {cpu:.0f} s", flush=True)
            server.stop()
        else:
            cleanup = create_engine(admin_url, isolation_level="AUTOCOMMIT")
            with cleanup.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{TEMPLATE}" WITH (FORCE)'))
            cleanup.dispose()

    return admin_url, stop


def sessions_of(dist: str) -> list[tuple[str, list[str]]]:
    """The sessions ``dist``'s store tests run in: a name and the pytest arguments of each."""
    split = SPLIT.get(dist)
    if not split:
        return [("", SUITES[dist])]
    rest = [*SUITES[dist]]
    for node in split:
        rest += ["--deselect", node]
    return [("large batches", split), ("the rest", rest)]


def run(
    dist: str,
    mode: str,
    extra: list[str],
    root: Path,
    pg_admin: str | None = None,
    part: tuple[str, list[str]] = ("", []),
) -> tuple[int, str]:
    """One pytest session: ``dist``'s store tests in user mode ``mode``; status and output.

    ``part`` names a session of a split package and gives its arguments (default: the
    package's whole list). Only the session that collects every test of the package (the
    one that deselects the others' tests) checks the exceptions list for stale entries.
    """
    label, args = part
    args = args or SUITES[dist]
    env = dict(os.environ)
    if label:
        env["USERLORE_LG_STALE_CHECK"] = "1" if "--deselect" in args else "0"
    if pg_admin:
        env["USERLORE_LG_PG_ADMIN"] = pg_admin
        env["USERLORE_LG_PG_TEMPLATE"] = TEMPLATE
    env["USERLORE_LG_USER"] = mode
    env["USERLORE_LG_PACKAGE"] = dist
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE), env.get("PYTHONPATH")]))
    command = [
        sys.executable,
        "-m",
        "pytest",
        *args,
        "-c",
        os.devnull,
        "--rootdir",
        str(root),
        "-p",
        "userlore_lg_plugin",
        "-p",
        "no:cacheprovider",
        "-o",
        "asyncio_mode=auto",
        "-o",
        "asyncio_default_fixture_loop_scope=function",
        "-q",
        "-rfE",
        *extra,
    ]
    code, text, seconds, cpu = session(command, root, env)
    name = f"{mode}, {label}" if label else mode
    head = f"== {dist} {importlib.metadata.version(dist)}, user mode {name}\n"
    tail = f"== {dist}, {name}: exit {code} in {seconds:.0f} s, CPU {cpu:.0f} s\n"
    return code, head + text + tail


def session(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, str, float, float]:
    """Run one pytest session to its end: its exit status, output, wall and CPU seconds."""
    started = time.monotonic()
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
        # wait4 gives this session's own CPU (getrusage's children total mixes the sessions).
        _, status, usage = os.wait4(proc.pid, 0)
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    cpu = usage.ru_utime + usage.ru_stime
    return os.waitstatus_to_exitcode(status), text, time.monotonic() - started, cpu


def run_own_shard(started: float) -> tuple[int, str]:
    """Our pytest's ``beside`` share (see the module), at nice 19; its status and output."""
    env = {**os.environ, "USERLORE_TEST_SHARD": "beside"}
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider"]  # -q: pyproject's
    if hasattr(os, "nice"):
        command = ["nice", "-n", str(max(0, 19 - os.nice(0))), *command]
    code, text, seconds, cpu = session(command, ROOT, env)
    head = "== userlore's own tests, the beside shard (tests/conftest.py BESIDE_SHARD)\n"
    tail = (
        f"== userlore's beside shard: exit {code} in {seconds:.0f} s "
        f"(done {time.monotonic() - started:.0f} s after the start), CPU {cpu:.0f} s\n"
    )
    return code, head + text + tail


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=MODES, action="append")
    parser.add_argument("--package", choices=sorted(SUITES), action="append")
    # Three sessions at a time even on 2 cores: the PostgreSQL sessions wait on round trips
    # and on the suites' own sleeps for about two thirds of their wall time (session CPU 256 s
    # of 692 s wall, fixed user, quiet machine), and they run at nice 10 beside the main run.
    parser.add_argument("--jobs", type=int, default=3)
    parser.add_argument("--beside", metavar="COMMAND", help="run COMMAND at the same time")
    parser.add_argument("--shard", action="store_true", help="with --beside: split our pytest")
    args, extra = parser.parse_known_args()
    if args.shard and not args.beside:
        parser.error("--shard needs --beside")
    started = time.monotonic()
    env = {**os.environ, "USERLORE_TEST_SHARD": "main"} if args.shard else None
    beside = subprocess.Popen(shlex.split(args.beside), env=env) if args.beside else None
    if beside is not None and hasattr(os, "nice"):
        os.nice(10)  # inherited by the server and the sessions started below, not by COMMAND
    shard = ThreadPoolExecutor(max_workers=1) if args.shard else None
    own = shard.submit(run_own_shard, started) if shard is not None else None
    packages = list(args.package or SUITES)
    if POSTGRES in packages and os.environ.get("USERLORE_SKIP_POSTGRES") == "1":
        print(f"== {POSTGRES}: SKIPPED (USERLORE_SKIP_POSTGRES=1)", flush=True)
        packages.remove(POSTGRES)
    failed: list[tuple[str, str]] = []
    outputs: list[str] = []
    try:
        # The sdists' downloads (pip, one process each) and the PostgreSQL server's start and
        # migration overlap: on a fresh clone they had taken minutes in a row under load.
        with ThreadPoolExecutor(max_workers=1 + len(packages)) as prep:
            server = prep.submit(postgres_server) if POSTGRES in packages else None
            unpacking = [prep.submit(unpacked, dist) for dist in packages]
            try:
                roots = {
                    dist: future.result() for dist, future in zip(packages, unpacking, strict=True)
                }
            except BaseException:
                if server is not None and server.exception() is None:
                    server.result()[1]()  # stop the server this run started
                raise
        # The PostgreSQL sessions are the longest (fixed user, its large batches first): they
        # start first.
        sessions = sorted(
            (
                (dist, mode, part)
                for dist in roots
                for mode in args.mode or MODES
                for part in sessions_of(dist)
            ),
            key=lambda s: (s[0] != POSTGRES, s[1] != "fixed", s[2][0] != "large batches"),
        )
        pg_admin, stop = server.result() if server is not None else (None, lambda: None)
        # Sessions are independent (each store is its own SQLite file or PostgreSQL
        # database): run them side by side.
        try:
            with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
                futures = {
                    pool.submit(
                        run, d, m, extra, roots[d], pg_admin if d == POSTGRES else None, part
                    ): (d, f"{m}, {part[0]}" if part[0] else m)
                    for d, m, part in sessions
                }
                for future in as_completed(futures):
                    code, output = future.result()
                    if beside is None:
                        print(output, flush=True)
                    else:
                        outputs.append(output)
                    if code != 0:
                        failed.append(futures[future])
        finally:
            stop()
        suites_done = time.monotonic() - started
        if own is not None:
            code, output = own.result()
            outputs.append(output)
            if code != 0:
                failed.append(("userlore", "beside shard"))
    finally:
        status = 0 if beside is None else beside.wait()
        if shard is not None:
            shard.shutdown()
    if beside is not None:
        for output in outputs:
            print(output, flush=True)
        print(
            f"== LangGraph suites done {suites_done:.0f} s after the start; "
            f"{args.beside} beside them: exit {status} after {time.monotonic() - started:.0f} s",
            flush=True,
        )
    for dist, mode in failed:
        what = "our pytest's" if dist == "userlore" else f"LangGraph suite {dist} in user mode"
        print(f"FAILED: {what} {mode}", file=sys.stderr)
    return 1 if failed or status != 0 else 0


if __name__ == "__main__":
    raise SystemExit(main())
