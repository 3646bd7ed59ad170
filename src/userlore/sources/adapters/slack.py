"""A Slack workspace export (the ``.zip`` Slack produces, or its unzipped folder).

The export holds ``users.json``, ``channels.json`` (and ``groups.json``, ``mpims.json``,
``dms.json`` for private conversations) and one folder per conversation with a JSON file per
day (``general/2024-03-01.json``) listing its messages. One item per message, keyed by
``<channel id>/<ts>``; the text reads ``<user> in #<channel>: <message>`` with user and channel
mentions resolved, links reduced to their labels and Slack's escapes undone. Joins, leaves and
topic changes are skipped; an edited message is a modified item, a message missing from a newer
export is a deleted one.

The cursor is a fingerprint of the export's files: an untouched export costs a few ``stat``s.
"""

from __future__ import annotations

import json
import os
import re
import zipfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any

from userlore.errors import InvalidInputError
from userlore.models import Pipeline
from userlore.sources.adapters._files import (
    existing_path,
    fingerprint,
    load_cursor,
    tree_fingerprint,
)
from userlore.sources.base import MetaValue, PullResult, SourceItem

__all__ = ["SlackExportAdapter"]

_CONVERSATION_FILES = ("channels.json", "groups.json", "mpims.json", "dms.json")
_SKIP_SUBTYPES = frozenset(
    {
        "channel_join",
        "channel_leave",
        "channel_topic",
        "channel_purpose",
        "channel_name",
        "channel_archive",
        "channel_unarchive",
        "group_join",
        "group_leave",
        "group_topic",
        "group_purpose",
        "group_name",
        "pinned_item",
        "unpinned_item",
        "bot_add",
        "bot_remove",
    }
)
_DAY_FILE = re.compile(r"^\d{4}-\d{2}-\d{2}\.json$")
_USER_MENTION = re.compile(r"<@([UW][A-Z0-9]+)(?:\|([^>]+))?>")
_CHANNEL_MENTION = re.compile(r"<#([CG][A-Z0-9]+)(?:\|([^>]*))?>")
_SPECIAL = re.compile(r"<!(here|channel|everyone)(?:\|[^>]*)?>")
_SUBTEAM = re.compile(r"<!subteam\^[A-Z0-9]+(?:\|([^>]+))?>")
_LINK = re.compile(r"<((?:https?|mailto):[^|>]+)(?:\|([^>]+))?>")


