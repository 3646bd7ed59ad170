"""Word tables the floor derives from CLDR once, shipped beside the rules as package data.

Some detectors derive their vocabularies from every CLDR locale (babel's currency and territory
names and symbols, unicode-rbnf's spell-outs) or from a library slow to import (detect-secrets'
denylist): ~3.5 s of CPU on the first text of every new process (the
CLI, each worker, each recipe), the same answer each time. ``data/built_tables.json`` holds
those answers with a stamp: the versions of the libraries they read, the Unicode version, and a
hash of every source and data file under ``policy/``. A stamp that does not match (a rule or a
library changed) is ignored and the table is derived as before, so a stale file costs time,
never a verdict. ``python -m userlore.policy.built_tables`` writes the file again; a test fails
until it is run. A table stores strings; a pattern is compiled from them by its own cached
loader, on first use (coldstart17).
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import json
import logging
import unicodedata
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any, Final, TypeVar

__all__ = ["built_table", "derived", "stamp", "write"]

_LOG = logging.getLogger(__name__)
_POLICY: Final = Path(__file__).parent
_FILE: Final = _POLICY / "data" / "built_tables.json"
_LIBRARIES: Final = ("babel", "detect-secrets", "unicode-rbnf", "python-stdnum", "wordfreq")
T = TypeVar("T")
_BUILDERS: dict[str, Callable[[], Any]] = {}


def built_table(name: str) -> Callable[[Callable[[], T]], Callable[[], T]]:
    """Cache a zero-argument table builder per process, read from the shipped file when its
    stamp is current. A table holds strings in frozensets, tuples and str-keyed dicts."""

    def wrap(builder: Callable[[], T]) -> Callable[[], T]:
        _BUILDERS[name] = builder

        @functools.cache
        def table() -> T:
            stored = _stored().get(name)
            return builder() if stored is None else _decode(stored)

        table.__doc__ = builder.__doc__
        return table

    return wrap


@functools.cache
def stamp() -> str:
    """What the stored tables were derived from: libraries, Unicode, ``policy/``'s files."""
    digest = hashlib.sha256()
    for library in _LIBRARIES:
        try:
            version = metadata.version(library)
        except metadata.PackageNotFoundError:
            version = "-"
        digest.update(f"{library}={version}\n".encode())
    digest.update(f"unicode={unicodedata.unidata_version}\n".encode())
    for path in sorted(_POLICY.rglob("*")):
        if path.suffix in (".py", ".yaml", ".json") and path != _FILE and path.is_file():
            digest.update(path.relative_to(_POLICY).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()


@functools.cache
def _stored() -> dict[str, Any]:
    """The file's tables when its stamp is current, else none (each is derived instead)."""
    try:
        data = json.loads(_FILE.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("stamp") != stamp():
        _LOG.info("userlore: %s is stale; deriving the floor's CLDR tables", _FILE.name)
        return {}
    tables = data.get("tables")
    return tables if isinstance(tables, dict) else {}


def _encode(value: Any) -> Any:
    if isinstance(value, frozenset):
        return {"set": sorted(value)}
    if isinstance(value, tuple):
        return {"tuple": [_encode(v) for v in value]}
    if isinstance(value, dict):
        return {"dict": {str(k): _encode(v) for k, v in sorted(value.items())}}
    if isinstance(value, str):
        return value
    raise TypeError(f"a built table holds strings in frozensets, tuples and dicts, not {value!r}")


def _decode(value: Any) -> Any:
    if isinstance(value, dict) and "set" in value:
        return frozenset(value["set"])
    if isinstance(value, dict) and "tuple" in value:
        return tuple(_decode(v) for v in value["tuple"])
    if isinstance(value, dict) and "dict" in value:
        return {k: _decode(v) for k, v in value["dict"].items()}
    return value


def derived() -> dict[str, Any]:
    """Every registered table derived afresh (what the file must hold)."""
    importlib.import_module("userlore.policy.sensitivity")  # imports every detector
    return {name: builder() for name, builder in sorted(_BUILDERS.items())}


def write() -> None:
    """Write ``data/built_tables.json`` from this code and these libraries."""
    data = {
        "_comment": "The floor's CLDR-derived tables. Written by "
        "`python -m userlore.policy.built_tables`; do not edit.",
        "stamp": stamp(),
        "tables": {name: _encode(value) for name, value in derived().items()},
    }
    _FILE.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n", "utf-8")


if __name__ == "__main__":
    # Run as a script this file is a second module: the registry lives in the imported one.
    importlib.import_module("userlore.policy.built_tables").write()
