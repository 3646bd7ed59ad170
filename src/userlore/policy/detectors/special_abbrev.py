"""Special-category abbreviations, read case-sensitively (issue 29, blindfix8b).

"Mein Neurologe meinte, die MS schreitet nicht fort", "la EM está estable", "la SEP progresse":
a condition named by its abbreviation. In lower case many abbreviations are common words
(Portuguese "em" and "ela", German "als"), so they cannot join ``special/<lang>.json``, whose
terms match in any case. ``policy/data/special_abbreviations.json`` lists them per language;
a match counts for a language only where that language reads the sentence (one of its person,
topic or profession words, or for Japanese and Chinese its own script), and whose fact it is
is then decided by that language's attribution (:mod:`.special_lang`), like any other cue.
An abbreviation before a capitalised word is a name ("MS Teams"); in German, which capitalises
its nouns, only before a listed name ("MS Word", ``_names_after``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from importlib import resources
from typing import Any

from userlore.policy.detectors.special_lang_vocab import _Language
from userlore.policy.literal_gate import GatedPattern

__all__ = ["abbreviation_cues", "table_cues"]

_CAPITALISED_NOUNS = frozenset({"de"})
_NEXT_NAME = re.compile(r"\s+[A-Z][a-z]")
_NEXT_WORD = re.compile(r"\s+([A-Z][\w-]*)")


@cache
def _raw() -> dict[str, Any]:
    """``policy/data/special_abbreviations.json`` as read."""
    raw: dict[str, Any] = json.loads(
        resources.files("userlore.policy.data")
        .joinpath("special_abbreviations.json")
        .read_text(encoding="utf-8")
    )
    return raw


@cache
def _names_after() -> frozenset[str]:
    """Words after which an abbreviation is a product's name even where nouns are capitalised
    ("MS Word", blindfix23c): ``_names_after`` of ``special_abbreviations.json``."""
    return frozenset(_raw().get("_names_after", {}).get("words", ()))


def _a_name(code: str, t: str, end: int) -> bool:
    """The token ending at ``end`` begins a name: a capitalised word follows it ("MS Teams"),
    in German one of the listed names ("MS Word"; "die MS Diagnose" is no name)."""
    if code not in _CAPITALISED_NOUNS:
        return _NEXT_NAME.match(t, end) is not None
    m = _NEXT_WORD.match(t, end)
    return m is not None and m.group(1) in _names_after()


@cache
def _table() -> tuple[re.Pattern[str] | None, dict[str, tuple[re.Pattern[str], dict[str, str]]]]:
    """(any abbreviation of any language, per language: its pattern and category by token)."""
    raw = _raw()
    table: dict[str, tuple[re.Pattern[str], dict[str, str]]] = {}
    every: set[str] = set()
    tails = tuple(raw.get("_compound_tails", {}).get("words", ()))
    for code, categories in raw.items():
        if code.startswith("_"):
            continue
        by_token = {a: category for category, items in categories.items() for a in items}
        every.update(by_token)
        table[code] = (_pattern(by_token, tails), by_token)
    return (_pattern(every, tails) if every else None), table


def _pattern(tokens: Iterable[str], tails: Iterable[str] = ()) -> re.Pattern[str]:
    alt = "|".join(re.escape(a) for a in sorted(tokens, key=len, reverse=True))
    # Bounded by Latin letters and digits only: Japanese and Chinese glue an abbreviation to
    # the next character ("COPDだから", "ADHD患者"). A hyphen ends it only before a listed
    # tail ("MS-Diagnose", "ADHS-Therapie"; "MS-DOS" is none): ``_compound_tails``.
    hyphen = r"-(?!(?:" + "|".join(map(re.escape, tails)) + r")\b)" if tails else "-"
    return re.compile(
        rf"(?<![A-Za-z0-9\u00c0-\u024f/+.\-])(?:{alt})(?![A-Za-z0-9\u00c0-\u024f/]|{hyphen}|\+\w)"
    )


@cache
def _every_gate() -> GatedPattern:
    """Every language's abbreviations, asked only where one's letters stand (the pattern's
    leading lookbehind turns off the engine's literal scan)."""
    every, _ = _table()
    assert every is not None
    return GatedPattern(every)


def abbreviation_cues(
    t: str,
    languages: tuple[_Language, ...],
    sentences: Callable[[str], Iterable[tuple[int, int]]],
) -> Iterator[tuple[_Language, str, bool, int, int, int]]:
    """Cues as :func:`.special_lang._cues` gives them: (language, category, self term?,
    sentence start, term start, term end), for the abbreviations of ``t``."""
    every, table = _table()
    if every is None or _every_gate().search(t) is None:
        return
    yield from table_cues(t, table, languages, sentences, names=True, unmarked=False)


def table_cues(
    t: str,
    table: dict[str, tuple[re.Pattern[str], dict[str, str]]],
    languages: tuple[_Language, ...],
    sentences: Callable[[str], Iterable[tuple[int, int]]],
    *,
    names: bool,
    unmarked: bool,
) -> Iterator[tuple[_Language, str, bool, int, int, int]]:
    """The cues of a per-language ``table`` (its pattern, category by lower-cased or exact
    token), each sentence read by the languages with most of their words in it.

    ``names``: a token before a capitalised word is a name ("MS Teams"); in German only
    before a listed name ("MS Word").
    ``unmarked``: where no language's word stands, every spaced language listing the token
    reads it (a brand is no word of any language: "Subutex depuis deux ans" still counts).
    """
    for s, e in sentences(t):
        found: list[tuple[int, _Language, list[tuple[str, int, int]]]] = []
        for lang in languages:
            entry = table.get(lang.code)
            if entry is None:
                continue
            pattern, by_token = entry
            hits = [
                (by_token.get(m.group(0)) or by_token[m.group(0).casefold()], m.start(), m.end())
                for m in pattern.finditer(t, s, e)
                if not names or not _a_name(lang.code, t, m.end())
            ]
            if not hits:
                continue
            if lang.own_script is not None:
                if not lang.own_script.search(t, s, e):
                    continue
                markers = 1
            else:
                markers = sum(1 for _ in lang.markers.finditer(t, s, e))
            if markers or (unmarked and lang.spaced):
                found.append((markers, lang, hits))
        best = max((n for n, _, _ in found), default=0)
        for n, lang, hits in found:
            if n == best:
                for category, start, end in hits:
                    yield lang, category, False, s, start, end
