"""Which language each part of a text is in, offline, so the quote gate vouches only for what
its vocabularies can read.

A turn is cut into segments: sentences, then runs of one script inside a sentence, so a
code-switched turn ("Meeting at 3pm. 그리고 저는 …") is judged part by part. Script alone settles
most of them: Hangul is Korean, kana is Japanese, Han without kana is Chinese, Cyrillic, Arabic,
Devanagari and the rest are none of the covered languages. Only Latin-script segments need a
statistical identifier: ``py3langid`` (a packaged naive-Bayes model, 97 languages, no download),
chosen over ``lingua-language-detector`` by measurement on short and code-switched turns
(``benchmarks/language_id.py``, ``docs/benchmarks.md``). A short segment the model cannot place
is also read by its words against ``wordfreq``'s lists of the covered languages
(:func:`lexicon_language`). A segment with no letters (numbers, a URL, punctuation) has no
language: the language-agnostic detectors judge it. Close relatives the identifier reads as a
covered language (Swiss German, Luxembourgish, Nigerian Pidgin, Scots, Afrikaans) and
Cantonese written in Han are read by their own words (:func:`relative_of`, :func:`cantonese`;
``policy/data/relatives.yaml``): not covered.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Final

__all__ = [
    "COVERED_LANGUAGES",
    "MIN_LETTERS",
    "RELATIVES",
    "SHORT_LETTERS",
    "Segment",
    "decide",
    "identify",
    "read_by_its_words",
    "relative_of",
    "segments",
    "sentences",
    "uncovered_segments",
    "vouched_language",
]

COVERED_LANGUAGES: Final = frozenset({"en", "zh", "es", "de", "fr", "ja", "pt"})
"""Languages the floor's and the gate's vocabularies are written for (ISO 639-1)."""

MIN_LETTERS: Final = 12
"""Latin segments shorter than this are joined to their Latin neighbours before they are
identified: a statistical identifier guesses on two words ("ok thx")."""

UNDETERMINED: Final = "und"
"""The language of a segment the identifier cannot place (treated as not covered)."""

# A sentence ends at .!?; followed by a space or the end (not inside "5.400" or "v1.2"), at
# their CJK forms, or at a line break.
_SENTENCE = re.compile(r"[^\n]*?(?:[.!?;]+(?=\s|$)|[。！？；]+|\n+|$)")

# (first code point, last code point, script) for letters outside Latin-1; checked in order.
_RANGES: Final = (
    (0x0250, 0x02AF, "Latn"),
    (0x0370, 0x03FF, "Grek"),
    (0x0400, 0x052F, "Cyrl"),
    (0x0530, 0x058F, "Armn"),
    (0x0590, 0x05FF, "Hebr"),
    (0x0600, 0x08FF, "Arab"),
    (0x0900, 0x097F, "Deva"),
    (0x0980, 0x0DFF, "Indic"),
    (0x0E00, 0x0EFF, "Thai"),
    (0x10A0, 0x10FF, "Geor"),
    (0x1100, 0x11FF, "Hang"),
    (0x1E00, 0x1EFF, "Latn"),
    (0x3040, 0x30FF, "Kana"),
    (0x3130, 0x318F, "Hang"),
    (0x31F0, 0x31FF, "Kana"),
    (0x3400, 0x4DBF, "Hani"),
    (0x4E00, 0x9FFF, "Hani"),
    (0xAC00, 0xD7AF, "Hang"),
    (0xF900, 0xFAFF, "Hani"),
    (0xFB50, 0xFEFF, "Arab"),
    (0xFF21, 0xFF5A, "Latn"),
    (0xFF66, 0xFF9F, "Kana"),
    (0x20000, 0x3134F, "Hani"),
)
_CJK: Final = frozenset({"Hani", "Kana"})
_SCRIPT_LANGUAGE: Final = {"Hang": "ko"}


@dataclass(frozen=True, slots=True)
class Segment:
    """One sentence-and-script run of a text.

    Attributes:
        start: Offset of the segment in the text.
        end: End offset (exclusive).
        script: ``Latn``, ``Hani``/``Kana`` (one CJK run), ``Hang``, ``Cyrl``, ``Arab``...;
            ``Zyyy`` for a run without letters.
        language: ISO 639-1 code, ``und`` when the identifier cannot place it, or ``None`` for a
            segment with no letters (no language to vouch for).
    """

    start: int
    end: int
    script: str
    language: str | None


def _script(ch: str) -> str | None:
    """The script of a letter (``None`` for digits, spaces, punctuation and marks)."""
    if not ch.isalpha():
        return None
    o = ord(ch)
    if o < 0x0250:
        return "Latn"
    for lo, hi, script in _RANGES:
        if lo <= o <= hi:
            return script
    return "Other"


def _runs(text: str, start: int, end: int) -> Iterator[tuple[int, int, str]]:
    """Runs of one script in ``text[start:end]``; neutral characters join the run before them
    (or the first run); Han and kana form one CJK run."""
    run_start, run_script = start, "Zyyy"
    for i in range(start, end):
        script = _script(text[i])
        if script is None:
            continue
        if script in _CJK:
            script = "Hani"
        if run_script == "Zyyy":
            run_script = script
        elif script != run_script:
            yield run_start, i, run_script
            run_start, run_script = i, script
    if end > run_start:
        yield run_start, end, run_script


def sentences(text: str) -> list[str]:
    """The text's sentences (cut at ``.!?;``, their CJK forms and line breaks)."""
    return [m.group(0) for m in _SENTENCE.finditer(text) if m.group(0).strip()]


