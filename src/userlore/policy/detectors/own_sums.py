"""The words of the user's own money said otherwise (issue 29, blindfix24c): what the user
receives, a result said after the sum it totals, the user's amount compared with a group's, a
group's statistic, and a second amount priced with a verb (``data/own_sums.yaml``).

This module holds the vocabularies and the tests the money rules ask of a clause (``money``
imports it); :mod:`.said_sums` reads the two forms that take further amounts of a sentence.
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass
from typing import Any

from userlore.policy.cue_data import alternation, flat
from userlore.policy.data_files import data_yaml
from userlore.policy.literal_gate import GatedPattern

__all__ = [
    "OwnSums",
    "before_conjunction",
    "group_figure",
    "mask_compared",
    "own_sums",
    "sentence_around",
]


@dataclass(frozen=True, slots=True)
class OwnSums:
    """The patterns of ``data/own_sums.yaml``, each searched on lower-cased text."""

    receipts: re.Pattern[str]
    """Money the user receives ("settlement", "Abfindung", "pensión", "退職金")."""
    results: GatedPattern
    """A result after the sum it totals ("works out to", "das macht", "合计"); asked only where
    one of its literals stands (a long alternation, asked of every text with a digit)."""
    compared: re.Pattern[str]
    """The user's amount set beside a group's ("about the average", "平均より")."""
    statistics: re.Pattern[str]
    """A group's figure ("median", "laut Statistik", "segundo o IBGE")."""
    priced: re.Pattern[str]
    """A number priced by a verb before it, or (Japanese) after it: group 1 or group 2."""
    each_before_number: re.Pattern[str]
    """A first-person word that is another language's "each" before a number ("zu je 1,50")."""
    unit_prices: re.Pattern[str]
    """A thing's price each ("à 14 €", "zu je 1,50"): a shop's sum before a result."""
    conjunctions: re.Pattern[str]
    """A word that joins two clauses ("and", "e", "und", "けど")."""


_NUMBER = r"\d{1,3}(?:[.,]\d{3})+|\d{1,6}"


@functools.cache
def own_sums() -> OwnSums:
    """The file's patterns, built once."""
    raw: dict[str, Any] = data_yaml("own_sums.yaml")
    verbs = alternation(flat(raw["priced"]), escape=False)
    after = "|".join(re.escape(str(w)) for w in raw["priced_after"])
    return OwnSums(
        receipts=re.compile(alternation(flat(raw["receipts"]))),
        results=GatedPattern(re.compile(alternation(flat(raw["results"]), escape=False))),
        compared=re.compile(alternation(flat(raw["compared"]), escape=False)),
        statistics=re.compile(alternation(flat(raw["statistics"]))),
        priced=re.compile(
            rf"(?:{verbs})[^\d.!?。！？\n,;，；]{{0,14}}?(?<![\d.,])({_NUMBER})"
            r"(?![\d]|[.,]\d|\s?%|[^\W\d_])"
            rf"|(?<![\d.,])({_NUMBER}|\d{{1,4}}万\d{{0,4}})円?(?={after})"
        ),
        # Fragments that end in a digit: no word boundary after them.
        unit_prices=re.compile("|".join(rf"(?<![^\W_])(?:{f})" for f in flat(raw["unit_prices"]))),
        conjunctions=re.compile(alternation([str(w).casefold() for w in raw["conjunctions"]])),
        each_before_number=re.compile(
            rf"(?i)(?<![^\W\d_])(?:{alternation(flat({'x': raw['each_before_number']}))})(?=\s*\d)"
        ),
    )


def mask_compared(clause: str) -> str:
    """``clause`` with its comparisons to a group's figure blanked ("my gross is about the
    average"): the average there owns no amount."""
    lowered = clause.casefold()
    if len(lowered) != len(clause):
        return clause
    spans = [m.span() for m in own_sums().compared.finditer(lowered)]
    for s, e in reversed(spans):
        clause = clause[:s] + " " * (e - s) + clause[e:]
    return clause


def before_conjunction(clause: str, at: int) -> str:
    """``clause`` up to the first conjunction after ``at`` (what the next clause says of its
    own thing is no owner of the amount at ``at``)."""
    m = own_sums().conjunctions.search(clause.casefold(), at)
    return clause if m is None or len(clause.casefold()) != len(clause) else clause[: m.start()]


# A sentence's end: a period only before a capital or the text's end ("bei ca. 3.900 €").
_END = re.compile(r"[!?。！？\n]|\.(?=\s+[^\W\d_](?<![a-zß-ÿ])|\s*$)")


@functools.lru_cache(maxsize=64)
def _ends(t: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Where ``t``'s sentence ends start and end, scanned once a text (each amount asks)."""
    found = [m.span() for m in _END.finditer(t)]
    return tuple(a for a, _ in found), tuple(b for _, b in found)


def sentence_around(t: str, lo: int, hi: int) -> str:
    """The sentence of ``t`` that holds ``t[lo:hi]`` (an abbreviation's period ends none)."""
    # The whole text, not up to ``lo``: whether a period ends a sentence depends on what follows.
    starts, ends = _ends(t)
    before = bisect.bisect_right(ends, lo)
    after = bisect.bisect_left(starts, hi)
    return t[ends[before - 1] if before else 0 : starts[after] if after < len(starts) else len(t)]


def group_figure(sentence: str, speaker: re.Pattern[str]) -> bool:
    """Whether ``sentence`` states a group's figure (a statistic, an average of a group) with
    no first-person word (``speaker``) in it: no amount there is the user's."""
    lowered = sentence.casefold()
    return own_sums().statistics.search(lowered) is not None and not speaker.search(sentence)
