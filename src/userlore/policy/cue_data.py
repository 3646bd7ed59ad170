"""The cue vocabularies of ``policy/data/quote_cues.yaml``, loaded once and shared.

The quote gate reads them to withhold snippets; the floor reads the same credential, money and
whose-fact-is-it lists to redact the values they point at from stored evidence, so a language
is covered by one data file for both (adding a language is adding its lists, no code change).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from userlore.policy import cue_view
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.thing_prices import seen_things_price
from userlore.policy.literal_gate import LiteralGate

__all__ = ["CueAlternation", "Cues", "alternation", "cues", "flat", "literal_alternation"]


def literal_alternation(words: list[Any]) -> str:
    """The words escaped as one alternation, longest first, matched anywhere (no word edges):
    for data words a detector places itself."""
    return "|".join(re.escape(str(w)) for w in sorted(words, key=lambda w: -len(str(w))))


def alternation(terms: list[str], *, escape: bool = True, katakana_words: bool = False) -> str:
    """One regex alternation: Latin-script terms as whole words, other scripts' as substrings,
    longest first, the Latin terms before the others.

    A ``*`` at either end of a Latin term lets it sit inside a compound there: ``*code``
    matches "Zugangscode", ``krebs*`` matches "Krebsdiagnose". With ``escape`` off the terms
    are regex fragments ("starts? with"), each a group, and ``*`` is the fragment's own. With
    ``katakana_words`` a short katakana term does not match at the start of a longer katakana
    word (キー in キーボード).
    """
    parts = _parts(terms, escape=escape, katakana_words=katakana_words)
    return "|".join(fragment for fragment, _ in parts) or r"(?!x)x"


def _parts(
    terms: list[str], *, escape: bool = True, katakana_words: bool = False
) -> list[tuple[str, str | None]]:
    """Each alternative of :func:`alternation` in its order, with the literal it must match
    (``None`` for a regex fragment, which has none the code can know)."""
    latin = [t for t in terms if _is_latin(t)]
    others = sorted((t for t in terms if not _is_latin(t)), key=len, reverse=True)
    parts: list[tuple[str, str | None]] = []
    for term in sorted(latin, key=len, reverse=True):
        if not escape:
            parts.append((rf"(?<![^\W_])(?:{term})(?![^\W_])", None))
            continue
        left = r"" if term.startswith("*") else r"(?<![^\W_])"
        right = r"" if term.endswith("*") else r"(?![^\W_])"
        core = term.strip("*")
        parts.append((left + re.escape(core) + right, core))
    for t in others:
        if not escape:
            parts.append((f"(?:{t})", None))
            continue
        whole = katakana_words and _SHORT_KATAKANA.fullmatch(t) is not None
        parts.append((re.escape(t) + (_NO_KATAKANA if whole else ""), t))
    return parts


# A short credential word in katakana is not the start of a longer katakana word: キー is no
# key in キーボード (keyboard), コード no code in コードレス (cordless). Kanji and kana after it
# still count (キーは, キー番号), and a katakana word before it makes a compound that is one
# (カードキー). Longer words (マイナンバー in マイナンバーカード) name the thing in a compound.
_SHORT_KATAKANA = re.compile(r"[\u30a1-\u30fa\u30fc]{2,3}")
_NO_KATAKANA: Final = r"(?![\u30a1-\u30fa\u30fc])"


class CueAlternation:
    """``re.compile(alternation(terms))`` whose scans try only the terms whose literal occurs.

    Python's ``re`` tries every alternative at every position, so a credential alternation of
    150 whole-word terms costs about a millisecond on a long turn (floorcost7's profile: the
    most of the floor's time on LoCoMo). A term can only match where its literal stands, so
    the scan runs an alternation of the terms whose literal is in the text, in the same order:
    the same matches (the first alternative that matches at a position is the same one).
    """

    __slots__ = ("_always", "_cores", "_last", "_pattern", "_places", "_subsets", "_words")

    _MAX_SUBSETS = 4_096

    def __init__(self, terms: list[str], *, katakana_words: bool = False) -> None:
        parts = _parts(terms, katakana_words=katakana_words)
        self._pattern: re.Pattern[str] | None = None
        self._cores = [(f, core or "") for f, core in parts]
        # Where each literal's terms stand; a term with no literal ("") may match any text.
        self._places: dict[str, list[int]] = {}
        for i, (_, core) in enumerate(self._cores):
            self._places.setdefault(core, []).append(i)
        self._always = tuple(self._places.pop("", ()))
        self._words = cue_view.register(self._places)  # none in the text: no term can match
        self._subsets: dict[tuple[int, ...], re.Pattern[str]] = {}
        # The last text's answer: a detector scans one text with the same terms back to back
        # (``search`` then ``finditer``); a pure function of the text, so a safe memo.
        self._last: tuple[str | None, re.Pattern[str] | None] = (None, None)

    @property
    def pattern(self) -> re.Pattern[str]:
        """The whole alternation, compiled on first use (the scans never need it)."""
        if self._pattern is None:
            self._pattern = re.compile("|".join(f for f, _ in self._cores) or r"(?!x)x")
        return self._pattern

    def _for(self, text: str) -> re.Pattern[str] | None:
        """The alternation of the terms whose literal is in ``text`` (None: no term can match)."""
        last = self._last
        if last[0] == text:
            return last[1]
        pattern = None
        cores = self._words.intersection(cue_view.found(text))
        if cores or self._always:
            present = tuple(sorted([*self._always, *(i for c in cores for i in self._places[c])]))
            pattern = self._subsets.get(present)
            if pattern is None:
                if len(self._subsets) >= self._MAX_SUBSETS:
                    self._subsets.clear()
                pattern = re.compile("|".join(self._cores[i][0] for i in present))
                self._subsets[present] = pattern
        self._last = (text, pattern)
        return pattern

    def finditer(
        self, text: str, pos: int = 0, endpos: int | None = None
    ) -> Iterator[re.Match[str]]:
        """``pattern.finditer(text, pos, endpos)``."""
        pattern = self._for(text)
        if pattern is None:
            return iter(())
        return pattern.finditer(text, pos, len(text) if endpos is None else endpos)

    def search(self, text: str, pos: int = 0, endpos: int | None = None) -> re.Match[str] | None:
        """``pattern.search(text, pos, endpos)``."""
        pattern = self._for(text)
        if pattern is None:
            return None
        return pattern.search(text, pos, len(text) if endpos is None else endpos)


def _cores(terms: list[str]) -> list[str]:
    """The literal each term of :func:`alternation` must match: a text without any of them
    has no match (the gate in front of the regex)."""
    return [t.strip("*") if _is_latin(t) else t for t in terms]


def _is_latin(term: str) -> bool:
    return all(ord(ch) < 0x0250 or not ch.isalpha() for ch in term)


@dataclass(frozen=True, slots=True)
class Cues:
    """Compiled cue patterns (matched against casefolded text).

    Attributes:
        credential: Words that introduce a credential or an account's number.
        identifier: The subset whose value is an identifier (an account, a card, a passport):
            the floor reports its value as regulated, the others' as secret.
        not_credential: Compounds with a credential word that name no secret ("zip code").
        counts: Units after a number that make it a count ("6 digits").
        money: Words that make an amount the speaker's own money.
        money_with_self: Money verbs in any person: the speaker's money beside a first-person
            word (:meth:`own_money`).
        others: Someone else's subject ("she", "my brother"), or a listing's or ad's (its price).
        topics: A topic, not a statement ("an article about").
        self_subject: A first-person subject, which keeps "others" from clearing a sentence.
        function_words: Frequent words of the Latin-script covered languages (see
            ``detectors/uncovered.py``).
    """

    credential: re.Pattern[str]
    identifier: re.Pattern[str]
    counts: frozenset[str]
    money: re.Pattern[str]
    money_with_self: re.Pattern[str]
    others: re.Pattern[str]
    topics: re.Pattern[str]
    self_subject: re.Pattern[str]
    function_words: re.Pattern[str]
    credential_words: LiteralGate
    """Whether a text holds the literal of any ``credential`` term: without one, ``credential``
    cannot match, and this answers in a fraction of its time."""
    credential_scan: CueAlternation
    """``credential``'s matches, found trying only the terms whose literal is in the text."""
    not_credential_scan: CueAlternation
    """``not_credential``'s matches, the same way."""

    def credential_cues(self, lowered: str) -> tuple[re.Match[str], ...]:
        """The credential cues of ``lowered`` that start in no compound naming no secret
        ("zip code", "code source"): the one reading the floor's rules and the gate share.

        The last text's answer is kept: the floor's rules ask it in a row about one text."""
        last = _last_credential_cues
        if last[0] is self and last[1] == lowered:
            return last[2]
        found: tuple[re.Match[str], ...] = ()
        if self.credential_words.search(lowered):
            found = tuple(self.credential_scan.finditer(lowered))
        if found:
            excluded = [m.span() for m in self.not_credential_scan.finditer(lowered)]
            found = tuple(m for m in found if not any(s <= m.start() < e for s, e in excluded))
        _remember_credential_cues(self, lowered, found)
        return found

    def own_money(self, lowered: str) -> bool:
        """A money word, or a money verb in any person with a first-person word beside it once
        others' subjects are masked ("yo gana 600", "ta debe yo 800", not "mi hermano gana
        600"): before or after the verb, as a creole puts it, and in its clause, not the
        speaker's "I read that the city spends 4 million" (blindfix20d)."""
        return self.money.search(lowered) is not None or self.money_verb_of_self(lowered)

    def money_verb_of_self(self, lowered: str) -> bool:
        """A money verb in any person with a first-person word at most ``SELF_REACH`` words
        before or after it, once others' subjects are masked (see :meth:`own_money`)."""
        if not self.money_with_self.search(lowered):
            return False
        masked = self.others.sub(" ", lowered)
        selves = list(self.self_subject.finditer(masked))
        return any(
            _words_between(masked, verb, me) <= SELF_REACH
            for verb in self.money_with_self.finditer(masked)
            for me in selves
        )

    def about_others(self, lowered: str) -> bool:
        """Clearly a topic (reading about it, a study), a thing's price the user only saw or
        wants (:mod:`.detectors.thing_prices`), or someone else's: an other-person cue and, once
        those are masked, no first-person subject left."""
        if self.topics.search(lowered) or seen_things_price(lowered):
            return True
        if not self.others.search(lowered):
            return False
        masked = self.others.sub(" ", lowered)
        return not self.self_subject.search(masked)


SELF_REACH: Final = 2
"""Words at most between a money verb and the first-person word that makes it the speaker's
("Mi ta ganha", "Ya saca yo", "sends me"); "I think the city spends" has three."""

_WORD = re.compile(r"[^\W_]+")


def _words_between(text: str, a: re.Match[str], b: re.Match[str]) -> int:
    first, second = sorted((a, b), key=lambda m: m.start())
    return len(_WORD.findall(text, first.end(), max(first.end(), second.start())))


_last_credential_cues: tuple[Cues | None, str, tuple[re.Match[str], ...]] = (None, "", ())


def _remember_credential_cues(owner: Cues, lowered: str, found: tuple[re.Match[str], ...]) -> None:
    global _last_credential_cues
    _last_credential_cues = (owner, lowered, found)  # one tuple: a reader sees all or none


def flat(section: dict[str, list[Any]]) -> list[str]:
    """A cue file's section (terms grouped by language) as one casefolded list."""
    return [str(term).casefold() for terms in section.values() for term in terms]


def _measures(data: dict[str, Any]) -> list[str]:
    """Compounds of a credential word and a quantity word ("token count", "número de tokens",
    "トークン数"): each language's quantity words with its own credential words and English's."""
    out: list[str] = []
    english = [str(t).casefold().strip("*") for t in data["credential"]["en"]]
    for lang, words in data["credential"].items():
        own = [str(t).casefold().strip("*") for t in words]
        terms = own if lang == "en" else [*own, *english]
        for m in data["measure_after"].get(lang) or []:
            m = str(m).casefold()
            out += [f"{t}{m}" if not _is_latin(m) else f"{t} {m}" for t in terms]
        for m in data["measure_before"].get(lang) or []:
            out += [f"{str(m).casefold()} {t}" for t in terms]
    return list(dict.fromkeys(out))


@functools.cache
def cues() -> Cues:
    """The cue data, loaded once on first use (never at import)."""
    data = data_yaml("quote_cues.yaml")
    not_credential = [*flat(data["not_credential"]), *_measures(data)]
    return Cues(
        credential=re.compile(alternation(flat(data["credential"]), katakana_words=True)),
        credential_words=LiteralGate(_cores(flat(data["credential"]))),
        credential_scan=CueAlternation(flat(data["credential"]), katakana_words=True),
        not_credential_scan=CueAlternation(not_credential),
        identifier=re.compile(alternation(flat(data["identifier"]))),
        counts=frozenset(flat(data["count_units"])),
        money=re.compile(alternation(flat(data["money"]))),
        money_with_self=re.compile(alternation(flat(data["money_with_self"]))),
        others=re.compile(alternation([*flat(data["others"]), *flat(data["listings"])])),
        topics=re.compile(alternation(flat(data["topics"]))),
        self_subject=re.compile(alternation(flat(data["self"]))),
        function_words=re.compile(alternation(flat(data["function_words"]))),
    )
