"""Shared detector helpers: placeholder and dummy values, entropy, hash-like strings."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from typing import Final

from userlore.policy import cue_view
from userlore.policy.detectors.placeholder_values import says_what_goes_there
from userlore.policy.findings import _BLOCKING, SensitivityLevel

# --------------------------------------------------------------------------------------------
# Text preparation. Detection runs on the folded view of ``policy.normalize`` (the text the model
# reads, lookalikes folded to ASCII, separators to ASCII), so "pаssword" with a Cyrillic а, a key
# split by U+200B or an SSN written with en dashes is still seen; spans are mapped back to the
# caller's text.
# --------------------------------------------------------------------------------------------

# --------------------------------------------------------------------------------------------
# Shared helpers
# --------------------------------------------------------------------------------------------

_Hit = tuple[SensitivityLevel, str, int, int, str | None]

_YEAR = re.compile(r"(?:19|20)\d\d")
_ASCII_DIGITS: Final = cue_view.register("0123456789")
_DECIMAL = re.compile(r"\d")


def has_digit(t: str) -> bool:
    """``any(ch.isdigit() for ch in t)``, the gate many detectors ask of the same text: an ASCII
    digit in the text's shared scan (:mod:`userlore.policy.cue_view`) answers at once, and only
    a non-ASCII text without one is read character by character (``str.isdigit`` also takes
    native, full-width and superscript digits)."""
    if not _ASCII_DIGITS.isdisjoint(cue_view.found(t)):
        return True
    return not t.isascii() and any(map(str.isdigit, t))


def blanked(m: re.Match[str]) -> str:
    """``m`` as spaces of its length: ``pattern.sub(blanked, text)`` takes a span out of a
    reading while every other span still points into the text."""
    return " " * len(m.group(0))


def blank_spans(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """``text`` with each of ``spans`` (in any order, overlapping or not) as spaces of its
    length: taken out of a reading, every other offset still points into the text."""
    chars: list[str] | None = None
    for s, e in spans:
        if chars is None:
            chars = list(text)
        chars[s:e] = " " * (e - s)
    return text if chars is None else "".join(chars)


def overlaps(spans: Iterable[tuple[int, int]], start: int, end: int) -> bool:
    """Whether ``[start, end)`` shares a character with any of ``spans`` (a value a rule
    before has named, a span a rule has taken)."""
    return any(s < end and start < e for s, e in spans)


def named_spans(hits: Iterable[_Hit]) -> list[tuple[int, int]]:
    """The spans of ``hits``' blocking hits: values a rule has named, which a later rule leaves
    as they are (a list, so a caller may append the spans it takes)."""
    return [(h[2], h[3]) for h in hits if h[0] in _BLOCKING]


def unnamed(found: Iterable[_Hit], hits: Iterable[_Hit]) -> list[_Hit]:
    """The hits of ``found`` that overlap no blocking hit of ``hits``: where a rule before
    already names a value, its verdict stands. ``hits`` is read before ``found`` is, so a
    caller may extend ``hits`` with the answer."""
    named = named_spans(hits)
    return [h for h in found if not overlaps(named, h[2], h[3])]


def has_decimal(t: str) -> bool:
    r"""``re.search(r"\d", t) is not None`` (a decimal digit of any script), asked of the same
    text by a dozen rules: the shared scan's ASCII digits, the pattern only on a non-ASCII text
    without one."""
    if not _ASCII_DIGITS.isdisjoint(cue_view.found(t)):
        return True
    return not t.isascii() and _DECIMAL.search(t) is not None


def is_year(run: str) -> bool:
    """A four-digit run that reads as a year of a conversation (1900–2099), which no detector
    takes for a code, a PIN or an amount without more context. One rule for every detector: two
    versions (1800–2099 and 1900–2099) had drifted apart."""
    return _YEAR.fullmatch(run) is not None


_PLACEHOLDER_WORDS = re.compile(  # matched against the lowercased value
    r"(?:your|here|example|placeholder|redacted|dummy|sample|changeme|change_me|insert|"
    r"replace|xxxx|\*\*\*|\.\.\.|…|<|>|\$\{|\{\{|%\(|secret_?key_?here|todo|fixme|lorem"
    # A vendor's prefix with x's for its body: "sk_test_xxx", "ghp_xxx", "sk-proj-XXX" (blind19).
    r"|[_\-.]xxx$)"
)
_DUMMY_VALUES: Final = frozenset(
    {
        "password",
        "passwd",
        "pass",
        "pwd",
        "secret",
        "token",
        "apikey",
        "api_key",
        "api-key",
        "key",
        "none",
        "null",
        "nil",
        "undefined",
        "true",
        "false",
        "test",
        "testing",
        "username",
        "user",
        "admin:admin",
        "foo",
        "bar",
        "foobar",
        "string",
        "str",
    }
)


def _is_placeholder(value: str) -> bool:
    """Obvious stand-ins: ``YOUR_KEY_HERE``, ``sk-...``, ``<token>``, ``${VAR}``, ``xxxx``."""
    v = value.strip("\"'`")
    if not v or v.lower() in _DUMMY_VALUES:
        return True
    if _PLACEHOLDER_WORDS.search(v.lower()):
        return True
    if says_what_goes_there(v.lower()):
        return True  # "你的密钥", "tu_clave_api": the stand-in in another language's words
    if v[0] in "$%[{(<":
        return True
    body = v.split("_", 1)[-1] if len(v) > 8 else v
    if len(body) < 6:
        return False
    most = Counter(body).most_common(1)[0][1]
    return most / len(body) > 0.6


def _entropy(s: str) -> float:
    n = len(s)
    return -sum(c / n * math.log2(c / n) for c in Counter(s).values())


def _char_classes(s: str) -> int:
    return any(c.islower() for c in s) + any(c.isupper() for c in s) + any(c.isdigit() for c in s)


_HEX = re.compile(r"[0-9a-fA-F]+")
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_IDENTIFIER_LIKE = re.compile(
    r"[a-z]+(?:[_\-.][a-z]+)*|[a-z]+(?:[A-Z][a-z]+)+|(?:[A-Z][a-z]+){2,}|[A-Z]+(?:_[A-Z]+)+"
)
_HASH_LENGTHS: Final = frozenset({32, 40, 56, 64, 96, 128})


def _is_hash_like(value: str) -> bool:
    """Hashes, UUIDs and git SHAs are identifiers, not credentials."""
    if _UUID.fullmatch(value):
        return True
    return bool(_HEX.fullmatch(value)) and (len(value) in _HASH_LENGTHS or 7 <= len(value) <= 12)


def _overlaps(start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    return any(s < end and start < e for s, e in spans)
