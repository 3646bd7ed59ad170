"""The policy's data files: one reader for the YAML under ``userlore/policy/data``.

Detectors keep their words as data (adding a language is a data change); each reads its file
once, through a ``functools.cache`` of its own that also builds its patterns.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

import yaml  # type: ignore[import-untyped]

__all__ = ["data_yaml"]

# libyaml's parser with the safe constructor: the same mappings as ``yaml.safe_load``, parsed
# ~10x faster (45 files on the floor's first text in each new process).
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def data_yaml(filename: str) -> dict[str, Any]:
    """The parsed mapping of ``policy/data/<filename>``."""
    source = resources.files("userlore.policy.data").joinpath(filename)
    data: dict[str, Any] = yaml.load(source.read_text("utf-8"), Loader=_LOADER)
    return data
