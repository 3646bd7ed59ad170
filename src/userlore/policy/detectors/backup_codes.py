"""Backup codes in a list under its title, and a recovery or licence key in dashed groups
(issue 29, blindfix9a).

blind9 stored "Backup codes\\n1. 8837 2019 2. 5521 0934" and "LKQ2-88WX-T7MZ-40PN" after a
recovery word: every item with four digits or more after a code list's title is a code, and a
run of four or more dashed letter-digit groups is a key in a text that names one. Words in
``data/backup_codes.yaml`` (adding a language is data).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.detectors.common import _Hit
from userlore.policy.detectors.cue_sections import gate_words, sections, starting
from userlore.policy.findings import _SECRET

__all__ = ["checked_recovery_keys", "code_lists", "dashed_keys", "gate_terms"]

_FILE: Final = "backup_codes.yaml"
_SECTIONS: Final = ("code_lists", "key_words")


def gate_terms() -> list[str]:
    """The words either rule starts from (for the late hook's shared gate)."""
    return gate_words(_FILE, _SECTIONS)


# An item of a code list: one or two groups of four to ten letters and digits (four digits or
# more, checked below).
_LIST_ITEM = re.compile(r"(?<![\w\-])[A-Za-z0-9]{4,10}(?:[ \-][A-Za-z0-9]{4,10})?(?![\w\-])")
_LIST_REACH: Final = 400


def code_lists(t: str, lowered: str) -> Iterator[_Hit]:
    """Every item with digits in the stretch after a code list's title."""
    for title in sections(_FILE, _SECTIONS)["code_lists"].find(lowered):
        for m in starting(_LIST_ITEM, t, title.end(), _LIST_REACH):
            if sum(ch.isdigit() for ch in m.group(0)) >= 4:
                yield (_SECRET, "backup_list", m.start(), m.end(), None)


_DASHED = re.compile(r"(?<![\w\-])[A-Za-z0-9]{4,6}(?:-[A-Za-z0-9]{4,6}){3,7}(?![\w\-])")


def dashed_keys(t: str, lowered: str) -> Iterator[_Hit]:
    """A key in four or more dashed groups of letters and digits in a text naming a key."""
    if "-" not in t or not sections(_FILE, _SECTIONS)["key_words"].find(lowered):
        return
    for m in _DASHED.finditer(t):
        run = m.group(0)
        if sum(ch.isdigit() for ch in run) >= 2 and sum(ch.isalpha() for ch in run) >= 2:
            yield (_SECRET, "dashed_groups", m.start(), m.end(), None)


# A BitLocker recovery key: eight groups of six digits joined by one separator, each group a
# multiple of 11 (Microsoft's own check of a typed key; a real group is also below 11 x 65536,
# not asked: a key copied with a slip, or written from memory, is still the user's key). One
# random run of 48 digits passes it once in 11^8, so it needs no word beside it, in any
# language (blind22, blindfix22a).
_EIGHT_GROUPS = re.compile(
    r"(?<![\w\-])\d{6}(?P<sep>[ \-.])\d{6}(?:(?P=sep)\d{6}){6}(?![\w\-]|\.\d)"
)


def checked_recovery_keys(t: str) -> Iterator[_Hit]:
    """BitLocker recovery keys whose every group passes the key's check."""
    for m in _EIGHT_GROUPS.finditer(t):
        if all(int(g) % 11 == 0 for g in re.split(r"[ \-.]", m.group(0))):
            yield (_SECRET, "recovery_key", m.start(), m.end(), None)
