"""Time expressions (English, Chinese): the window a question asks about, a statement's validity.

Dates are found and resolved by ``dateparser`` (offline; ``RELATIVE_BASE`` is the turn's or the
plan's time), never by hand-written date patterns. What is ours is small: the granularity of a
matched expression (a day, a week, a month, a year: the window it names), and the cues that make
a date the *end* of a statement's validity ("until Friday", "到周五") or a duration ("for two
weeks"). dateparser's matches are screened: a bare short word ("we", "may", "sat") is far more
often not a date.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from dateparser.languages.loader import default_loader
from dateparser.search import search_dates

from userlore.policy.sensitivity import SensitivityLevel, classify

__all__ = ["TimeWindow", "Validity", "names_time", "question_window", "validity"]

_LANGUAGES = ["en", "zh"]
_CJK = re.compile(r"[\u4e00-\u9fff]")
_HAS_DIGIT = re.compile(r"\d")
_NUMBER = re.compile(r"(?<![A-Za-z0-9])\d+(?:st|nd|rd|th)?(?![A-Za-z0-9])", re.IGNORECASE)
# Granularity of an expression: which window "last week", "上个月" or "in May 2023" names.
_WEEK = re.compile(r"\bweeks?\b|(?:周|星期|礼拜)(?![一二三四五六日天末])", re.IGNORECASE)
_MONTH = re.compile(
    r"\bmonths?\b|月|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b", re.IGNORECASE
)
_YEAR = re.compile(r"\byears?\b|年|(?<!\d)\d{4}(?!\d)", re.IGNORECASE)
_DAY_NUMBER = re.compile(r"(?<!\d)(?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?(?![\d月年])|[日号]")
# Cues before a date that make it the end of a validity ("until Friday", "到周五").
_UNTIL = re.compile(r"(?:\buntil|\btill|\bthrough|\bthru|直到|截止到|截至|到)\s*$", re.IGNORECASE)
# A duration ("for two weeks", "这两周"): the statement holds from now for that long.
_NAMED = re.compile(
    r"\b(?:next|tomorrow|tonight|coming|upcoming|weekend|monday|tuesday|wednesday|thursday|"
    r"friday|saturday|sunday|january|february|march|april|june|july|august|september|october|"
    r"november|december)\b|[下明后]|周[一二三四五六日天末]|星期|礼拜",
    re.IGNORECASE,
)
"""A future period must be named ("next month", "on Friday", "下个月"): a bare number ("type 2",
"3 coffees", "4 days a week") is a count, not a time."""
_BY = re.compile(
    r"(?:\bby|\bbefore|\bahead\s+of|\bno\s+later\s+than)\s*(?:the\s+end\s+of\s+)?$",
    re.IGNORECASE,
)
_BEFORE_ZH = re.compile(r"^\s*(?:之前|以前|前)")
"""A deadline ("by June", "before Friday", "六月前") ends a statement's time, never starts it."""
_EVERY = re.compile(r"\bevery\b|\beach\b|每|逢", re.IGNORECASE)
"""A recurrence ("every Sunday", "每周日") says how often, not when a statement holds."""
_FOR = re.compile(r"(?:\bfor(?:\s+the\s+next)?|接下来的?|这)\s*$", re.IGNORECASE)


