"""A chat transcript in the LoCoMo JSON format as a connected source.

A LoCoMo file is a list of samples ``{sample_id, conversation: {speaker_a, speaker_b,
session_<n>_date_time, session_<n>: [{speaker, dia_id, text, blip_caption?}]}, ...}``. One
adapter reads one conversation; :meth:`LocomoTranscriptAdapter.from_file` gives one per sample.
Each turn is an item keyed by its ``dia_id``, dated by its session, with the text
``"{speaker}: {text}"`` plus ``[image: caption]`` when the turn shared a picture.

The cursor is a digest of the conversation: an unchanged transcript costs one hash.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from userlore.errors import InvalidInputError
from userlore.models import Pipeline
from userlore.sources.adapters._files import existing_path, load_cursor
from userlore.sources.base import MetaValue, PullResult, SourceItem

__all__ = ["LocomoTranscriptAdapter", "parse_session_date", "turn_text"]

_SESSION = re.compile(r"^session_(\d+)$")
_DATE_FORMATS = ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y", "%Y-%m-%d %H:%M", "%Y-%m-%d")


def parse_session_date(value: Any) -> datetime | None:
    """Parse a LoCoMo session time such as ``"1:56 pm on 8 May, 2023"`` (as UTC)."""
    if not isinstance(value, str):
        return None
    text = " ".join(value.split())
    for fmt in _DATE_FORMATS:
        try:
            return datetime.strptime(text, fmt).replace(tzinfo=UTC)
        except ValueError:
            continue
    return None


def turn_text(turn: Mapping[str, Any]) -> str:
    """``"{speaker}: {text}"`` plus ``[image: caption]`` when the turn shared a picture."""
    text = f"{turn.get('speaker', '')}: {turn.get('text', '')}".strip()
    caption = turn.get("blip_caption")
    if isinstance(caption, str) and caption.strip():
        text += f" [image: {caption.strip()}]"
    return text


class LocomoTranscriptAdapter:
    """The turns of one LoCoMo conversation.

    Args:
        sample: One parsed LoCoMo sample (``{"sample_id", "conversation", ...}``).
        source_instance_id: Stable id; defaults to ``locomo:<sample_id>``.
        label: Name shown in daily notes; defaults to ``"<speaker_a> & <speaker_b>"``.
        pipeline: Where items are routed (connected knowledge by default).

    Raises:
        InvalidInputError: the sample has no ``conversation`` mapping.
    """

    kind = "locomo"

    def __init__(
        self,
        sample: Mapping[str, Any],
        *,
        source_instance_id: str | None = None,
        label: str | None = None,
        pipeline: Pipeline = Pipeline.CONNECTED_KNOWLEDGE,
    ) -> None:
        conversation = sample.get("conversation") if isinstance(sample, Mapping) else None
        if not isinstance(conversation, Mapping):
            raise InvalidInputError("a LoCoMo sample needs a 'conversation' object")
        self.sample = sample
        self.conversation = conversation
        sample_id = str(sample.get("sample_id") or "conversation")
        self.source_instance_id = source_instance_id or f"locomo:{sample_id}"
        speakers = [conversation.get("speaker_a"), conversation.get("speaker_b")]
        self.label = label or " & ".join(str(s) for s in speakers if s) or sample_id
        self.pipeline = pipeline

    @classmethod
    def from_file(
        cls, path: str | os.PathLike[str], *, prefix: str | None = None
    ) -> list[LocomoTranscriptAdapter]:
        """One adapter per sample of a LoCoMo JSON file (a list of samples, or one sample).

        Args:
            prefix: Instance ids become ``<prefix>:<sample_id>`` (default ``locomo``).

        Raises:
            InvalidInputError: the file is missing or not LoCoMo JSON.
        """
        file = existing_path(path, what="LoCoMo file")
        try:
            data = json.loads(Path(file).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise InvalidInputError(f"cannot read LoCoMo file {file}: {exc}") from None
        samples = data if isinstance(data, list) else [data]
        if not samples or not all(isinstance(s, Mapping) for s in samples):
            raise InvalidInputError(f"{file} is not a LoCoMo sample list")
        head = prefix or "locomo"
        return [
            cls(s, source_instance_id=f"{head}:{s.get('sample_id') or i}")
            for i, s in enumerate(samples)
        ]

    def sessions(self) -> list[tuple[int, datetime | None, list[Mapping[str, Any]]]]:
        """``(number, date, turns)`` for every session, in order."""
        found: list[tuple[int, datetime | None, list[Mapping[str, Any]]]] = []
        for key, turns in self.conversation.items():
            match = _SESSION.match(str(key))
            if not match or not isinstance(turns, list):
                continue
            number = int(match.group(1))
            when = parse_session_date(self.conversation.get(f"session_{number}_date_time"))
            found.append((number, when, [t for t in turns if isinstance(t, Mapping)]))
        return sorted(found, key=lambda s: s[0])

    def _digest(self) -> str:
        blob = json.dumps(self.conversation, sort_keys=True, ensure_ascii=False, default=str)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()

    def pull(self, cursor: str | None) -> PullResult:
        digest = self._digest()
        previous = load_cursor(cursor)
        if previous is not None and previous.get("conversation") == digest:
            return PullResult(items=(), complete=False, cursor=cursor)
        sessions = self.sessions()
        result = PullResult(
            items=(),
            complete=True,
            cursor=json.dumps({"v": 1, "conversation": digest}),
            total=sum(len(turns) for _, _, turns in sessions),
        )
        result.items = self._turns(sessions, result)
        return result

    def _turns(
        self,
        sessions: list[tuple[int, datetime | None, list[Mapping[str, Any]]]],
        result: PullResult,
    ) -> Iterator[SourceItem]:
        for number, when, turns in sessions:
            if when is None:
                result.warnings.append(f"session {number} has no readable date")
            for index, turn in enumerate(turns):
                dia_id = turn.get("dia_id")
                if not isinstance(dia_id, str) or not dia_id.strip():
                    result.skipped += 1
                    continue
                meta: dict[str, MetaValue] = {
                    "dia_id": dia_id,
                    "session": number,
                    "speaker": str(turn.get("speaker", "")),
                    "thread": f"session-{number}",
                }
                yield SourceItem(
                    external_id=dia_id,
                    text=turn_text(turn),
                    # one second apart: the session's date, and the turns keep their order
                    occurred_at=when + timedelta(seconds=index) if when else None,
                    meta=meta,
                    pipeline=self.pipeline,
                )
