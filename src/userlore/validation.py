"""Input validation for every public entry point.

Each check returns the value (coerced where it says so) or raises an
:class:`~userlore.errors.InvalidInputError` (or :class:`~userlore.errors.ScopeError`) whose
message starts with the field name, so a caller reading only the message knows which argument to
fix. Entry points run these checks before they open a transaction: a refused call writes nothing.

Text is checked for what neither backend can store — NUL characters (PostgreSQL refuses them)
and unpaired surrogates (not encodable as UTF-8) — so a bad character is a typed error at the
edge instead of a driver exception deep inside a write. Messages never repeat free text (it may
hold a secret); short enum-like values are echoed to help with typos.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from datetime import datetime
from enum import Enum
from typing import Any, TypeVar, cast

from userlore.errors import InvalidInputError, ScopeError

__all__ = [
    "BLANK_CHARS",
    "CONTROL_CHARS",
    "IDENTIFIER_PATTERN",
    "MAX_ID_CHARS",
    "MAX_KEY_CHARS",
    "MAX_NAME_CHARS",
    "MAX_PATH_CHARS",
    "NON_BLANK_PATTERN",
    "PATH_PATTERN",
    "PATH_PREFIX_PATTERN",
    "SCOPE_PATTERN",
    "bounded",
    "enum_field",
    "enum_list",
    "identifier",
    "instant",
    "int_field",
    "json_depth_exceeds",
    "json_values_exceed",
    "mapping_field",
    "optional_identifier",
    "optional_instant",
    "optional_text",
    "scrubbed",
    "storable",
    "text_field",
    "unit_interval",
    "validate_path",
    "validate_scope",
]

E = TypeVar("E", bound=Enum)

MAX_ID_CHARS = 200
"""Default bound of an identifier (record id, turn id, author fields)."""

MAX_KEY_CHARS = 300
"""Bound of a session key and a source instance id."""

MAX_NAME_CHARS = 40
"""Bound of a short name used as a filter (a record ``kind``, a trace ``event_type``)."""

MAX_PATH_CHARS = 500
"""Bound of a logical path (and of a path prefix once its slashes are stripped)."""

# The rules below are regex sources the checks compile and the HTTP gateway states in its
# OpenAPI schema, so both say the same thing. They are written to read alike in Python ``re``,
# ECMA-262 (JSON Schema) and Rust ``regex`` (pydantic): explicit classes and ``\x``/``\u``
# escapes only, no ``\s``, ``\d`` or look-arounds. The one exception is ``\w`` in a path,
# which Python reads over Unicode and JSON Schema over ASCII; the gateway states and enforces
# the ASCII reading (a subset), see ``userlore.server.schemas``.

CONTROL_CHARS = r"\x00-\x1f\x7f-\x9f"
"""Control characters (C0, DEL, C1), as the body of a regex character class."""

BLANK_CHARS = r"\x09-\x0d\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
"""Exactly the characters ``str.isspace`` (so ``str.strip``) treats as blank, as a class body."""

NON_BLANK_PATTERN = f"[^{BLANK_CHARS}]"
"""Searched for (JSON Schema patterns are searches): a text that is not empty or blank."""

IDENTIFIER_PATTERN = f"^[^{CONTROL_CHARS}]*[^{CONTROL_CHARS}{BLANK_CHARS}][^{CONTROL_CHARS}]*$"
"""What :func:`identifier` accepts, length aside: one line, no control character, not blank."""

SCOPE_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.:@/+-]{0,199}$"
"""What :func:`validate_scope` accepts."""

PATH_PATTERN = r"^(?:[\w-][\w.-]*(?:/[\w-][\w.-]*)*)?$"
"""What :func:`validate_path` accepts (``projects/x/decisions`` or empty), length aside."""

PATH_PREFIX_PATTERN = r"^/*(?:[\w-][\w.-]*(?:/[\w-][\w.-]*)*)?/*$"
"""A path filter: :data:`PATH_PATTERN` with surrounding slashes ignored (what is validated)."""

_SCOPE = re.compile(SCOPE_PATTERN)
_PATH = re.compile(PATH_PATTERN)
_CONTROL = re.compile(f"[{CONTROL_CHARS}]")
_ECHO_CHARS = 32


def _type_name(value: object) -> str:
    return "bytes" if isinstance(value, (bytes, bytearray, memoryview)) else type(value).__name__


def _shown(value: object) -> str:
    """A short value for a message; long strings (possibly secrets) are described, not shown."""
    if isinstance(value, str) and len(value) > _ECHO_CHARS:
        return f"a {len(value)}-character string"
    return repr(value)


def _require_str(value: object, field: str) -> str:
    if not isinstance(value, str):
        raise InvalidInputError(f"{field} must be str, not {_type_name(value)}")
    return value


def _storable(value: str, field: str) -> str:
    """Refuse what no backend stores: NUL characters and unpaired surrogates."""
    if "\x00" in value:
        raise InvalidInputError(f"{field} must not contain NUL characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidInputError(
            f"{field} contains an unpaired surrogate at position {exc.start}"
        ) from None
    return value


def storable(value: str) -> bool:
    """Whether every backend can store ``value``: the rule of :func:`_storable`, as a test."""
    try:
        _storable(value, "value")
    except InvalidInputError:
        return False
    return True


def scrubbed(value: str) -> str:
    """``value`` without the characters no backend stores, for read-only uses such as a query."""
    if storable(value):
        return value
    return value.replace("\x00", "").encode("utf-8", "ignore").decode("utf-8")


def text_field(
    value: object, field: str, *, max_chars: int | None, allow_empty: bool = False
) -> str:
    """Free text (content, a query): ``str``, storable, within ``max_chars``.

    Raises:
        InvalidInputError: not ``str`` (bytes included), blank unless ``allow_empty``, longer
            than ``max_chars``, or holding a NUL character or an unpaired surrogate.
    """
    text = _require_str(value, field)
    if not allow_empty and not text.strip():
        raise InvalidInputError(f"{field} must not be empty")
    if max_chars is not None and len(text) > max_chars:
        raise InvalidInputError(f"{field} is {len(text)} characters; the limit is {max_chars}")
    return _storable(text, field)


def optional_text(value: object, field: str, *, max_chars: int | None) -> str | None:
    """:func:`text_field` that also accepts ``None`` and blank text."""
    if value is None:
        return None
    return text_field(value, field, max_chars=max_chars, allow_empty=True)


def identifier(value: object, field: str, *, max_chars: int = MAX_ID_CHARS) -> str:
    """An id or key (``turn_id``, a record id, a session key): a non-empty one-line ``str``.

    Raises:
        InvalidInputError: not ``str`` (``turn_id=12345`` included), blank, too long, or with
            control characters or unpaired surrogates.
    """
    text = _require_str(value, field)
    if not text.strip():
        raise InvalidInputError(f"{field} must not be empty")
    if len(text) > max_chars:
        raise InvalidInputError(f"{field} is longer than {max_chars} characters")
    if _CONTROL.search(text):
        raise InvalidInputError(f"{field} must not contain control characters")
    return _storable(text, field)


def optional_identifier(value: object, field: str, *, max_chars: int = MAX_ID_CHARS) -> str | None:
    """:func:`identifier` that also accepts ``None``."""
    return None if value is None else identifier(value, field, max_chars=max_chars)


def bounded(name: str, value: object, limit: int) -> str | None:
    """A storable ``str`` (or ``None``) of at most ``limit`` characters.

    Refuses an over-long value instead of letting a backend truncate or fail on it.

    Raises:
        InvalidInputError: not ``str``, too long, or not storable.
    """
    if value is None:
        return None
    text = _require_str(value, name)
    if len(text) > limit:
        raise InvalidInputError(f"{name} is longer than {limit} characters")
    return _storable(text, name)


def enum_field(enum_type: type[E], value: object, field: str) -> E:
    """The enum member for ``value`` (a member or its string value).

    Raises:
        InvalidInputError: anything else; the message lists the allowed values.
    """
    if isinstance(value, enum_type):
        return value
    if isinstance(value, str):
        # The lookup ``enum_type(value)`` makes first, without its call (~0.4 µs a field,
        # several fields a put on a bulk write).
        member = enum_type._value2member_map_.get(value)
        if member is not None:
            return cast(E, member)
        try:
            return enum_type(value)
        except ValueError:
            pass
    allowed = ", ".join(str(m.value) for m in enum_type)
    raise InvalidInputError(f"{field} must be one of {allowed}; got {_shown(value)}")


def enum_list(enum_type: type[E], value: object, field: str) -> tuple[E, ...]:
    """One member or a sequence of members (or their string values)."""
    if isinstance(value, (str, enum_type)):
        return (enum_field(enum_type, value, field),)
    if not isinstance(value, (list, tuple, set, frozenset)):
        raise InvalidInputError(f"{field} must be a {enum_type.__name__} or a list of them")
    return tuple(enum_field(enum_type, v, field) for v in value)


def int_field(value: object, field: str, *, lo: int, hi: int) -> int:
    """An ``int`` (not ``bool``) within ``[lo, hi]``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInputError(f"{field} must be an integer, not {_type_name(value)}")
    if not lo <= value <= hi:
        raise InvalidInputError(f"{field} must be from {lo} to {hi}, got {value}")
    return value