# Which parts of dateparser's own locale data make a text worth parsing (most questions name no
# time, and a search costs milliseconds where the plan has a few in all).
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august")
_CUE_KEYS = (
    *_MONTHS,
    *("september", "october", "november", "december"),
    *("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"),
    *("year", "month", "week", "day", "decade", "century", "fortnight"),
    *("relative-type", "ago", "in"),
)
_TOO_COMMON = frozenset(
    {"after", "before", "from", "this", "now", "next", "last", "date", "在", "前"}
)
_WORD = re.compile(r"[a-z]+")


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for inner in value.values():
            yield from _strings(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _strings(inner)


@functools.cache
def _cues() -> tuple[frozenset[str], tuple[str, ...]]:
    """English cue words and Chinese cue strings, from dateparser's locale data."""
    words: set[str] = set()
    for language in _LANGUAGES:
        info = default_loader.get_locale(language).info
        for key in _CUE_KEYS:
            for phrase in _strings(info.get(key, [])):
                words.update(phrase.casefold().split())
    words -= _TOO_COMMON
    english = frozenset(w for w in words if _WORD.fullmatch(w) and len(w) >= 3)
    chinese = tuple(sorted(w for w in words if _CJK.search(w)))
    return english, chinese


def names_time(text: str) -> bool:
    """Whether ``text`` may hold a time expression: a number standing alone ("2023", "3rd",
    "5月"; not "w4321" or "gpt4") or a word of dateparser's locales."""
    if _NUMBER.search(text):
        return True
    english, chinese = _cues()
    folded = text.casefold()
    return any(w in english for w in _WORD.findall(folded)) or any(c in text for c in chinese)


@dataclass(frozen=True, slots=True)
class TimeWindow:
    """A half-open event-time window ``[start, end)``, timezone-aware UTC."""

    start: datetime
    end: datetime

    def __contains__(self, moment: object) -> bool:
        return isinstance(moment, datetime) and self.start <= moment < self.end


@dataclass(frozen=True, slots=True)
class Validity:
    """When a statement holds: either bound may be open (``None``)."""

    valid_from: datetime | None
    valid_until: datetime | None


def _found(text: str, base: datetime, prefer: str) -> list[tuple[int, str, datetime]]:
    """``(offset, expression, moment)`` of each plausible date expression in ``text``."""
    if not names_time(text):
        return []
    settings: dict[str, Any] = {
        "RELATIVE_BASE": base.astimezone(UTC).replace(tzinfo=None),
        "PREFER_DATES_FROM": prefer,
        "RETURN_AS_TIMEZONE_AWARE": False,
    }
    try:
        hits = search_dates(text, languages=_LANGUAGES, settings=settings) or []
    except (ValueError, OverflowError):  # an out-of-range date in free text
        return []
    out: list[tuple[int, str, datetime]] = []
    cursor = 0
    for expression, moment in hits:
        at = text.find(expression, cursor)
        if at < 0:
            continue
        cursor = at + len(expression)
        word = expression.strip()
        if not (_CJK.search(word) or _HAS_DIGIT.search(word) or len(word) >= 5):
            continue
        out.append((at, word, moment.replace(tzinfo=UTC)))
    return out


def _period(expression: str, moment: datetime) -> TimeWindow | None:
    """The calendar window the expression names around ``moment`` (UTC); ``None`` at the edge
    of the calendar (year 1 or 9999), where the window cannot be represented."""
    try:
        return _calendar_window(expression, moment)
    except (ValueError, OverflowError):
        return None


def _calendar_window(expression: str, moment: datetime) -> TimeWindow:
    day = moment.replace(hour=0, minute=0, second=0, microsecond=0)
    dated = _DAY_NUMBER.search(expression) is not None
    if _WEEK.search(expression):
        start = day - timedelta(days=day.weekday())
        return TimeWindow(start, start + timedelta(days=7))
    if _MONTH.search(expression) and not dated:
        start = day.replace(day=1)
        return TimeWindow(start, (start + timedelta(days=32)).replace(day=1))
    if _YEAR.search(expression) and not dated:
        start = day.replace(month=1, day=1)
        return TimeWindow(start, start.replace(year=start.year + 1))
    return TimeWindow(day, day + timedelta(days=1))


def question_window(query: str, now: datetime) -> TimeWindow | None:
    """The event-time window a question asks about ("last week", "上周", "in May 2023").

    ``None`` when the question names no time; the windows of several expressions are joined.
    """
    found = _found(query, now, "past")
    if found:
        # A value the floor flags (a PIN "2019", a card) is no date: the window lands in the
        # plan's trace, and a trace never carries a value derived from flagged text.
        flagged = [
            (f.start, f.end)
            for f in classify(query).findings
            if f.level in (SensitivityLevel.SECRET, SensitivityLevel.REGULATED)
        ]
        values = {d for s, t in flagged if (d := "".join(filter(str.isdigit, query[s:t])))}
        found = [
            (at, e, m)
            for at, e, m in found
            if not any(s < at + len(e) and at < t for s, t in flagged)
            and not any(v in "".join(filter(str.isdigit, e)) for v in values)
        ]
    if not found:
        return None
    windows = [w for _, e, m in found if (w := _period(e, m)) is not None]
    if not windows:
        return None
    return TimeWindow(min(w.start for w in windows), max(w.end for w in windows))


def validity(statement: str, at: datetime) -> Validity | None:
    """The validity interval a relative expression gives a statement made at ``at``.

    "until Friday" / "到周五" end it with that day ("until next month": when that month begins);
    "for two weeks" ends it two weeks after ``at``; a future period ("next month", "下个月",
    "tomorrow") is when it holds. A past or bare date says when something happened, not how
    long it holds: ``None``.
    """
    for offset, expression, moment in _found(statement, at, "future"):
        before = statement[:offset]
        if _EVERY.search(before) or _EVERY.search(expression):
            continue
        window = _period(expression, moment)
        if window is None:
            continue
        deadline = _BY.search(before) or _BY.search(f"{expression.split()[0]} ")
        if deadline or _BEFORE_ZH.search(statement[offset + len(expression) :]):
            return Validity(None, window.end)
        if _UNTIL.search(before):
            # "until Friday" includes Friday; "until next month" ends when next month begins.
            daily = window.end - window.start <= timedelta(days=1)
            return Validity(None, window.end if daily else window.start)
        if _FOR.search(before):
            return Validity(None, moment) if moment > at else None
        if window.start > at and _NAMED.search(expression):
            return Validity(window.start, window.end)
    return None
