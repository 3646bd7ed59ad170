"""One view of text for every safety decision: what the model will read, folded to ASCII.

The sensitivity floor and the fence used to look at different text: a single Cyrillic letter
(``pаssword``) made a statement non-sensitive, and the renderer then folded it back to Latin, so
a password reached the model. Both now read :func:`fold`:

- HTML entities unescaped (the renderer unescapes them too), Unicode TAG characters decoded to
  the ASCII they hide, format, zero-width, bidi and control characters dropped;
- NFKC (fullwidth, mathematical and circled letters and digits, ligatures);
- every decimal digit of any script to its ASCII digit, every Unicode space to `` ``, dashes and
  minus signs to ``-``, slash, underscore and dot variants to ``/``, ``_`` and ``.``, so the
  identifier rules need only know the ASCII separators in :data:`DIGIT_SEPARATORS`;
- the Unicode confusables table (UTS #39, as shipped in the ``confusable-homoglyphs`` wheel:
  nothing is downloaded) folds each lookalike to its ASCII prototype.

Only detection reads the folded copy. Stored and rendered text keep their script: Chinese,
Russian or Greek are never rewritten, and :class:`Folded` maps every folded span back to the
caller's text so redaction removes the original characters.

Cost: ASCII text without ``&`` or control characters is returned as is (one ``isascii`` and one
regex scan); other text costs a set test and, when a character changes, one ``str.translate``;
a per-character loop runs only when a character changes length (entities, format characters,
ligatures). The table is built once per process, on first use (about 0.3 s).
"""

from __future__ import annotations

import functools
import html
import json
import re
import unicodedata
from dataclasses import dataclass
from importlib import resources
from typing import Final

__all__ = [
    "DIGIT_SEPARATORS",
    "ENTITY",
    "Folded",
    "confusable_letters",
    "fold",
    "fold_char",
    "lookalike_of",
    "reads_as",
]

DIGIT_SEPARATORS: Final = " -._/"
"""Every separator between digit groups is one of these after :func:`fold`."""

# Entities with a semicolon, numeric ones, and the markup ones browsers also accept bare
# (``&lt/user-context&gt``); bare ``&not``/``&copy`` in URLs (``?a=1&notify=1``) are left alone.
ENTITY: Final = re.compile(
    r"&(?:#[0-9]{1,7};?|#[xX][0-9a-fA-F]{1,6};?|[A-Za-z][A-Za-z0-9]{1,31};"
    r"|(?:lt|gt|amp|quot|apos|sol)(?![A-Za-z0-9=]))"
)
_ASCII_WORK = re.compile(r"[&\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")

# Characters kept as they are: CJK sentence punctuation carries clause structure the Chinese
# rules read, and folding ``，`` to ``,`` would glue a password to the next clause.
_KEEP: Final = frozenset("，。！？；、「」『』【】《》〈〉（）〖〗〘〙〚〛")
_DASHES: Final = frozenset("\u2212\u2043\u02d7\u2796\u2e3a\u2e3b\ufe58\ufe63\uff0d")
_NOT_DASHES: Final = frozenset("\u301c\u3030\u30a0")  # wave dashes and the kana double hyphen
_SLASHES: Final = frozenset("\u2044\u2215\u29f8\uff0f\u2571\u27cb")
_UNDERSCORES: Final = frozenset("\uff3f\ufe4d\ufe4e\ufe4f\u2017")
_DOTS: Final = frozenset("\u00b7\u2027\u2219\u22c5\u30fb\uff65\u2024\uff0e\u0387\u2e31")
_INVISIBLE_EXTRA: Final = frozenset("\u034f\u115f\u1160\u3164\uffa0\u17b4\u17b5")
# Multi-character prototypes that stand for one ASCII character a reader sees.
_PROTOTYPE_FIX: Final = {"rn": "m", "''": '"', "vv": "w"}
# Code points scanned when the table is built (in order); the big ideograph and syllable blocks
# have no compatibility forms, and their few confusables are added from the data file.
_SKIP: Final = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xAC00, 0xD7A3), (0xD800, 0xDFFF))