def unit_interval(value: object, field: str) -> float:
    """A finite number within ``[0, 1]`` (confidence, importance)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidInputError(f"{field} must be a number, not {_type_name(value)}")
    number = float(value)
    if math.isnan(number) or not 0.0 <= number <= 1.0:
        raise InvalidInputError(f"{field} must be within [0, 1], got {value}")
    return number


def instant(value: object, field: str) -> datetime:
    """A timezone-aware ``datetime`` (a naive one is ambiguous across hosts)."""
    if not isinstance(value, datetime):
        raise InvalidInputError(f"{field} must be a datetime, not {_type_name(value)}")
    if value.tzinfo is None or value.utcoffset() is None:
        raise InvalidInputError(f"{field} must be timezone-aware")
    return value


def optional_instant(value: object, field: str) -> datetime | None:
    """:func:`instant` that also accepts ``None``."""
    return None if value is None else instant(value, field)


def mapping_field(value: object, field: str) -> Mapping[str, Any]:
    """A mapping (a JSON object), not a list, string or number."""
    if not isinstance(value, Mapping):
        raise InvalidInputError(
            f"{field} must be a JSON object (a mapping), not {_type_name(value)}"
        )
    return value


def validate_scope(scope: object) -> str:
    """Return ``scope`` if it is a well-formed scope key.

    Raises:
        ScopeError: not ``str``, empty, too long, or with characters outside
            ``[A-Za-z0-9_.:@/+-]``.
    """
    if not isinstance(scope, str) or not _SCOPE.fullmatch(scope):
        raise ScopeError(
            f"invalid scope {_shown(scope)}: use 1-200 characters from A-Z a-z 0-9 _ . : @ / + -"
        )
    return scope


def validate_path(path: object, field: str = "path") -> str:
    """Return ``path`` if it is a well-formed logical path (``projects/x/decisions``) or empty.

    Raises:
        InvalidInputError: not ``str``, too long, or with empty or malformed segments.
    """
    if not isinstance(path, str) or len(path) > MAX_PATH_CHARS or not _PATH.fullmatch(path):
        raise InvalidInputError(
            f"invalid {field} {_shown(path)}: use segments like projects/x/decisions"
        )
    return path


_BRACKETS = bytes.maketrans(b"[]{}", b"()()")
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def json_depth_exceeds(body: bytes, limit: int) -> bool:
    """Whether ``body`` nests arrays/objects deeper than ``limit``, without parsing it.

    Linear C-speed passes only (no per-byte Python loop), so a hostile body costs little: string
    contents are cut out, the brackets kept, and each pass removes every innermost ``()`` pair,
    which lowers the nesting by exactly one.
    """
    if body.count(b"[") + body.count(b"{") <= limit:
        return False
    brackets = _outside_strings(body).translate(_BRACKETS, _NOT_BRACKETS)
    for _ in range(limit):
        if len(brackets) <= 2 * (limit - _):  # what is left cannot nest deeper than the rest
            return False
        brackets = brackets.replace(b"()", b"")
    return b"(" in brackets


def json_values_exceed(body: bytes, limit: int) -> bool:
    """Whether parsing ``body`` could create more than ``limit`` values (and keys), unparsed.

    Every array element but the first follows a comma, every member value a colon, and every
    first element or member opens a bracket; so values ≤ 1 + 2·brackets + commas + colons,
    counted outside strings at C speed. Bounding it bounds the parser's memory, whatever the
    body's shape (a 10 MiB body of ``[],`` would be 3.5 million lists).
    """

    def bound(text: bytes) -> int:
        brackets = text.count(b"[") + text.count(b"{")
        return 1 + 2 * brackets + text.count(b",") + text.count(b":")

    return bound(body) > limit and bound(_outside_strings(body)) > limit


_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')


def _outside_strings(body: bytes) -> bytes:
    """``body`` with every JSON string (quotes and contents) cut out."""
    return _STRING.sub(b"", body)
