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
``policy/data/relatives.yaml``): not covered; so is Han written with a character outside the
Basic Multilingual Plane (:func:`~userlore.policy.scripts.beyond_common_han`: "𠊎", "𪜶", read
as no language; blindfix18b). A covered verdict on words its list does not
know is checked against the identifier's ranking over every language, the relatives it hides
(:data:`READ_AS_COVERED`) included (``policy.near_relatives``): Galician read as Portuguese
reads as Galician.

The parts this module builds on are their own modules (floorcost7, tidy15): the script of a
letter (``policy.scripts``), the covered languages and their ``wordfreq`` lists
(``policy.word_lists``), the relatives' rules (``policy.relatives``), the code stripped from a
line before it is identified (``policy.code_tokens``) and the reading of a segment by its words,
the relatives hidden from the identifier included (``policy.known_words``).
"""

from __future__ import annotations

import copy
import functools
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from userlore.policy.code_tokens import without_code_tokens
from userlore.policy.known_words import (
    COMPOUNDING_LANGUAGES,
    READ_AS_COVERED,
    _hidden_relative,
    _known,
    _plain_words,
    read_by_its_words,
    unknown_to_covered,
)
from userlore.policy.machine_lines import in_machine_line, machine_spans
from userlore.policy.name_lists import (
    MIN_REST_WORDS,
    is_joiner,
    name_list_language,
    without_listed_names,
)
from userlore.policy.near_relatives import full_identifier
from userlore.policy.relatives import CANTONESE
from userlore.policy.relatives import cantonese as cantonese
from userlore.policy.relatives import relative_of as relative_of
from userlore.policy.scripts import _runs, _script, beyond_common_han
from userlore.policy.word_lists import (
    _WORDS,
    LEXICON_ZIPF,
    LEXICON_ZIPF_SHORT_WORD,
    MIN_LETTERS,
    _lexicon,
    _plain_letters,
    _vouch_lexicon,
)
from userlore.policy.word_lists import COVERED_LANGUAGES as COVERED_LANGUAGES
from userlore.policy.word_lists import UNDETERMINED as UNDETERMINED

__all__ = [
    "COVERED_LANGUAGES",
    "SHORT_LETTERS",
    "Segment",
    "decide",
    "identify",
    "relative_of",
    "segments",
    "sentences",
    "uncovered_segments",
    "vouched_language",
]

# A sentence ends at .!?; followed by a space or the end (not inside "5.400" or "v1.2"), at
# their CJK forms, or at a line break.
_SENTENCE = re.compile(r"[^\n]*?(?:[.!?;]+(?=\s|$)|[。！？；]+|\n+|$)")

_SCRIPT_LANGUAGE: Final = {"Hang": "ko"}

NO_LANGUAGE: Final = "zxx"
"""The identifier's verdict for no linguistic content (keys, hashes, URLs)."""
SCRIPT_LETTERS: Final = 3
"""Letters of a script no covered language writes, from this many, are a language even where
the identifier says no linguistic content: no key or hash is spelt in them (issue 29,
blindfix24b)."""


@dataclass(frozen=True, slots=True)
class Segment:
    """One sentence-and-script run of a text.

    Attributes:
        start: Offset of the segment in the text.
        end: End offset (exclusive).
        script: ``Latn``, ``Hani``/``Kana`` (one CJK run), ``Hang``, ``Cyrl``, ``Arab``...;
            ``Zyyy`` for a run without letters, or a Latin run of a line a program printed
            (``policy.machine_lines``).
        language: ISO 639-1 code, ``und`` when the identifier cannot place it, or ``None`` for a
            segment with no letters (no language to vouch for).
    """

    start: int
    end: int
    script: str
    language: str | None


def sentences(text: str) -> list[str]:
    """The text's sentences (cut at ``.!?;``, their CJK forms and line breaks)."""
    return [m.group(0) for m in _SENTENCE.finditer(text) if m.group(0).strip()]


def _letters(text: str) -> int:
    return sum(1 for ch in text if ch.isalpha())


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
    if identify_with is None:
        return list(_segments(text))
    return _identified(text, identify_with)


_SEGMENTS_CACHED: Final = 256


