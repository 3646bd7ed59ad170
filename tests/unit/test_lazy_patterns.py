"""The extractor's patterns compile on first use (``lexical.LazyPattern``, tidy21): each one
still compiles, and one answers as ``re.compile`` of the same pattern and flags does."""

from __future__ import annotations

import importlib
import pkgutil
import re

import userlore.extract
from userlore.extract import lexical


def test_every_extractor_pattern_compiles() -> None:
    for module in pkgutil.walk_packages(userlore.extract.__path__, "userlore.extract."):
        importlib.import_module(module.name)
    assert len(lexical._CREATED) > 200
    for pattern in lexical._CREATED:
        assert isinstance(pattern.compiled(), re.Pattern), pattern.pattern


def test_a_lazy_pattern_answers_as_the_compiled_one() -> None:
    source = r"(?P<word>[a-z]+)\s+(\d+)"
    lazy, eager = lexical._rx(source), re.compile(source, re.IGNORECASE)
    text = "Room 12, FLOOR 3 and hall 40"
    found, expected = lazy.search(text, 5), eager.search(text, 5)
    assert found is not None and expected is not None and found.span() == expected.span()
    first = lazy.match(text)
    assert first is not None and first.groups() == ("Room", "12")
    assert lazy.fullmatch("abc 1") is not None and lazy.fullmatch("abc") is None
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in eager.finditer(text)]
    assert lazy.findall(text) == eager.findall(text)
    assert lazy.sub("#", text, count=1) == eager.sub("#", text, count=1)
    assert lazy.subn(lambda m: m.group(2), text) == eager.subn(lambda m: m.group(2), text)
    assert lazy.split(text, maxsplit=1) == eager.split(text, maxsplit=1)
    # After the first call the methods are the compiled pattern's own: no wrapper on the way.
    assert getattr(lazy.search, "__self__", None) is found.re
