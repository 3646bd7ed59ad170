"""Special-category statements in any language whose vocabulary ships as a data file.

Each ``policy/data/special/<lang>.json`` names, for one language: the category cue terms
(conditions, medications, practices, faiths, parties, unions...), and the words that say *whose*
fact it is: first-person forms (pronouns, first-person verbs, reported speech about oneself such
as "told me" / "me dijo"), third parties ("my sister", "mi padre"), topic and reading frames
("reading about", "sobre"), professions ("I'm a pharmacist"), "as a ..." frames and the clause
openers that imply the speaker ("On insulin since May"). The code below only reads those lists, so
adding a language is adding a file and its class tests.

The vocabularies are compiled in :mod:`.special_lang_vocab`; this module matches them.

The gate (issue 29) needs a stricter question than the floor: is *any* cue present, whoever it is
about (:func:`special_cues`), and is the text clearly about someone else or a topic
(:func:`about_someone_else_or_topic`). The floor asks the narrower one: which cues are said about
the user (:func:`_lang_special`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Final

import ahocorasick

from userlore.policy.detectors.common import _Hit
from userlore.policy.detectors.special_abbrev import abbreviation_cues
from userlore.policy.detectors.special_brands import brand_cues
from userlore.policy.detectors.special_lang_vocab import (
    _TOKEN,
    DATA_PACKAGE,
    _Language,
    load_languages,
)
from userlore.policy.detectors.special_shared import shared_with_the_speaker
from userlore.policy.findings import _SPECIAL
from userlore.policy.literal_gate import GatedPattern, LiteralGate

# A Spanish question or exclamation opened after a comma ("…, ¿habrá servicios mínimos?") is a
# clause of its own: its speaker does not own the news before it.
_SENTENCE_BREAK = re.compile(r"[.!?。！？\n]+(?:\s+|$)|[;；]|,\s*(?=[¿¡])")
# Han, kana, CJK punctuation and full-width forms: a sentence without any reads only the
# ASCII-matchable terms of the unspaced vocabularies.
_CJK = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]")
_NEGATION_REACH: Final = 3  # words (twice as many characters unspaced) a denial reaches
_IMPLIED_REACH: Final = 6  # words (or 12 characters unspaced) from the clause opener to the term
_COMPOUND_REST: Final = 3  # letters the rest of the compound needs (no "Krebse" plurals)


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
# A determiner before the term and no speaker anywhere ("The Democrats passed…"): no statement
# for the floor, but not clearly someone else's either ("Started the chemo in May." leaves its
# subject out), so the gate does not clear it.
_DETERMINED = "determined"


def _sentences(t: str) -> Iterator[tuple[int, int]]:
    """The sentences of ``t``, as spans: split once a text, asked again by each cue's
    attribution and the abbreviation and brand rules (the last few texts remembered)."""
    spans = _SENTENCE_MEMO.get(t)
    if spans is None:
        spans = tuple(_split_sentences(t))
        if len(_SENTENCE_MEMO) >= _SENTENCE_MEMO_SIZE:
            _SENTENCE_MEMO.clear()
        _SENTENCE_MEMO[t] = spans
    return iter(spans)


_SENTENCE_MEMO: Final[dict[str, tuple[tuple[int, int], ...]]] = {}
_SENTENCE_MEMO_SIZE: Final = 8  # a classify call's texts: the folded text and its views


LONG_SENTENCE: Final = 1_000
"""A sentence longer than this is cut at its line breaks too (blindfix23d). A single line
break ends no sentence (a hard-wrapped paragraph reads on), but hundreds of lines without a
full stop (a list, a pasted output) are no sentence: as one, each cue's attribution read all
of it, and the cost grew with the square of the text."""


def _split_sentences(t: str) -> Iterator[tuple[int, int]]:
    start = 0
    for m in _SENTENCE_BREAK.finditer(t):
        if m.start() > start:
            yield from _lines_of_long(t, start, m.start())
        start = m.end()
    if start < len(t):
        yield from _lines_of_long(t, start, len(t))


def _lines_of_long(t: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """``(start, end)``, or its lines when it is longer than :data:`LONG_SENTENCE`."""
    if end - start <= LONG_SENTENCE or "\n" not in t[start:end]:
        yield start, end
        return
    at = start
    while at < end:
        stop = t.find("\n", at, end)
        stop = end if stop < 0 else stop
        if stop > at:
            yield at, stop
        at = stop + 1


def _attribute(
    lang: _Language, t: str, s: int, term_start: int, term_end: int, *, own: bool = False
) -> str:
    """``self``, ``other`` (a third party, a topic, a profession) or ``unclear`` for one cue."""
    sentence_end = next((e for ss, e in _sentences(t) if ss <= term_start < e), len(t))
    before = t[s:term_start]
    last: str | None = None
    last_end = s
    kinds: set[str] = set()
    for m in lang.markers.finditer(t, s, sentence_end):
        kind = m.lastgroup or ""
        kinds.add(kind)
        if m.end() <= term_start and kind not in ("profession", "negation"):
            last, last_end = kind, m.end()
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
    if (lang.as_a is not None and lang.as_a.search(before)) or (
        lang.as_a_after is not None and lang.as_a_after.match(t, term_end, sentence_end)
    ):
        return _SELF if last in (None, "self") else _OTHER  # "As a Muslim", "ムスリムとして"
    nxt = lang.markers.search(t, term_end, sentence_end)
    gap = t[term_end : nxt.start()] if nxt else ""
    owned = lang.head_first and last == "self" and not t[last_end:term_start].strip()
    if nxt and nxt.lastgroup in ("other", "topic") and (gap.isspace() or not gap) and not owned:
        # "伊斯兰教历史", "diabetes research": the term names a topic; not after the speaker's
        # possessive where nouns come first: "meu TDAH explica os atrasos" (blindfix14c)
        return _OTHER
    if _for_someone_else(lang, t, term_end, sentence_end) and not (
        (opener := lang.markers.match(t, term_start)) and opener.lastgroup == "self"
    ):
        # The term itself opening with the speaker's verb is no errand: "saí do armário para
        # os meus pais" (plural kin are someone else too since blindfix11b).
        return _OTHER  # "Asthmaspray für meinen Sohn": the term is bought or fetched for them
    if own and (opener := lang.markers.match(t, term_start)) and opener.lastgroup == "self":
        return _SELF  # "…à ma mère que j'aimais les filles": the term opens with the speaker
    if last == "self":
        return _SELF
    if last == "negation":
        return _DENIED  # "I don't have...", "我没有犯罪记录"
    if last in ("other", "topic"):
        return _OTHER  # "my sister has...", "reading about..."
    if lang.negation_after is not None and lang.negation_after.search(t, term_end, sentence_end):
        return _DENIED  # "糖尿病ではありません"
    if last is None and _implied_opener(lang, before):
        # Before the later words: "been on lithium since May, can you…" asks the assistant
        # ("you") about the speaker's own treatment (blind17).
        return _SELF
    later = _told_later(lang, t, s, term_end, sentence_end) if "self" not in kinds else set()
    if later & {"other", "topic"}:
        return _OTHER  # "ラマダンについての本", "Diabetes in children": a topic, told later
    if "self" not in kinds and lang.determiner is not None and lang.determiner.search(before):
        return _DETERMINED  # "The Democrats passed...": a determiner, no speaker anywhere
    if lang.pro_drop:
        return _SELF  # "5月からインスリン注射をしている": the subject left out is the speaker
    return _UNCLEAR


def _told_later(lang: _Language, t: str, s: int, term_end: int, sentence_end: int) -> set[str]:
    """The marker kinds of the sentence up to the end of the term's clause where the language
    marks one (``clause_ends``): "適応障害で休職中なんだけど、傷病手当って…" names its topic
    in the next clause, about the leave, not the diagnosis (blindfix23c)."""
    end = sentence_end
    if lang.clause_end is not None and (m := lang.clause_end.search(t, term_end, end)):
        end = m.start()
    return {m.lastgroup or "" for m in lang.markers.finditer(t, s, end)}


def _implied_opener(lang: _Language, before: str) -> bool:
    """The clause opens with a form that implies the speaker, a few words before the term:
    "On insulin since May", a record-style clause about the speaker."""
    if lang.implied is None or not lang.implied.search(before):
        return False
    return (len(before.split()) if lang.spaced else len(before) // 2) <= _IMPLIED_REACH


_BENEFICIARY_REACH: Final = 2  # words between a term and its "for" ("chemo meds for my dad")


def _for_someone_else(lang: _Language, t: str, term_end: int, sentence_end: int) -> bool:
    """The term is followed by a beneficiary word ("for", "für") whose next marker, past the
    speaker's possessive ("my", "meinen"), names someone else ("daughter", "Sohn")."""
    if lang.beneficiary is None or not lang.spaced:
        return False
    m = lang.beneficiary.search(t, term_end, sentence_end)
    if m is None or len(t[term_end : m.start()].split()) > _BENEFICIARY_REACH:
        return False
    if (whose := lang.markers.match(t, m.start())) and whose.lastgroup == "other":
        return True  # the beneficiary word opens a third party: "MS-Diagnose meiner Frau"
    for marker in lang.markers.finditer(t, m.end(), sentence_end):
        if len(t[m.end() : marker.start()].split()) > _BENEFICIARY_REACH:
            return False
        if marker.lastgroup == "other":
            return True
        if marker.lastgroup != "self":
            return False
    return False


