"""Secrets in forms the other rules skip: one hook for their classes (issue 29).

A wallet's recovery words (``seed_phrases``); a code keyed in or dictated (``keypad_codes``);
a password shaped as word, symbol and digits (``password_tokens``); keys pasted from configs,
vendors' kits and routers' labels (``pasted_keys``); a value written before the cue that
points back at it (``pointed_values``). They run after every other rule: where one
already names a span, its verdict stands.
"""

from __future__ import annotations

from collections.abc import Iterator

from userlore.policy.detectors.common import _Hit, unnamed
from userlore.policy.detectors.password_shapes import password_shapes
from userlore.policy.detectors.pasted_keys import pasted_keys
from userlore.policy.detectors.pointed_values import pointed_values
from userlore.policy.detectors.seed_phrases import seed_phrases
from userlore.policy.detectors.token_phrases import token_phrases
from userlore.policy.detectors.told_codes import told_codes

__all__ = ["secret_forms"]


def secret_forms(t: str, lowered: str, hits: list[_Hit]) -> Iterator[_Hit]:
    """The hits of this module's classes that overlap no blocking hit already found."""
    found = (
        *seed_phrases(t),
        *pasted_keys(t, lowered),
        *told_codes(t, lowered, hits),
        *password_shapes(t, lowered),
        *token_phrases(t, lowered),
        *pointed_values(t, lowered),
    )
    yield from unnamed(found, hits)
