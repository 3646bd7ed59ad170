"""Pytest plugin: LangGraph's own store tests, run against ``UserloreStore``.

Loaded by ``run.py`` (``-p userlore_lg_plugin``) into a pytest session over the ``tests/`` of
an unpacked LangGraph source distribution. Wherever those tests build their store
(``InMemoryStore(...)``, ``SqliteStore.from_conn_string(...)``,
``AsyncSqliteStore.from_conn_string(...)``), the test module's name is rebound here to a class
that builds a ``UserloreStore`` on a fresh SQLite file instead (``auto`` mode, so a put is
live at once, as in LangGraph's stores). No upstream file is copied or edited.

``USERLORE_LG_USER`` picks whose items they are: ``fixed`` (one user for every call, the
resolver's default, as a run that names its user) or ``first-label`` (the first namespace
label is the user, ``namespace_template=("{user_id}",)``, as LangGraph Server's convention).

The known, by-design differences are listed once in ``exceptions.toml``; each listed test is
marked ``xfail(strict=True)`` so it must still fail (a listed test that starts passing fails
the run, as does an entry that matches no test), and any other failure fails the run.
"""

from __future__ import annotations

import fnmatch
import os
import shutil
import tempfile
import tomllib
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import pytest

from userlore import Userlore
from userlore.integrations.langgraph_store import UserloreStore
from userlore.integrations.scope import ScopeResolver

MODE = os.environ.get("USERLORE_LG_USER", "fixed")
PACKAGE = os.environ.get("USERLORE_LG_PACKAGE", "")
FIXED_USER = "lg-suite-user"
EXCEPTIONS = Path(__file__).with_name("exceptions.toml")
_DIR = tempfile.TemporaryDirectory(prefix="userlore-lg-suites-")
_COUNT = iter(range(1_000_000))
_CONFIG = {"memory": {"mode": "auto"}}

if MODE not in ("fixed", "first-label"):
    raise pytest.UsageError(f"USERLORE_LG_USER must be fixed or first-label, not {MODE!r}")


def _open() -> Userlore:
    """A ``Userlore`` on a fresh SQLite file, copied from one migrated once (opening is fast)."""
    template = Path(_DIR.name) / "template.db"
    if not template.exists():
        Userlore.open(f"sqlite:///{template}", config=_CONFIG).close()
    path = Path(_DIR.name) / f"store-{next(_COUNT)}.db"
    shutil.copyfile(template, path)
    return Userlore.open(f"sqlite:///{path}", config=_CONFIG)


def _options(index: Any, ttl: Any) -> dict[str, Any]:
    if MODE == "fixed":
        return {"scope": ScopeResolver(default=FIXED_USER), "index": index, "ttl": ttl}
    return {"namespace_template": ("{user_id}",), "index": index, "ttl": ttl}


class LoreInMemoryStore(UserloreStore):
    """Stands where the tests call ``InMemoryStore(index=..., ttl=...)``."""

    def __init__(self, *, index: Any = None, ttl: Any = None) -> None:
        super().__init__(_open(), **_options(index, ttl))


class LoreSqliteStore(UserloreStore):
    """Stands where the tests call ``SqliteStore.from_conn_string(conn, index=, ttl=)``."""

    @classmethod
    @contextmanager
    def from_conn_string(
        cls, conn_string: str, *, index: Any = None, ttl: Any = None, **_: Any
    ) -> Iterator[LoreSqliteStore]:
        lore = _open()  # a fresh file whatever the string (":memory:" too)
        store = cls(lore, **_options(index, ttl))
        try:
            yield store
        finally:
            store.stop_ttl_sweeper(timeout=5)
            lore.close()

    def setup(self) -> None:
        """Migrations run when the ``Userlore`` opens."""


class LoreAsyncSqliteStore(UserloreStore):
    """Stands where the tests call ``AsyncSqliteStore.from_conn_string(...)``.

    LangGraph's async stores name their awaitable sweeper methods like the sync ones; ours are
    the ``a``-prefixed twins, bound here under the async store's names.
    """

    sweep_ttl = UserloreStore.asweep_ttl  # type: ignore[assignment]
    start_ttl_sweeper = UserloreStore.astart_ttl_sweeper  # type: ignore[assignment]
    stop_ttl_sweeper = UserloreStore.astop_ttl_sweeper  # type: ignore[assignment]

    @classmethod
    @asynccontextmanager
    async def from_conn_string(
        cls, conn_string: str, *, index: Any = None, ttl: Any = None, **_: Any
    ) -> AsyncIterator[LoreAsyncSqliteStore]:
        lore = _open()
        store = cls(lore, **_options(index, ttl))
        try:
            yield store
        finally:
            await store.astop_ttl_sweeper(timeout=5)
            lore.close()

    async def setup(self) -> None:
        """Migrations run when the ``Userlore`` opens."""


_SHIMS: dict[str, type[UserloreStore]] = {
    "InMemoryStore": LoreInMemoryStore,
    "SqliteStore": LoreSqliteStore,
    "AsyncSqliteStore": LoreAsyncSqliteStore,
}


def _exceptions() -> list[dict[str, Any]]:
    data = tomllib.loads(EXCEPTIONS.read_text("utf-8"))
    return [
        e
        for e in data.get("exception", [])
        if e["package"] == PACKAGE and MODE in e.get("modes", ["fixed", "first-label"])
    ]


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    """Rebind the store names in each test module and mark the listed exceptions."""
    patched: set[int] = set()
    for item in items:
        module = getattr(item, "module", None)
        if module is not None and id(module) not in patched:
            patched.add(id(module))
            for name, shim in _SHIMS.items():
                if name in vars(module):
                    setattr(module, name, shim)
    entries = _exceptions()
    used: set[int] = set()
    for item in items:
        for i, entry in enumerate(entries):
            if fnmatch.fnmatchcase(item.nodeid, entry["test"]):
                used.add(i)
                item.add_marker(
                    pytest.mark.xfail(
                        strict=True, reason=f"[{entry['rule']}] {entry['reason']}", run=True
                    )
                )
                break
    config.stash[_UNUSED] = [e["test"] for i, e in enumerate(entries) if i not in used]


_UNUSED = pytest.StashKey[list[str]]()


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """Name the store and the user mode, and any exception entry that matched no test."""
    terminalreporter.write_line(
        f"userlore: LangGraph suite of {PACKAGE} against UserloreStore, user mode {MODE!r}"
    )
    for pattern in config.stash.get(_UNUSED, []):
        terminalreporter.write_line(f"userlore: stale exception (matches no test): {pattern}")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """A stale exception entry fails the run: the list must stay short and true."""
    if session.config.stash.get(_UNUSED, []) and exitstatus == 0:
        session.exitstatus = 1
