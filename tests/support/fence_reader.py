"""An independent reader for fence tests: what a model could still read as a tag after neutralize.

It decodes what a paste carries (entities, percent and ``%u``, quoted-printable, ``\\u``/``\\x``/
octal/CSS escapes) until nothing changes, folds every letter by its Unicode name ("REGIONAL
INDICATOR SYMBOL LETTER U", "NEGATIVE SQUARED LATIN CAPITAL LETTER U", "LATIN LETTER SMALL
CAPITAL U"), NFKC and the confusables table, drops marks and format characters, then looks for a
``user-context`` tag, a chat-template token or a raw line/paragraph separator.
"""

from __future__ import annotations

import html
import re
import unicodedata

from userlore.policy.normalize import lookalike_of

_DECODERS = (
    (re.compile(r"%u([0-9a-fA-F]{4})"), 16),
    (re.compile(r"%([0-9a-fA-F]{2})"), 16),
    (re.compile(r"=([0-9A-F]{2})"), 16),
    (re.compile(r"\\u\{([0-9a-fA-F]{1,6})\}"), 16),
    (re.compile(r"\\u([0-9a-fA-F]{4})"), 16),
    (re.compile(r"\\x([0-9a-fA-F]{2})"), 16),
    (re.compile(r"\\([0-7]{3})"), 8),
    (re.compile(r"\\([0-9a-fA-F]{2,6}) ?"), 16),
)
_NAMED_LETTER = re.compile(
    r"(?:LATIN|REGIONAL INDICATOR SYMBOL).*LETTER (?:SMALL CAPITAL )?([A-Z])$"
)
_TAG = re.compile(
    # a tag is "user context" touching a bracket-like symbol, whichever symbol it is
    r"[^\w\s\-.,;:!?'\"][\W_]*user[\W_]*context|user[\W_]*context[\W_]*[^\w\s\-.,;:!?'\"]"
    r"|[^\w\s]\s*/?\s*i\W*n\W*s\W*t\s*[^\w\s]|[<‹]\s*\|[^|]{1,40}\|\s*[>›]"
    r"|[<‹]{2}\s*/?\s*sys\s*[>›]{2}"
)
_SOFT_BREAK = re.compile(r"=\r?\n")


def decode(text: str) -> str:
    s = text
    for _ in range(6):
        before = s
        s = _SOFT_BREAK.sub("", html.unescape(s))
        for pattern, base in _DECODERS:
            s = pattern.sub(lambda m, b=base: chr(int(m.group(1), b)), s)
        if s == before:
            break
    return s


def _letter(ch: str) -> str:
    if ch.isascii():
        return ch
    if unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return ""
    m = _NAMED_LETTER.search(unicodedata.name(ch, ""))
    if m:
        return m.group(1).lower()
    folded = unicodedata.normalize("NFKC", ch)
    if folded != ch:
        return "".join(_letter(c) for c in folded)
    return lookalike_of(ch) or ch


def reads_as_tag(out: str) -> bool:
    """Whether neutralized text still carries something a model could read as a fence or token."""
    if "\u2028" in out or "\u2029" in out:
        return True
    skeleton = "".join(_letter(c) for c in decode(out)).casefold()
    return _TAG.search(skeleton) is not None
