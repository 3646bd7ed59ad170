"""Special-category statements in any language whose vocabulary ships as a data file.

Each ``policy/data/special/<lang>.json`` names, for one language: the category cue terms
(conditions, medications, practices, faiths, parties, unions...), and the words that say *whose*
fact it is: first-person forms (pronouns, first-person verbs, reported speech about oneself such
as "told me" / "me dijo"), third parties ("my sister", "mi padre"), topic and reading frames
("reading about", "sobre"), professions ("I'm a pharmacist"), "as a ..." frames and the clause
openers that imply the speaker ("On insulin since May"). The code below only reads those lists, so
adding a language is adding a file and its class tests.

The gate (issue 29) needs a stricter question than the floor: is *any* cue present, whoever it is
about (:func:`special_cues`), and is the text clearly about someone else or a topic
(:func:`about_someone_else_or_topic`). The floor asks the narrower one: which cues are said about
the user (:func:`_lang_special`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Final

from userlore.errors import ConfigError
from userlore.policy.detectors.common import _Hit
from userlore.policy.findings import _SPECIAL, SPECIAL_CATEGORIES
from userlore.policy.literal_gate import LiteralGate

DATA_PACKAGE: Final = "userlore.policy.data.special"
"""Package whose ``*.json`` files are the per-language vocabularies."""

_MARKER_KINDS: Final = (
    "profession",
    "other",
    "topic",
    "negation",
    "self",
)  # first wins at one spot
_KEYS: Final = frozenset(
    {"language", "spaced", "pro_drop", "terms", "self_terms", "as_a", "as_a_suffix",
     "implied_start", "determiners", "negation_after", "compounds", "self_copula",
     "patient_nouns", "beneficiary", "script", "reported_self", *_MARKER_KINDS}
)  # fmt: skip
_TOKEN = re.compile(r"\w+")
# Every regex term holds a literal run of three or more letters ("descent", "afiliad", "vot"),
# and any match contains one of its language's runs: a cheap test before the regex runs.
_RUN = re.compile(r"(?<![\\?])(?<!\(\?P<)[^\W\d_]{3,}")
_SENTENCE_BREAK = re.compile(r"[.!?。！？\n]+(?:\s+|$)|[;；]")
_NEGATION_REACH: Final = 3  # words (twice as many characters unspaced) a denial reaches
_IMPLIED_REACH: Final = 6  # words (or 12 characters unspaced) from the clause opener to the term
_COMPOUND_MIN: Final = 4  # letters a term needs before it is looked for inside a compound
_COMPOUND_REST: Final = 3  # letters the rest of the compound needs (no "Krebse" plurals)


@dataclass(frozen=True, slots=True)
class _Language:
    """One language's compiled vocabulary."""

    code: str
    terms: re.Pattern[str] | None
    term_category: dict[str, str]
    lexicon: dict[str, list[tuple[tuple[str, ...], str, bool]]]
    first_chars: frozenset[str] | None
    regex_terms: tuple[tuple[re.Pattern[str], str, bool], ...]
    run_finder: re.Pattern[str] | None
    run_terms: dict[str, tuple[int, ...]]
    markers: re.Pattern[str]
    as_a: re.Pattern[str] | None
    implied: re.Pattern[str] | None
    determiner: re.Pattern[str] | None
    negation_after: re.Pattern[str] | None
    pro_drop: bool
    spaced: bool
    compound_heads: dict[str, list[tuple[str, bool]]]
    """German-style compounds: single-word terms found as the first or last part of a longer
    word ("Krebsdiagnose", "Insulinpumpe"), for languages whose file sets ``compounds``."""
    self_copula: re.Pattern[str] | None
    """The speaker naming themselves ("I'm a", "我是", "私は") right before a term."""
    patient_after: re.Pattern[str] | None
    """A patient noun right after a term ("cancer patient", "糖尿病患者")."""
    patient_before: re.Pattern[str] | None
    """Copula, article and patient noun right before a term ("je suis un patient diabétique")."""
    beneficiary: re.Pattern[str] | None = None
    """A word that names whom a thing is for ("for", "für", "pour"), looked for just after a
    term: "insulin for my daughter" is the daughter's, not the speaker's."""
    head_lengths: tuple[int, ...] = ()
    """The lengths of ``compound_heads`` (at least ``_COMPOUND_MIN``), ascending."""
    compound_memo: dict[str, tuple[str, bool] | None] = field(
        default_factory=dict, compare=False, hash=False
    )
    """Words already looked up in ``compound_heads`` (a pure function of the word)."""
    ascii_terms: re.Pattern[str] | None = None
    """``terms`` with only the phrases an ASCII sentence can match (every character ASCII or
    matching one case-insensitively): the same matches on such a sentence, at a fraction of the
    scan ("HIV" among a few hundred CJK phrases). None: no phrase can."""
    speaker: re.Pattern[str] | None = None
    """Any form that can make a clause the speaker's (``self``, ``self_copula``, ``as_a``,
    ``as_a_suffix``, and for a ``pro_drop`` language any character of its ``script``): the
    clause splitter's cheap test before it reads a clause (:func:`may_be_the_speakers`). Not
    ``implied_start``: a clause cut from its sentence ("我是护士，在肿瘤科照顾化疗病人") loses
    the subject the sentence named, and would read as the speaker's."""
    reported_self: re.Pattern[str] | None = None
    """Reported speech about the speaker ("the doctor told me I have", "said I'm"): someone
    else's words, but the fact is the speaker's (:func:`reported_about_the_speaker`)."""


