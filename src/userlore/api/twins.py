"""Async twins and deprecation shims, each made by one helper so no body is copied by hand."""

from __future__ import annotations

import asyncio
import functools
import warnings
from collections.abc import Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


def twin(fn: Callable[P, R]) -> Callable[P, Coroutine[Any, Any, R]]:
    """Async twin of a sync method: the same body run in a worker thread."""

    @functools.wraps(fn)
    async def run(*args: P.args, **kwargs: P.kwargs) -> R:
        return await asyncio.to_thread(fn, *args, **kwargs)

    run.__doc__ = f"Async twin of :meth:`{fn.__name__}`."
    return run


def deprecated(old: str, new: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Keep ``Userlore.<old>`` working for one release, warning that ``lore.<new>`` replaces it."""

    def wrap(fn: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(fn)
        def shim(*args: P.args, **kwargs: P.kwargs) -> R:
            warnings.warn(
                f"Userlore.{old} is deprecated and will be removed in 0.3; use lore.{new}",
                DeprecationWarning,
                stacklevel=2,
            )
            return fn(*args, **kwargs)

        shim.__deprecated__ = new  # type: ignore[attr-defined]  # read by the surface test
        shim.__doc__ = f"Deprecated: use ``lore.{new}``."
        return shim

    return wrap