def _letters(text: str) -> int:
    return sum(1 for ch in text if ch.isalpha())


_WORDS = re.compile(r"[^\W\d_]+")


def _plain_letters(text: str) -> int:
    """Letters of the words that do not start with a capital: names, greetings and a
    sentence's first word carry little of its language ("Congrats, Joanna!")."""
    return sum(len(w) for w in _WORDS.findall(text) if not w[0].isupper())


def _short(text: str) -> bool:
    """Too little of a language to identify alone: under :data:`MIN_LETTERS` letters, or under
    as many in its uncapitalised words ("Caroline: Hey Mel!", "Bravo, Thibault !")."""
    return _letters(text) < MIN_LETTERS or _plain_letters(text) < MIN_LETTERS


def segments(text: str, identify_with: Callable[[str], str] | None = None) -> list[Segment]:
    """The text's segments in order, each with its language.

    Args:
        text: Any text.
        identify_with: The identifier (:func:`identify` by default); the benchmark passes
            another to compare.
    """
    ident = identify_with or identify
    out: list[Segment] = []
    for start, end, script in pieces(text):
        chunk = text[start:end]
        if script == "Zyyy":
            language: str | None = None
        elif script in _SCRIPT_LANGUAGE:
            language = _SCRIPT_LANGUAGE[script]
        elif script == "Hani":
            language = "ja" if any(_script(ch) == "Kana" for ch in chunk) else "zh"
            if language == "zh" and cantonese(chunk):
                language = CANTONESE
        elif script == "Latn":
            language = None if _letters(chunk) < MIN_LETTERS else ident(chunk)
            if language is not None:
                language = relative_of(chunk, language) or language
        else:
            # No covered language is written in this script: name it for reports only.
            named = ident(chunk)
            language = UNDETERMINED if named in COVERED_LANGUAGES else named
        out.append(Segment(start, end, script, language))
    return _inherit(out, text, ident)


def pieces(text: str) -> list[tuple[int, int, str]]:
    """The (start, end, script) of the segments :func:`segments` gives, before identification:
    a caller that can rule a text out by its pieces alone skips the identifier."""
    found: list[tuple[int, int, str]] = []
    for m in _SENTENCE.finditer(text):
        if m.end() > m.start():
            found.extend(_runs(text, m.start(), m.end()))
    return _join_short_latin(text, found)


