"""Values spelled with a spelling alphabet, letter names or kana number words (issue 29).

``policy/spoken.py`` reads number words, single letters and the NATO alphabet. A user spells a
password the way their country does it on the phone ("Martha Otto Siegfried drei drei",
"Madrid Antonio Ramón", "eme, a, te, e, o"), and a Japanese user says a PIN in kana
("さん・はち・いち・ろく"): each of those put a value in a plan (blind7). This module reads
those runs from the vocabularies of ``policy/data/spelling.yaml`` and returns them as
:class:`~userlore.policy.spoken.Spoken` runs, which :func:`~userlore.policy.spoken.spoken_spans`
adds to its own, so the floor and the gate see the characters they spell.

A run is taken only when it cannot be a sentence: three or more words of one alphabet in a
row (or two with two digits or more after them), four or more letter names of one language
with at least two that are not single letters, or three or more kana number words each set
off by a separator
("いちご", a strawberry, is no run). Whether the value is sensitive is decided elsewhere, by a
credential cue near it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from userlore.policy.data_files import data_yaml

__all__ = ["SPELLED_KINDS", "Run", "spelled_cues", "spelling_spans"]

SPELLED_KINDS: Final = frozenset({"alphabet", "letters", "kana", "nato"})
"""Kinds of :class:`~userlore.policy.spoken.Spoken` run that spell a value on purpose: a
sentence is never said that way, so beside a credential cue the run is the value."""

DIGIT_WORDS: Final = {
    word: str(digit)
    for words in (
        "zero one two three four five six seven eight nine",
        "null eins zwei drei vier fünf sechs sieben acht neun",
        "cero uno dos tres cuatro cinco seis siete ocho nueve",
        "zéro un deux trois quatre cinq six sept huit neuf",
        "zero um dois três quatro cinco seis sete oito nove",
    )
    for digit, word in enumerate(words.split())
} | {"zwo": "2"}
"""Digit words of the five Latin-script covered languages, read in a spelled run here and
in :mod:`userlore.policy.spoken`'s NATO runs."""

# Inside a spelled run Italian's too, and the spellings without accents.
_ITALIAN_DIGITS: Final = (
    "zero",
    "uno",
    "due",
    "tre",
    "quattro",
    "cinque",
    "sei",
    "sette",
    "otto",
    "nove",
)
_DIGITS: Final = (
    DIGIT_WORDS
    | {word: str(digit) for digit, word in enumerate(_ITALIAN_DIGITS)}
    | {"tres": "3", "fuenf": "5"}
)
_TOKEN = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)?|\d")
_GAP = re.compile(r"[\s,;\-./·]{1,4}")
_KANA_SEP = "・、,，/. 　"  # the folded view reads "・" as "."


@dataclass(frozen=True, slots=True)
class _Vocab:
    alphabets: tuple[dict[str, str], ...]
    names: tuple[dict[str, str], ...]
    kana: re.Pattern[str]
    kana_digits: dict[str, str]
    cues: re.Pattern[str]
    known: frozenset[str]
    """Every word a run may hold: alphabet words, letter names and digit words."""
    said_as: re.Pattern[str]
    """A letter, the word that says "as in" and a word: "A comme Anatole", "B wie Berta"."""
    kana_particles: tuple[str, ...]
    kana_endings: tuple[str, ...]
    alphabet_words: frozenset[str]
    """The spelling alphabets' words of three letters or more ("anatole", "kilo")."""


@functools.cache
def _vocab() -> _Vocab:
    data = data_yaml("spelling.yaml")
    kana = {str(k): str(v) for k, v in data["kana_digits"].items()}
    words = "|".join(re.escape(w) for w in sorted(kana, key=len, reverse=True))
    sep = re.escape(_KANA_SEP)
    return _Vocab(
        tuple(
            {str(k).casefold(): str(v) for k, v in a.items()} for a in data["alphabets"].values()
        ),
        tuple(
            {str(k).casefold(): str(v) for k, v in n.items()} for n in data["letter_names"].values()
        ),
        re.compile(rf"(?:{words})(?:[{sep}]+(?:{words})){{2,}}(?![ぁ-んァ-ン])"),
        kana,
        re.compile("|".join(re.escape(str(c)) for c in data["spelled_cues"])),
        frozenset(
            str(w).casefold()
            for group in ("alphabets", "letter_names")
            for a in data[group].values()
            for w in a
        )
        | _DIGITS.keys(),
        _said_as_pattern(data["spelled_as"]),
        tuple(sorted(map(str, data["kana_particles"]), key=len, reverse=True)),
        tuple(sorted(map(str, data["kana_endings"]), key=len, reverse=True)),
        frozenset(
            str(w).casefold() for a in data["alphabets"].values() for w in a if len(str(w)) > 2
        ),
    )


