"""Where a LangGraph store namespace puts the user, and the record path and key it maps to.

A namespace is a path plus, somewhere or nowhere, the user's label. The user label is dropped
from the stored path (the record's scope already says whose it is) and its position is kept in
the record's dedupe key, so ``("memories", "u1")`` and ``("u1", "memories")`` are two distinct
namespaces of ``u1`` that both round-trip and list as written:

====================  ========  ==========================  ==========================
namespace (user u1)   path      dedupe key of key ``k``     comes back as
====================  ========  ==========================  ==========================
``("u1", "prefs")``   prefs     ``store:prefs#k``           ``("u1", "prefs")``
``("memories","u1")`` memories  ``store:memories@1#k``      ``("memories", "u1")``
``("filesystem",)``   filesystem ``store:filesystem@#k``    ``("filesystem",)``
====================  ========  ==========================  ==========================

The user-first form has no marker, so items written by the 0.x ``UserloreStore(lore)`` (whose
label 0 was the scope) read back unchanged. Paths are ``[\\w.-]`` segments, so ``@`` and the
first ``#`` split the key unambiguously.

Every label LangGraph accepts (any string without ``.`` or NUL: spaces, ``%``, ``*``, a trailing
newline...) is a path segment once encoded (:func:`encode_label`): a label of word characters
and ``-`` is stored as is (so every earlier item reads back unchanged), any other becomes
``-.`` followed by its word characters and a ``.XX`` escape per UTF-8 byte of the rest. A raw
label never holds ``.``, so the ``-.`` marker cannot be mistaken for one. The user label is not
encoded: it is a scope, validated (``ScopeError``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from langgraph.store.base import InvalidNamespaceError

from userlore.errors import InvalidInputError

__all__ = [
    "STORE_KEY_PREFIX",
    "Location",
    "NamespaceTemplate",
    "decode_label",
    "encode_label",
    "namespace_for",
    "parse_store_key",
]

STORE_KEY_PREFIX = "store:"
_PLACEHOLDER = re.compile(r"^\{[A-Za-z_][A-Za-z0-9_]*\}$")
_RAW_LABEL = re.compile(r"[\w-]+")
_WORD = re.compile(r"\w")
_ESCAPE = re.compile(r"\.([0-9A-F]{2})")
_ENCODED = "-."


def encode_label(label: str) -> str:
    """``label`` as a path segment (itself when it is word characters and ``-`` only)."""
    if _RAW_LABEL.fullmatch(label):
        return label
    body = "".join(
        ch if _WORD.fullmatch(ch) else "".join(f".{b:02X}" for b in ch.encode("utf-8"))
        for ch in label
    )
    return _ENCODED + body


def decode_label(segment: str) -> str:
    """The label a path segment holds (inverse of :func:`encode_label`)."""
    if not segment.startswith(_ENCODED):
        return segment
    body = segment[len(_ENCODED) :]
    raw = bytearray()
    pos = 0
    for match in _ESCAPE.finditer(body):
        raw += body[pos : match.start()].encode("utf-8")
        raw.append(int(match.group(1), 16))
        pos = match.end()
    raw += body[pos:].encode("utf-8")
    return raw.decode("utf-8", errors="replace")


@dataclass(frozen=True, slots=True)
class Location:
    """A namespace resolved: whose it is, the stored path, and where the user label sat."""

    scope: str
    path: str
    position: int | None  # index of the user label in the namespace; None: no user label

    def store_key(self, key: str) -> str:
        """The dedupe key of ``key`` in this namespace."""
        marker = "" if self.position == 0 else f"@{'' if self.position is None else self.position}"
        return f"{STORE_KEY_PREFIX}{self.path}{marker}#{key}"


def locate(namespace: Sequence[str], scope: str, position: int | None) -> Location:
    """The location of ``namespace`` for ``scope`` with its user label at ``position``."""
    labels = [encode_label(label) for i, label in enumerate(namespace) if i != position]
    return Location(scope, "/".join(labels), position)


def parse_store_key(canonical_key: str | None) -> tuple[int | None, str] | None:
    """``(user label position, key)`` of a store dedupe key; ``None`` for other records."""
    if not canonical_key or not canonical_key.startswith(STORE_KEY_PREFIX):
        return None
    head, _, key = canonical_key[len(STORE_KEY_PREFIX) :].partition("#")
    _, at, mark = head.partition("@")
    if not at:
        return 0, key
    return (int(mark) if mark.isdigit() else None), key


def namespace_for(
    scope: str, path: str, position: int | None, *, decode: bool = True
) -> tuple[str, ...]:
    """The namespace a record of ``scope`` at ``path`` appears under.

    ``decode`` is for store items only: other producers' paths were never encoded.
    """
    labels = [decode_label(p) if decode else p for p in path.split("/") if p]
    if position is not None:
        labels.insert(min(position, len(labels)), scope)
    return tuple(labels)


@dataclass(frozen=True, slots=True)
class NamespaceTemplate:
    """Which namespace label is the user, e.g. ``("memories", "{user_id}")`` (LangMem's style).

    Attributes:
        labels: The template; exactly one label is a ``{placeholder}``.
        position: Index of the placeholder.
    """

    labels: tuple[str, ...]
    position: int

    @classmethod
    def parse(cls, template: Sequence[str]) -> NamespaceTemplate:
        """Check a template: labels are non-empty strings, exactly one is a placeholder.

        Raises:
            InvalidInputError: not a sequence of labels with exactly one ``{placeholder}``.
        """
        if isinstance(template, str) or not all(isinstance(x, str) and x for x in template):
            raise InvalidInputError("namespace_template must be a tuple of non-empty labels")
        labels = tuple(template)
        holes = [i for i, label in enumerate(labels) if _PLACEHOLDER.match(label)]
        if len(holes) != 1:
            raise InvalidInputError(
                "namespace_template needs exactly one user placeholder such as '{user_id}', "
                f"got {labels!r}"
            )
        for i, label in enumerate(labels):
            if i != holes[0] and ("." in label or "{" in label or label == "*"):
                raise InvalidInputError(f"invalid namespace_template label {label!r}")
        return cls(labels, holes[0])

    def user_in(self, namespace: Sequence[str]) -> str | None:
        """The user label of ``namespace`` (or a prefix reaching it); ``None`` if it does not fit.

        A namespace fits when it is long enough to hold the placeholder and every fixed label
        it reaches matches.
        """
        if len(namespace) <= self.position:
            return None
        for i, (want, got) in enumerate(zip(self.labels, namespace, strict=False)):
            if i != self.position and want != got:
                return None
        label = namespace[self.position]
        if label == "*":
            raise InvalidNamespaceError("the user label of a namespace cannot be a wildcard")
        return label
