"""Shared detector helpers: placeholder and dummy values, entropy, hash-like strings."""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import Final

from userlore.policy.detectors.placeholder_values import says_what_goes_there
from userlore.policy.findings import SensitivityLevel

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
_ASCII_DIGIT = re.compile(r"[0-9]")


def has_digit(t: str) -> bool:
    """``any(ch.isdigit() for ch in t)``, the gate many detectors ask of the same text: an ASCII
    digit answers at once, and only a non-ASCII text without one is read character by
    character (``str.isdigit`` also takes native, full-width and superscript digits)."""
    if _ASCII_DIGIT.search(t) is not None:
        return True
    return not t.isascii() and any(map(str.isdigit, t))


def is_year(run: str) -> bool:
    """A four-digit run that reads as a year of a conversation (1900–2099), which no detector
    takes for a code, a PIN or an amount without more context. One rule for every detector: two
    versions (1800–2099 and 1900–2099) had drifted apart."""
    return _YEAR.fullmatch(run) is not None


_PLACEHOLDER_WORDS = re.compile(  # matched against the lowercased value
    r"(?:your|here|example|placeholder|redacted|dummy|sample|changeme|change_me|insert|"
    r"replace|xxxx|\*\*\*|\.\.\.|…|<|>|\$\{|\{\{|%\(|secret_?key_?here|todo|fixme|lorem)"
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