def _alternation(phrases: list[str], *, spaced: bool) -> str:
    """One regex alternative per phrase; ``re:`` entries are regex fragments, the rest literal."""
    parts: list[str] = []
    for phrase in sorted(set(phrases), key=len, reverse=True):
        body = phrase[3:] if phrase.startswith("re:") else re.escape(phrase).replace(r"\ ", r"\s+")
        parts.append(body)
    inner = "|".join(parts) or r"(?!x)x"
    if spaced:
        return r"(?<!\w)(?:" + inner + r")(?:(?<=['’])|(?!\w))"
    return "(?:" + inner + ")"


def _compile(code: str, data: dict[str, object]) -> _Language:
    spaced = bool(data.get("spaced", True))
    terms_src = data.get("terms", {})
    if not isinstance(terms_src, dict) or not set(terms_src) <= SPECIAL_CATEGORIES:
        raise ConfigError(f"special vocabulary {code}: terms must map special categories")
    groups: list[str] = []
    ascii_groups: list[str] = []
    term_category: dict[str, str] = {}
    lexicon: dict[str, list[tuple[tuple[str, ...], str, bool]]] = {}
    regex_terms: list[tuple[re.Pattern[str], str, bool]] = []
    term_runs: list[frozenset[str]] = []
    self_src = data.get("self_terms", {})
    if not isinstance(self_src, dict) or not set(self_src) <= SPECIAL_CATEGORIES:
        raise ConfigError(f"special vocabulary {code}: self_terms must map special categories")
    # Self terms carry their own first person ("salgo de cuentas", "I keep kosher"): named
    # ``s<i>`` so attribution can tell them from plain cues (``c<i>``).
    for prefix, source in (("s", self_src), ("c", terms_src)):
        for i, (category, phrases) in enumerate(sorted(source.items())):
            if not isinstance(phrases, list) or not all(isinstance(p, str) for p in phrases):
                raise ConfigError(f"special vocabulary {code}: {category} must list strings")
            if spaced:  # literal phrases: a word lookup, far cheaper than a big alternation
                for phrase in phrases:
                    words = tuple(_TOKEN.findall(phrase.casefold()))
                    if words and not phrase.startswith("re:"):
                        lexicon.setdefault(words[0], []).append((words, category, prefix == "s"))
                for p in phrases:
                    if p.startswith("re:"):
                        pattern = re.compile(_alternation([p], spaced=True), re.IGNORECASE)
                        regex_terms.append((pattern, category, prefix == "s"))
                        term_runs.append(frozenset(_RUN.findall(p[3:].casefold())))
                continue
            if phrases:
                name = f"{prefix}{i}"
                term_category[name] = category
                groups.append(f"(?P<{name}>{_alternation(list(phrases), spaced=spaced)})")
                ascii_phrases = [p for p in phrases if _ascii_matchable(p)]
                if ascii_phrases:
                    ascii_groups.append(f"(?P<{name}>{_alternation(ascii_phrases, spaced=spaced)})")
    for entries in lexicon.values():
        entries.sort(key=lambda e: -len(e[0]))
    first_chars = None
    if not spaced and not any(
        p.startswith("re:") for src in (self_src, terms_src) for ps in src.values() for p in ps
    ):
        first_chars = frozenset(
            c for src in (self_src, terms_src) for ps in src.values() for p in ps for c in p[:1]
        ) | frozenset(
            c.swapcase() for src in (self_src, terms_src) for ps in src.values() for p in ps
            for c in p[:1]
        )  # fmt: skip
    marker_groups = [
        f"(?P<{kind}>{_alternation(_str_list(data, kind), spaced=spaced)})"
        for kind in _MARKER_KINDS
    ]
    as_a = _str_list(data, "as_a")
    as_a_suffix = _str_list(data, "as_a_suffix")
    as_a_re = None
    if as_a or as_a_suffix:
        alts = []
        gap = r"(?:[\w'’\-]+\s+){0,2}?" if spaced else r".{0,6}?"
        if as_a:
            alts.append(
                r"(?:^|[,:，、]\s*)" + _alternation(as_a, spaced=spaced) + r"\s*" + gap + "$"
            )
        if as_a_suffix:
            alts.append("^" + _alternation(as_a_suffix, spaced=False))
        as_a_re = re.compile("|".join(alts), re.IGNORECASE)
    implied = _str_list(data, "implied_start")
    determiners = _str_list(data, "determiners")
    compound_heads: dict[str, list[tuple[str, bool]]] = {}
    if data.get("compounds"):
        for words, category, own in (e for es in lexicon.values() for e in es):
            if len(words) == 1 and len(words[0]) >= _COMPOUND_MIN:
                compound_heads.setdefault(words[0], []).append((category, own))
    copula = _str_list(data, "self_copula")
    patients = _str_list(data, "patient_nouns")
    copula_alt = _alternation(copula, spaced=spaced) if copula else None
    patient_alt = _alternation(patients, spaced=spaced) if patients else None
    speaker_alts = [
        _alternation(own, spaced=spaced)
        for own in (
            _str_list(data, "self") + copula + as_a,
            as_a_suffix,
        )
        if own
    ]
    script = data.get("script")
    if script is not None and not isinstance(script, str):
        raise ConfigError(f"special vocabulary {code}: script must be a character class")
    if script and data.get("pro_drop"):
        speaker_alts.append(script)
    reported = _str_list(data, "reported_self")
    return _Language(
        code=code,
        speaker=re.compile("|".join(speaker_alts), re.IGNORECASE) if speaker_alts else None,
        reported_self=(
            re.compile(_alternation(reported, spaced=spaced), re.IGNORECASE) if reported else None
        ),
        terms=re.compile("|".join(groups), re.IGNORECASE) if groups else None,
        ascii_terms=re.compile("|".join(ascii_groups), re.IGNORECASE) if ascii_groups else None,
        term_category=term_category,
        lexicon=lexicon,
        first_chars=first_chars,
        regex_terms=tuple(regex_terms),
        run_finder=_run_finder(term_runs),
        run_terms=_run_terms(term_runs),
        markers=re.compile("|".join(marker_groups), re.IGNORECASE),
        as_a=as_a_re,
        implied=(
            re.compile(r"^\W*" + _alternation(implied, spaced=spaced), re.IGNORECASE)
            if implied
            else None
        ),
        determiner=(
            re.compile(_alternation(determiners, spaced=spaced) + r"\s*$", re.IGNORECASE)
            if determiners
            else None
        ),
        negation_after=(
            re.compile(_alternation(_str_list(data, "negation_after"), spaced=False))
            if data.get("negation_after")
            else None
        ),
        pro_drop=bool(data.get("pro_drop", False)),
        spaced=spaced,
        compound_heads=compound_heads,
        head_lengths=tuple(sorted({len(h) for h in compound_heads})),
        self_copula=(
            re.compile(r"(?:^|[\s,，、。])" + copula_alt + r"\s*$", re.IGNORECASE)
            if copula_alt
            else None
        ),
        patient_after=re.compile(r"\s*" + patient_alt, re.IGNORECASE) if patient_alt else None,
        beneficiary=(
            re.compile(_alternation(_str_list(data, "beneficiary"), spaced=spaced), re.IGNORECASE)
            if data.get("beneficiary")
            else None
        ),
        patient_before=(
            re.compile(
                r"(?:^|[\s,，、。])" + copula_alt + r"\s*" + patient_alt + r"\s*$", re.IGNORECASE
            )
            if copula_alt and patient_alt
            else None
        ),
    )


