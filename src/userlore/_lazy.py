"""A package's public names imported on first access (PEP 562).

Importing a package runs its ``__init__`` before any module in it: with every public name
imported there, ``import userlore.errors`` (the CLI, a worker, a subprocess) imported the whole
facade, the store and the floor. A package lists each name with the module that defines it and
imports it when it is first read.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, MutableMapping

__all__ = ["load_export"]


def load_export(
    namespace: MutableMapping[str, object], exports: Mapping[str, str], name: str
) -> object:
    """``name`` from its module in ``exports``, kept in the package's ``namespace`` so the next
    read is a plain attribute (the package's module ``__getattr__`` calls this).

    Raises:
        AttributeError: ``name`` is no public name of the package.
    """
    module = exports.get(name)
    if module is None:
        raise AttributeError(f"module {namespace['__name__']!r} has no attribute {name!r}")
    value: object = getattr(importlib.import_module(module), name)
    namespace[name] = value
    return value
