"""A wallet's recovery phrase: twelve words or more of one BIP39 word list (issue 29).

``passwords`` reads a phrase after an English seed word; a phrase pasted after "les 12 mots
de mon portefeuille", "助记词" or nothing at all passed. The class is the words themselves:
BIP39 fixes one list of 2048 words per language (the ``mnemonic`` package ships the lists of
the reference implementation), and a run of twelve or more words, all from one list and
separated only by spaces, numbering or commas, is a phrase whatever language frames it.
Prose does not do that: every list leaves out the function words ("the", "de", "und"). A
comma list must also pass the phrase's checksum (a shopping list of twelve list words would
not), and a run that is half one word is the documentation's example ("abandon abandon …
about").
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from collections.abc import Iterator
from importlib import resources
from typing import Final

from mnemonic import Mnemonic

from userlore.policy.cue_data import CueAlternation
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit
from userlore.policy.findings import _SECRET

__all__ = ["seed_phrases"]

_SHORTEST: Final = 12
_WORD = re.compile(r"[^\W\d_]+")
# What may stand between two words of a phrase: spaces, an ideographic space, a comma, or the
# number of a numbered list ("1. math 2. bless").
_GAP = re.compile(r"[\s,、]*(?:\d{1,2}[.)]\s*)?")


def _fold(word: str) -> str:
    """Lowercased, accents dropped (lists and texts differ in NFC/NFD and in accents typed)."""
    decomposed = unicodedata.normalize("NFKD", word.lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@functools.cache
def _lists() -> tuple[tuple[str, ...], dict[str, int]]:
    """The list names and, for each folded word, the bit mask of the lists that hold it."""
    names = tuple(
        sorted(
            p.name.removesuffix(".txt")
            for p in resources.files("mnemonic").joinpath("wordlist").iterdir()
            if p.name.endswith(".txt")
        )
    )
    masks: dict[str, int] = {}
    for bit, name in enumerate(names):
        for word in Mnemonic(name).wordlist:
            for key in {_fold(word), unicodedata.normalize("NFC", word.lower())}:
                masks[key] = masks.get(key, 0) | (1 << bit)
    return names, masks


def _mask(word: str, masks: dict[str, int]) -> int:
    """The lists that hold ``word``: its lowercase form first (one lookup for most words),
    its folded form only for a word with letters outside ASCII."""
    low = word.lower()
    bits = masks.get(low, 0)
    if bits or low.isascii():
        return bits
    return masks.get(_fold(low), 0)


def _checksum_ok(words: list[str], mask: int) -> bool:
    names, _ = _lists()
    if len(words) % 3:
        return False
    for bit, name in enumerate(names):
        if mask & (1 << bit):
            m = Mnemonic(name)
            by_fold = {_fold(w): w for w in m.wordlist}
            try:
                if m.check(" ".join(by_fold[_fold(w)] for w in words)):
                    return True
            except (LookupError, ValueError):
                continue
    return False


def seed_phrases(t: str) -> Iterator[_Hit]:
    """Runs of twelve or more words of one BIP39 list (see the module docstring)."""
    if t.count(" ") + t.count("\u3000") + t.count(",") + t.count("、") < _SHORTEST - 1:
        return
    _, masks = _lists()
    listed = sum(map(masks.__contains__, _WORD.findall(t.lower())))
    if listed >= _SHORTEST - _OFF_LIST:
        yield from _cued(t, masks)
    if listed < _SHORTEST:
        return  # fewer than twelve list words in all (a word typed with other accents aside)
    run: list[re.Match[str]] = []
    mask = 0
    for w in _WORD.finditer(t):
        bits = _mask(w.group(0), masks)
        joined = bool(run) and _GAP.fullmatch(t, run[-1].end(), w.start()) is not None
        if bits and joined and mask & bits:
            run.append(w)
            mask &= bits
            continue
        yield from _phrase(t, run, mask)
        run, mask = ([w], bits) if bits else ([], 0)
    yield from _phrase(t, run, mask)


def _phrase(t: str, run: list[re.Match[str]], mask: int) -> Iterator[_Hit]:
    if len(run) < _SHORTEST:
        return
    words = [w.group(0) for w in run]
    if max(Counter(_fold(w) for w in words).values()) * 2 >= len(words):
        return  # the documentation's example phrase, one word over and over
    if any(c in t[run[0].start() : run[-1].end()] for c in ",、") and not _checksum_ok(words, mask):
        return
    yield (_SECRET, "seed_phrase", run[0].start(), run[-1].end(), None)


_OFF_LIST: Final = 2
_CUE_REACH: Final = 60


@functools.cache
def _patterns() -> tuple[CueAlternation, CueAlternation, CueAlternation]:
    """The seed cues, the counts of words and the wallet words of ``data/seed_phrases.yaml``
    (each scanning only the terms whose literal is in the text: the same matches; perf24)."""
    raw = data_yaml("seed_phrases.yaml")

    def words(section: str) -> CueAlternation:
        terms = {str(w).casefold() for ws in raw[section].values() for w in ws}
        return CueAlternation(sorted(terms))

    return words("cues"), words("counted"), words("wallets")


def _cues(lowered: str) -> Iterator[re.Match[str]]:
    """Seed cues, and counts of words in a line that names a wallet ("the 12 words from my
    metamask", not "12 words for the vocab quiz")."""
    cue, counted, wallets = _patterns()
    yield from cue.finditer(lowered)
    for m in counted.finditer(lowered):
        lo = lowered.rfind("\n", 0, m.start()) + 1
        hi = lowered.find("\n", m.end())
        if wallets.search(lowered, lo, len(lowered) if hi < 0 else hi):
            yield m


def _cued(t: str, masks: dict[str, int]) -> Iterator[_Hit]:
    """A run after a seed cue with at most two words off its list (see the module docstring):
    it starts at a list word within reach of the cue, takes list words of one list and up to
    two others, and ends at its last list word (one off-list word more when that makes the
    phrase a multiple of three long: a typo in its last word, "… easy miracl")."""
    for cue in _cues(t.lower()):
        line_end = t.find("\n", cue.end())
        end = len(t) if line_end < 0 else line_end
        run: list[re.Match[str]] = []
        off = mask = 0
        before: re.Match[str] | None = None
        first: re.Match[str] | None = None  # the word before the run, perhaps its first
        for w in _WORD.finditer(t, cue.end(), end):
            bits = _mask(w.group(0), masks)
            if run and _GAP.fullmatch(t, run[-1].end(), w.start()) is None:
                if len(run) >= _SHORTEST:
                    break
                run = []  # "助记词是：杀 稀 …": a list word of the cue's clause, then the phrase
            if not run:
                if w.start() > cue.end() + _CUE_REACH:
                    break
                if bits:
                    run, mask, off = [w], bits, 0
                    first = before  # an off-list first word ("metamask: lantern orbit …")
                before = w
                continue
            if bits and mask & bits:
                run.append(w)
                mask &= bits
            elif off < _OFF_LIST:
                run.append(w)
                off += 1
            else:
                break
        joined = run and first is not None and _GAP.fullmatch(t, first.end(), run[0].start())
        if len(run) < _SHORTEST and off < _OFF_LIST and joined and first is not None:
            run.insert(0, first)
        while run and not _mask(run[-1].group(0), masks) and len(run) % 3:
            run.pop()  # an off-list word past the phrase ("… gate, keep it safe" aside)
        if len(run) < _SHORTEST:
            continue
        words = [w.group(0) for w in run]
        listed = sum(1 for w in words if _mask(w, masks))
        if listed < _SHORTEST - _OFF_LIST or max(Counter(map(_fold, words)).values()) * 2 >= len(
            words
        ):
            continue
        yield (_SECRET, "seed_phrase", run[0].start(), run[-1].end(), None)
