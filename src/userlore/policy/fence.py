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
only compatibility characters that fold to ASCII letters or to markup punctuation (fullwidth
``＜／ｕｓｅｒ``, mathematical bold letters, small form ``﹤``) are folded, Chinese fullwidth
commas and superscript digits are kept; lookalike letters (the Unicode confusables table, via
``policy.normalize``) are folded only inside words that mix scripts, so Russian or Greek text is
untouched. Finding tags is stricter: it reads a skeleton where every confusable of the whole table
is folded (``˂/user-context˃``, ``ᐸuser-context>``), so no lookalike tag survives.
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
    reads_as,
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
_MARKUP_ASCII = re.compile(r"[A-Za-z<>/&#=_\-\"'\\]")
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
_FENCE_TAG = re.compile(
    # <user-context ...>, </ USER context>, &lt;user-context, <user-context (unclosed)
    rf"(?i){_OPEN}{_GAP}{_SLASH}?{_GAP}{_NAME}(?:{_ATTRS}{_SLASH}?{_GAP}{_CLOSE}|{_GAP}{_SLASH}?)"
    # [/user-context], {/user-context}: other brackets only with the slash of a closing tag
    rf"|{_OPEN_SOFT}{_GAP}{_SLASH}{_GAP}{_NAME}{_ATTRS}{_CLOSE_SOFT}"
    # /user-context> and user-context/> without an opening bracket
    rf"|{_SLASH}{_GAP}{_NAME}{_ATTRS}{_CLOSE}"
    rf"|{_NAME}{_GAP}{_SLASH}?{_GAP}[>›»⟩〉》⟫❯❭]"
)
# Every tag form needs one of these (a bracket, a slash or an escape introducer), or a lookalike
# of one (``˂user-context˃``): see ``_has_tag_hint``.
_TAG_HINT = re.compile(r"[<>‹›«»⟨⟩〈〉《》⟪⟫❮❯❬❭≺≻⧼⧽/\\⁄∕⧸%&]")
_HINT_ASCII: Final = frozenset("<>/\\%&")
_PLAIN_ASCII = re.compile(r"[^<>/\\%&\[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*")
_CHAT_TOKENS = re.compile(r"<\|[^|<>\n]{1,40}\|>|\[/?INST\]|<</?SYS>>", re.IGNORECASE)


@functools.lru_cache(maxsize=4096)
def _fold_char(ch: str) -> str:
    """NFKC of one character, but only when that yields ASCII letters or markup punctuation."""
    folded = unicodedata.normalize("NFKC", ch)
    if folded != ch and folded.isascii() and _MARKUP_ASCII.search(folded):
        return folded
    return ch


_GAP_CHARS: Final = frozenset(" ._·:*~'`^-")


@functools.lru_cache(maxsize=8192)
def _skeleton_char(ch: str) -> str:
    """One-character stand-in used only for finding tags: every lookalike of the Unicode
    confusables table folded to the ASCII it imitates, marks and dropped characters as gaps."""
    if unicodedata.category(ch) in ("Mn", "Me"):
        return "·"
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
def _hint_lookalikes() -> frozenset[str]:
    """Characters that read as a bracket, a slash or an escape introducer."""
    return reads_as("".join(_HINT_ASCII))


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


def _remove_fence_tags(text: str) -> str:
    s = text
    while True:  # each pass shortens the text, so this ends
        skel = _skeleton(s)
        spans = [m.span() for m in _FENCE_TAG.finditer(skel)]
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
    if text.isascii() and _PLAIN_ASCII.fullmatch(text):
        return text  # no bracket, slash, escape or control character: nothing can read as a tag
    s = text
    for _ in range(50):  # removing a tag can complete an entity or a tag: repeat to a fixpoint
        before = s
        s = _normalise(s)
        if not _TAG_HINT.search(s) and (s.isascii() or _hint_lookalikes().isdisjoint(s)):
            break
        if "<|" in s or "[" in s or "<<" in s:
            s = _CHAT_TOKENS.sub("", s)
        s = _remove_fence_tags(s)
        if s == before:
            break
    if "<" in s or ">" in s:
        s = s.replace("<", _LT).replace(">", _GT)
    return s
