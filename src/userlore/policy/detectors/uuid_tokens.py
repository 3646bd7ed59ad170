"""A UUID right after a token, key or secret word is the credential (issue 29, blind15).

"アクセストークンが 8f2c1a9e-5b7d-4c3e-a1f0-6d9b2e8c7a41 でシークレットが …" redacted the
secret and stored the token: a UUID has too few letter kinds for the entropy rules, and many
vendors issue UUID-shaped tokens and API keys. The cue is a word of ``data/uuid_tokens.yaml``
within a short reach before the UUID, in the same sentence, with no id word between them
("request id", "订单号"): a UUID after an id word, after a token word an idempotency or page
word names ("idempotency token"), or a placeholder one ("0000…", "xxxxxxxx-…"), is no secret.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit, _is_placeholder
from userlore.policy.findings import _SECRET

__all__ = ["uuid_tokens"]

RULE: Final = "uuid_token"
_UUID = re.compile(
    r"(?<![\w-])[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?![\w-])"
)
_REACH: Final = 32
_SENTENCE_END = re.compile(r"[!?。！？\n;]|\.(?!\w)")


@dataclass(frozen=True, slots=True)
class _Words:
    tokens: re.Pattern[str]
    ids: re.Pattern[str]
    not_tokens: re.Pattern[str]


@functools.cache
def _words() -> _Words:
    data = data_yaml("uuid_tokens.yaml")

    def alternation(words: list[str]) -> re.Pattern[str]:
        # Latin words stand alone or end a compound ("Zugriffstoken"); CJK words anywhere.
        ordered = sorted(map(str, words), key=len, reverse=True)
        latin = "|".join(re.escape(w) for w in ordered if not _cjk(w))
        cjk = "|".join(re.escape(w) for w in ordered if _cjk(w))
        return re.compile(rf"(?:{latin})(?![^\W\d_])" + (f"|{cjk}" if cjk else ""))

    return _Words(
        tokens=alternation(data["token_words"]),
        ids=alternation(data["id_words"]),
        not_tokens=alternation(data["not_tokens"]),
    )


def _cjk(word: str) -> bool:
    return any(ord(c) >= 0x3000 for c in word)


def uuid_tokens(t: str, lowered: str) -> Iterator[_Hit]:
    """Secret hits for UUIDs after a token word (see the module docstring)."""
    if t.count("-") < 4:
        return
    w = _words()
    for m in _UUID.finditer(t):
        if _is_placeholder(m.group(0).replace("-", "")):
            continue
        before = lowered[max(0, m.start() - _REACH) : m.start()]
        cue = max(w.tokens.finditer(before), key=lambda c: c.end(), default=None)
        if cue is None:
            continue
        between = before[cue.end() :]
        if _SENTENCE_END.search(between) or _id_word(w, between):
            continue
        if w.not_tokens.search(before, max(0, cue.start() - 16), cue.start()):
            continue  # "the idempotency token was …": no credential's token
        yield (_SECRET, RULE, m.start(), m.end(), None)


def _id_word(w: _Words, between: str) -> bool:
    return any(
        m.start() == 0 or not between[m.start() - 1].isalpha() or not between.isascii()
        for m in w.ids.finditer(between)
    )