@functools.lru_cache(maxsize=_SEGMENTS_CACHED)
def _segments(text: str) -> tuple[Segment, ...]:
    """:func:`segments` with the default identifier, kept for the last texts: the floor's
    detectors for uncovered languages each read a text's segments (blindfix9c)."""
    return tuple(_identified(text, identify))


def _identified(text: str, ident: Callable[[str], str]) -> list[Segment]:
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
            elif language == "zh" and beyond_common_han(text):  # not Mandarin (blindfix18b)
                language = UNDETERMINED
        elif script == "Latn" and (listed := name_list_language(chunk)) is not None:
            language = listed  # names and a covered language's joiners (policy.name_lists)
        elif script == "Latn":
            language = None if _letters(chunk) < MIN_LETTERS else ident(chunk)
            read = chunk
            if language is not None and language not in COVERED_LANGUAGES:
                language, read = _read_without_names(chunk, ident) or (language, chunk)
            if language is not None:
                language = relative_of(read, language) or _hidden_relative(read, language)
        else:
            # No covered language is written in this script: name it for reports only.
            named = ident(chunk)
            language = UNDETERMINED if named in COVERED_LANGUAGES else named
            if named == NO_LANGUAGE and _letters(chunk) >= SCRIPT_LETTERS:
                # Letters of a script the model was not trained on (blind24: Adlam, Vai,
                # Tifinagh read as "no linguistic content"): a language, just none it knows.
                language = UNDETERMINED
        out.append(Segment(start, end, script, language))
    return _romanised_among_han(_inherit(out, text, ident), text)


def _read_without_names(chunk: str, ident: Callable[[str], str]) -> tuple[str, str] | None:
    """The covered language of a sentence whose list of names misled the identifier ("is
    duolingo or babbel better for dutch" read as Norwegian; issue 29, blindfix23a): the
    sentence read without the list's items (:func:`~userlore.policy.name_lists.
    without_listed_names`) names the language of the list's joiner. Its other words decide,
    at least :data:`~userlore.policy.name_lists.MIN_REST_WORDS` of them, each known to that
    language (:func:`~userlore.policy.known_words.read_by_its_words`): "bitwarden vs
    1password?" alone has none, and a sentence of an uncovered language keeps its own words
    (blind11's Albanian "… dhjetë e gjysmë …" around the joiner "e"). The language and the
    sentence without its names, which the relatives' rules read next."""
    listed = without_listed_names(chunk)
    if listed is None:
        return None
    rest, joined = listed
    if len([w for w in _WORDS.findall(rest) if not is_joiner(w)]) < MIN_REST_WORDS:
        return None
    language = ident(rest)
    if language not in joined or not read_by_its_words(rest, language):
        return None  # "Takimi është … dhjetë e gjysmë …": Albanian, its rest no Spanish
    return language, rest


def pieces(text: str) -> list[tuple[int, int, str]]:
    """The (start, end, script) of the segments :func:`segments` gives, before identification:
    a caller that can rule a text out by its pieces alone skips the identifier."""
    found: list[tuple[int, int, str]] = []
    for m in _SENTENCE.finditer(text):
        if m.end() > m.start():
            found.extend(_runs(text, m.start(), m.end()))
    if not machine_spans(text):
        return _join_short_latin(text, found)
    # A line a program printed is no language (``policy.machine_lines``): its Latin runs are
    # read as runs without one, as digits and punctuation are (blindfix23d), once the short
    # Latin runs are joined: no run is joined across one.
    found = [
        (s, e, _MACHINE if script == "Latn" and in_machine_line(text, s, e) else script)
        for s, e, script in found
    ]
    return [
        (s, e, "Zyyy" if script == _MACHINE else script)
        for s, e, script in _join_short_latin(text, found)
    ]


_MACHINE: Final = "machine"
"""A Latin run of a machine line while short runs are joined: a script of its own, so no run
is joined across it."""


def _inherit(out: list[Segment], text: str, ident: Callable[[str], str]) -> list[Segment]:
    """A short Latin run alone among other scripts ("我用 VS Code", "OK. Кстати …") takes the
    language of the segment before it (else after it); with none, the identifier decides."""
    for i, seg in enumerate(out):
        if seg.script != "Latn" or seg.language is not None:
            continue
        near = [s.language for s in (*reversed(out[:i]), *out[i + 1 :]) if s.language]
        language = near[0] if near else ident(text[seg.start : seg.end])
        if not near:
            chunk = text[seg.start : seg.end]
            language = relative_of(chunk, language) or _hidden_relative(chunk, language)
        out[i] = Segment(seg.start, seg.end, seg.script, language)
    return out