class _Export:
    """Uniform read access to a zip file or a folder."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.zip: zipfile.ZipFile | None = zipfile.ZipFile(path) if path.is_file() else None
        if self.zip is not None:
            self.names = [n for n in self.zip.namelist() if not n.endswith("/")]
        else:
            self.names = sorted(
                p.relative_to(path).as_posix() for p in path.rglob("*.json") if p.is_file()
            )
        # Some exports nest everything under one top folder.
        tops = {n.split("/", 1)[0] for n in self.names if "/" in n}
        roots = {n for n in self.names if "/" not in n}
        self.prefix = ""
        if not roots & set(_CONVERSATION_FILES) and len(tops) == 1:
            self.prefix = next(iter(tops)) + "/"

    def read_json(self, name: str) -> Any:
        full = self.prefix + name
        if self.zip is not None:
            if full not in self.zip.NameToInfo:
                return None
            return json.loads(self.zip.read(full).decode("utf-8"))
        path = self.path / full
        if not path.is_file():
            return None
        return json.loads(path.read_text(encoding="utf-8"))

    def day_files(self, folder: str) -> list[str]:
        base = self.prefix + folder + "/"
        out = [
            n[len(self.prefix) :]
            for n in self.names
            if n.startswith(base)
            and "/" not in n[len(base) :]
            and _DAY_FILE.match(PurePosixPath(n).name)
        ]
        return sorted(out)

    def close(self) -> None:
        if self.zip is not None:
            self.zip.close()


def _unescape(text: str) -> str:
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


class SlackExportAdapter:
    """Messages of a Slack export.

    Args:
        path: The export ``.zip`` or its unzipped folder.
        source_instance_id: Stable id; defaults to ``slack:<absolute path>``.
        label: Name shown in daily notes; defaults to the file or folder name.
        pipeline: Where items are routed (connected knowledge by default).

    Raises:
        InvalidInputError: ``path`` is neither a zip file nor a folder.
    """

    kind = "slack"

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        source_instance_id: str | None = None,
        label: str | None = None,
        pipeline: Pipeline = Pipeline.CONNECTED_KNOWLEDGE,
    ) -> None:
        self.path = existing_path(path, what="Slack export")
        if self.path.is_file() and not zipfile.is_zipfile(self.path):
            raise InvalidInputError(f"not a zip file or folder: {self.path}")
        self.source_instance_id = source_instance_id or f"slack:{self.path}"
        self.label = label or self.path.stem
        self.pipeline = pipeline

    def _fingerprint(self) -> str:
        if self.path.is_file():
            return fingerprint(self.path)
        return tree_fingerprint(self.path, (p for p in self.path.rglob("*.json") if p.is_file()))

    def pull(self, cursor: str | None) -> PullResult:
        state = self._fingerprint()
        previous = load_cursor(cursor)
        if previous is not None and previous.get("export") == state:
            return PullResult(items=(), complete=False, cursor=cursor)
        result = PullResult(items=(), complete=True)
        result.cursor = json.dumps({"v": 1, "export": state})
        result.items = self._messages(result, cursor)
        return result

    def _messages(self, result: PullResult, previous: str | None) -> Iterator[SourceItem]:
        export = _Export(self.path)
        try:
            users = self._users(export, result)
            conversations = self._conversations(export, result)
            names = {cid: name for cid, name, _ in conversations}
            for cid, name, folder in conversations:
                for day_file in export.day_files(folder):
                    try:
                        messages = export.read_json(day_file)
                    except (ValueError, OSError, UnicodeDecodeError, KeyError) as exc:
                        result.warnings.append(f"cannot read {day_file}: {type(exc).__name__}")
                        result.complete = False  # do not mistake unread messages for deletions
                        continue
                    if not isinstance(messages, list):
                        result.warnings.append(f"{day_file} is not a list of messages")
                        continue
                    for msg in messages:
                        item = self._item(msg, cid, name, users, names)
                        if item is None:
                            result.skipped += 1
                            continue
                        yield item
        finally:
            export.close()
            if not result.complete:
                result.cursor = previous  # something was unreadable: try again next time

    @staticmethod
    def _users(export: _Export, result: PullResult) -> dict[str, str]:
        try:
            raw = export.read_json("users.json") or []
        except (ValueError, OSError, UnicodeDecodeError) as exc:
            result.warnings.append(f"cannot read users.json: {type(exc).__name__}")
            return {}
        users: dict[str, str] = {}
        for user in raw if isinstance(raw, list) else []:
            if not isinstance(user, dict) or not isinstance(user.get("id"), str):
                continue
            profile = user.get("profile") if isinstance(user.get("profile"), dict) else {}
            name = (
                (profile or {}).get("display_name")
                or user.get("real_name")
                or (profile or {}).get("real_name")
                or user.get("name")
                or user["id"]
            )
            users[user["id"]] = str(name)
        return users

    @staticmethod
    def _conversations(export: _Export, result: PullResult) -> list[tuple[str, str, str]]:
        found: list[tuple[str, str, str]] = []
        seen: set[str] = set()
        for listing in _CONVERSATION_FILES:
            try:
                raw = export.read_json(listing)
            except (ValueError, OSError, UnicodeDecodeError) as exc:
                result.warnings.append(f"cannot read {listing}: {type(exc).__name__}")
                result.complete = False
                continue
            for conv in raw if isinstance(raw, list) else []:
                if not isinstance(conv, dict) or not isinstance(conv.get("id"), str):
                    continue
                cid = conv["id"]
                name = str(conv.get("name") or cid)
                folder = name if listing in ("channels.json", "groups.json", "mpims.json") else cid
                if cid not in seen:
                    seen.add(cid)
                    found.append((cid, name, folder))
        if not found:
            result.warnings.append("no channels.json (or groups/mpims/dms) in the export")
            result.complete = False
        return found

    def _item(
        self,
        msg: Any,
        cid: str,
        channel: str,
        users: dict[str, str],
        channels: dict[str, str],
    ) -> SourceItem | None:
        if not isinstance(msg, dict) or msg.get("type", "message") != "message":
            return None
        if msg.get("subtype") in _SKIP_SUBTYPES or not isinstance(msg.get("ts"), str):
            return None
        text = self._text(str(msg.get("text") or ""), users, channels)
        files = [
            str(f.get("name") or f.get("title"))
            for f in msg.get("files") or []
            if isinstance(f, dict) and (f.get("name") or f.get("title"))
        ]
        if files:
            text = (text + " " + " ".join(f"[file: {f}]" for f in files)).strip()
        if not text:
            return None
        uid = msg.get("user")
        who = (
            users.get(uid, uid)
            if isinstance(uid, str)
            else str(msg.get("username") or (msg.get("bot_profile") or {}).get("name") or "bot")
        )
        ts = msg["ts"]
        try:
            occurred = datetime.fromtimestamp(float(ts), tz=UTC)
        except (ValueError, OverflowError):
            return None
        # the channel's day is the conversation a message belongs to (its neighbours give context)
        meta: dict[str, MetaValue] = {
            "channel": channel,
            "user": who,
            "thread": f"{cid}/{occurred.date().isoformat()}",
        }
        thread = msg.get("thread_ts")
        if isinstance(thread, str) and thread != ts:
            meta["thread_ts"] = thread
        if isinstance(msg.get("reply_count"), int):
            meta["replies"] = msg["reply_count"]
        return SourceItem(
            external_id=f"{cid}/{ts}",
            text=f"{who} in #{channel}: {text}",
            occurred_at=occurred,
            meta=meta,
            pipeline=self.pipeline,
        )

    @staticmethod
    def _text(text: str, users: dict[str, str], channels: dict[str, str]) -> str:
        text = _USER_MENTION.sub(
            lambda m: "@" + (users.get(m.group(1)) or m.group(2) or "user"), text
        )
        text = _CHANNEL_MENTION.sub(
            lambda m: "#" + (m.group(2) or channels.get(m.group(1)) or "channel"), text
        )
        text = _SPECIAL.sub(lambda m: "@" + m.group(1), text)
        text = _SUBTEAM.sub(lambda m: m.group(1) or "@team", text)
        text = _LINK.sub(
            lambda m: f"{m.group(2)} ({m.group(1)})" if m.group(2) else m.group(1), text
        )
        return _unescape(text).strip()
