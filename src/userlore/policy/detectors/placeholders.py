"""The placeholder words of the seven languages ("example", "Beispiel", "示例", "サンプル"…).

Its own module because both ``public_material`` (a placeholder is not a secret) and
``benign_shapes`` (a docs sentence's values are examples) read them, and neither may import
the other.
"""

from __future__ import annotations

import functools
import re

from userlore.policy.data_files import data_yaml
from userlore.policy.literal_gate import GatedPattern

__all__ = ["placeholder_gate", "placeholder_words"]


def placeholder_words() -> re.Pattern[str]:
    """The placeholder words of ``placeholder_words.yaml`` as one pattern (lower-cased text)."""
    return _placeholder_words()


@functools.cache
def placeholder_gate() -> GatedPattern:
    """:func:`placeholder_words` asked of a whole text only where one of its words stands (its
    leading lookbehind turns off the engine's literal scan: ~3 µs a store key; issue 30)."""
    return GatedPattern(_placeholder_words())


@functools.cache
def _placeholder_words() -> re.Pattern[str]:
    """The placeholder words of the seven languages, from ``placeholder_words.yaml``."""
    data = data_yaml("placeholder_words.yaml")
    words = sorted({str(w).casefold() for ws in data["placeholder_words"].values() for w in ws})
    latin = [re.escape(w) for w in words if all(ord(ch) < 0x2E80 for ch in w)]
    cjk = [re.escape(w) for w in words if any(ord(ch) >= 0x2E80 for ch in w)]
    # A Latin word starts at a word boundary (its inflections and compounds follow it).
    return re.compile(r"(?<![^\W\d_])(?:" + "|".join(latin) + r")|" + "|".join(cjk))