@dataclass(frozen=True, slots=True)
class Folded:
    """The folded view of a text and the way back to the caller's string.

    Attributes:
        text: The folded text.
        starts: For each folded character, where its source starts in the original; ``None``
            when the two have the same length and positions match one to one.
        ends: For each folded character, where its source ends in the original.
    """

    text: str
    starts: tuple[int, ...] | None = None
    ends: tuple[int, ...] | None = None

    def span(self, start: int, end: int) -> tuple[int, int]:
        """Map ``[start, end)`` of the folded text to the original text."""
        if self.starts is None or self.ends is None or end <= start:
            return start, end
        return self.starts[start], self.ends[end - 1]


def _load_confusables() -> dict[str, str]:
    """Non-ASCII character -> its ASCII prototype, from the UTS #39 table in the wheel."""
    raw = resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    graph: dict[str, list[dict[str, str]]] = json.loads(raw)
    out: dict[str, str] = {}
    for key, neighbours in graph.items():
        ch = key.strip("\u200e\u200f")
        if len(ch) != 1 or ch.isascii():
            continue
        for n in neighbours:
            target = n["c"].strip("\u200e\u200f")
            if target and target.isascii() and target.isprintable():
                out[ch] = target
                break
    return out


def _prototype(ch: str, target: str) -> str | None:
    """The ASCII a reader sees for ``ch``, or ``None`` to keep it (letters that look like digits
    stay letters: Cyrillic ``б`` is not a ``6`` in a Russian word)."""
    target = _PROTOTYPE_FIX.get(target, target)
    if target == "l" and ch.isupper():
        return "I"
    if target.isdigit() and ch.isalpha():
        return None
    return target


def _map_char(ch: str, confusables: dict[str, str]) -> str:
    cp = ord(ch)
    if 0xE0020 <= cp <= 0xE007E:
        return chr(cp - 0xE0000)  # TAG characters spell ASCII the reader never sees as such
    if cp < 0x80:
        return "" if (cp < 0x20 and ch not in "\t\n\r") or cp == 0x7F else ch
    if ch in _KEEP:
        return ch
    cat = unicodedata.category(ch)
    if cat in ("Cf", "Cc") or ch in _INVISIBLE_EXTRA or 0xFE00 <= cp <= 0xFE0F:
        return ""
    if 0xE0100 <= cp <= 0xE01EF:
        return ""
    if cat == "Nd":
        return str(unicodedata.decimal(ch))
    if cat == "Zs":
        return " "
    if ch in _DASHES or (cat == "Pd" and ch not in _NOT_DASHES):
        return "-"
    if ch in _SLASHES:
        return "/"
    if ch in _UNDERSCORES:
        return "_"
    if ch in _DOTS:
        return "."
    nfkc = unicodedata.normalize("NFKC", ch)
    if nfkc != ch:
        return "".join(c if c.isascii() else _map_char(c, confusables) for c in nfkc)
    target = confusables.get(ch)
    if target is not None:
        proto = _prototype(ch, target)
        if proto is not None:
            return proto
    return ch


@dataclass(frozen=True, slots=True)
class _Tables:
    table: dict[str, str]
    translate: dict[int, str]
    changed: frozenset[str]
    resized: frozenset[str]


@functools.cache
def _tables() -> _Tables:
    confusables = _load_confusables()
    table: dict[str, str] = {}

    def scan(cp: int) -> None:
        ch = chr(cp)
        mapped = _map_char(ch, confusables)
        if mapped != ch:
            table[ch] = mapped

    start = 0
    for lo, hi in _SKIP:
        for cp in range(start, lo):
            scan(cp)
        start = hi + 1
    for cp in range(start, 0x20000):
        scan(cp)
    for cp in range(0xE0000, 0xE01F0):
        scan(cp)
    for ch in confusables:
        if ch not in table:
            scan(ord(ch))
    table.pop("\t", None)
    return _Tables(
        table,
        {ord(c): v for c, v in table.items()},
        frozenset(table),
        frozenset(c for c, v in table.items() if len(v) != 1),
    )


