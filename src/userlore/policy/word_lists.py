"""The covered languages and ``wordfreq``'s word lists of them, loaded once.

The identifier (``policy.language``) reads a short or unsure Latin segment by its words, and
the close relatives' rules (``policy.relatives``) read a relative's words against the covered
language it is mistaken for: both through these lists. The count of a segment's plain letters
(:data:`MIN_LETTERS`) lives here too, for the identifier and the code stripped before it reads.
Split out of ``policy/language.py`` (floorcost7, tidy15).
"""

from __future__ import annotations

import functools
import gzip
import importlib.util
import itertools
import math
import re
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Final, TypeVar, overload

from userlore.policy.scripts import _script

COVERED_LANGUAGES: Final = frozenset({"en", "zh", "es", "de", "fr", "ja", "pt"})
"""Languages the floor's and the gate's vocabularies are written for (ISO 639-1)."""

UNDETERMINED: Final = "und"
"""The language of a segment the identifier cannot place (treated as not covered)."""


LEXICON_ZIPF: Final = 3.0
LEXICON_ZIPF_SHORT_WORD: Final = 4.0
"""A word is a frequent word of a language at this Zipf frequency or above in ``wordfreq``'s
list for it (3.0: once per million words); a word of three letters or fewer ("om", "vid",
"kl"), which unrelated languages share by chance, must be a function word of it (4.0)."""

_EDGE_PUNCTUATION: Final = ".,;:!?¡¿()[]{}\"'“”«»…"
"""What is stripped from a token's edges before it is read as a word."""

MIN_LETTERS: Final = 12
"""Latin segments shorter than this are joined to their Latin neighbours before they are
identified: a statistical identifier guesses on two words ("ok thx")."""

_T = TypeVar("_T")
_WORDS = re.compile(r"[^\W\d_]+")


def _plain_letters(text: str) -> int:
    """Letters of the words that do not start with a capital: names, greetings and a
    sentence's first word carry little of its language ("Congrats, Joanna!")."""
    return sum(len(w) for w in _WORDS.findall(text) if not w[0].isupper())


def _list_file(language: str, wordlist: str) -> Path:
    """Where ``wordfreq`` keeps a list: found without importing it (its import, ftfy and
    langcodes, costs a new process ~0.2 s of CPU; a list of an exact code needs neither)."""
    spec = importlib.util.find_spec("wordfreq")
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError("wordfreq")
    return Path(spec.origin).parent / "data" / f"{wordlist}_{language}.msgpack.gz"


def _zipf_list(language: str, wordlist: str) -> dict[str, float] | None:
    """``wordfreq``'s list as word -> Zipf frequency (``log10(frequency) + 9``, words of
    frequency 0 left out), in its order, or ``None`` when it has no such list: what
    ``get_frequency_dict(language, wordlist=wordlist)`` gives for a language of its own list
    (``available_languages``' codes, which ``langcodes`` matches to themselves), read as
    wordfreq reads its cBpack file, one Zipf value a bucket. A file of another format is left
    to wordfreq itself."""
    path = _list_file(language, wordlist)
    if not path.is_file():
        return None
    import msgpack  # type: ignore[import-untyped]

    with gzip.open(path, "rb") as infile:
        data = msgpack.load(infile, raw=False)
    header = data[0]
    if not isinstance(header, dict) or header.get("format") != "cB" or header.get("version") != 1:
        import wordfreq

        freqs: dict[str, float] = wordfreq.get_frequency_dict(language, wordlist=wordlist)
        return freqs
    out: dict[str, float] = {}
    for index, bucket in enumerate(data[1:]):
        freq = 10 ** (-index / 100)  # wordfreq's cB_to_freq; a later bucket's value wins
        if freq == 0:  # past ~32,000 cB (no shipped list): these words have no Zipf value
            dropped = {w for b in data[index + 1 :] for w in b}
            return {w: z for w, z in out.items() if w not in dropped}
        out.update(dict.fromkeys(bucket, math.log10(freq) + 9.0))
    return out


@functools.cache
def _lexicon(language: str) -> dict[str, float] | None:
    """``wordfreq``'s small list of ``language`` as word -> Zipf frequency, or ``None`` when it
    has none or the language is not written in Latin script (its list's most frequent words
    are not Latin: Chinese, Japanese), loaded once on first use."""
    freqs = _zipf_list(language, "small")
    if freqs is None:
        return None
    top = list(itertools.islice(freqs, 100))
    if sum(1 for w in top if all(_script(ch) in (None, "Latn") for ch in w)) < len(top) / 2:
        return None
    return freqs


class _LargeLexicon(Mapping[str, float]):
    """``wordfreq``'s large list of a language, read through its small one first.

    Loading a large list costs ~0.5 s of CPU, and most words of a turn are in the small list,
    whose frequencies are the large list's own (the same counts, cut off higher: checked for
    every word of every language both have). So a word the small list holds is answered from
    it, and the large list is loaded on the first word it lacks: the answers of the large list,
    without its load on a turn of common words (coldstart17).
    """

    __slots__ = ("_language", "_large", "_lock", "_small")

    def __init__(self, language: str, small: dict[str, float]) -> None:
        self._language = language
        self._small = small
        self._large: dict[str, float] | None = None
        self._lock = threading.Lock()

    def _loaded(self) -> dict[str, float]:
        if self._large is None:
            with self._lock:  # one load a process, whichever thread asks first
                if self._large is None:
                    self._large = _zipf_list(self._language, "large") or {}
        return self._large

    @overload
    def get(self, key: str, /) -> float | None: ...
    @overload
    def get(self, key: str, /, default: float | _T) -> float | _T: ...
    def get(self, key: str, /, default: object = None) -> object:
        """The word's Zipf frequency in the large list, or ``default``."""
        value = self._small.get(key)
        return value if value is not None else self._loaded().get(key, default)

    def __getitem__(self, key: str) -> float:
        value = self._small.get(key)
        return value if value is not None else self._loaded()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._loaded())

    def __len__(self) -> int:
        return len(self._loaded())


@functools.cache
def _vouch_lexicon(language: str) -> Mapping[str, float] | None:
    """``wordfreq``'s large list of ``language`` (its small one where it has no large one) as
    word -> Zipf frequency, or ``None`` for a language not written in Latin script."""
    small = _lexicon(language)
    if small is None:
        return None
    if not _list_file(language, "large").is_file():
        return small
    return _LargeLexicon(language, small)
