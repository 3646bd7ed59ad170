"""Another spelling of a secret in the same turn: a correction or a variant.

"pasahitza ez da Txakolina1, Txakolina_91 baizik" (blind11, issue 29): the rules redact the
credential-shaped "Txakolina_91" and keep "Txakolina1", the password the user had given before,
one letter-and-digit word no rule reads as a secret by its shape. In any language, a token that
begins with the same word of :data:`MIN_STEM` letters or more as a secret the floor found, and
holds a digit, is that secret's variant: redacted with it ("Kartal7" beside "Kartal!77").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Final

from userlore.policy.detectors.common import has_digit

__all__ = ["password_variants"]

RULE: Final = "password_variant"
MIN_STEM: Final = 4
_STEM = re.compile(rf"[^\W\d_]{{{MIN_STEM},}}")
_TOKEN = re.compile(r"[^\s\"'`“”«»()\[\]{}<>,;]+")
_EDGES = ".,;:!?"


def password_variants(text: str, secrets: Iterable[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """Spans of tokens in ``text`` that vary a secret at one of the ``secrets`` spans."""
    spans = list(secrets)
    stems = set()
    for start, end in spans:
        value = text[start:end]
        m = _STEM.match(value)
        if m is not None and has_digit(value):
            stems.add(m.group(0))
    if not stems:
        return
    for tok in _TOKEN.finditer(text):
        word = tok.group(0).rstrip(_EDGES)
        start, end = tok.start(), tok.start() + len(word)
        if any(s < end and start < e for s, e in spans):
            continue
        m = _STEM.match(word)
        if m is not None and m.group(0) in stems and has_digit(word):
            yield start, end
