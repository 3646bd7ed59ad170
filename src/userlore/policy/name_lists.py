"""A segment that is a list of names, read by its joiners.

"Postgres 16, pgvector 0.7, Redis 7.2 and FastAPI" or "Claude、Cursor、GitHub Copilot、Raycast"
holds no word of any language but "and" or the commas: py3langid's guess on it is chance
(Latin, Wu Chinese, Romanian, Indonesian at 0.05-0.08), so the gate withheld short covered turns
of tools' and brands' names as an unread language (issue 29, blind12: 6 of its 10 covered benign
misses). Such a segment is read as the covered language of its joiners
(``policy/data/name_lists.yaml``) when every token is

- a name: a capitalised or mixed-case word ("Redis", "vLLM", "cuDNN"), a dotted one
  ("Next.js"), a lowercase word with a dotted version after it ("pgvector 0.7", not "carrozza
  8", a word and a count) or without a vowel
  ("dbt", "pnpm"), with at most two digits ("N26", "k8s");
- a version after a name ("16", "7.2", "v5"; three digits at most, never first in an item);
- a joiner of one covered language, or list punctuation;
- or a first word of that language before a colon ("Stack:", "Tools:"); a list joined by
  commas alone is read as its head word's language ("marcas: Zara, Mango, Pull&Bear").

So a name list gives no cover to a word of another language: "Revolut, N26 i PIN 4471" (a
joiner no covered language writes) and "Salasana: Kissa2024, Koira e Hevonen" (a head word no
covered list knows, a run of four digits) stay with the identifier, and are withheld. A covered
reading still goes through every covered rule: a PIN beside "PIN", a drug or a party's name.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.word_lists import COVERED_LANGUAGES, LEXICON_ZIPF, _vouch_lexicon

__all__ = ["is_joiner", "name_list_language", "without_listed_names"]

MIN_NAMES: Final = 2
"""Names a list needs (one name and a joiner is a phrase, not a list)."""

MAX_NAME_DIGITS: Final = 2
"""Digits a name may hold ("N26", "k8s", "S3"); a run of more is a value, not a name."""

MAX_VOWELLESS: Final = 5
_VOWELS: Final = frozenset("aeiouyAEIOUY")

# Tokens: list punctuation alone, or runs between spaces and list punctuation.
_PUNCT = "、，・,/·;"
_TOKEN = re.compile(rf"[{_PUNCT}]|[^\s{_PUNCT}]+")
_VERSION = re.compile(r"[vV]?\d{1,3}(?:\.\d{1,3}){0,2}[a-z]?")
_NAME = re.compile(r"[^\W\d_][\w.+#'’&-]*")  # "Pull&Bear", "C&A", "H&M"
_EDGE = "()[]\"'“”«»!?."


@functools.cache
def _data() -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    from userlore.policy.data_files import data_yaml

    raw = data_yaml("name_lists.yaml")
    joiners: dict[str, list[str]] = {}
    for language, words in raw["joiners"].items():
        for word in words:
            joiners.setdefault(str(word).casefold(), []).append(str(language))
    punctuation = {str(p): tuple(map(str, langs)) for p, langs in raw["punctuation"].items()}
    return {w: tuple(langs) for w, langs in joiners.items()}, punctuation


def _is_name(token: str, next_token: str | None) -> bool:
    if not _NAME.fullmatch(token) or sum(ch.isdigit() for ch in token) > MAX_NAME_DIGITS:
        return False
    if token[0].isupper() or any(ch.isupper() for ch in token[1:]):
        return True
    if "." in token.strip(".") or "+" in token or "#" in token:
        return True  # "next.js", "c++", "f#"
    if token.isalpha() and len(token) <= MAX_VOWELLESS and not _VOWELS.intersection(token):
        return True  # "dbt", "pnpm", "zsh": no word of a language is written without vowels
    # "pgvector 0.7": a dotted version; "carrozza 8" is a word and a count.
    if next_token is None or "." not in next_token:
        return False
    return _VERSION.fullmatch(next_token) is not None


def _head_known(word: str, languages: tuple[str, ...]) -> bool:
    for language in languages:
        lexicon = _vouch_lexicon(language)
        if lexicon is not None and lexicon.get(word.casefold(), 0.0) >= LEXICON_ZIPF:
            return True
    return False


def _tokens(chunk: str) -> Iterator[str]:
    for m in _TOKEN.finditer(chunk):
        token = m.group(0)
        token = token if token in _PUNCT else token.strip(_EDGE)
        if token:
            yield token


@functools.lru_cache(maxsize=4096)
def name_list_language(chunk: str) -> str | None:
    """The covered language a segment that is a list of names is read as (see the module
    docstring), or ``None`` when it is not one."""
    joiners, punctuation = _data()
    worded: list[tuple[str, ...]] = []
    marks: list[tuple[str, ...]] = []
    head: str | None = None
    names = 0
    after_name = False
    # Read lazily, one token ahead: most sentences fail on their second or third token.
    tokens = _tokens(chunk)
    token = next(tokens, None)
    first = True
    while token is not None:
        following = next(tokens, None)
        if first and following is not None and token.endswith(":") and token[:-1].isalpha():
            head = token[:-1]
        elif first and following == ":" and token.isalpha():
            head = token  # French spacing: "marques : Kiabi, Jules"
            following = next(tokens, None)
        elif token in punctuation:
            marks.append(punctuation[token])
            after_name = False
        elif token.casefold() in joiners:
            worded.append(joiners[token.casefold()])
            after_name = False
        elif after_name and _VERSION.fullmatch(token):
            after_name = False
        elif _is_name(token, following):
            names += 1
            after_name = True
        else:
            return None
        first = False
        token = following
    if names < MIN_NAMES or not (worded or marks):
        return None
    # Words rule over punctuation: "FastAPI, SQLModel y Alembic" is Spanish, not English.
    pool = worded or marks
    languages = tuple(dict.fromkeys(lang for vote in pool for lang in vote))
    common = [lang for lang in languages if all(lang in vote for vote in pool)]
    language = (common or list(languages))[0]
    if head is not None and not worded:
        # Commas alone say nothing of the language; the head word does ("marcas:", "Marken:").
        order = (*languages, *sorted(COVERED_LANGUAGES))
        heads = [lang for lang in order if _head_known(head, (lang,))]
        return heads[0] if heads else None
    if language not in COVERED_LANGUAGES:
        return None
    if head is not None and not _head_known(head, (language,)):
        return None
    return language


# A list's items inside a sentence (issue 29, blindfix23a): "…, bitwarden or 1password?",
# "anki vs quizlet for kanji". Tokens are words (a leading count allowed: "1password") and the
# list commas.
_ITEM_TOKEN = re.compile(r"[,、，]|[^\s,、，;:!?¿¡()\"“”«»]+")
_ITEM = re.compile(r"[^\W_][\w'’&.-]*")
MIN_REST_WORDS: Final = 2
"""Words a sentence must keep beside its list's items to be read by them (see
:func:`without_listed_names`)."""


def _item(token: str, languages: tuple[str, ...]) -> bool:
    """A list's item: a word no covered language knows as a frequent word ("bitwarden",
    "quizlet", "1password"), with at most :data:`MAX_NAME_DIGITS` digits (more is a value)."""
    token = token.strip(_EDGE)
    if not token or not _ITEM.fullmatch(token) or not any(ch.isalpha() for ch in token):
        return False
    if sum(ch.isdigit() for ch in token) > MAX_NAME_DIGITS:
        return False
    # Known to no covered list at all: Italian "… alle 9 e chiude alle 18" keeps "alle" (a
    # German word), so no list is read around its "e" (gate4).
    return not _head_known(token, (*languages, *sorted(COVERED_LANGUAGES)))


ITEM_WORDS: Final = 2
"""Tokens one item may hold ("garmin forerunner", "proton mail"; a version beside them too)."""


def _run(tokens: list[str], i: int, step: int, languages: tuple[str, ...]) -> list[int]:
    """The items' indices from ``i`` in direction ``step``: up to :data:`ITEM_WORDS` unknown
    words and a version beside them ("forerunner 265"); leftwards, across the list commas
    before the joiner ("mullvad, protonvpn or ivpn")."""
    out: list[int] = []
    j, words = i, 0
    while 0 <= j < len(tokens):
        token = tokens[j]
        if _item(token, languages) and words < ITEM_WORDS:
            out.append(j)
            words += 1
        elif _VERSION.fullmatch(token.strip(_EDGE)) and words < ITEM_WORDS:
            out.append(j)
        elif token in _LIST_COMMAS and step < 0 and words:
            out.append(j)
            words = 0
        else:
            break
        j += step
    while out and tokens[out[-1]] in _LIST_COMMAS:
        out.pop()
    if not any(_item(tokens[k], languages) for k in out):
        return []
    return out


_LIST_COMMAS: Final = (",", "、", "，")


@functools.lru_cache(maxsize=4096)
def without_listed_names(chunk: str) -> tuple[str, tuple[str, ...]] | None:
    """``chunk`` with the items of a list it holds blanked, and the list's joiner languages,
    or ``None`` when it holds none (issue 29, blindfix23a).

    A sentence that asks about products by name ("what's a good password manager for a
    family of 5, bitwarden or 1password?", "is duolingo or babbel better for dutch") is read by
    the identifier through names no language writes, lowercase as a user types them: it read
    Danish, Estonian, Norwegian. An item is a word the joiner's language does not know as a
    frequent word, on both sides of a covered joiner ("or", "vs", "oder", "ou", "o"), and the
    list commas before it. The caller reads the rest, which must still be a sentence of the
    joiner's language: nothing of another language is blanked but names, and a sentence of an
    uncovered language keeps its own words."""
    if not any(ch in chunk for ch in " "):
        return None
    joiners, _ = _data()
    matches = list(_ITEM_TOKEN.finditer(chunk))
    tokens = [m.group(0) for m in matches]
    blank: set[int] = set()
    languages: list[str] = []
    for i, token in enumerate(tokens):
        joined = joiners.get(token.casefold())
        if not joined:
            continue
        left, right = _run(tokens, i - 1, -1, joined), _run(tokens, i + 1, 1, joined)
        if left and right:
            blank.update(left, right)
            languages.extend(joined)
    if not blank:
        return None
    chars = list(chunk)
    for i in blank:
        m = matches[i]
        chars[m.start() : m.end()] = " " * (m.end() - m.start())
    return "".join(chars), tuple(dict.fromkeys(languages))


def is_joiner(word: str) -> bool:
    """``word`` joins a list in a covered language ("or", "vs", "oder", "o")."""
    return word.casefold() in _data()[0]
