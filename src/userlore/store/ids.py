"""Ids derived from a scope and a key, built so two different inputs never give the same id.

``f"conversation:{scope}:{key}"`` collides as soon as a scope contains ``:`` (scope ``a:b`` with
key ``c`` and scope ``a`` with key ``b:c`` both give ``conversation:a:b:c``), which lets one scope
learn whether another has a turn id and refuse that scope's turns. Every part is percent-escaped
(``%`` and ``:`` only), so the separator cannot occur inside a part. Scopes without ``:`` keep
exactly the id they had before, so existing databases need no rewrite.
"""

from __future__ import annotations

import hashlib

__all__ = ["MAX_DERIVED_ID_CHARS", "derived_id", "escape_part", "scoped_digest"]

MAX_DERIVED_ID_CHARS = 300
"""The width of ``source_instance_id``; longer keys are replaced by their digest."""


def escape_part(part: str) -> str:
    """Escape ``%`` and ``:`` so the part can be joined with ``:`` unambiguously."""
    return part.replace("%", "%25").replace(":", "%3A")


def derived_id(kind: str, scope: str, *keys: str) -> str:
    """``kind:scope:key...`` with every part escaped, e.g. ``conversation:a%3Ab:default``.

    A key that would make the id longer than :data:`MAX_DERIVED_ID_CHARS` is replaced by
    ``sha256-<hex>`` of itself: still unique within the scope, and the scope part is never
    shortened, so ids of different scopes stay apart.
    """
    head = f"{escape_part(kind)}:{escape_part(scope)}"
    tail = [escape_part(k) for k in keys]
    full = ":".join([head, *tail])
    if len(full) <= MAX_DERIVED_ID_CHARS or not keys:
        return full
    digest = hashlib.sha256("\x00".join(keys).encode("utf-8")).hexdigest()
    return f"{head}:sha256-{digest}"


def scoped_digest(scope: str, text: str, length: int = 32) -> str:
    """A content digest that includes the scope (content-addressed ids never cross scopes)."""
    payload = f"{len(scope)}:{scope}\x00{text}".encode()
    return hashlib.sha256(payload).hexdigest()[:length]
