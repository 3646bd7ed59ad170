"""The speaker's own words per language, from one data file (``data/first_person.yaml``).

Two rules ask whether a clause is the user's: the money rules (whose money a figure is) and
the fiction exemption (a story about the user's things, whose codes may be theirs). They share
the words and differ on a few ("write me a story": "me" makes a clause the speaker's, not a
thing the speaker owns), so each word carries the uses it counts for and each rule reads its
own pattern built from the one list.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from userlore.policy.data_files import data_yaml

__all__ = ["FirstPerson", "first_person"]


class FirstPerson(NamedTuple):
    """The patterns of ``data/first_person.yaml``, one per use."""

    speaker: re.Pattern[str]
    """The speaker is the subject or the owner ("my", "me", "ich", "mir", "我")."""
    owner: re.Pattern[str]
    """What follows is the speaker's ("my", "mine", "mon", "我的"; not "me", "moi", "mir")."""


@functools.cache
def first_person() -> FirstPerson:
    """Both patterns, built once from the data file."""
    data = data_yaml("first_person.yaml")
    return FirstPerson(*(_pattern(data, use) for use in FirstPerson._fields))


def _pattern(data: dict[str, dict[str, dict[str, list[str]]]], use: str) -> re.Pattern[str]:
    def chosen(section: str) -> str:
        words = {
            w for by_word in data[section].values() for w, uses in by_word.items() if use in uses
        }
        return "|".join(sorted(words, key=lambda w: (-len(w), w)))

    return re.compile(rf"(?i)(?<![\w'])(?:{chosen('words')})(?![\w'])|{chosen('joined')}")
