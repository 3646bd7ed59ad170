"""A short code a request to write fiction gives a character is no one's (issue 29, blind19).

"write a short story where the detective cracks a safe with the code 3-7-1-9", "écris une
nouvelle où un cambrioleur devine le code 2580", "探偵が暗証番号 3719 で金庫を開ける物語を書いて":
the credential rules read a code after its cue and are right to (recall first), but the turn asks
for a story and the code is the story's. The exemption is narrow, so a real code pasted in such a
request is still caught: the request verb opens the turn (the requests, as data per language, in
``data/fiction_requests.yaml``), no first-person word of an owner follows it ("… guesses my real
PIN 7302", "… mi PIN", "我的"; ``data/first_person.yaml``), every digit run of the turn is
short, and only a secret made of digits and separators (at most ``max_digits`` digits) is let
stand, or such a bare figure a money rule read: never an id, an amount with its currency or a
password with letters. The gate reads the same request (``quote_gate``): the story's codes and
figures are its characters'.
"""

from __future__ import annotations

import functools
import re

from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit
from userlore.policy.findings import _REGULATED, _SECRET
from userlore.policy.first_person import first_person

__all__ = ["drop_fiction_codes", "fiction_request"]

_DIGIT_RUN = re.compile(r"\d(?:[\s\-./]?\d)*")
_CODE = re.compile(r"[\d\s\-./]+")


@functools.cache
def _requests() -> tuple[re.Pattern[str], int]:
    data = data_yaml("fiction_requests.yaml")
    patterns = [p for terms in data["requests"].values() for p in terms]
    return re.compile("|".join(f"(?:{p})" for p in patterns)), int(data["max_digits"])


def _digits(run: str) -> int:
    return sum(ch.isdigit() for ch in run)


def fiction_request(text: str) -> bool:
    """``text`` asks for a story whose codes are its characters': the request opens the turn
    (or, in Japanese, closes it), no first-person word follows it and no digit run of the turn
    is longer than a short code."""
    request, most = _requests()
    lowered = text.strip().casefold()
    m = request.search(lowered)
    if m is None:
        return False
    rest = lowered[m.end() :] if m.start() == 0 else lowered[: m.start()]
    if first_person().owner.search(rest) is not None:
        return False
    return all(_digits(r.group(0)) <= most for r in _DIGIT_RUN.finditer(lowered))


def drop_fiction_codes(t: str, hits: list[_Hit]) -> list[_Hit]:
    """``hits`` without the short codes of a request to write fiction (see the module)."""
    if not any(_story_kind(h) for h in hits) or not fiction_request(t):
        return hits
    return [h for h in hits if not (_story_kind(h) and _CODE.fullmatch(t[h[2] : h[3]]))]


def _story_kind(h: _Hit) -> bool:
    """A code or a bare figure ("o código 1212 do cofre" read as money after "conta"), never
    an id."""
    return h[0] is _SECRET or (h[0] is _REGULATED and h[4] == "financial")
