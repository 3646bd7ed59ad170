"""A time written as four digits after a time word (issue 29, blindfix22a).

blind22 redacted "set an alarm for 0630" as a lock's code (an alarm is a lockable thing) and
"pon una alarma a las 0630" as a credential's (an alarm word is a credential cue): a valid
24-hour ``HHMM`` right after a word that puts a time there (``data/clock_times.yaml``: "for",
"at", "a las", "um", "à", "às", 在, を) is a time. The alarm's code after a copula ("the alarm
code is 0630") has no such word before it and stays a code. :data:`CLOCK_TIMES` is a time
written with its separator ("10:30", "14 h 30", "17h"), which the quote gate blanks.
"""

from __future__ import annotations

import functools
import re
from typing import Final

from userlore.policy.detectors.cue_sections import sections

__all__ = ["CLOCK_TIMES", "clock_time"]

_FILE: Final = "clock_times.yaml"
# A clock time, hours and minutes in range ("10:30", "14 h 30", "8h15", "17h"): beside an
# identifier's word it is an appointment's, not the identifier (blindfix22b: "cita a las 10:30
# … el NIE").
CLOCK_TIMES: Final = re.compile(
    r"(?<![\d:.,])(?:[01]?\d|2[0-3])(?:(?::| ?[hH] ?)[0-5]\d(?![\d:.,])|[hH](?![\w]))"
)
_HHMM = re.compile(r"(?:[01]\d|2[0-3])[0-5]\d")
_REACH: Final = 16


@functools.cache
def _before() -> re.Pattern[str]:
    pattern = sections(_FILE, ("before",))["before"].pattern
    return re.compile(rf"(?:{pattern.pattern})\s*$", pattern.flags)


def clock_time(t: str, start: int, end: int) -> bool:
    """``t[start:end]`` is four digits of a valid 24-hour time right after a time word."""
    if _HHMM.fullmatch(t, start, end) is None:
        return False
    return _before().search(t[max(0, start - _REACH) : start].lower()) is not None