ROMANISED_SYLLABLES: Final = 2
"""Latin words among Han runs that no covered list knows, one with a tone mark at least, that
make them a romanised language of their own (:func:`_romanised_among_han`)."""


def _romanised_among_han(out: list[Segment], text: str) -> list[Segment]:
    """The Latin runs beside Han runs read as no language when :data:`ROMANISED_SYLLABLES` of
    their lowercase words are known to no covered list and one carries a tone mark: a language
    written in Han and a romanisation at once ("我kap我ê翁婿…", issue 29, blind17) is no
    Mandarin with English words in it ("我用Python写了一个script"), whose words the English list
    knows and whose initialisms ("yyds") have no marks. Scripts, word lists and the covered
    Mandarin's own pinyin only (a run all of whose words are pinyin syllables stays Mandarin):
    no uncovered romanisation is named."""
    runs = [
        i
        for i, seg in enumerate(out)
        if seg.script == "Latn"
        and seg.language in COVERED_LANGUAGES
        and any(0 <= j < len(out) and out[j].script == "Hani" for j in (i - 1, i + 1))
    ]
    words = [w for i in runs for w in _WORDS.findall(text[out[i].start : out[i].end])]
    unknown = [w for w in words if w.islower() and unknown_to_covered(w)]
    if len(unknown) < ROMANISED_SYLLABLES or not any(map(_tone_marked, unknown)):
        return out
    if all(_PINYIN.fullmatch(_toneless(w)) for w in unknown):
        return out  # "拼音nǐ hǎo的声调": Mandarin's own romanisation, a covered language
    for i in runs:
        seg = out[i]
        out[i] = Segment(seg.start, seg.end, seg.script, UNDETERMINED)
    return out


# A Mandarin syllable in pinyin without its tone (one or more, "nihao"): initial, then final.
_PINYIN = re.compile(
    r"(?:(?:zh|ch|sh|[bpmfdtnlgkhjqxrzcsyw])?"
    r"(?:iang|iong|uang|ueng|ang|eng|ing|ong|ian|iao|uai|uan|üan|ai|ei|ao|ou|an|en|er"
    r"|ia|ie|iu|in|ua|uo|ui|un|üe|ün|ue|a|e|i|u|ü)|[bpmfwy]o)+"
)


def _toneless(word: str) -> str:
    """``word`` without its tone marks, ``ü`` kept (``nǚ`` -> ``nü``)."""
    bare = "".join(
        ch
        for ch in unicodedata.normalize("NFD", word.casefold())
        if not unicodedata.combining(ch) or ch == "\u0308"
    )
    return unicodedata.normalize("NFC", bare)


def _tone_marked(word: str) -> bool:
    return any(unicodedata.combining(ch) for ch in unicodedata.normalize("NFD", word))


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
    model = copy.copy(full_identifier())
    model.set_languages([lang for lang in model.labels if lang not in READ_AS_COVERED])
    return model


def identifier_languages() -> frozenset[str]:
    """Every language the identifier can name a segment (for data built per language)."""
    return frozenset(str(lang) for lang in _py3langid_model().nb_classes)


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
    worded = without_code_tokens(folded)
    if worded is not None:
        folded = worded  # the words' language, not a hash's "no language" (blind13)
    ranking = _py3langid()(folded)
    short = _letters(folded) < SHORT_LETTERS
    language = decide(ranking, short=short)
    if short and language not in COVERED_LANGUAGES:
        return lexicon_language(folded, ranking) or language
    if vouch and language in COVERED_LANGUAGES and ranking and _unsure(ranking, language):
        return vouched_language(folded, language, ranking)
    return language


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
        compounds = candidate in COMPOUNDING_LANGUAGES
        if lexicon is not None and all(_known(word, i, lexicon, compounds) for i, word in words):
            return candidate
    return next((lang for lang, _ in ranking if lang not in COVERED_LANGUAGES), UNDETERMINED)


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