def _inherit(out: list[Segment], text: str, ident: Callable[[str], str]) -> list[Segment]:
    """A short Latin run alone among other scripts ("我用 VS Code", "OK. Кстати …") takes the
    language of the segment before it (else after it); with none, the identifier decides."""
    for i, seg in enumerate(out):
        if seg.script != "Latn" or seg.language is not None:
            continue
        near = [s.language for s in (*reversed(out[:i]), *out[i + 1 :]) if s.language]
        language = near[0] if near else ident(text[seg.start : seg.end])
        if not near:
            language = relative_of(text[seg.start : seg.end], language) or language
        out[i] = Segment(seg.start, seg.end, seg.script, language)
    return out


def _join_short_latin(text: str, pieces: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Join each short Latin run to the nearest Latin run after it (else before it), so "OK."
    or "Thanks, Melanie!" is identified with the sentence it belongs to, not alone. A short run
    with no Latin neighbour is still identified alone (and withheld when that fails)."""
    out = list(pieces)
    changed = True
    while changed:
        changed = False
        for i, (s, e, script) in enumerate(out):
            if script != "Latn" or not _short(text[s:e]):
                continue
            j = next((k for k in range(i + 1, len(out)) if out[k][2] == "Latn"), None)
            if j is None:
                j = next((k for k in range(i - 1, -1, -1) if out[k][2] == "Latn"), None)
            # The identifier last: a run with no Latin neighbour ("ns#k17", a store key) stays
            # alone whatever it says, and asking it cost ~1 ms a key (issue 30, bulkput3).
            if j is None or _sure_uncovered(text[s:e]):
                continue
            lo, hi = min(i, j), max(i, j)
            if any(out[k][2] not in ("Latn", "Zyyy") for k in range(lo + 1, hi)):
                continue  # another script lies between: keep them apart
            merged = (out[lo][0], out[hi][1], "Latn")
            out[lo : hi + 1] = [merged]
            changed = True
            break
    return out


SURE_TOP: Final = 0.5
SURE_RATIO: Final = 0.05


@functools.lru_cache(maxsize=16_384)
def _sure_uncovered(chunk: str) -> bool:
    """A short run the identifier alone places outside the covered languages with confidence
    (best guess at least :data:`SURE_TOP`, every covered language under :data:`SURE_RATIO` of
    it) and that has a word beyond names: a sentence of its own, not a greeting to join. So
    "Vou ao médico amanhã. Kemoterapi görüyorum." keeps its second sentence apart instead of
    reading it as Portuguese; "Sure thing, Mr. Kowalczyk." (names only) is still joined."""
    if _plain_letters(chunk) == 0:
        return False
    folded = unicodedata.normalize("NFKC", chunk).strip()
    ranking = _py3langid()(folded) if folded else []
    if not ranking or ranking[0][0] in COVERED_LANGUAGES or ranking[0][1] < SURE_TOP:
        return False
    p_covered = max((p for lang, p in ranking if lang in COVERED_LANGUAGES), default=0.0)
    return p_covered < SURE_RATIO * ranking[0][1]


def uncovered_segments(
    text: str,
    covered: frozenset[str] = COVERED_LANGUAGES,
    identify_with: Callable[[str], str] | None = None,
) -> list[Segment]:
    """Segments in a language not in ``covered`` (``und`` counts as not covered)."""
    found = segments(text, identify_with)
    return [s for s in found if s.language is not None and s.language not in covered]


Ranking = Callable[[str], list[tuple[str, float]]]
"""``text -> [(ISO 639-1 code, probability), ...]`` over every language a model knows."""


@functools.cache
def _py3langid() -> Ranking:
    """The packaged py3langid model, loaded once on first use (never at import)."""
    model = _py3langid_model()

    def rank(text: str) -> list[tuple[str, float]]:
        return [(str(lang), float(p)) for lang, p in model.rank(text)]

    return rank


@functools.cache
def _py3langid_model() -> Any:
    from py3langid.langid import MODEL_FILE, LanguageIdentifier  # type: ignore[import-untyped]

    model = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    model.set_languages([lang for lang in model.labels if lang not in READ_AS_COVERED])
    return model


def identifier_languages() -> frozenset[str]:
    """Every language the identifier can name a segment (for data built per language)."""
    return frozenset(str(lang) for lang in _py3langid_model().nb_classes)


READ_AS_COVERED: Final = frozenset(
    {"pcm", "gl", "an", "ext", "ast", "oc", "lb", "wa", "lij", "vec", "bcl"}
)
"""Close relatives of covered languages (and one the model confuses with short English) that
py3langid cannot tell apart from them on a short turn: left out of its candidates, so their text
reads as the nearest covered language (Galician as Portuguese or Spanish, Luxembourgish as
German, Nigerian Pidgin as English). A documented risk (``docs/safety.md``)."""

COVERED_MASS: Final = 0.6
"""A Latin segment counts as covered when covered languages hold this share of the identifier's
probability, or when its best guess is covered and :data:`COVERED_MARGIN` times as likely as
the best other language: otherwise it is not covered (fail closed)."""

COVERED_MARGIN: Final = 1.15

SHORT_LETTERS: Final = 20
"""A segment with fewer letters than this is short: on two or three words (a line of digits,
codes, prices and names around them) a naive-Bayes identifier's best guess is close to chance
among related languages ("The zip code is 94107." reads as Dutch, "Mi madre gana 2.000 euros."
as Breton), so :func:`decide` gives a covered language the benefit of a near tie there."""

SHORT_RATIO: Final = 0.3
SHORT_RANK: Final = 3
"""On a short segment a covered language counts when it is among the identifier's
:data:`SHORT_RANK` best guesses with at least :data:`SHORT_RATIO` times the best guess's
probability. A language the identifier is sure of (Turkish "Saat 6 gibi ararım." puts every
covered language under 0.05 of it and past rank 10) stays uncovered: the prior breaks near ties,
it does not overrule the model."""


def decide(
    ranking: list[tuple[str, float]],
    covered: frozenset[str] = COVERED_LANGUAGES,
    *,
    short: bool = False,
) -> str:
    """The language a ranking (best first) stands for: a covered one only when the identifier
    is clearly on its side (see :data:`COVERED_MASS`) or, for a ``short`` segment, close to its
    best guess (see :data:`SHORT_RATIO`); else the best other one."""
    if not ranking:
        return UNDETERMINED
    mass = sum(p for lang, p in ranking if lang in covered)
    best_other = next(((lang, p) for lang, p in ranking if lang not in covered), None)
    top, p_top = ranking[0]
    if mass >= COVERED_MASS or (
        top in covered and (best_other is None or p_top >= COVERED_MARGIN * best_other[1])
    ):
        return max((p, lang) for lang, p in ranking if lang in covered)[1]
    if short:
        near = [
            lang for lang, p in ranking[:SHORT_RANK] if lang in covered and p >= SHORT_RATIO * p_top
        ]
        if near:
            return near[0]
    return best_other[0] if best_other is not None else UNDETERMINED


@functools.lru_cache(maxsize=16_384)
def identify(text: str, *, vouch: bool = True) -> str:
    """ISO 639-1 code of a segment by the packaged model (``und`` when it cannot place it);
    a short segment the model cannot place is read by the covered lexicons too
    (:func:`lexicon_language`).

    Args:
        vouch: Read an unsure covered verdict by its words (:func:`vouched_language`). The
            floor's whole-turn guard passes False: it asks whether a turn is a covered message
            quoting a foreign name or street, where the names are the unknown words.
    """
    folded = unicodedata.normalize("NFKC", text).strip()
    if not folded:
        return UNDETERMINED
    ranking = _py3langid()(folded)
    short = _letters(folded) < SHORT_LETTERS
    language = decide(ranking, short=short)
    if short and language not in COVERED_LANGUAGES:
        return lexicon_language(folded, ranking) or language
    if vouch and language in COVERED_LANGUAGES and ranking and _unsure(ranking, language):
        return vouched_language(folded, language, ranking)
    return language


VOUCH_ZIPF: Final = 2.0
VOUCH_ZIPF_SHORT_WORD: Final = 3.0
"""A word is known to a covered language at this Zipf frequency or above in ``wordfreq``'s
large list for it (2.0: once in ten million words, so rare inflections and compounds such as
"ahorrados", "Avísale" or "misspoke" are known; Romanian "parola" is not Spanish at 1.86); a
word of up to three letters, which languages share by chance, at 3.0."""


def _unsure(ranking: list[tuple[str, float]], language: str) -> bool:
    """The identifier names a language outside the covered ones among its
    :data:`SHORT_RANK` best guesses with at least :data:`SHORT_RATIO` of ``language``'s
    probability: Romanian "parola de la email este …" ranks Spanish 0.42, Romanian 0.16."""
    p_language = dict(ranking).get(language, 0.0)
    return any(
        lang not in COVERED_LANGUAGES and p >= SHORT_RATIO * p_language
        for lang, p in ranking[:SHORT_RANK]
    )


def vouched_language(text: str, language: str, ranking: list[tuple[str, float]]) -> str:
    """The covered language an unsure identifier's verdict may stand for, or the uncovered
    language it then reads as (issue 29, gate4: an uncovered language read as a covered one).

    The gate's rules read a covered language word by word; a segment with a word that language
    does not know, while the identifier ranks an uncovered language close behind it, was
    written in that other language ("parola de la email este Vulpe_Rosie9" is Romanian, read
    as Spanish, and its password passed). So an unsure verdict stands only when every word is
    known to it (names, tokens with digits or symbols and words of one letter are skipped);
    else a covered language close behind in the ranking (as :func:`decide`'s near tie) that
    knows every word ("comprei 3 quilos de laranja" is Portuguese); else the identifier's
    best language outside the covered ones.
    """
    if _vouch_lexicon(language) is None:
        return language  # no list to read it by: the identifier's word stands
    words = _plain_words(text)
    p_top = ranking[0][1]
    candidates = [language] + [
        lang
        for lang, p in ranking[:SHORT_RANK]
        if lang in COVERED_LANGUAGES and lang != language and p >= SHORT_RATIO * p_top
    ]
    for candidate in candidates:
        lexicon = _vouch_lexicon(candidate)
        if lexicon is not None and all(_known(word, i, lexicon) for i, word in words):
            return candidate
    return next((lang for lang, _ in ranking if lang not in COVERED_LANGUAGES), UNDETERMINED)


def read_by_its_words(text: str, language: str) -> bool:
    """Every word of ``text`` is known to ``language`` (``wordfreq``'s large list, names and
    tokens skipped, as :func:`vouched_language` reads them), or there is no list to read it by.

    A close relative of a covered language ("o contrasinal da wifi é …" is Galician, "ech
    verdéngen 4.200 Euro" Luxembourgish, "A'm earnin £2,300" Scots) is read as that language
    on a confident or a lone verdict, where :func:`vouched_language` does not look (and
    :data:`READ_AS_COVERED` hides the relative from the identifier); the covered rules then
    read it word by word and miss the words they were not written for. A segment with a value
    in it is quoted only when this holds (issue 29, values5)."""
    lexicon = _vouch_lexicon(language)
    if lexicon is None:
        return True
    return all(_known(word, i, lexicon) for i, word in _plain_words(text))


_EDGE_PUNCTUATION: Final = ".,;:!?¡¿()[]{}\"'“”«»…"


def _plain_words(text: str) -> list[tuple[int, str]]:
    """``(position, word)`` of the tokens that are words: letters only once edge punctuation
    is stripped, split at hyphens and apostrophes ("l'email", "e-mail"); an id, a password or
    a brand with digits ("Vulpe_Rosie9", "23andMe") is not a word of any language."""
    out: list[tuple[int, str]] = []
    for i, token in enumerate(text.split()):
        for part in re.split(r"[-'’]", token.strip(_EDGE_PUNCTUATION)):
            if part.isalpha():
                out.append((i, part))
    return out


def _known(word: str, index: int, lexicon: dict[str, float]) -> bool:
    if len(word) < 2:
        return True
    floor = VOUCH_ZIPF_SHORT_WORD if len(word) <= 3 else VOUCH_ZIPF
    if lexicon.get(word.casefold(), 0.0) >= floor:
        return True
    if any(ch.isupper() for ch in word[1:]):
        return True  # an acronym or a brand ("RDV", "ExoticsCon"), anywhere in the line
    return index > 0 and word[0].isupper()  # a name


@functools.cache
def _vouch_lexicon(language: str) -> dict[str, float] | None:
    """``wordfreq``'s large list of ``language`` (its small one where it has no large one) as
    word -> Zipf frequency, or ``None`` for a language not written in Latin script."""
    import wordfreq

    if _lexicon(language) is None:
        return None
    if language not in wordfreq.available_languages("large"):
        return _lexicon(language)
    freqs: dict[str, float] = wordfreq.get_frequency_dict(language, wordlist="large")
    return {w: math.log10(f) + 9.0 for w, f in freqs.items() if f > 0}


LEXICON_ZIPF: Final = 3.0
LEXICON_ZIPF_SHORT_WORD: Final = 4.0
"""A word is a frequent word of a language at this Zipf frequency or above in ``wordfreq``'s
list for it (3.0: once per million words); a word of three letters or fewer ("om", "vid",
"kl"), which unrelated languages share by chance, must be a function word of it (4.0)."""

LEXICON_NAMES: Final = 0.5
"""At most this share of a segment's letters may be in names (capitalised words after the
first that are no frequent word of the language): a line is not read from its names."""


def lexicon_language(
    text: str, ranking: list[tuple[str, float]], covered: frozenset[str] = COVERED_LANGUAGES
) -> str | None:
    """The covered language a short segment the identifier cannot place is written in, by its
    words: every word a frequent word of that language, or a name.

    On two or three words ("Call Priya at 5:30 pm.", "Plaza Mayor, 18:00.") py3langid's best
    guess is close to chance (0.04-0.3 for Tagalog, Zulu, Norwegian...) and the covered language
    may rank 13th. A line whose every word is a frequent word of a covered language is read by
    that language's rules word for word, so it is quotable as that language. Never when the
    identifier is sure (best guess at least :data:`SURE_TOP`) or puts the language under
    :data:`SURE_RATIO` of its best guess ("grazie mille" is no German): the lexicon breaks the
    model's uncertainty, it does not overrule it. Lexicons come from ``wordfreq`` for the
    covered languages written in Latin script; no other language's list is read.
    """
    if not ranking or ranking[0][1] >= SURE_TOP:
        return None
    words = _WORDS.findall(text)
    if not words:
        return None
    p_top = ranking[0][1]
    for language, p in ranking:
        if language not in covered or p < SURE_RATIO * p_top:
            continue
        lexicon = _lexicon(language)
        if lexicon is None:
            continue
        names = 0
        for i, word in enumerate(words):
            floor = LEXICON_ZIPF_SHORT_WORD if len(word) <= 3 else LEXICON_ZIPF
            if lexicon.get(word.casefold(), 0.0) >= floor:
                continue
            if i == 0 or not word[0].isupper():
                break
            names += len(word)
        else:
            if names <= LEXICON_NAMES * sum(len(w) for w in words):
                return language
    return None


@functools.cache
def _lexicon(language: str) -> dict[str, float] | None:
    """``wordfreq``'s small list of ``language`` as word -> Zipf frequency, or ``None`` when it
    has none or the language is not written in Latin script (its list's most frequent words
    are not Latin: Chinese, Japanese), loaded once on first use."""
    import wordfreq

    if language not in wordfreq.available_languages("small"):
        return None
    freqs: dict[str, float] = wordfreq.get_frequency_dict(language, wordlist="small")
    top = list(itertools.islice(freqs, 100))
    if sum(1 for w in top if all(_script(ch) in (None, "Latn") for ch in w)) < len(top) / 2:
        return None
    return {w: math.log10(f) + 9.0 for w, f in freqs.items() if f > 0}


# -- close relatives read through a covered word list (issue 29, dialects6) ---------------------

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
    from importlib import resources

    import yaml  # type: ignore[import-untyped]

    raw = resources.files("userlore.policy.data").joinpath("relatives.yaml").read_text("utf-8")
    data: dict[str, Any] = yaml.safe_load(raw)
    return data


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