_ASCII: Final = tuple(chr(i) for i in range(128))


@cache
def _matches_ascii(c: str) -> bool:
    """Whether the literal ``c`` matches some ASCII character case-insensitively ("K")."""
    return c.isascii() or any(re.fullmatch(re.escape(c), a, re.IGNORECASE) for a in _ASCII)


def _ascii_matchable(phrase: str) -> bool:
    """Whether a literal phrase can match inside a pure-ASCII text (see ``ascii_terms``)."""
    return not phrase.startswith("re:") and all(_matches_ascii(c) for c in phrase)


def _run_finder(term_runs: list[frozenset[str]]) -> re.Pattern[str] | None:
    """Finds, at every position, the longest letter run any regex term holds (overlaps too)."""
    runs = sorted(frozenset().union(*term_runs), key=len, reverse=True)
    return re.compile("(?=(" + "|".join(map(re.escape, runs)) + "))") if runs else None


def _run_terms(term_runs: list[frozenset[str]]) -> dict[str, tuple[int, ...]]:
    """For each run, the regex terms that one of its substrings opens: every match of a term
    contains one of its runs, and a run found inside a longer one is found with it."""
    every = frozenset().union(*term_runs) if term_runs else frozenset()
    return {
        big: tuple(i for i, runs in enumerate(term_runs) if any(r in big for r in runs))
        for big in every
    }


