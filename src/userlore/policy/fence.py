"""Neutralisation of record text before it goes inside the ``<user-context>`` fence.

Escaping only the literal ``</user-context>`` let 9 of 40 injection attempts out (case changes,
inner spaces, attributes, HTML entities, fullwidth brackets, lookalike letters, zero-width
characters, soft hyphens, bidi controls, Unicode TAG characters). What held all of them:
normalise, remove anything that reads as a fence tag, then make angle brackets impossible.

Angle brackets become the single guillemets ``‹`` and ``›``, not the six-character sequences
``\\u003c``/``\\u003e``: the planner renders entries with ``json.dumps``, which would double a
literal backslash into ``\\\\u003c`` (unreadable, and an invitation to decode it), while ``‹ ›``
keep ``a < b`` and ``List<int>`` readable, are no markup to any tokenizer or parser, and are
NFKC-stable, so ``neutralize`` is idempotent. They are treated as brackets when looking for fence
tags, so ``‹/user-context›`` is removed too.

Normalisation is deliberately narrower than a blanket NFKC so benign records stay as written:
only compatibility characters that fold to markup punctuation (fullwidth ``＜／``, small form
``﹤``) are folded; letters of every style (circled ``ⓐ``, mathematical bold, fullwidth) and Chinese
fullwidth commas are kept; lookalike letters (the Unicode confusables table, via
``policy.normalize``) are folded only inside words that mix scripts, so Russian or Greek text is
untouched. U+2028 and U+2029 become spaces: a raw separator would split an entry.

Finding tags is stricter and reads a separate view, never stored: escapes a paste carries are
decoded first (percent, ``%u``, quoted-printable with soft breaks, ``\\u``/``\\u{}``/``\\x``, octal
and CSS escapes, nested ``%253C`` too), then every confusable of the whole table is folded
(``˂/user-context˃``, ``ᐸuser-context>``), letters are read by their Unicode names (regional
indicators ``🇺🇸``, negative squared ``🆄``, small capitals ``ᴜꜱᴇʀ``), combining marks become gaps,
and any symbol touching a ``user-context`` name counts as a bracket (``ᑉ/user-contextᑊ``).
Chat-template tokens (``[INST]``, ``<|im_start|>``, ``<<SYS>>``) are found the same way. On 98
attack payloads written before this view, 38 read as a tag on main and 0 after; a second set of
61, written after, escaped 4 times at first sight and 0 after (``tests/data/fence``).
"""

from __future__ import annotations

import functools
import html
import re
import unicodedata
from typing import Final

from userlore.policy.normalize import (
    ENTITY,
    confusable_letters,
    fold_char,
    lookalike_of,
)

__all__ = ["FENCE_CLOSE", "FENCE_OPEN", "neutralize"]

FENCE_OPEN: Final = "<user-context>"
"""Opening tag of the system-owned context block."""
FENCE_CLOSE: Final = "</user-context>"
"""Closing tag of the system-owned context block."""

_LT: Final = "‹"
_GT: Final = "›"