def _said_as_pattern(words: dict[str, list[str]]) -> re.Pattern[str]:
    joins = sorted({str(w).casefold() for ws in words.values() for w in ws}, key=len, reverse=True)
    alternation = "|".join(re.escape(j).replace(r"\ ", r"\s+") for j in joins)
    return re.compile(rf"(?<![^\W\d_])([^\W\d_])\s+(?:{alternation})\s+([^\W\d_]+(?:-[^\W\d_]+)?)")


def dash_words() -> tuple[str, ...]:
    """The words said between the groups of a dictated number ("dash", "Strich", "tiret")."""
    return _dash_words()


@functools.cache
def _dash_words() -> tuple[str, ...]:
    return tuple(str(w) for w in data_yaml("spelling.yaml")["dash_words"])


def spelled_cues() -> re.Pattern[str]:
    """The words beside which a spelled run is a code without a password word ("金庫の番号")."""
    return _vocab().cues


def _runs(lowered: str, known: frozenset[str]) -> list[list[re.Match[str]]]:
    """Runs of words a spelling may hold (a single letter, a digit or a ``known`` word),
    separated only by short gaps of spaces and punctuation."""
    runs: list[list[re.Match[str]]] = []
    run: list[re.Match[str]] = []
    for m in _TOKEN.finditer(lowered):
        word = m.group(0)
        if len(word) > 1 and word not in known:
            if run:
                runs.append(run)
                run = []
            continue
        if run and not _GAP.fullmatch(lowered, run[-1].end(), m.start()):
            runs.append(run)
            run = []
        run.append(m)
    if run:
        runs.append(run)
    return runs


def _longest_readings(
    run: list[re.Match[str]], read: Callable[[int], tuple[int, str] | None], kind: str
) -> list[tuple[int, int, str, str]]:
    """Spans of ``run`` read left to right: at each word, the longest reading ``read`` finds
    from it (the index after its last word, and the value spelled), then on past it."""
    out: list[tuple[int, int, str, str]] = []
    i = 0
    while i < len(run):
        best = read(i)
        if best is not None:
            out.append((run[i].start(), run[best[0] - 1].end(), best[1], kind))
            i = best[0]
        else:
            i += 1
    return out


def _alphabet_spans(run: list[re.Match[str]], vocab: _Vocab) -> list[tuple[int, int, str, str]]:
    """Spans of three or more words of one spelling alphabet, with the digits after them."""

    def read(i: int) -> tuple[int, str] | None:
        best: tuple[int, str] | None = None
        for alphabet in vocab.alphabets:
            j, letters, count = i, [], 0
            while j < len(run):
                w = run[j].group(0)
                if w in alphabet:
                    letters.append(alphabet[w])
                    count += 1
                elif count and (w.isdigit() or w in _DIGITS):
                    letters.append(_DIGITS.get(w, w))
                else:
                    break
                j += 1
            if (count >= 3 or (count >= 2 and j - i >= 4)) and (best is None or j > best[0]):
                best = (j, "".join(letters))
        return best

    return _longest_readings(run, read, "alphabet")


def _name_spans(run: list[re.Match[str]], vocab: _Vocab) -> list[tuple[int, int, str, str]]:
    """Spans of four or more letter names of one language (at least two not single letters)."""

    def read(i: int) -> tuple[int, str] | None:
        best: tuple[int, str] | None = None
        for names in vocab.names:
            j, letters, named = i, [], 0
            while j < len(run):
                w = run[j].group(0)
                if w in names:
                    letters.append(names[w])
                    named += len(w) > 1
                elif len(w) == 1 and w.isalpha():
                    letters.append(w)
                elif w.isdigit() or w in _DIGITS:
                    letters.append(_DIGITS.get(w, w))
                else:
                    break
                j += 1
            if j - i >= 4 and named >= 2 and (best is None or j > best[0]):
                best = (j, "".join(letters))
        return best

    return _longest_readings(run, read, "letters")


_GATE_WORDS: Final = re.compile(r"[^\W\d_]{2,}")


Run = tuple[int, int, str, str]
"""``(start, end, value, kind)``: :func:`~userlore.policy.spoken.spoken_spans` makes each a
:class:`~userlore.policy.spoken.Spoken` (this module does not import it: spoken imports this)."""


def spelling_spans(text: str, lowered: str) -> list[Run]:
    """Runs of ``text`` spelled with an alphabet, letter names or kana digits.

    Args:
        text: The text, digits already folded to ASCII.
        lowered: Its lower-cased form, of the same length.
    """
    return list(_spelling_spans(text, lowered))


