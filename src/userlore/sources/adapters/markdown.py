"""A folder of Markdown or text notes (an Obsidian-style vault) as a connected source.

One item per file, keyed by its path relative to the vault. YAML front matter gives the title,
date and tags; otherwise the first ``# heading`` or the file name is the title and the file's
modification time its date. Wiki links (``[[Note|alias]]``) become plain text; embeds, HTML
comments and hidden folders (``.obsidian``, ``.git``, ``.trash``) are left out.

The cursor remembers each file's size and modification time, so a re-sync reads only files that
changed and reports the ones that disappeared.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Sequence
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import yaml  # type: ignore[import-untyped]

from userlore.errors import InvalidInputError
from userlore.models import Pipeline
from userlore.sources.adapters._files import existing_path, fingerprint, load_cursor
from userlore.sources.base import MetaValue, PullResult, SourceItem

__all__ = ["MarkdownVaultAdapter"]

_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?)\n(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.S)
_HEADING = re.compile(r"^#[ \t]+(.+?)[ \t]*#*[ \t]*$", re.M)
_EMBED = re.compile(r"!\[\[[^\]\n]*\]\]")
_WIKI = re.compile(r"\[\[([^\]|\n]+)(?:\|([^\]\n]+))?\]\]")
_COMMENT = re.compile(r"<!--.*?-->|%%.*?%%", re.S)
_DATE_KEYS = ("date", "created", "updated", "modified")
MAX_FILE_BYTES = 2_000_000
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when available: 10x faster


def _as_datetime(value: Any) -> datetime | None:
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day, tzinfo=UTC)
    if isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            return None
        return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
    return None


def _words(value: Any) -> str | None:
    if isinstance(value, str):
        return value.strip() or None
    if isinstance(value, list | tuple):
        parts = [str(v).strip() for v in value if isinstance(v, str | int | float) and str(v)]
        return ", ".join(parts) or None
    return None


class MarkdownVaultAdapter:
    """Markdown/text notes under ``root`` (nested folders included).

    Args:
        root: The vault folder.
        source_instance_id: Stable id; defaults to ``markdown:<absolute path>``.
        label: Name shown in daily notes; defaults to the folder name.
        extensions: File suffixes to read.
        pipeline: Where items are routed (connected knowledge by default).

    Raises:
        InvalidInputError: ``root`` is not a folder.
    """

    kind = "markdown"

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        source_instance_id: str | None = None,
        label: str | None = None,
        extensions: Sequence[str] = (".md", ".markdown", ".txt"),
        pipeline: Pipeline = Pipeline.CONNECTED_KNOWLEDGE,
    ) -> None:
        self.root = existing_path(root, what="vault folder")
        if not self.root.is_dir():
            raise InvalidInputError(f"not a folder: {self.root}")
        self.source_instance_id = source_instance_id or f"markdown:{self.root}"
        self.label = label or self.root.name
        self.extensions = tuple(e.lower() for e in extensions)
        self.pipeline = pipeline

    def _scan(self) -> dict[str, Path]:
        found: dict[str, Path] = {}
        root = str(self.root)
        for folder, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            rel_folder = os.path.relpath(folder, root).replace(os.sep, "/")
            for name in sorted(files):
                if name.startswith(".") or not name.lower().endswith(self.extensions):
                    continue
                rel = name if rel_folder == "." else f"{rel_folder}/{name}"
                found[rel] = Path(folder, name)
        return found

    def pull(self, cursor: str | None) -> PullResult:
        previous = load_cursor(cursor)
        before: dict[str, str] = dict(previous["files"]) if previous else {}
        files = self._scan()
        prints: dict[str, str] = {}
        changed: list[str] = []
        for rel, path in files.items():
            try:
                prints[rel] = fingerprint(path)
            except OSError:
                continue
            if previous is None or before.get(rel) != prints[rel]:
                changed.append(rel)
        result = PullResult(items=(), complete=previous is None, total=len(changed))
        if previous is not None:
            result.deleted.extend(rel for rel in before if rel not in prints)
        result.items = self._read_all(changed, files, prints, before, result)
        return result

    def _read_all(
        self,
        changed: list[str],
        files: dict[str, Path],
        prints: dict[str, str],
        before: dict[str, str],
        result: PullResult,
    ) -> Iterator[SourceItem]:
        kept = {rel: fp for rel, fp in prints.items() if rel not in changed}
        for rel in changed:
            try:
                item = self._read(rel, files[rel], result)
            except (OSError, UnicodeDecodeError) as exc:
                result.warnings.append(f"cannot read {rel}: {type(exc).__name__}")
                result.unreadable.append(rel)
                if rel in before:
                    kept[rel] = before[rel]
                continue
            kept[rel] = prints[rel]
            if item is None:
                result.deleted.append(rel)  # nothing left to say: same as gone
                continue
            yield item
        result.cursor = json.dumps({"v": 1, "files": kept}, separators=(",", ":"))

    def _read(self, rel: str, path: Path, result: PullResult) -> SourceItem | None:
        if path.stat().st_size > MAX_FILE_BYTES:
            result.warnings.append(f"{rel} is larger than {MAX_FILE_BYTES} bytes; read its start")
        with path.open("rb") as fh:
            raw = fh.read(MAX_FILE_BYTES).decode("utf-8", errors="replace")
        front: dict[str, Any] = {}
        body = raw.lstrip("\ufeff")
        match = _FRONT_MATTER.match(body)
        if match:
            try:
                loaded = yaml.load(match.group(1), Loader=_YAML_LOADER)
            except yaml.YAMLError:
                loaded = None
                result.warnings.append(f"{rel}: front matter is not valid YAML")
            front = loaded if isinstance(loaded, dict) else {}
            body = body[match.end() :]
        body = _COMMENT.sub("", body)
        body = _EMBED.sub("", body)
        body = _WIKI.sub(lambda m: (m.group(2) or m.group(1)).strip(), body).strip()
        if not body.strip():
            return None
        heading = _HEADING.search(body)
        title = (
            _words(front.get("title"))
            or (heading.group(1).strip() if heading else None)
            or path.stem
        )
        occurred = next(
            (d for d in (_as_datetime(front.get(k)) for k in _DATE_KEYS) if d is not None),
            None,
        ) or datetime.fromtimestamp(path.stat().st_mtime, tz=UTC)
        meta: dict[str, MetaValue] = {"path": rel}
        folder = Path(rel).parent.as_posix()
        if folder != ".":
            meta["folder"] = folder
        for key in ("tags", "aliases", "author", "status", "type"):
            value = _words(front.get(key))
            if value:
                meta[key] = value
        return SourceItem(
            external_id=rel,
            text=body,
            title=title,
            occurred_at=occurred,
            meta=meta,
            pipeline=self.pipeline,
        )