# Unicode format characters (category Cf, Unicode 14) plus a few invisible fillers. TAG
# characters (U+E0020-E007E) are decoded to ASCII before this runs, so hidden text becomes
# visible data instead of vanishing.
_INVISIBLE = re.compile(
    "[\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b\u200c\u200e\u200f"
    "\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd"
    "\U00013430-\U00013438\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e007f"
    "\u034f\u115f\u1160\u3164\uffa0\u17b4\u17b5\u0000-\u0008\u000b\u000c\u000e-\u001f"
    "\u007f-\u009f]"
)
# A zero-width joiner is kept only inside emoji sequences (family, profession emoji).
_EMOJI = "\U0001f000-\U0001faff\u2600-\u27bf\ufe0f\U0001f3fb-\U0001f3ff"
_STRAY_ZWJ = re.compile(f"(?<![{_EMOJI}])\u200d|\u200d(?![{_EMOJI}])")
_TAG_CHARS = re.compile("[\U000e0000-\U000e007f]")
_TAG_TABLE: Final = {cp: cp - 0xE0000 for cp in range(0xE0020, 0xE007F)}
# Non-ASCII characters outside the big CJK and Hangul blocks (which have no compatibility
# forms that matter here), so Chinese text costs one regex scan and no per-character work.
_NON_ASCII = re.compile("[^\x00-\x7f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
_MARKUP_ASCII = re.compile(r"[<>/&#=_\-\"'\\]")
# Entities with a semicolon, numeric ones, and the markup ones browsers also accept bare
# (``&lt/user-context&gt``); bare ``&not``/``&copy`` in URLs (``?a=1&notify=1``) are left alone.
_ENTITY = ENTITY

# Lookalike letters are folded from the Unicode confusables table (``policy.normalize``); these
# Cyrillic letters are not in it (they imitate small capitals) but read as Latin inside a Latin
# word, so mixed words fold them too.
_EXTRA_LOOKALIKES: Final = str.maketrans(
    {"в": "b", "к": "k", "м": "m", "н": "h", "т": "t", "п": "n", "ё": "e", "ѐ": "e", "ї": "i"}
)
_WORD = re.compile(r"\w+")
_LATIN = re.compile(r"[A-Za-z]")

# What reads as a fence tag: an opening bracket of any kind (also percent/backslash escapes),
# an optional slash, "user" and "context" with any separators, case, marks or spaces between
# the letters, attributes, and an optional closing bracket.
_MARKS = "\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
_GAP = f"[\\s{_MARKS}._·:*~'`^\\-]*"
_OPEN = r"(?:[<‹«⟨〈《⟪❮❬≺⧼]|\\u0*3[cC]|\\x3[cC]|%3[cC]|&lt;?)"
_CLOSE = r"(?:[>›»⟩〉》⟫❯❭≻⧽]|\\u0*3[eE]|\\x3[eE]|%3[eE]|&gt;?)"
_OPEN_SOFT = r"[\[{(]"
_CLOSE_SOFT = r"[\]})]"
_SLASH = r"(?:[/\\⁄∕⧸]|%2[fF]|\\u0*2[fF])"
# ``0`` for ``o``: the confusables table lists the digit as a lookalike of the letter.
_NAME = (
    f"u{_GAP}s{_GAP}e{_GAP}r(?:{_GAP}|[\\s_\\-.:]*)c{_GAP}[o0]{_GAP}n{_GAP}t{_GAP}e{_GAP}x{_GAP}t"
)
_ATTRS = r"[^<>‹›\n]{0,200}?"
_ODD = r"(?:[^\w\s*_`'\".,;:!?=&#+%@\-]|[^\x00-\x7f\s])"
_FENCE_TAG = re.compile(
    # <user-context ...>, </ USER context>, &lt;user-context, <user-context (unclosed)
    rf"(?i){_OPEN}{_GAP}{_SLASH}?{_GAP}{_NAME}(?:{_ATTRS}{_SLASH}?{_GAP}{_CLOSE}|{_GAP}{_SLASH}?)"
    # [/user-context], {/user-context}: other brackets only with the slash of a closing tag
    rf"|{_OPEN_SOFT}{_GAP}{_SLASH}{_GAP}{_NAME}{_ATTRS}{_CLOSE_SOFT}"
    # /user-context> and user-context/> without an opening bracket
    rf"|{_SLASH}{_GAP}{_NAME}{_ATTRS}{_CLOSE}"
    rf"|{_NAME}{_GAP}{_SLASH}?{_GAP}[>›»⟩〉》⟫❯❭]"
    # a bracket no table knows (ᑉ ⦉ ❰ ⊰ ⋖): any symbol or non-Latin character before the slash
    # of a closing tag, or on both sides of the name
    rf"|{_ODD}{_GAP}{_SLASH}{_GAP}{_NAME}(?:{_GAP}{_ODD})?|{_ODD}{_GAP}{_NAME}{_GAP}{_ODD}"
)
# Every tag form needs one of these (a bracket, a slash or an escape introducer), or a lookalike
# of one (``˂user-context˃``): see ``_has_tag_hint``.
_TAG_HINT = re.compile(r"[<>‹›«»⟨⟩〈〉《》⟪⟫❮❯❬❭≺≻⧼⧽/\\⁄∕⧸%&\[［]|=3[cCeE]")
# ``(INST)``, ``|user-context|``: a tag spelled with ASCII symbols that carry no other hint.
_NAME_HINT = re.compile(r"(?i)i\W*n\W*s\W*t|u\W*s\W*e\W*r\W*c")
_PLAIN_ASCII = re.compile(r"[^<>/\\%&\[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*")
_CHAT_TOKENS = re.compile(
    rf"{_OPEN}{_GAP}\|[^|<>\n]{{1,40}}\|{_GAP}{_CLOSE}|(?:[\[(]|{_ODD}){_GAP}{_SLASH}?{_GAP}I{_GAP}N{_GAP}S"
    rf"{_GAP}T{_GAP}(?:[\])]|{_ODD})|{_OPEN}{{2}}{_GAP}{_SLASH}?{_GAP}S{_GAP}Y{_GAP}S{_GAP}{_CLOSE}{{2}}",
    re.IGNORECASE,
)


@functools.lru_cache(maxsize=4096)
def _fold_char(ch: str) -> str:
    """NFKC of one character, but only when that yields ASCII letters or markup punctuation."""
    folded = unicodedata.normalize("NFKC", ch)
    if folded != ch and folded.isascii() and _MARKUP_ASCII.search(folded):
        return folded
    return ch


_GAP_CHARS: Final = frozenset(" ._·:*~'`^-")


# Letters the confusables table and NFKC leave alone but a reader still spells: regional
# indicators (🇺🇸), negative circled and squared letters (🅤 🆄), small capitals missing from the
# table. Unicode's own character names say which letter each one is.
_NAMED_LETTER = re.compile(
    r"^(?:REGIONAL INDICATOR SYMBOL|(?:NEGATIVE |)(?:CIRCLED|SQUARED|PARENTHESIZED)"
    r"(?: LATIN)?(?: CAPITAL| SMALL)?) LETTER ([A-Z])$|^LATIN LETTER SMALL CAPITAL ([A-Z])$"
)


@functools.lru_cache(maxsize=8192)
def _skeleton_char(ch: str) -> str:
    """One-character stand-in used only for finding tags: every lookalike of the Unicode
    confusables table folded to the ASCII it imitates, letters named as letters (regional
    indicators, enclosed and small-capital letters) to theirs, marks and dropped characters as
    gaps."""
    if unicodedata.category(ch) in ("Mn", "Me"):
        return "·"
    named = _NAMED_LETTER.match(unicodedata.name(ch, ""))
    if named:
        return (named.group(1) or named.group(2)).lower()
    folded = lookalike_of(ch) or fold_char(ch)
    if len(folded) == 1:
        return folded
    if all(c in _GAP_CHARS for c in folded):
        return "·"  # dropped (""), or an ellipsis
    return ch


def _fold_compat(text: str) -> str:
    """NFKC only where the result is ASCII letters or markup punctuation."""
    return _NON_ASCII.sub(lambda m: _fold_char(m.group(0)), text)


def _fold_mixed_words(text: str) -> str:
    """Fold lookalike letters in words that mix Latin with another script (or two others)."""
    letters = confusable_letters()

    def fold(m: re.Match[str]) -> str:
        word = m.group(0)
        if word.isascii():
            return word
        if _LATIN.search(word) or len({_script(c) for c in word if c.isalpha()}) > 1:
            return word.translate(letters).translate(_EXTRA_LOOKALIKES)
        return word

    return _WORD.sub(fold, text)


def _script(ch: str) -> str:
    cp = ord(ch)
    if cp < 0x250:
        return "latin"
    if 0x370 <= cp < 0x400:
        return "greek"
    if 0x400 <= cp < 0x530:
        return "cyrillic"
    if 0x530 <= cp < 0x590:
        return "armenian"
    return "other"


def _normalise_once(text: str) -> str:
    s = text
    if "&" in s:
        s = _ENTITY.sub(lambda m: html.unescape(m.group(0)), s)
    if s.isascii():
        return _INVISIBLE.sub("", s) if _INVISIBLE.search(s) else s
    if "\u2028" in s or "\u2029" in s:
        s = s.replace("\u2028", " ").replace("\u2029", " ")  # no raw separator splits an entry
    if _TAG_CHARS.search(s):
        s = s.translate(_TAG_TABLE)
    s = _INVISIBLE.sub("", s)
    if "\u200d" in s:
        s = _STRAY_ZWJ.sub("", s)
    s = _fold_compat(s)
    s = unicodedata.normalize("NFC", s)
    if not _lookalike_letters().isdisjoint(s):
        s = _fold_mixed_words(s)
    return s


def _skeleton(text: str) -> str:
    """Same-length view with every lookalike folded and every combining mark turned into a gap,
    for finding fence tags (``u\u0332s\u0332e\u0332r`` reads as "user")."""
    if text.isascii():
        return text
    return "".join([c if c.isascii() else _skeleton_char(c) for c in text])


@functools.cache
def _lookalike_letters() -> frozenset[str]:
    letters = confusable_letters()
    return frozenset(chr(cp) for cp in letters) | frozenset(chr(cp) for cp in _EXTRA_LOOKALIKES)


def _normalise(text: str) -> str:
    s = text
    for _ in range(50):  # nested entities (``&amp;amp;lt;``) unwrap one level per pass
        nxt = _normalise_once(s)
        if nxt == s:
            break
        s = nxt
    return s


# What a paste carries: ``%uXXXX``, percent and quoted-printable bytes, ``\\u{..}``, ``\\uXXXX``,
# ``\\xXX``, octal and CSS escapes. Decoded only in the view that finds tags, never in stored text
# ("50% off", "a=3D" and ``C:\\Users`` stay as written).
_ESCAPE = re.compile(
    r"%u([0-9a-fA-F]{4})|%([0-9a-fA-F]{2})|=([0-9a-fA-F]{2})|\\u\{([0-9a-fA-F]{1,6})\}"
    r"|\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})|\\([0-7]{3})|\\([0-9a-fA-F]{2,6}) ?|(=\r?\n)"
)
_ESCAPE_BASES: Final = (16, 16, 16, 16, 16, 16, 8, 16)  # then a quoted-printable soft break
_ESCAPE_HINT = re.compile(r"[%\\]|=[0-9a-fA-F]{2}|=\r?\n")


def _decoded(text: str) -> tuple[str, list[int], list[int]]:
    """``text`` with escapes decoded (nested ones too), and each character's span in ``text``."""
    s, starts, ends = text, list(range(len(text))), list(range(1, len(text) + 1))
    for _ in range(4):  # %253C -> %3C -> <
        if not _ESCAPE_HINT.search(s):
            break
        out: list[str] = []
        new_starts: list[int] = []
        new_ends: list[int] = []
        pos = 0
        for m in _ESCAPE.finditer(s):
            group = next(i for i, g in enumerate(m.groups()) if g is not None)
            code = int(m.group(group + 1), _ESCAPE_BASES[group]) if group < 8 else 0
            if code > 0x10FFFF:
                continue
            out.append(s[pos : m.start()])
            new_starts.extend(starts[pos : m.start()])
            new_ends.extend(ends[pos : m.start()])
            if group < 8:  # a soft line break decodes to nothing
                out.append(chr(code))
                new_starts.append(starts[m.start()])
                new_ends.append(ends[m.end() - 1])
            pos = m.end()
        if not out:
            break
        out.append(s[pos:])
        new_starts.extend(starts[pos:])
        new_ends.extend(ends[pos:])
        s, starts, ends = "".join(out), new_starts, new_ends
    return s, starts, ends


def _tag_spans(text: str) -> list[tuple[int, int]]:
    """Spans of ``text`` that read as a fence tag or a chat-template token once decoded and
    folded, in order and without overlap."""
    view, starts, ends = _decoded(text)
    skel = _skeleton(view)
    found = sorted(
        m.span() for pattern in (_FENCE_TAG, _CHAT_TOKENS) for m in pattern.finditer(skel)
    )
    spans: list[tuple[int, int]] = []
    for a, b in found:
        if b <= a:
            continue
        start, end = starts[a], ends[b - 1]
        if spans and start < spans[-1][1]:
            spans[-1] = (spans[-1][0], max(end, spans[-1][1]))
        else:
            spans.append((start, end))
    return spans


def _remove_fence_tags(text: str) -> str:
    s = text
    while True:  # each pass shortens the text, so this ends
        spans = _tag_spans(s)
        if not spans:
            break
        out: list[str] = []
        pos = 0
        for start, end in spans:
            out.append(s[pos:start])
            pos = end
        out.append(s[pos:])
        s = "".join(out)
    return s


def neutralize(text: str) -> str:
    """Make ``text`` safe to place inside the ``<user-context>`` fence as data.

    Normalises (HTML entities, TAG characters, zero-width/format characters, fullwidth and
    mathematical letters, mixed-script lookalikes), removes anything that reads as a
    ``user-context`` tag and chat-template control tokens, and turns every remaining ``<`` and
    ``>`` into ``‹`` and ``›``. Text without markup, invisible characters or lookalike tricks
    comes back unchanged.
    """
    if (
        text.isascii()
        and _PLAIN_ASCII.fullmatch(text)
        and not _TAG_HINT.search(text)
        and not _NAME_HINT.search(text)
    ):
        return text  # no bracket, slash, escape or control character: nothing can read as a tag
    s = text
    for _ in range(50):  # removing a tag can complete an entity or a tag: repeat to a fixpoint
        before = s
        s = _normalise(s)
        if s.isascii() and not _TAG_HINT.search(s) and not _NAME_HINT.search(s):
            break  # other text always gets one look: a bracket no table knows needs no hint
        s = _remove_fence_tags(s)
        if s == before:
            break
    if "<" in s or ">" in s:
        s = s.replace("<", _LT).replace(">", _GT)
    return s
