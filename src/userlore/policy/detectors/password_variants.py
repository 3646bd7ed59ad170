"""Another spelling of a secret in the same turn: a correction or a variant.

"pasahitza ez da Txakolina1, Txakolina_91 baizik" (blind11, issue 29): the rules redact the
credential-shaped "Txakolina_91" and keep "Txakolina1", the password the user had given before,
one letter-and-digit word no rule reads as a secret by its shape. In any language, a token that
begins with the same word of :data:`MIN_STEM` letters or more as a secret the floor found, and
holds a digit, is that secret's variant: redacted with it ("Kartal7" beside "Kartal!77").

The same secret said again in another grouping (blind24, issue 29: "set it to 0-7-3-9 … now it
won't open at 0739 either"): once one form is found, every run of the turn whose characters are
the same once separators, width and case are folded ("0739", "0 7 3 9", "０７３９",
"tulip88sky" for "Tulip-88-Sky") is the same value (:func:`restated_values`); a view that reads
number words as digits finds "zero seven three nine" the same way. Three digits or more, or six
characters with a digit: "12" said twice is no code.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from typing import Final

from userlore.policy.detectors.common import has_digit

__all__ = ["RESTATED_RULE", "password_variants", "restated_keys", "restated_values"]

RULE: Final = "password_variant"
MIN_STEM: Final = 4
_STEM = re.compile(rf"[^\W\d_]{{{MIN_STEM},}}")
_TOKEN = re.compile(r"[^\s\"'`“”«»()\[\]{}<>,;]+")
_EDGES = ".,;:!?"
RESTATED_RULE: Final = "restated_value"
_FOLDED_SEPARATORS = re.compile(r"[\s\-./·・_,'’]")
# A run of digits with single separators, or a token of letters and digits with separators.
# CJK text glues words to a number ("ATMで8204と"): only a Latin letter or a digit bounds it.
_DIGIT_RUN = re.compile(r"(?<![A-Za-zÀ-ɏ\d])\d(?:[ \-./·・]?\d)*(?![A-Za-zÀ-ɏ\d])")
_MIN_DIGITS: Final = 3
_MIN_MIXED: Final = 6


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


def _compact(value: str) -> str:
    return _FOLDED_SEPARATORS.sub("", unicodedata.normalize("NFKC", value)).casefold()


def restated_keys(values: Iterable[str]) -> frozenset[str]:
    """The folded forms of secret ``values`` another form of which is the same secret: all
    digits, three or more; or letters and digits, six characters or more."""
    keys = set()
    for value in values:
        key = _compact(value)
        if not key.isalnum():
            continue
        digits = sum(c.isdigit() for c in key)
        if (key.isdigit() and digits >= _MIN_DIGITS) or (digits and len(key) >= _MIN_MIXED):
            keys.add(key)
    return frozenset(keys)


def restated_values(text: str, keys: frozenset[str]) -> Iterator[tuple[int, int]]:
    """Spans of runs of ``text`` that fold to one of ``keys`` (see the module docstring)."""
    if not keys:
        return
    if any(k.isdigit() for k in keys):
        for run in _DIGIT_RUN.finditer(text):
            if _compact(run.group(0)) in keys:
                yield run.span()
    if any(not k.isdigit() for k in keys):
        for tok in _TOKEN.finditer(text):
            word = tok.group(0).rstrip(_EDGES)
            if _compact(word) in keys:
                yield tok.start(), tok.start() + len(word)
