"""Code in a line of prose, stripped so the identifier reads the line's words.

A 40-character commit hash outweighs "the fix landed in", which the identifier then places in
no language; a version or a pinned package is code's number, no value. The identifier
(``policy.language``) and the relatives' check (``policy.known_words``) read a line without
them; the quote gate blanks versions before it looks for values. Split out of
``policy/language.py`` (tidy15).
"""

from __future__ import annotations

import re

from userlore.policy.word_lists import MIN_LETTERS, _plain_letters

__all__ = ["without_code_tokens", "without_versions"]

# A token of code: sixteen characters or more of letters, digits and a token's symbols, with
# a digit in it (a commit hash, a digest, a request id, a key).
_CODE_TOKEN = re.compile(r"(?<![^\s(\"'])(?=\S*\d)[\w+/=.:\-]{16,}(?=[.,;:!?)\"']*(?:\s|$))")


# Shorter code: a short commit hash (seven hex characters or more, letters and digits), a
# version ("1.26.4", "v3.2.5") and a pinned package ("pydantic==2.7.1", "react@18.2.0"; its
# version blanked as public material, "pydantic==     ").
_VERSION = r"v\d+(?:\.\d+){1,3}|(?!\d{1,3}(?:\.\d{3})+(?!\.?\d))\d+(?:\.\d+){2,3}"
_PIN = r"[\w.\-]+(?:[=<>~!]=|@)(?:v?\d[\w.\-]*)?"
_END = r"(?=[.,;:!?)\"']*(?:\s|$))"
_SHORT_CODE = re.compile(
    rf"(?<![\w.])(?:(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{{7,40}}|{_VERSION}|{_PIN}){_END}"
)
# What no value is: a version or a pin, and a short hash after a commit word.
_NO_VALUE = re.compile(
    rf"(?<![\w.])(?:{_VERSION}|{_PIN}){_END}"
    rf"|(?<=commit )(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{{7,12}}{_END}",
    re.IGNORECASE,
)


def without_versions(text: str) -> str:
    """``text`` with its versions and pinned packages blanked, and a short hash after
    "commit" ("commit e4d2c91 bumps numpy to 1.26.4"): code's numbers, no value."""
    return _NO_VALUE.sub(lambda m: " " * len(m.group(0)), text)


# A capitalised word after a sentence's first: in a line of code, a product's or a
# library's name ("Spring Boot", "Django"), no word of the sentence's language.
_NAME = re.compile(r"(?<=\S)(\s+)[A-Z][\w\-]*")


def without_code_tokens(text: str) -> str | None:
    """``text`` without its code tokens when enough words are left to identify
    (:data:`MIN_LETTERS`); else None. A 40-character commit hash outweighs "the fix landed
    in", which the identifier then places in no language (``zxx``); the words say English.
    In a line with shorter code (a short hash, a version, a pin) the names go too: "commit
    0be7f4a atualiza o Spring Boot pra 3.2.5" is Portuguese by its words (blind14)."""
    if "==" not in text and not any(ch.isdigit() for ch in text):
        return None  # the floor blanks a pin's version: "pydantic==     "
    stripped = _CODE_TOKEN.sub(" ", text)
    short = _SHORT_CODE.sub(" ", stripped)
    if short != stripped:
        named = _NAME.sub(" ", short)
        stripped = named if _plain_letters(named) >= MIN_LETTERS else short
    if stripped == text or _plain_letters(stripped) < MIN_LETTERS:
        return None
    return " ".join(stripped.split())
