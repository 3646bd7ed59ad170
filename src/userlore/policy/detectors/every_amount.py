"""Every amount of a sentence about the user's own money, not only the first (issue 29).

``money``, ``second_amounts`` and ``said_values`` read each amount in a window around it; a
sentence that names two of the user's sums takes the first and leaves the second when the
second stands too far from the words that made the first the user's ("le debo a mi hermano
como 3 lucas todavía, y a la tarjeta otros 80 mil pesos"). Here, once a sentence holds a money
hit, each further amount of it with a currency, a magnitude or thousands (``money``'s own
patterns) is the user's too, unless its own part of the sentence (between commas) is someone
else's money, a price or an average (``money``'s test), or a count.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Iterable, Iterator

from userlore.policy.cue_data import cues
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit, is_year, named_spans, overlaps
from userlore.policy.detectors.money import _BARE, _amount, _others_money, counted
from userlore.policy.detectors.reference_numbers import reference_number
from userlore.policy.findings import _REGULATED

__all__ = ["every_amount", "part_bounds", "sentence_amounts", "sentence_bounds", "user_money"]


@functools.cache
def _sentence() -> re.Pattern[str]:
    """A sentence's end: not a period inside a number, nor one before a digit, a currency sign or
    a lower-case word ("netto ca. 3.350 €", "i.e. 50,400"), nor one after an abbreviation
    (``data/abbreviations.yaml``: "inkl. Zulagen")."""
    raw: dict[str, list[str]] = data_yaml("abbreviations.yaml")
    words = sorted({str(w).casefold() for ws in raw.values() for w in ws}, key=len)
    # The period first, the abbreviations looked behind from it: tried only where a period is.
    after = "".join(rf"(?<!\b{re.escape(w)}\.)" for w in words)
    return re.compile(
        rf"[!?。！？\n]|\.(?i:{after})(?!\d)(?!\s*(?:[a-zß-ÿ0-9$€£¥₹]|R\$))(?![^\W\d_])"
    )


_PART = re.compile(r"[,;，；、]\s")
# A run of digit groups joined by one space, dot or hyphen ("138 0013 8000", "06 12 34 56 78").
_DIGIT_RUN = re.compile(r"\d+(?:[ .\-]\d+)+")
_NUMBER_SIGN = re.compile(r"(?:#|(?<![^\W\d_])(?i:n[º°o]|nr)\.?)\s?$")


@functools.lru_cache(maxsize=64)
def _marks(pattern: re.Pattern[str], t: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Where ``pattern``'s marks start and end in ``t``, scanned once a text (each caller and
    each hit asks again). Its matches cannot overlap, so the scan finds every one a search
    from any position would."""
    found = [m.span() for m in pattern.finditer(t)]
    return tuple(a for a, _ in found), tuple(b for _, b in found)


def _bounds(t: str, pattern: re.Pattern[str], lo: int, hi: int) -> tuple[int, int]:
    # The whole text, not up to ``lo``: whether a period ends a sentence depends on what follows.
    starts, ends = _marks(pattern, t)
    before = bisect.bisect_right(ends, lo)
    after = bisect.bisect_left(starts, hi)
    return ends[before - 1] if before else 0, starts[after] if after < len(starts) else len(t)


def sentence_bounds(t: str, lo: int, hi: int) -> tuple[int, int]:
    """The sentence around ``t[lo:hi]`` (an abbreviation's period ends none)."""
    return _bounds(t, _sentence(), lo, hi)


def part_bounds(t: str, lo: int, hi: int) -> tuple[int, int]:
    """The part of a sentence (between commas and semicolons) around ``t[lo:hi]``, inside its
    sentence: a text without commas is no one part (its every amount was read after each cue,
    the cost growing with the square of its sentences; blindfix23d)."""
    p_lo, p_hi = _bounds(t, _PART, lo, hi)
    s_lo, s_hi = sentence_bounds(t, lo, hi)
    return max(p_lo, s_lo), min(p_hi, s_hi)


def sentence_amounts(
    t: str,
    lo: int,
    hi: int,
    named: list[tuple[int, int]],
    first: Iterable[re.Match[str]] = (),
    then: Iterable[re.Match[str]] = (),
) -> Iterator[re.Match[str]]:
    """The amounts of ``t[lo:hi]`` (``first``'s matches, ``money``'s patterns', ``then``'s) that
    no span of ``named`` overlaps, no year, no count ("1 980 places") and no number after a
    number sign ("#1042", "Nr. 118"). ``named`` is read at
    each step: a caller that appends the spans it takes is not offered them twice."""
    c = cues()
    # The named spans that reach into this sentence, once, and what the caller appends while
    # it reads (``named[seen:]``): each amount asked against every span of a long text made
    # the cost grow with the square of its sentences (blindfix23d).
    seen = len(named)
    near = [(s, e) for s, e in named if s < hi and lo < e]
    for m in [*first, *_amount().finditer(t, lo, hi), *_BARE.finditer(t, lo, hi), *then]:
        if overlaps(near, m.start(), m.end()) or overlaps(named[seen:], m.start(), m.end()):
            continue
        if is_year(m.group(0)):
            continue
        if _NUMBER_SIGN.search(t, max(0, m.start() - 5), m.start()) or reference_number(t, m):
            continue  # "Invoice #1042", "Rechnung Nr. 118", "FA-2024-0318": a document's number
        if _piece_of_digit_run(t, m):
            continue  # "电话 138 0013 8000 有事打给我": a phone number's groups, not sums
        if not counted(t, m.end(), c.counts):
            yield m


def _piece_of_digit_run(t: str, m: re.Match[str]) -> bool:
    """Whether ``m`` is a digit group inside a longer run of groups that is not thousands
    grouping ("138 0013 8000": a group after the first is not three digits long), so a
    phone number or a code, never one sum ("1 234 567" is grouped in thousands)."""
    starts, ends = _marks(_DIGIT_RUN, t)  # the text's runs, scanned once
    i = bisect.bisect_right(starts, m.start()) - 1
    if i < 0 or ends[i] < m.end() or (starts[i], ends[i]) == m.span():
        return False
    groups = re.split(r"[ .\-]", t[starts[i] : ends[i]])
    return any(len(g) != 3 for g in groups[1:])


def user_money(hits: list[_Hit]) -> tuple[list[_Hit], list[tuple[int, int]]]:
    """The hits on the user's money in text order, and the spans the blocking hits name (no
    further amount is read inside one): what each reader of a sentence's further amounts
    (this module, ``amount_shares``) starts from."""
    money = sorted((h for h in hits if h[1] == "financial_figure"), key=lambda h: h[2])
    return money, named_spans(hits)


def every_amount(t: str, hits: list[_Hit]) -> Iterator[_Hit]:
    """Further amounts in a sentence that already holds a hit on the user's money."""
    money, named = user_money(hits)
    if not money:
        return
    sentences = {sentence_bounds(t, h[2], h[3]) for h in money}
    c = cues()
    for lo, hi in sorted(sentences):
        for m in sentence_amounts(t, lo, hi, named):
            p_lo, p_hi = _bounds(t, _PART, m.start(), m.end())
            if _others_money(t[max(lo, p_lo) : min(hi, p_hi)], c):
                continue
            named.append(m.span())
            yield (_REGULATED, "financial_figure", m.start(), m.end(), "financial")
