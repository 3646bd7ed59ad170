"""Run LangGraph's own store test suites against ``UserloreStore`` (part of ``make test``).

For each package below, the source distribution of the INSTALLED version is downloaded from
PyPI with pip into ``.cache/langgraph-suites/`` (gitignored; reused while the version holds),
unpacked, and its store tests run in their own pytest session with
``userlore_lg_plugin`` (which builds a ``UserloreStore`` wherever they build their store),
once per user mode (``fixed`` and ``first-label``). Sync and async tests both run; every store
is a SQLite file. The exit status is non-zero when any session fails.

Usage: ``python tests/langgraph_suites/run.py [--mode fixed|first-label] [pytest args...]``
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import subprocess
import sys
import tarfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CACHE = ROOT / ".cache" / "langgraph-suites"

SUITES: dict[str, list[str]] = {
    # distribution: its store test files (LangGraph's PostgreSQL suites need their own server
    # fixtures and are not run here yet).
    "langgraph-checkpoint": ["tests/test_store.py"],
    "langgraph-checkpoint-sqlite": [
        "tests/test_store.py",
        "tests/test_async_store.py",
        "tests/test_ttl.py",
    ],
}
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


def run(dist: str, mode: str, extra: list[str], root: Path) -> tuple[int, str]:
    """One pytest session: ``dist``'s store tests in user mode ``mode``; status and output."""
    env = dict(os.environ)
    env["USERLORE_LG_USER"] = mode
    env["USERLORE_LG_PACKAGE"] = dist
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE), env.get("PYTHONPATH")]))
    command = [
        sys.executable,
        "-m",
        "pytest",
        *SUITES[dist],
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
    started = time.monotonic()
    done = subprocess.run(command, cwd=root, env=env, check=False, capture_output=True, text=True)
    head = f"== {dist} {importlib.metadata.version(dist)}, user mode {mode}\n"
    tail = f"== {dist}, {mode}: exit {done.returncode} in {time.monotonic() - started:.0f} s\n"
    return done.returncode, head + done.stdout + done.stderr + tail


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=MODES, action="append")
    parser.add_argument("--package", choices=sorted(SUITES), action="append")
    parser.add_argument("--jobs", type=int, default=min(4, os.cpu_count() or 1))
    args, extra = parser.parse_known_args()
    roots = {dist: unpacked(dist) for dist in args.package or SUITES}
    sessions = [(dist, mode) for dist in roots for mode in args.mode or MODES]
    failed = []
    # Sessions are independent (each store is its own SQLite file): run them side by side.
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(run, d, m, extra, roots[d]): (d, m) for d, m in sessions}
        for future in as_completed(futures):
            code, output = future.result()
            print(output, flush=True)
            if code != 0:
                failed.append(futures[future])
    for dist, mode in failed:
        print(f"FAILED: LangGraph suite {dist} in user mode {mode}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
