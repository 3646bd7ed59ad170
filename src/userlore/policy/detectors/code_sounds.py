"""A code said in number words of a language CLDR does not spell out, read by their sound.

blind14 (issue 29) stored "Koda deriyê apartmanê çar heft du neh e" and "Подъезд коды дүрт ике
туғыҙ биш": a door code in Kurmanji and Bashkir number words after a word for "code". The
exact reading (:func:`.said_runs._said_values`) knows only the words CLDR spells out, and these
languages have none; but number words are kin across languages ("туғыҙ" and Kazakh "тоғыз",
Corsican "quattru" and Italian "quattro"). Here, in the clause after a word for "code"
(``data/code_words.yaml``) in a segment of an uncovered language, a run of
:data:`MIN_WORDS` words or more whose consonant skeletons (``data/number_sounds.yaml``) are each
the skeleton of a word for a digit in a language the identifier ranks for the segment (its
top three guesses: Bashkir text ranks Kazakh, Occitan Catalan) is redacted. Only after a code
word and only the ranked languages' digits: skeletons of one or two consonants are common, and
every language's digits together would match most short words. A code in words no ranked
language's digits resemble ("çar heft", ranked Kurdish and two creoles) is not read.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any, Final

from userlore.policy.built_tables import built_table
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.cldr_words import _SAID, _digit_words, _unaccented
from userlore.policy.detectors.code_lists import _CLAUSE_END, _cue_ends
from userlore.policy.detectors.common import _Hit
from userlore.policy.detectors.uncovered import _candidate_languages
from userlore.policy.findings import _SECRET
from userlore.policy.language import COVERED_LANGUAGES, segments

__all__ = ["code_sounds"]

_RULE: Final = "credential_uncovered_language"
MIN_WORDS: Final = 4
"""Words in the run: a PIN or a lock's code has four digits or more."""
MIN_FULL: Final = 2
"""Words of the run whose skeleton is :data:`FULL_SKELETON` long or more ("туғыҙ", "quattru"):
a run of one-consonant words ("de", "la", "un") is chance."""
FULL_SKELETON: Final = 2
MAX_LETTERS: Final = 8
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
_LATIN = re.compile(r"[a-z]")


@functools.cache
def _scripts() -> dict[str, tuple[frozenset[str], dict[str, str]]]:
    raw: dict[str, Any] = data_yaml("number_sounds.yaml")
    return {
        name: (frozenset(str(spec["vowels"])), {str(k): str(v) for k, v in spec["fold"].items()})
        for name, spec in raw["scripts"].items()
    }


def _skeleton(word: str) -> str | None:
    """The consonant skeleton of ``word`` (see the module docstring); ``None`` in a script the
    data does not write."""
    bare = _unaccented(word)
    script = "cyrillic" if _CYRILLIC.search(bare) else "latin" if _LATIN.search(bare) else None
    if script is None:
        return None
    vowels, fold = _scripts()[script]
    out: list[str] = []
    for ch in bare:
        if ch in vowels or not ch.isalpha():
            continue
        ch = fold.get(ch, ch)
        if not out or out[-1] != ch:
            out.append(ch)
    return "".join(out)


@functools.cache
def _digit_skeletons(language: str) -> frozenset[str]:
    """Skeletons of ``language``'s words for 0-9 (CLDR's spell-outs; empty when it has none)."""
    return frozenset(s for w in _digit_words(language) or () if (s := _skeleton(w)))


@built_table("code_sounds.every_skeleton")
def _every_skeleton() -> frozenset[str]:
    """Skeletons of the words for 0-9 of every language CLDR spells out (the cheap test)."""
    from unicode_rbnf import RbnfEngine

    return frozenset().union(*map(_digit_skeletons, RbnfEngine.get_supported_languages()))


def code_sounds(t: str) -> Iterator[_Hit]:
    """Runs of words sounding like digits after a word for "code" (see the module docstring)."""
    ends = _cue_ends(t)
    if not ends or not any(_runs_after(t, at, len(t), _every_skeleton()) for at in ends):
        return  # no run that any language's digits sound like: no segment need be identified
    for seg in segments(t):
        if seg.language is None or seg.language in COVERED_LANGUAGES:
            continue
        here = [at for at in ends if seg.start < at <= seg.end]
        if not here:
            continue
        text = t[seg.start : seg.end]
        known = frozenset().union(
            *(_digit_skeletons(lang) for lang in _candidate_languages(seg, text))
        )
        for at in here:
            for start, end in _runs_after(t, at, seg.end, known):
                yield (_SECRET, _RULE, start, end, None)


def _runs_after(t: str, at: int, limit: int, known: frozenset[str]) -> Iterator[tuple[int, int]]:
    """Runs of digit-sounding words in the clause after a code word ending at ``at``."""
    stop = _CLAUSE_END.search(t, at, limit)
    end = stop.start() if stop else limit
    run: list[tuple[int, int, str]] = []
    for m in [*_SAID.finditer(t, at, end), None]:
        word = m.group(0) if m is not None else ""
        skeleton = _skeleton(word) if word and len(word) <= MAX_LETTERS else ""
        joined = not run or m is None or "," not in t[run[-1][1] : m.start()]
        if m is not None and skeleton and skeleton in known and joined:
            run.append((m.start(), m.end(), skeleton))
            continue
        if len(run) >= MIN_WORDS and sum(len(s) >= FULL_SKELETON for _, _, s in run) >= MIN_FULL:
            yield run[0][0], run[-1][1]
        run = (
            [(m.start(), m.end(), skeleton)]
            if m is not None and skeleton and skeleton in known
            else []
        )
