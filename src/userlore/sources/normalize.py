"""Normalization and bounds applied to every item before it is stored.

Adapters hand over extracted text; this module makes it uniform (Unicode NFC, no control
characters, tidy whitespace), bounds every field, and hashes the result. The hash covers the
normalized item *before* redaction, salted with its identity, so an unchanged item is recognised
without running the sensitivity detectors again: re-syncing costs O(changes).
"""

from __future__ import annotations

import hashlib
import html
import json
import re
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime
from html.parser import HTMLParser
from typing import Any

from userlore.models import Pipeline
from userlore.policy.sensitivity import classify
from userlore.sources.base import MetaValue, SourceItem

__all__ = [
    "MAX_EXTERNAL_ID_CHARS",
    "MAX_ITEM_CHARS",
    "MAX_META_KEYS",
    "MAX_META_VALUE_CHARS",
    "MAX_TITLE_CHARS",
    "NormalizedItem",
    "bound",
    "clean_text",
    "html_to_text",
    "normalize_external_id",
    "normalize_item",
    "one_line",
]

MAX_ITEM_CHARS = 20_000
MAX_TITLE_CHARS = 300
MAX_EXTERNAL_ID_CHARS = 500
MAX_META_KEYS = 16
MAX_META_VALUE_CHARS = 300

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_TRAILING = re.compile(r"[ \t]+\n")
_BLANK_RUN = re.compile(r"\n{3,}")
_META_KEY = re.compile(r"[A-Za-z0-9_.-]{1,64}")


@dataclass(frozen=True, slots=True)
class NormalizedItem:
    """An item ready to compare and store (still unredacted: redaction happens on write)."""

    external_id: str
    title: str | None
    text: str
    meta: dict[str, MetaValue]
    occurred_at: datetime | None
    pipeline: Pipeline
    content_hash: str
    truncated: bool


def clean_text(text: str) -> str:
    """NFC, Unix newlines, no control characters, no trailing spaces, at most one blank line."""
    text = unicodedata.normalize("NFC", text).replace("\r\n", "\n").replace("\r", "\n")
    text = _CONTROL.sub("", text)
    text = _TRAILING.sub("\n", text)
    return _BLANK_RUN.sub("\n\n", text).strip()


def one_line(text: str) -> str:
    """Collapse all whitespace to single spaces."""
    return " ".join(clean_text(text).split())


def bound(text: str, limit: int) -> tuple[str, bool]:
    """Cut ``text`` to at most ``limit`` characters at a word boundary; say whether it was cut."""
    if len(text) <= limit:
        return text, False
    cut = text[: max(1, limit - 1)]
    space = cut.rfind(" ")
    if space > limit * 0.8:
        cut = cut[:space]
    return cut.rstrip() + "…", True


def normalize_external_id(raw: str) -> str | None:
    """The stored form of an external id: one line; hashed when longer than the column, or when
    it holds a secret or regulated value (a URL with ``?token=``): an id is stored as is, so the
    floor cannot redact it without merging distinct ids; its hash keeps it unique and stable."""
    value = one_line(raw) if isinstance(raw, str) else ""
    if not value:
        return None
    if len(value) > MAX_EXTERNAL_ID_CHARS or classify(value).is_blocked:
        return "sha256:" + hashlib.sha256(value.encode("utf-8")).hexdigest()
    return value


def _meta(meta: Any) -> dict[str, MetaValue]:
    out: dict[str, MetaValue] = {}
    if not hasattr(meta, "items"):
        return out
    for key, value in sorted(meta.items(), key=lambda kv: str(kv[0])):
        if len(out) >= MAX_META_KEYS:
            break
        if not isinstance(key, str) or not _META_KEY.fullmatch(key):
            continue
        if value is None or isinstance(value, bool | int | float):
            out[key] = value
        elif isinstance(value, str):
            out[key] = bound(one_line(value), MAX_META_VALUE_CHARS)[0]
    return out


def _utc(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def normalize_item(
    source_instance_id: str, item: SourceItem, *, max_chars: int = MAX_ITEM_CHARS
) -> NormalizedItem | None:
    """Normalize and bound one item; ``None`` when nothing usable is left (no id, no text)."""
    external_id = normalize_external_id(item.external_id)
    if external_id is None or not isinstance(item.text, str):
        return None
    text, truncated = bound(clean_text(item.text), max_chars)
    if not text:
        return None
    title = bound(one_line(item.title), MAX_TITLE_CHARS)[0] if item.title else None
    meta = _meta(item.meta)
    occurred_at = _utc(item.occurred_at)
    pipeline = Pipeline(item.pipeline)
    payload = json.dumps(
        [
            source_instance_id,
            external_id,
            title,
            text,
            meta,
            occurred_at.isoformat() if occurred_at else None,
            pipeline.value,
        ],
        ensure_ascii=False,
        separators=(",", ":"),
    )
    digest = hashlib.sha256(payload.encode("utf-8")).hexdigest()
    return NormalizedItem(
        external_id, title or None, text, meta, occurred_at, pipeline, digest, truncated
    )


class _TextExtractor(HTMLParser):
    _SKIP = frozenset({"script", "style", "head", "title", "noscript", "template"})
    _BLOCK = frozenset(
        {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre"}
    )

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._SKIP:
            self.skipping += 1
        elif tag in self._BLOCK:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self._SKIP and self.skipping:
            self.skipping -= 1
        elif tag in self._BLOCK:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(data)


def html_to_text(markup: str) -> str:
    """Visible text of an HTML fragment (scripts, styles and tags dropped)."""
    parser = _TextExtractor()
    try:
        parser.feed(markup)
        parser.close()
    except (AssertionError, ValueError):  # pragma: no cover - html.parser is lenient
        return clean_text(html.unescape(re.sub(r"<[^>]*>", " ", markup)))
    lines = (" ".join(line.split()) for line in "".join(parser.parts).split("\n"))
    return clean_text("\n".join(lines))