@functools.cache
def confusable_letters() -> dict[int, str]:
    """``str.translate`` table folding non-ASCII letters to the ASCII letter they imitate.

    For rendering: the fence folds lookalike letters inside words that mix them with Latin.
    """
    confusables = _load_confusables()
    out: dict[int, str] = {}
    for ch, target in confusables.items():
        proto = _prototype(ch, target)
        if proto is not None and len(proto) == 1 and proto.isalpha() and ch.isalpha():
            out[ord(ch)] = proto
    return out


@functools.cache
def _prototypes() -> dict[str, str]:
    out: dict[str, str] = {}
    for ch, target in _load_confusables().items():
        proto = _PROTOTYPE_FIX.get(target, target)
        out[ch] = "I" if proto == "l" and ch.isupper() else proto
    return out


def lookalike_of(ch: str) -> str | None:
    """The ASCII that ``ch`` imitates per the confusables table, letters-as-digits included
    (``०`` reads as ``o`` inside a word), or ``None``. For finding fence tags, where a reader's
    eye matters more than the digit value."""
    return _prototypes().get(ch)


def reads_as(chars: str) -> frozenset[str]:
    """Non-ASCII characters that fold to, or imitate, one of the ASCII ``chars``."""
    folded = [c for c, v in _tables().table.items() if len(v) == 1 and v in chars]
    looks = [c for c, v in _prototypes().items() if len(v) == 1 and v in chars]
    return frozenset(folded + looks)


def fold_char(ch: str) -> str:
    """The folded form of one character (``""`` when it is dropped)."""
    if len(ch) != 1:
        raise ValueError("fold_char takes exactly one character")
    return _tables().table.get(ch, ch)


def _unescape(text: str, starts: list[int], ends: list[int]) -> tuple[str, list[int], list[int]]:
    out: list[str] = []
    new_starts: list[int] = []
    new_ends: list[int] = []
    pos = 0
    for m in ENTITY.finditer(text):
        decoded = html.unescape(m.group(0))
        if decoded == m.group(0):
            continue
        out.append(text[pos : m.start()])
        new_starts.extend(starts[pos : m.start()])
        new_ends.extend(ends[pos : m.start()])
        out.append(decoded)
        new_starts.extend([starts[m.start()]] * len(decoded))
        new_ends.extend([ends[m.end() - 1]] * len(decoded))
        pos = m.end()
    out.append(text[pos:])
    new_starts.extend(starts[pos:])
    new_ends.extend(ends[pos:])
    return "".join(out), new_starts, new_ends


def fold(text: str) -> Folded:
    """The folded view of ``text`` that every safety rule reads (see the module docstring)."""
    if text.isascii() and not _ASCII_WORK.search(text):
        return Folded(text)
    tables = _tables()
    has_entity = "&" in text and ENTITY.search(text) is not None
    if not has_entity:
        if tables.changed.isdisjoint(text):
            return Folded(text)
        if tables.resized.isdisjoint(text):
            return Folded(text.translate(tables.translate))
    s = text
    starts = list(range(len(text)))
    ends = list(range(1, len(text) + 1))
    for _ in range(4):  # nested entities (``&amp;lt;``) unwrap one level per pass
        if "&" not in s or ENTITY.search(s) is None:
            break
        s, starts, ends = _unescape(s, starts, ends)
    table = tables.table
    out: list[str] = []
    fs: list[int] = []
    fe: list[int] = []
    for i, ch in enumerate(s):
        mapped = table.get(ch, ch)
        if not mapped:
            continue
        out.append(mapped)
        fs.extend([starts[i]] * len(mapped))
        fe.extend([ends[i]] * len(mapped))
    return Folded("".join(out), tuple(fs), tuple(fe))