def _verdict(
    lang: _Language, t: str, own: bool, s: int, start: int, end: int, category: str = ""
) -> str:
    """A self term is the speaker's unless a profession frames the sentence; others attributed."""
    verdict = _attribute(lang, t, s, start, end, own=own)
    if own and verdict == _UNCLEAR:
        return _SELF
    if verdict in _NOT_YET_THE_SPEAKERS and _shared(lang, t, s, start, end):
        return _SELF  # "my wife and I are both…", "my brother is gay, and so am I"
    if (
        verdict in _NOT_YET_THE_SPEAKERS
        and category == _ETHNICITY
        and _by_descent(lang, t, s, start, end)
    ):
        return _SELF  # "mi familia es mapuche", "ma famille est kabyle": the speaker's origin
    return verdict


_ETHNICITY: Final = "ethnicity"
_DESCENT_REACH: Final = 4  # words (twice as many characters unspaced) between family and origin


def _by_descent(lang: _Language, t: str, s: int, start: int, end: int) -> bool:
    """An origin told of the speaker's own family, a few words before or after it in its
    sentence ("my family is Romani", "Irish Travellers on my mother's side", 我家是回族)."""
    if lang.descent is None:
        return False
    e = next((ee for ss, ee in _sentences(t) if ss <= start < ee), len(t))
    for m in lang.descent.finditer(t, s, e):
        gap = t[m.end() : start] if m.end() <= start else t[end : max(end, m.start())]
        if (len(gap.split()) if lang.spaced else len(gap) // 2) <= _DESCENT_REACH:
            return True
    return False


_NOT_YET_THE_SPEAKERS: Final = frozenset({_OTHER, _UNCLEAR, _DETERMINED})


def _shared(lang: _Language, t: str, s: int, start: int, end: int) -> bool:
    """:func:`.special_shared.shared_with_the_speaker` for the cue's sentence and the next."""
    spans = [(ss, e) for ss, e in _sentences(t) if e > start]
    e = spans[0][1] if spans else len(t)
    after = spans[1][1] if len(spans) > 1 else e
    return shared_with_the_speaker(lang, t, s, e, start, end, after)


def _cues(t: str) -> Iterator[tuple[_Language, str, bool, int, int, int]]:
    """Every cue: (language, category, self term?, sentence start, term start, term end).

    Vocabularies share words ("diabetes", "me", 糖尿病), so in each sentence only the languages
    whose person, topic and profession words occur most often read it (all of them when none
    occurs): "She told me her diabetes..." is English, and Spanish "me" must not claim it.
    """
    ascii_text = t.isascii()
    for s, e in _sentences(t):
        tokens: list[tuple[str, int, int]] | None = None
        low: str | None = None
        heads_read, runs_here = False, False
        at: list[tuple[int, str]] | None = None
        found: list[tuple[int, _Language, list[tuple[str, bool, int, int]]]] = []
        words: set[str] | None = None
        ascii_sentence: bool | None = None
        for lang in languages():
            cues: list[tuple[str, bool, int, int]] = []
            if lang.lexicon:
                if words is None:
                    if low is None:
                        low = t[s:e].casefold()
                    # An ASCII sentence's casefold keeps its length and its words' edges.
                    words = (
                        set(_TOKEN.findall(low))
                        if ascii_text
                        else {m.group(0).casefold() for m in _TOKEN.finditer(t, s, e)}
                    )
                # A cue starts at a lexicon word or a compound's head: none here, no cue.
                if not lang.lexicon.keys().isdisjoint(words) or (
                    lang.compound_heads and any(_compound_of(lang, w) for w in words)
                ):
                    if tokens is None:
                        tokens = [
                            (m.group(0).casefold(), *m.span()) for m in _TOKEN.finditer(t, s, e)
                        ]
                    cues.extend(_lexicon_cues(lang, tokens))
            if lang.run_finder is not None:
                if low is None:
                    low = t[s:e].casefold()
                if not heads_read:
                    heads_read = True
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
                    # Only ASCII-matchable terms can match a sentence without CJK: every other
                    # term of an unspaced vocabulary holds a CJK character (issue 30).
                    ascii_sentence = t[s:e].isascii() or _CJK.search(t, s, e) is None
                terms = lang.ascii_terms if ascii_sentence else lang.terms
                if terms is not None and _gated(terms).may_match(t, s, e):
                    cues.extend(
                        (lang.term_category[g], g[0] == "s", *m.span())
                        for m in terms.finditer(t, s, e)
                        if (g := m.lastgroup or "c0")
                    )
            if cues and lang.own_script is not None and not lang.own_script.search(t, s, e):
                # Not this language's sentence: only its own-script terms may be read here.
                cues = [c for c in cues if not t[c[2] : c[3]].isascii()]
            if cues:
                found.append((sum(1 for _ in lang.markers.finditer(t, s, e)), lang, cues))
        best = max((n for n, _, _ in found), default=0)
        for n, lang, cues in found:
            if n == best:
                for category, own, start, end in cues:
                    yield lang, category, own, s, start, end


@cache
def _gated(terms: re.Pattern[str]) -> GatedPattern:
    """A vocabulary's term alternation with the trie of its own literals before it: an
    unspaced language's ASCII terms ("HIV", "BRCA") are asked of every sentence."""
    return GatedPattern(terms)


@dataclass(frozen=True, slots=True)
class _RunHeads:
    """Where a letter run of any language may start, found once per sentence.

    Every run starts with one of its language's heads (its first ``n`` characters, ``n`` the
    shortest run's length up to 3), so ``run_finder.findall`` (the longest run at every
    position) finds runs only at positions that hold a head: trying its lookahead there alone
    gives the same runs, without five alternations scanned over every sentence (issue 30).
    The heads are found by one Aho–Corasick scan (every head has ``n`` characters, so at most
    one ends at a position: the scan yields them in the text's order), not a slice a position.
    """

    n: int
    heads: frozenset[str]
    by_language: dict[str, frozenset[str]]
    automaton: ahocorasick.Automaton | None

    def at(self, low: str) -> list[tuple[int, str]] | None:
        """Positions of ``low`` where some language's head stands, with the head
        (``None``: no shortcut)."""
        n, automaton = self.n, self.automaton
        if n < 2:
            return None
        if automaton is None:
            return []
        return [(end - n + 1, head) for end, head in automaton.iter(low)]


@cache
def _run_heads() -> _RunHeads:
    runs = {lang.code: frozenset(lang.run_terms) for lang in languages()}
    n = min([3, *(len(r) for rs in runs.values() for r in rs)])
    by_language = {code: frozenset(r[:n] for r in rs) for code, rs in runs.items()}
    heads: frozenset[str] = frozenset().union(*by_language.values())
    automaton = None
    if heads:
        automaton = ahocorasick.Automaton()
        for head in heads:
            automaton.add_word(head, head)
        automaton.make_automaton()
    return _RunHeads(n, heads, by_language, automaton)


def _runs_found(lang: _Language, low: str, at: list[tuple[int, str]] | None) -> set[str]:
    """``set(lang.run_finder.findall(low))``, tried only where this language's head stands."""
    finder = lang.run_finder
    assert finder is not None
    if at is None:
        return set(finder.findall(low))
    mine = _run_heads().by_language[lang.code]
    return {
        m.group(1) for i, head in at if head in mine and (m := finder.match(low, i)) is not None
    }


@cache
def _any_run() -> LiteralGate:
    """Any letter run of any language's regex terms (see :func:`_run_finder`)."""
    return LiteralGate(r for lang in languages() for r in lang.run_terms)


def _lexicon_cues(
    lang: _Language, tokens: list[tuple[str, int, int]]
) -> Iterator[tuple[str, bool, int, int]]:
    """Literal terms found word by word: the longest phrase starting at each word."""
    lexicon, compounds = lang.lexicon, bool(lang.compound_heads)
    for i, (word, start, end) in enumerate(tokens):
        entries = lexicon.get(word)
        if entries is None:
            if compounds:
                head = _compound_of(lang, word)
                if head is not None:
                    yield head[0], head[1], start, end
            continue
        for words, category, own in entries:
            k = len(words)
            if k == 1 and words[0] == word:  # one word: the window is this token
                yield category, own, start, end
                break
            window = tokens[i : i + k]
            if (
                len(window) == k
                and all(w == x[0] for w, x in zip(words, window, strict=True))
                and all(window[j + 1][1] - window[j][2] <= 2 for j in range(k - 1))
            ):
                yield category, own, start, window[-1][2]
                break


_UNSEEN: Final = ("", False)
_COMPOUND_MEMO: Final = 100_000  # words remembered per language (a few MB at most)


def _compound_of(lang: _Language, word: str) -> tuple[str, bool] | None:
    """:func:`_compound_head`, remembered per word: a term that begins or ends a longer word
    ("Krebsdiagnose", "Insulinpumpe") is looked for in every word of every sentence."""
    memo = lang.compound_memo
    head = memo.get(word, _UNSEEN)
    if head is _UNSEEN:
        head = _compound_head(lang, word)
        if len(memo) < _COMPOUND_MEMO:
            memo[word] = head
    return head


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


def _all_cues(t: str) -> Iterator[tuple[_Language, str, bool, int, int, int]]:
    """:func:`_cues` and the abbreviations read case-sensitively (:mod:`.special_abbrev`)."""
    yield from _cues(t)
    yield from abbreviation_cues(t, languages(), _sentences)
    yield from brand_cues(t, languages(), _sentences)


def _lang_special(t: str) -> Iterator[_Hit]:
    """Floor hits: cues said about the user in any vocabulary's language."""
    for lang, category, own, s, start, end in _all_cues(t):
        if _verdict(lang, t, own, s, start, end, category) == _SELF:
            yield (_SPECIAL, category, _subject_start(lang, t, s, start), end, category)
    yield from _same_sex_couple(t)


_ORIENTATION: Final = "sexual_orientation"


def _same_sex_couple(t: str) -> Iterator[_Hit]:
    """The speaker's partner and the speaker's own gender, the same, anywhere in one text ("My
    boyfriend and I … I'm a guy", "彼氏と同棲中、自分も男"): a same-sex couple stated without
    an orientation word. Recall first: a man who says "my boyfriend" and never his own gender
    is not caught; one who names both is, in whichever order and sentence."""
    low = t.lower() if t.isascii() else None
    every = _every_couple_gate()
    if low is not None and every is not None and not every.search(low):
        return  # no language's partner word: no pattern below is asked (one scan, not 14)
    for lang in languages():
        for (partner, own), gate in zip(lang.couple, lang.couple_gates, strict=True):
            if low is not None and gate is not None and not gate.search(low):
                continue  # none of the words every match holds: no partner here
            p = partner.search(t)
            if p is None:
                continue
            o = own.search(t)
            if o is not None:
                start, end = min(p.start(), o.start()), max(p.end(), o.end())
                yield (_SPECIAL, _ORIENTATION, start, end, _ORIENTATION)
                return


@cache
def _every_couple_gate() -> LiteralGate | None:
    """Every language's couple gate words as one gate (None where some pattern has no gate:
    it is asked of every ASCII text). A text holds some gate's word exactly when it holds a
    word of this one."""
    gates = [g for lang in languages() for g in lang.couple_gates]
    if len(gates) != sum(len(lang.couple) for lang in languages()) or None in gates:
        return None
    return LiteralGate(w for g in gates if g is not None for w in g.words)


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
    return frozenset(cue[1] for cue in _all_cues(text))


def about_someone_else_or_topic(text: str) -> bool:
    """True when every special-category cue in ``text`` is clearly about a third party or topic.

    A cue with no clear owner ("insulin since May", a bare term) counts as the user's, so this is
    False for it: the gate fails closed. Text without any cue is not "about" anything: False.
    """
    verdicts = [
        _verdict(lang, text, own, s, start, end, category)
        for lang, category, own, s, start, end in _all_cues(text)
    ]
    return bool(verdicts) and all(v == _OTHER for v in verdicts)