@functools.lru_cache(maxsize=8)
def _spelling_spans(text: str, lowered: str) -> tuple[Run, ...]:
    """:func:`spelling_spans`, remembered for the last few texts: ``classify`` asks it of the
    same folded text twice (``said_values`` and the spoken view), a pure function of it."""
    vocab = _vocab()
    found: list[tuple[int, int, str, str]] = []
    if _GATE_WORDS.search(lowered):
        alphabet_word = False
        for run in _runs(lowered, vocab.known):
            # A letter said with its word needs an alphabet word, which ``_runs`` keeps.
            alphabet_word = alphabet_word or any(m.group(0) in vocab.alphabet_words for m in run)
            if len(run) < 3:
                continue
            found.extend(_alphabet_spans(run, vocab))
            if len(run) >= 4:
                found.extend(s for s in _name_spans(run, vocab) if not _counted(lowered, s))
        if alphabet_word:
            found.extend(_said_as_spans(text, lowered, vocab))
    if not text.isascii():
        for m in vocab.kana.finditer(text):
            words = [w for w in re.split(f"[{re.escape(_KANA_SEP)}]+", m.group(0)) if w]
            value = "".join(vocab.kana_digits[w] for w in words)
            found.append((m.start(), m.end(), value, "kana"))
        found.extend(_kana_stretches(text, vocab))
    return tuple(found)


_UNIT_AFTER = re.compile(r"\s+([^\W\d_]+)")


def _counted(lowered: str, span: tuple[int, int, str, str]) -> bool:
    """A run of letter names that ends in a count ("es de 4 o de 6 cifras": "es", "de" and "o"
    are letters' names too): a digit then a count unit is a question about a length, not a
    value spelled (blind17)."""
    from userlore.policy.cue_data import cues

    unit = _UNIT_AFTER.match(lowered, span[1])
    return span[2][-1:].isdigit() and unit is not None and unit.group(1) in cues().counts


# -- letters said with their word, kana digits without separators (blindfix9a) -----------------

_SAID_GAP = re.compile(r"[\s,;\-./]*")
_SAID_DIGITS = re.compile(r"\d{1,6}")


def _said_as_spans(text: str, lowered: str, vocab: _Vocab) -> list[Run]:
    """Runs of letters each said with its word ("A comme Anatole, 7, B comme Berthe, 3"), the
    digits between and after them included: two pairs or more, or one with two digits or more.
    A pair counts only when the word is that letter's in an alphabet ("C comme chat" is not)."""
    pairs = [
        (m.start(), m.end(), text[m.start()])
        for m in vocab.said_as.finditer(lowered)
        if any(a.get(m.group(2)) == m.group(1) for a in vocab.alphabets)
    ]
    out: list[Run] = []
    i = 0
    while i < len(pairs):
        start, end, value, count = pairs[i][0], pairs[i][1], [pairs[i][2]], 1
        i += 1
        while True:
            pos = _SAID_GAP.match(lowered, end).end()  # type: ignore[union-attr]
            digits = _SAID_DIGITS.match(lowered, pos)
            if i < len(pairs) and pairs[i][0] == pos:
                end, count = pairs[i][1], count + 1
                value.append(pairs[i][2])
                i += 1
            elif digits is not None:
                end = digits.end()
                value.append(digits.group(0))
            else:
                break
        if count >= 2 or sum(len(v) for v in value) - count >= 2:
            out.append((start, end, "".join(value), "alphabet"))
    return out


_KANA_STRETCH = re.compile(r"[ぁ-ゖー]+|[ァ-ヺー]+")
_LONG_VOWEL = "ー"


def _kana_stretches(text: str, vocab: _Vocab) -> list[Run]:
    """A stretch of kana that is four or more kana number words and nothing else but a particle
    before and an ending after ("はよんいちななさん。", "、さんさんろくろく、"): the digits."""
    out: list[Run] = []
    for m in _KANA_STRETCH.finditer(text):
        stretch = m.group(0)
        if len(stretch) < 4 or len(stretch) > 48:
            continue
        for before in ("", *vocab.kana_particles):
            if not stretch.startswith(before):
                continue
            for after in ("", *vocab.kana_endings):
                if len(stretch) - len(before) - len(after) < 4 or not stretch.endswith(after):
                    continue
                core = stretch[len(before) : len(stretch) - len(after)]
                digits = _kana_digits(core, vocab.kana_digits)
                if digits is not None and len(digits) >= 4:
                    start = m.start() + len(before)
                    out.append((start, start + len(core), digits, "kana"))
                    break
            else:
                continue
            break
    return out


def _kana_digits(core: str, words: dict[str, str]) -> str | None:
    """The digits ``core`` spells when it is nothing but kana number words (a long vowel mark
    may follow each: "にー", "ごー"), else None."""
    if not core:
        return ""
    for size in (3, 2, 1):
        word = core[:size]
        if word not in words:
            continue
        rest = core[size:].removeprefix(_LONG_VOWEL)
        tail = _kana_digits(rest, words)
        if tail is not None:
            return words[word] + tail
    return None
