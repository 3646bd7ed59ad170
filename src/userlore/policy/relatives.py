"""Close relatives of the covered languages, read through a covered word list (issue 29,
dialects6).

Swiss German, Luxembourgish, Nigerian Pidgin, Scots and Afrikaans read as a covered language to
the identifier, and Cantonese written in Han reads as Chinese to the script rule: each is told
apart by its own words (``policy/data/relatives.yaml``), and is not covered. Split out of
``policy/language.py`` (floorcost7); ``policy.language`` applies them to its segments.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any, Final

from userlore.policy.word_lists import _EDGE_PUNCTUATION, COVERED_LANGUAGES, LEXICON_ZIPF, _lexicon

CANTONESE: Final = "yue"
"""Cantonese: written in Han, so the script rule would read it as Chinese (see
:func:`cantonese`)."""


@dataclass(frozen=True, slots=True)
class _Relative:
    code: str
    reads_as: frozenset[str]
    markers: frozenset[str]
    weak: frozenset[str]
    phrases: tuple[str, ...]
    strong_phrases: tuple[str, ...]
    money: frozenset[str]
    magnitudes: frozenset[str]
    after_number: re.Pattern[str] | None


@functools.cache
def _relatives_data() -> dict[str, Any]:
    from userlore.policy.data_files import data_yaml

    return data_yaml("relatives.yaml")


@functools.cache
def _relatives() -> tuple[_Relative, ...]:
    out: list[_Relative] = []
    for code, spec in _relatives_data()["relatives"].items():
        words = [str(w).casefold() for w in spec.get("markers", [])]
        weak = [str(w).casefold() for w in spec.get("weak", [])]
        counted = [re.escape(str(w)) for w in spec.get("after_number", [])]
        out.append(
            _Relative(
                str(code),
                frozenset(spec["reads_as"]),
                frozenset(w for w in words if " " not in w),
                frozenset(w for w in weak if " " not in w),
                tuple(w for w in weak if " " in w),
                tuple(w for w in words if " " in w),
                frozenset(str(w).casefold() for w in spec.get("money", [])),
                frozenset(str(w).casefold() for w in spec.get("magnitudes", [])),
                re.compile(rf"(?i)\d\s?(?:{'|'.join(counted)})(?![^\W\d_])") if counted else None,
            )
        )
    return tuple(out)


RELATIVES: Final = frozenset({"gsw", "lb", "pcm", "sco", "af", CANTONESE})
"""The relatives :func:`relative_of` and :func:`cantonese` name (``policy/data/
relatives.yaml``): languages the gate does not cover, told apart by their own words."""

_MARKER_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")


def relative_of(text: str, language: str) -> str | None:
    """The close relative a Latin segment read as ``language`` is written in, by its own
    words (``policy/data/relatives.yaml``): one marker ("isch", "dey", "dinnae", "ech"), or two
    distinct words of its markers and weak words ("aye … wee"), else ``None``. A covered
    ``language`` yields only a relative that reads as it; an uncovered one (Pidgin read as
    Igbo, Luxembourgish as Estonian) any relative, by its words that are not frequent words of
    that language, so the floor reads it as that relative and not as a covered sentence the
    identifier misread.

    The identifier leaves these relatives out of its candidates (:data:`READ_AS_COVERED`) or
    cannot tell them apart on a short turn, and ``wordfreq``'s large lists know many of their
    words from social media, so :func:`read_by_its_words` passes them: "ich verdien 6'800
    Stutz im Monet" read as German, "I dey collect 250,000 naira" as English. A capitalised
    word after the first is a name and no marker ("Abi", "Wan"), unless it has an apostrophe
    ("A'm").
    """
    if language in RELATIVES:
        return None
    covered = language in COVERED_LANGUAGES
    found: list[str] = []
    # Whole tokens of letters only: "sha" in "node@sha256:…" is part of an id, not a word.
    tokens = (t.strip(_EDGE_PUNCTUATION) for t in text.split())
    for i, word in enumerate(t for t in tokens if _MARKER_WORD.fullmatch(t)):
        # German capitalises its nouns ("Stutz", "Chind"): no name is skipped there.
        name = i > 0 and word[0].isupper() and "'" not in word and "’" not in word
        if name and language != "de":
            continue
        found.append(word.casefold().replace("’", "'"))
    if not covered:
        # An uncovered verdict keeps its own words: Dutch "dat", "ons" are no Pidgin or
        # Afrikaans markers in a segment read as Dutch.
        lexicon = _lexicon(language) or {}
        found = [w for w in found if lexicon.get(w, 0.0) < LEXICON_ZIPF]
    if not found:
        return None
    words = set(found)
    joined = " " + " ".join(found) + " "
    for rel in _relatives():
        if covered and language not in rel.reads_as:
            continue
        if words & rel.markers or any(f" {p} " in joined for p in rel.strong_phrases):
            return rel.code
        if rel.after_number is not None and rel.after_number.search(text):
            return rel.code
        hits = len(words & rel.weak) + sum(1 for p in rel.phrases if f" {p} " in joined)
        if hits >= 2:
            return rel.code
    return None


def relative_reads_as(code: str) -> tuple[str, ...]:
    """The covered languages a relative is read as ("gsw" -> de): their CLDR data (currency
    names, magnitude words) applies to it too."""
    return next((tuple(sorted(r.reads_as)) for r in _relatives() if r.code == code), ())


def relative_magnitudes(code: str) -> frozenset[str]:
    """The relative's own magnitude words ("millione"), casefolded, beside CLDR's."""
    return next((r.magnitudes for r in _relatives() if r.code == code), frozenset())


def relative_money_words(code: str) -> frozenset[str]:
    """The relative's own words for its money ("stutz", "naira"), casefolded, beside CLDR's
    currency names."""
    return next((r.money for r in _relatives() if r.code == code), frozenset())


@dataclass(frozen=True, slots=True)
class _Cantonese:
    own: frozenset[str]
    words: re.Pattern[str]
    copula: str
    not_after: frozenset[str]
    not_before: frozenset[str]


@functools.cache
def _cantonese_spec() -> _Cantonese:
    spec = _relatives_data()["yue"]
    words = "|".join(re.escape(str(w)) for w in spec["words"])
    numeral = re.escape(str(spec["numerals"]))
    counted = "|".join(re.escape(str(w)) for w in spec["after_number"])
    return _Cantonese(
        frozenset(spec["characters"]),
        re.compile(rf"{words}|(?:\d|[{numeral}])(?:{counted})"),
        str(spec["copula"]),
        frozenset(spec["copula_not_after"]),
        frozenset(spec["copula_not_before"]),
    )


def cantonese(chunk: str) -> bool:
    """A Han run written in Cantonese: one of its own characters (咗, 嘅, 啲, 冇, 佢, 喺, 哋,
    唔 …), one of its words (港紙, 而家, 聽日, 出糧 …), a number counted in 蚊, or its copula
    係 outside a Mandarin word (關係, 聯係, 係數). Mandarin, simplified or traditional, writes
    none of them ("我跟他的關係很好" stays Chinese)."""
    spec = _cantonese_spec()
    if not spec.own.isdisjoint(chunk) or spec.words.search(chunk):
        return True
    copula, not_after, not_before = spec.copula, spec.not_after, spec.not_before
    start = chunk.find(copula)
    while start >= 0:
        before = chunk[start - 1] if start else ""
        after = chunk[start + 1] if start + 1 < len(chunk) else ""
        if before not in not_after and after not in not_before:
            return True
        start = chunk.find(copula, start + 1)
    return False
