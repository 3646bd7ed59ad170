"""Self-corrections in ordinary speech: what to ignore, and the new truth a bare phrase names.

People correct themselves the way they talk: "actually, not bullets - numbered lists", "no, I
meant prose, not tables", "scratch that: I want detailed answers", "不是要点，是编号列表",
"我说错了，我用的是pnpm", "更正一下：我叫陈静". Read literally, the markers and the rejected
alternative confuse the matchers ("no ... shorter answers" reads as a negated style, "not a
table" as a veto). This module reads such a turn as the user means it:

- :func:`blank` replaces the correction markers and the rejected alternatives ("not X",
  "不是X，是") with spaces (same length, so every span still points into the user's text) and
  reports what was rejected and where the corrective segments are;
- :func:`bare_statements` gives the new truth of a corrective segment that names only a value
  ("plain bullets please", "是编号列表", "Go"): the value is tried in a style frame ("please use
  X") and a tooling frame ("I use X"). A style value is kept unless the rejected alternative
  reads as another key; a tool only when the rejected alternative reads as the same key (so
  "not Python, Go" is a language, while "not this file, that one" is nothing).

Markers alone never make a statement: a segment with nothing the matchers read stays empty.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from userlore.extract.lexical import _CJK, _CONF_WEAK, _normalize, _rx
from userlore.extract.statement import Statement

__all__ = ["Blanked", "bare_statements", "blank", "is_corrective"]

_FILLER = r"(?:(?:oh|um+|uh+|erm?|sorry|hmm+|ah|ok|okay|oops|wait|no|actually)\s*[,.!]?\s+)*"
# A marker opens a sentence (or the turn) and is followed by the corrected statement.
_MARKER_EN = _rx(
    r"(?:^|(?<=[.!?;\n]))\s*" + _FILLER + r"(?:"
    r"actually\s*,?\s*no\b|no\s*,?\s*wait|(?:no\s*,?\s*)?i\s+meant(?:\s+to\s+say)?|"
    r"(?:no\s*,?\s*)?what\s+i\s+meant\s+(?:is|was)|no\s+i\s+mean|nope|no(?=\s*[,:\-])|"
    r"scratch\s+that|strike\s+that|correction|let\s+me\s+correct\s+(?:that|myself)|"
    r"to\s+correct\s+myself|i\s+mis-?spoke|i\s+said\s+(?:that|it)\s+wrong(?:ly)?|"
    r"(?:that's|that\s+is|that\s+was|this\s+is|it's|it\s+is)\s+(?:wrong|not\s+right|incorrect|"
    r"not\s+correct|not\s+what\s+i\s+meant)|"
    r"you(?:'ve|\s+have)?\s+(?:got|gotten)\s+(?:my\s+[a-z]+(?:\s+[a-z]+)?|it|that|me)\s+wrong|"
    r"you\s+(?:misunderstood|misread|misheard)(?:\s+me|\s+my\s+[a-z]+)?"
    r")(?=[\s,:.!\-]|$)[\s,:.!\-]*"
)
_ZH_MARKER = (
    r"(?:(?:我)?(?:刚才|刚刚|之前)?(?:说错了|讲错了|写错了|打错了)|口误|更正一下|更正|纠正一下|纠正|"
    r"我的意思是|我是说|不对|不是的|错了|你理解错了|你听错了)"
)
# A hesitation may lead ("呃，不对", "等等，我说错了") and markers may follow each other
# ("不对，我的意思是…"): the whole run is one marker.
_MARKER_ZH = re.compile(
    r"(?:^|(?<=[。！？；.!?;\n]))\s*(?:(?:呃|嗯|啊|哦|唉|哎呀|等等|等一下)[\s,，.。!！]*)*"
    + _ZH_MARKER
    + r"(?:[\s,，:：]*"
    + _ZH_MARKER
    + r")*[\s,:.!。，：！]*"
)
# A switch opening a clause ("改成编号列表", "还是用表格吧"): the rest names the new choice.
_SWITCH_ZH = re.compile(
    r"(?:^|(?<=[。！？；.!?;\n,，]))\s*(?:改成|改为|换成|改用)(?!了)|"
    r"(?:^|(?<=[。！？；.!?;\n]))\s*还是(?=[^。！？；.!?;\n,，]{1,20}吧)"
)
# Openers that often precede a correction but as often do not ("actually, I prefer tabs"):
# blanked so a contrast after them is read, never counted as a correction on their own.
_SOFT_EN = _rx(r"(?:^|(?<=[.!?;\n]))\s*" + _FILLER + r"actually\b[\s,:.!\-]*")
# "not X, Y" / "not X - Y": X is what the user takes back (segment start only, so "do not use
# tables" and "I'm not sure" are not read as one).
_NOT_FIRST = _rx(
    r"(?:^|(?<=[,;:.!?(\-]))\s*not\s+(?P<x>[^,;:.!?\-\n]{1,40}?)\s*(?:,|;|\s-\s|-)\s*"
    r"(?:but\s+|rather\s+|instead\s+|i\s+meant\s+|i\s+mean\s+)?"
)
# "..., not X" closing a segment: "I use yarn, not npm".
_NOT_AFTER = _rx(r",\s*(?:and\s+|but\s+)?not\s+(?P<x>[^,;:.!?\-\n]{1,40}?)\s*(?=[.!?;\n]|$)")
_BUSHI_FIRST = re.compile(
    r"(?:^|(?<=[,;:.!?。！？；]))\s*不是(?P<x>[^,;:.!?。！？；\n]{1,20}?)\s*[,;]\s*(?:而|就|应该)?是"
)
_BUSHI_AFTER = re.compile(
    r"[,;]\s*(?:而)?不是(?P<x>[^,;:.!?。！？；\n]{1,20}?)\s*(?=[.!?;。！？；\n]|$)"
)
# A corrective segment that restates the key: "Europe/Lisbon as my timezone", "Rust as my main
# language", "the answers should be short", "the format should be a table". The value is read in
# a frame that names the key, so the key the user names decides what it is.
_RESTATED = _rx(r"^(?P<x>[^,;:.!?\n]{1,40}?)\s+as\s+(?:my|the|our)\s+(?P<y>[a-z][a-z \-]{1,30}?)$")
_SHOULD_BE = _rx(
    r"^(?:the\s+|my\s+|your\s+)?(?P<y>answers?|repl(?:y|ies)|responses?|output|format|formatting)"
    r"\s+(?:should|must|needs?\s+to|has\s+to|have\s+to)\s+be\s+(?:in\s+)?(?:an?\s+)?"
    r"(?P<x>[^,;:.!?\n]{1,30}?)$"
)
_STYLE_KEYS = frozenset({"format", "formatting", "style", "layout", "length", "output"})
_ANSWER_WORDS = frozenset({"answer", "answers", "reply", "replies", "response", "responses"})
_SEGMENT_BREAK = re.compile(r"[,;:.!?。！？；\n]|\s-\s")
_MAX_BARE_WORDS = 5
# A bare value is a noun phrase; a segment with a verb or modal is a statement about something.
_NOT_BARE = _rx(
    r"应该|应当|需要|必须|返回|调用|改成|修改|写|有|在|把|给|会|能|"
    r"\b(?:is|are|was|were|be|should|must|will|would|can|could|returns?|calls?|fails?|failed|"
    r"works?|worked|has|have|had)\b"
)


@dataclass(frozen=True, slots=True)
class Blanked:
    """A turn with its correction markers and rejected alternatives blanked out.

    Attributes:
        text: Same length as the input; markers and "not X" replaced with spaces.
        rejected: The alternatives the user took back ("bullets" in "not bullets, Y").
        corrective: Whether the turn holds a marker or a contrast frame at all.
        marked: Whether it *opens* a correction: a marker, or a leading "not X, Y" /
            "不是X，是Y" (a closing "I use yarn, not npm" is a contrast, not a correction).
    """

    text: str
    rejected: tuple[str, ...]
    corrective: bool
    marked: bool


def _spaces(text: str, start: int, end: int) -> str:
    return text[:start] + " " * (end - start) + text[end:]


def blank(norm: str) -> Blanked:
    """Blank the correction markers and rejected alternatives of an (index-normalized) turn."""
    text = norm
    rejected: list[str] = []
    marked = corrective = False
    for pattern in (_MARKER_EN, _MARKER_ZH, _SWITCH_ZH):
        for m in pattern.finditer(text):
            if m.end() > m.start():
                text = _spaces(text, m.start(), m.end())
                marked = True
    for m in _SOFT_EN.finditer(text):
        text = _spaces(text, m.start(), m.end())
    for pattern, opens in ((_NOT_FIRST, True), (_BUSHI_FIRST, True), (_NOT_AFTER, False),
                           (_BUSHI_AFTER, False)):  # fmt: skip
        for m in pattern.finditer(text):
            rejected.append(m.group("x").strip())
            text = _spaces(text, m.start(), m.end())
            corrective = True
            marked = marked or opens
    return Blanked(text, tuple(r for r in rejected if r), corrective or marked, marked)


def is_corrective(text: str) -> bool:
    """Does the turn open a self-correction in ordinary speech (see :attr:`Blanked.marked`)?"""
    return blank(_normalize(text)).marked


def _segments(text: str) -> Iterator[tuple[int, int]]:
    pos = 0
    for m in _SEGMENT_BREAK.finditer(text):
        yield pos, m.start()
        pos = m.end()
    yield pos, len(text)


_PROBE_TRIM = re.compile(
    r"^(?:(?:please|pls|just|use|the)\s+)+|(?:\s+(?:please|pls|instead))+$|^是|^用"
)


def _probes(value: str) -> tuple[str, str]:
    """The style and the tooling frame a bare value is read in."""
    if _CJK.search(value):
        return f"请用{value}", f"我用{value}"
    return f"Please use {value}.", f"I use {value}."


def _read_as(
    value: str, extract: Callable[[str], list[Statement]]
) -> tuple[Statement | None, Statement | None]:
    style_probe, tool_probe = _probes(value)
    style = next((s for s in extract(style_probe) if s.canonical_key.startswith("style/")), None)
    tool = next((s for s in extract(tool_probe) if s.canonical_key.startswith("tooling/")), None)
    return style, tool


def _restated(value: str, extract: Callable[[str], list[Statement]]) -> Statement | None:
    """The statement of a segment that names its key ("X as my Y", "the Y should be X")."""
    m = _RESTATED.match(value)
    if m is not None:
        x, y = m.group("x").strip(), m.group("y").strip().lower()
        if y in _STYLE_KEYS:
            return _read_as(x, extract)[0]
        return next(iter(extract(f"my {y} is {x}.")), None)
    m = _SHOULD_BE.match(value)
    if m is not None:
        x, y = m.group("x").strip(), m.group("y").lower()
        probe = f"I want {x} answers." if y in _ANSWER_WORDS else f"Please use {x}."
        return next((s for s in extract(probe) if s.canonical_key.startswith("style/")), None)
    return None


def bare_statements(
    original: str,
    blanked: Blanked,
    found: list[Statement],
    extract: Callable[[str], list[Statement]],
) -> list[Statement]:
    """New truths of corrective segments that name only a value (see the module docstring).

    ``found`` are the statements already read from the blanked turn: a segment one of them
    covers is left alone. ``extract`` is the extractor itself (passed in, not imported, to keep
    this module below it).
    """
    if not blanked.corrective:
        return []
    rejected_keys: set[str] = set()
    for alt in blanked.rejected:
        for st in _read_as(_PROBE_TRIM.sub("", alt.strip()), extract):
            if st is not None:
                rejected_keys.add(st.canonical_key)
    out: list[Statement] = []
    for start, end in _segments(blanked.text):
        raw = blanked.text[start:end]
        value = _PROBE_TRIM.sub("", raw.strip()).strip()
        if not value or any(s.span[0] < end and start < s.span[1] for s in found):
            continue
        pick = _restated(value, extract) if blanked.marked else None
        if pick is None:
            if len(value.split()) > _MAX_BARE_WORDS or len(value) > 40:
                continue
            if _NOT_BARE.search(value):
                continue
            style, tool = _read_as(value, extract)
            if style is not None and (not rejected_keys or style.canonical_key in rejected_keys):
                pick = style
            elif tool is not None and tool.canonical_key in rejected_keys:
                pick = tool
        if pick is None:
            continue
        lead = len(raw) - len(raw.lstrip())
        s, e = start + lead, start + len(raw.rstrip())
        out.append(
            replace(
                pick,
                content=original[s:e],
                span=(s, e),
                confidence=min(pick.confidence, _CONF_WEAK),
            )
        )
    return out
