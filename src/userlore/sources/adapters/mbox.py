"""An mbox mailbox (what Gmail Takeout exports) as a connected source.

One item per message, keyed by its ``Message-ID`` (or a digest of date, sender, subject and body
when it has none). The text is the sender, recipients and the plain-text body (HTML bodies are
reduced to their visible text); quoted replies and signatures are dropped, attachments are only
counted. Gmail labels and thread ids are kept as metadata.

The cursor is the file's size and modification time: an untouched mailbox costs one ``stat``.
When it changed, the whole mailbox is pulled as a complete snapshot, so messages removed from it
are reported deleted.
"""

from __future__ import annotations

import email.policy
import hashlib
import json
import mailbox
import os
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from email.message import EmailMessage, Message
from email.utils import parsedate_to_datetime
from typing import Any

from userlore.errors import InvalidInputError
from userlore.models import Pipeline
from userlore.sources.adapters._files import existing_path, fingerprint, load_cursor
from userlore.sources.base import MetaValue, PullResult, SourceItem
from userlore.sources.normalize import clean_text, html_to_text, one_line

__all__ = ["MboxAdapter"]

_QUOTE_INTRO = re.compile(r"^(?:On .{1,200} wrote:|-{2,} ?Original Message ?-{2,})\s*$", re.I)


def _header(msg: Message, name: str) -> str:
    try:
        value = msg.get(name)
    except (ValueError, TypeError, IndexError):  # malformed header
        return ""
    return one_line(str(value)) if value is not None else ""


def _body(msg: EmailMessage) -> tuple[str, int]:
    attachments = sum(1 for _ in msg.iter_attachments()) if msg.is_multipart() else 0
    part = msg.get_body(preferencelist=("plain", "html"))
    if part is None:
        return "", attachments
    try:
        content = part.get_content()
    except (LookupError, ValueError, AssertionError):
        payload = part.get_payload(decode=True)
        content = payload.decode("utf-8", errors="replace") if isinstance(payload, bytes) else ""
    if not isinstance(content, str):
        return "", attachments
    if part.get_content_subtype() == "html":
        content = html_to_text(content)
    return _strip_quotes(content), attachments


def _strip_quotes(text: str) -> str:
    kept: list[str] = []
    for line in clean_text(text).split("\n"):
        if line.rstrip() == "--":  # signature separator: the rest is a signature
            break
        if line.lstrip().startswith(">") or _QUOTE_INTRO.match(line.strip()):
            continue
        kept.append(line)
    return "\n".join(kept).strip()


class MboxAdapter:
    """Messages of one mbox file.

    Args:
        path: The ``.mbox`` file.
        source_instance_id: Stable id; defaults to ``mbox:<absolute path>``.
        label: Name shown in daily notes; defaults to the file name.
        pipeline: Where items are routed (connected knowledge by default).

    Raises:
        InvalidInputError: ``path`` is not a file.
    """

    kind = "mbox"

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        source_instance_id: str | None = None,
        label: str | None = None,
        pipeline: Pipeline = Pipeline.CONNECTED_KNOWLEDGE,
    ) -> None:
        self.path = existing_path(path, what="mbox file")
        if not self.path.is_file():
            raise InvalidInputError(f"not a file: {self.path}")
        self.source_instance_id = source_instance_id or f"mbox:{self.path}"
        self.label = label or self.path.name
        self.pipeline = pipeline

    def pull(self, cursor: str | None) -> PullResult:
        state = fingerprint(self.path)
        previous = load_cursor(cursor)
        if previous is not None and previous.get("file") == state:
            return PullResult(items=(), complete=False, cursor=cursor)
        result = PullResult(items=(), complete=True)
        result.cursor = json.dumps({"v": 1, "file": state})
        result.items = self._messages(result)
        return result

    def _messages(self, result: PullResult) -> Iterator[SourceItem]:
        box = mailbox.mbox(self.path, create=False)
        try:
            for index, key in enumerate(box.iterkeys()):
                try:
                    msg = email.message_from_bytes(box.get_bytes(key), policy=email.policy.default)
                    item = self._item(msg) if isinstance(msg, EmailMessage) else None
                except Exception as exc:  # one broken message must not stop the mailbox
                    result.warnings.append(f"message {index}: cannot parse ({type(exc).__name__})")
                    result.skipped += 1
                    continue
                if item is None:
                    result.skipped += 1
                    continue
                yield item
        finally:
            box.close()

    def _item(self, msg: EmailMessage) -> SourceItem | None:
        subject = _header(msg, "subject")
        sender = _header(msg, "from")
        to = _header(msg, "to")
        cc = _header(msg, "cc")
        body, attachments = _body(msg)
        if not body and not subject:
            return None
        occurred: datetime | None = None
        raw_date = _header(msg, "date")
        if raw_date:
            try:
                occurred = parsedate_to_datetime(raw_date)
            except (TypeError, ValueError, IndexError):
                occurred = None
            if occurred is not None and occurred.tzinfo is None:
                occurred = occurred.replace(tzinfo=UTC)
        message_id = _header(msg, "message-id").strip("<> ")
        if not message_id:
            seed = json.dumps([raw_date, sender, subject, body[:2000]])
            message_id = "sha256:" + hashlib.sha256(seed.encode("utf-8")).hexdigest()
        head = [f"From: {sender}"] if sender else []
        if to:
            head.append(f"To: {to}")
        if cc:
            head.append(f"Cc: {cc}")
        text = "\n".join(head) + ("\n\n" if head else "") + (body or subject)
        meta: dict[str, MetaValue] = {}
        references = _header(msg, "references").split()
        root = references[0] if references else _header(msg, "in-reply-to")
        extras: dict[str, Any] = {
            "from": sender,
            "labels": _header(msg, "x-gmail-labels"),
            # one id per conversation: Gmail's thread id, else the first message it answers
            "thread": _header(msg, "x-gm-thrid") or root.strip("<> ") or message_id,
        }
        for key, value in extras.items():
            if value:
                meta[key] = value
        if attachments:
            meta["attachments"] = attachments
        return SourceItem(
            external_id=message_id,
            text=text,
            title=subject or None,
            occurred_at=occurred,
            meta=meta,
            pipeline=self.pipeline,
        )