def _str_list(data: dict[str, object], key: str) -> list[str]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"special vocabulary: {key} must be a list of strings")
    return [v for v in value if v]


def load_languages(directory: Traversable) -> tuple[_Language, ...]:
    """Compile every ``<code>.json`` vocabulary in ``directory``, sorted by code."""
    found: list[_Language] = []
    for entry in sorted(directory.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            code = entry.name.removesuffix(".json")
            try:
                data = json.loads(entry.read_text(encoding="utf-8"))
            except json.JSONDecodeError as exc:
                raise ConfigError(f"special vocabulary {code}: not JSON ({exc})") from exc
            if not isinstance(data, dict) or set(data) - _KEYS:
                raise ConfigError(f"special vocabulary {code}: unknown keys")
            found.append(_compile(code, data))
    return tuple(found)


@cache
def languages() -> tuple[_Language, ...]:
    """Every vocabulary in the packaged data directory, compiled once: a new file, a language."""
    return load_languages(resources.files(DATA_PACKAGE))


def may_be_the_speakers(clause: str) -> bool:
    """True when some vocabulary's first-person, "as a …" or implied-subject form occurs in
    ``clause`` (or, for a pro-drop language, its script): only such a clause can state a fact
    about the speaker. The clause splitter skips the others cheaply."""
    return any(lang.speaker is not None and lang.speaker.search(clause) for lang in languages())


def opens_with_an_implied_speaker(sentence: str) -> bool:
    """True when ``sentence`` opens with a form that implies the speaker as its subject ("On
    insulin since May", "Seit Mai auf Insulin", "Tomando sertralina…": ``implied_start``). Only
    at a sentence's start: a later clause's subject is the one its sentence named."""
    return any(lang.implied is not None and lang.implied.match(sentence) for lang in languages())


def reported_about_the_speaker(clause: str) -> bool:
    """True when ``clause`` reports someone's words about the speaker ("my GP said I'm …",
    "me dijo que tengo …"): reported speech, but a first-person fact."""
    return any(
        lang.reported_self is not None and lang.reported_self.search(clause) for lang in languages()
    )


def covered_languages() -> frozenset[str]:
    """Codes of the languages that have a special-category vocabulary."""
    return frozenset(lang.code for lang in languages())


# --------------------------------------------------------------------------------------------
# Attribution: whose fact is a cue?
# --------------------------------------------------------------------------------------------

# ``denied`` ("I don't have diabetes") is no statement for the floor, but still health talk about
# the user: the gate does not clear it.
_SELF, _OTHER, _DENIED, _UNCLEAR = "self", "other", "denied", "unclear"


def _sentences(t: str) -> Iterator[tuple[int, int]]:
    start = 0
    for m in _SENTENCE_BREAK.finditer(t):
        if m.start() > start:
            yield start, m.start()
        start = m.end()
    if start < len(t):
        yield start, len(t)


def _attribute(lang: _Language, t: str, s: int, term_start: int, term_end: int) -> str:
    """``self``, ``other`` (a third party, a topic, a profession) or ``unclear`` for one cue."""
    sentence_end = next((e for ss, e in _sentences(t) if ss <= term_start < e), len(t))
    before = t[s:term_start]
    last: str | None = None
    kinds: set[str] = set()
    for m in lang.markers.finditer(t, s, sentence_end):
        kind = m.lastgroup or ""
        kinds.add(kind)
        if m.end() <= term_start and kind not in ("profession", "negation"):
            last = kind
        elif kind == "negation" and m.end() <= term_start:
            gap = t[m.end() : term_start]
            if (len(gap.split()) if lang.spaced else len(gap) // 2) <= _NEGATION_REACH:
                last = kind  # "I don't have diabetes", "我不携带": the term is denied
    if "profession" in kinds:
        return _OTHER  # "I'm a pharmacist and I dispense insulin": work, not a disclosure
    if lang.self_copula is not None and lang.patient_after is not None:
        if lang.patient_before is not None and lang.patient_before.search(before):
            return _SELF  # "Je suis un patient diabétique": the speaker is the patient
        if lang.self_copula.search(before) and lang.patient_after.match(t, term_end):
            return _SELF  # "I'm a cancer patient", "我是糖尿病患者", "私は糖尿病患者"
    if lang.as_a is not None and (
        lang.as_a.search(before) or lang.as_a.match(t, term_end, sentence_end)
    ):
        return _SELF if last in (None, "self") else _OTHER  # "As a Muslim", "ムスリムとして"
    nxt = lang.markers.search(t, term_end, sentence_end)
    gap = t[term_end : nxt.start()] if nxt else ""
    if nxt and nxt.lastgroup in ("other", "topic") and (gap.isspace() or not gap):
        return _OTHER  # "伊斯兰教历史", "diabetes research": the term names a topic
    if _for_someone_else(lang, t, term_end, sentence_end):
        return _OTHER  # "Asthmaspray für meinen Sohn": the term is bought or fetched for them
    if last == "self":
        return _SELF
    if last == "negation":
        return _DENIED  # "I don't have...", "我没有犯罪记录"
    if last in ("other", "topic"):
        return _OTHER  # "my sister has...", "reading about..."
    if lang.negation_after is not None and lang.negation_after.search(t, term_end, sentence_end):
        return _DENIED  # "糖尿病ではありません"
    if "self" not in kinds and kinds & {"other", "topic"}:
        return _OTHER  # "ラマダンについての本", "Diabetes in children": a topic, told later
    if "self" not in kinds and lang.determiner is not None and lang.determiner.search(before):
        return _OTHER  # "The Democrats passed...": a determiner, no speaker anywhere
    if lang.pro_drop:
        return _SELF  # "5月からインスリン注射をしている": the subject left out is the speaker
    if lang.implied is not None and lang.implied.search(before):
        reach = len(before.split()) if lang.spaced else len(before) // 2
        if reach <= _IMPLIED_REACH:
            return _SELF  # "On insulin since May": a record-style clause about the speaker
    return _UNCLEAR


_BENEFICIARY_REACH: Final = 2  # words between a term and its "for" ("chemo meds for my dad")


def _for_someone_else(lang: _Language, t: str, term_end: int, sentence_end: int) -> bool:
    """The term is followed by a beneficiary word ("for", "für") whose next marker, past the
    speaker's possessive ("my", "meinen"), names someone else ("daughter", "Sohn")."""
    if lang.beneficiary is None or not lang.spaced:
        return False
    m = lang.beneficiary.search(t, term_end, sentence_end)
    if m is None or len(t[term_end : m.start()].split()) > _BENEFICIARY_REACH:
        return False
    for marker in lang.markers.finditer(t, m.end(), sentence_end):
        if len(t[m.end() : marker.start()].split()) > _BENEFICIARY_REACH:
            return False
        if marker.lastgroup == "other":
            return True
        if marker.lastgroup != "self":
            return False
    return False


def _verdict(lang: _Language, t: str, own: bool, s: int, start: int, end: int) -> str:
    """A self term is the speaker's unless a profession frames the sentence; others attributed."""
    verdict = _attribute(lang, t, s, start, end)
    if own and verdict == _UNCLEAR:
        return _SELF
    return verdict


def _cues(t: str) -> Iterator[tuple[_Language, str, bool, int, int, int]]:
    """Every cue: (language, category, self term?, sentence start, term start, term end).

    Vocabularies share words ("diabetes", "me", 糖尿病), so in each sentence only the languages
    whose person, topic and profession words occur most often read it (all of them when none
    occurs): "She told me her diabetes..." is English, and Spanish "me" must not claim it.
    """
    for s, e in _sentences(t):
        tokens: list[tuple[str, int, int]] | None = None
        low: str | None = None
        runs_here = False
        at: list[int] | None = None
        found: list[tuple[int, _Language, list[tuple[str, bool, int, int]]]] = []
        words: set[str] | None = None
        ascii_sentence: bool | None = None
        for lang in languages():
            cues: list[tuple[str, bool, int, int]] = []
            if lang.lexicon:
                if tokens is None:
                    tokens = [(m.group(0).casefold(), *m.span()) for m in _TOKEN.finditer(t, s, e)]
                    words = {w for w, _, _ in tokens}
                # Without compounds a cue starts at a lexicon word: none here, no cue.
                if lang.compound_heads or not lang.lexicon.keys().isdisjoint(words or ()):
                    cues.extend(_lexicon_cues(lang, tokens))
            if lang.run_finder is not None:
                if low is None:
                    low = t[s:e].casefold()
                    at = _run_heads().at(low)
                    runs_here = _any_run().search(low) if at is None else bool(at)
                # No language's run in the sentence: no regex term of any can match.
                opened = (
                    {i for r in _runs_found(lang, low, at) for i in lang.run_terms[r]}
                    if runs_here
                    else set()
                )
                for i in sorted(opened):
                    pattern, category, own = lang.regex_terms[i]
                    cues.extend((category, own, *m.span()) for m in pattern.finditer(t, s, e))
            if lang.terms is not None and (
                lang.first_chars is None or not lang.first_chars.isdisjoint(t[s:e])
            ):
                if ascii_sentence is None:
                    ascii_sentence = t[s:e].isascii()
                terms = lang.ascii_terms if ascii_sentence else lang.terms
                if terms is not None:
                    cues.extend(
                        (lang.term_category[g], g[0] == "s", *m.span())
                        for m in terms.finditer(t, s, e)
                        if (g := m.lastgroup or "c0")
                    )
            if cues:
                found.append((sum(1 for _ in lang.markers.finditer(t, s, e)), lang, cues))
        best = max((n for n, _, _ in found), default=0)
        for n, lang, cues in found:
            if n == best:
                for category, own, start, end in cues:
                    yield lang, category, own, s, start, end


@dataclass(frozen=True, slots=True)
class _RunHeads:
    """Where a letter run of any language may start, found once per sentence.

    Every run starts with one of its language's heads (its first ``n`` characters, ``n`` the
    shortest run's length up to 3), so ``run_finder.findall`` (the longest run at every
    position) finds runs only at positions that hold a head: trying its lookahead there alone
    gives the same runs, without five alternations scanned over every sentence (issue 30).
    """

    n: int
    heads: frozenset[str]
    by_language: dict[str, frozenset[str]]

    def at(self, low: str) -> list[int] | None:
        """Positions of ``low`` where some language's head stands (``None``: no shortcut)."""
        n, heads = self.n, self.heads
        if n < 2:
            return None
        return [i for i in range(len(low) - n + 1) if low[i : i + n] in heads]


@cache
def _run_heads() -> _RunHeads:
    runs = {lang.code: frozenset(lang.run_terms) for lang in languages()}
    n = min([3, *(len(r) for rs in runs.values() for r in rs)])
    by_language = {code: frozenset(r[:n] for r in rs) for code, rs in runs.items()}
    return _RunHeads(n, frozenset().union(*by_language.values()), by_language)


def _runs_found(lang: _Language, low: str, at: list[int] | None) -> set[str]:
    """``set(lang.run_finder.findall(low))``, tried only where this language's head stands."""
    finder = lang.run_finder
    assert finder is not None
    if at is None:
        return set(finder.findall(low))
    heads = _run_heads()
    mine, n = heads.by_language[lang.code], heads.n
    return {
        m.group(1) for i in at if low[i : i + n] in mine and (m := finder.match(low, i)) is not None
    }


@cache
def _any_run() -> LiteralGate:
    """Any letter run of any language's regex terms (see :func:`_run_finder`)."""
    return LiteralGate(r for lang in languages() for r in lang.run_terms)


def _lexicon_cues(
    lang: _Language, tokens: list[tuple[str, int, int]]
) -> Iterator[tuple[str, bool, int, int]]:
    """Literal terms found word by word: the longest phrase starting at each word."""
    for i, (word, start, _) in enumerate(tokens):
        for words, category, own in lang.lexicon.get(word, ()):
            k = len(words)
            window = tokens[i : i + k]
            if (
                len(window) == k
                and all(w == x[0] for w, x in zip(words, window, strict=True))
                and all(window[j + 1][1] - window[j][2] <= 2 for j in range(k - 1))
            ):
                yield category, own, start, window[-1][2]
                break
        else:
            if lang.compound_heads and word not in lang.lexicon:
                yield from _compound_cues(lang, word, start, tokens[i][2])


def _compound_cues(
    lang: _Language, word: str, start: int, end: int
) -> Iterator[tuple[str, bool, int, int]]:
    """A term that begins or ends a longer word ("Krebsdiagnose", "Insulinpumpe")."""
    memo = lang.compound_memo
    head = memo.get(word, _UNSEEN)
    if head is _UNSEEN:
        head = _compound_head(lang, word)
        if len(memo) < _COMPOUND_MEMO:
            memo[word] = head
    if head is not None:
        yield head[0], head[1], start, end


_UNSEEN: Final = ("", False)
_COMPOUND_MEMO: Final = 100_000  # words remembered per language (a few MB at most)


def _compound_head(lang: _Language, word: str) -> tuple[str, bool] | None:
    """The (category, self term?) of the first head ``word`` begins or ends with, if any."""
    heads = lang.compound_heads
    for cut in lang.head_lengths:  # ascending; a cut of another length cannot be a head
        if cut > len(word) - _COMPOUND_REST:
            return None
        for part in (word[:cut], word[len(word) - cut :]):
            for category, own in heads.get(part, ()):
                return category, own
    return None


def in_professional_sentence(t: str, pos: int) -> bool:
    """Whether the sentence around ``pos`` names the speaker's profession in any vocabulary
    ("I'm a pharmacist and I dispense insulin"): work talk, not a disclosure."""
    for s, e in _sentences(t):
        if s <= pos < e:
            return any(
                m.lastgroup == "profession"
                for lang in languages()
                for m in lang.markers.finditer(t, s, e)
            )
    return False


def _lang_special(t: str) -> Iterator[_Hit]:
    """Floor hits: cues said about the user in any vocabulary's language."""
    for lang, category, own, s, start, end in _cues(t):
        if _verdict(lang, t, own, s, start, end) == _SELF:
            yield (_SPECIAL, category, _subject_start(lang, t, s, start), end, category)


def _subject_start(lang: _Language, t: str, s: int, term_start: int) -> int:
    """Where the statement begins: its first-person word before the term, else the sentence."""
    begin = s
    for m in lang.markers.finditer(t, s, term_start):
        if m.lastgroup == "self":
            begin = m.start()
    while begin < term_start and t[begin].isspace():
        begin += 1
    return begin


def special_cues(text: str) -> frozenset[str]:
    """Special categories any vocabulary finds a cue for in ``text``, whoever it is about.

    The quote gate withholds a snippet on any of these unless
    :func:`about_someone_else_or_topic` clears it.
    """
    return frozenset(cue[1] for cue in _cues(text))


def about_someone_else_or_topic(text: str) -> bool:
    """True when every special-category cue in ``text`` is clearly about a third party or topic.

    A cue with no clear owner ("insulin since May", a bare term) counts as the user's, so this is
    False for it: the gate fails closed. Text without any cue is not "about" anything: False.
    """
    verdicts = [
        _verdict(lang, text, own, s, start, end) for lang, _, own, s, start, end in _cues(text)
    ]
    return bool(verdicts) and all(v == _OTHER for v in verdicts)
