"""The quote gate: may this raw text be quoted verbatim into a plan?

A record is text the floor has judged; a snippet of what the user said (an episodic snippet, a
source item, a daily note) is text nobody has judged, and it reaches the model word for word. So
the gate is stricter than the floor and fails closed: a false positive withholds one snippet, a
false negative puts a secret or a diagnosis in front of the model. It withholds a text when

- the floor refuses it (a secret, a regulated identifier) or finds a special category the user
  has not consented to;
- a credential cue sits near a value-like token (digits of any script, number words, spelled
  letters, NATO words, a mixed-case or symbol-bearing run, a quoted string), unless the number
  is a count ("6 digits", "10 minutes");
- it states the user's own money (an amount beside a salary / balance / debt word);
- it holds a special-category cue in any grammatical person, unless the sentence is clearly
  about someone else or a topic (an implied subject counts as the user's);
- any segment is in a language its vocabularies do not cover (``quote_language``), unless the
  app opted in to quoting those (``planner.quote_uncovered_languages``, a documented risk).

Consent for a category lets that category's cues in. The verdict carries a reason code and a
category (the special category, ``credential``, ``financial`` or the language), never the text.
Credential and money cues live in ``policy/data/quote_cues.yaml``; special-category cues and
whose fact it is come from the per-language vocabularies (``detectors/special_lang.py``), and
values said in words from the shared normaliser (``policy/spoken.py``).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from userlore.models import TurnSafety
from userlore.policy.check_arithmetic import blank_operands
from userlore.policy.code_tokens import without_versions
from userlore.policy.cue_data import Cues
from userlore.policy.cue_data import cues as _cues
from userlore.policy.detectors.clock_times import CLOCK_TIMES, clock_time
from userlore.policy.detectors.common import _is_placeholder, blank_spans, blanked, is_year
from userlore.policy.detectors.cued_values import MONTH_YEAR, names_an_organisation
from userlore.policy.detectors.fiction_codes import fiction_request
from userlore.policy.detectors.market_prices import market_price_question
from userlore.policy.detectors.money import _amount as _priced
from userlore.policy.detectors.org_topics import org_topic
from userlore.policy.detectors.own_sums import group_figure
from userlore.policy.detectors.password_talk import blank_talked
from userlore.policy.detectors.passwords import pins_a_package
from userlore.policy.detectors.public_material import mask_public_material
from userlore.policy.detectors.special_lang import about_someone_else_or_topic, special_cues
from userlore.policy.detectors.uncovered_currencies import _tender_word
from userlore.policy.filter import RejectionReason
from userlore.policy.first_person import first_person
from userlore.policy.govern import Assessment, assess_text
from userlore.policy.known_words import read_by_its_words
from userlore.policy.language import (
    COVERED_LANGUAGES,
    UNDETERMINED,
    segments,
    sentences,
    uncovered_segments,
)
from userlore.policy.machine_lines import in_machine_line, machine_spans, verdict_caps
from userlore.policy.name_lists import name_list_language, without_listed_names
from userlore.policy.sensitivity import SensitivityLevel, SensitivityReport, classify, redact
from userlore.policy.spoken import spoken_spans

__all__ = ["QUOTED_KINDS", "QUOTE_REASONS", "QuoteVerdict", "quote_verdict", "turn_safety"]

QUOTED_KINDS: Final = frozenset({"daily_note", "workspace_fact"})
"""Record kinds whose content is source text quoted as it came (a note lists items' first
lines; a workspace fact carries an item's text): they pass the gate wherever they are read."""

QUOTE_REASONS: Final = frozenset(
    {
        RejectionReason.QUOTE_CREDENTIAL,
        RejectionReason.QUOTE_MONEY,
        RejectionReason.QUOTE_SPECIAL,
        RejectionReason.QUOTE_LANGUAGE,
    }
)
"""The gate's own reason codes (the floor's ``secret``/``regulated``/``consent_required`` too
can withhold a quote)."""


@dataclass(frozen=True, slots=True)
class QuoteVerdict:
    """The gate's answer for one text.

    Attributes:
        reason: Why it may not be quoted, or ``None`` when it may.
        category: What was found, by category only: a special category (``health``...),
            ``credential``, ``financial``, ``government_id``, or the withheld language's code.
    """

    reason: RejectionReason | None
    category: str | None = None

    @property
    def quotable(self) -> bool:
        """True when the text may be quoted."""
        return self.reason is None


_PASS: Final = QuoteVerdict(None)


def quote_verdict(
    text: str,
    *,
    consented: frozenset[str] = frozenset(),
    quote_uncovered: bool = False,
) -> QuoteVerdict:
    """Whether ``text`` may be quoted verbatim into a plan, and if not, why.

    Args:
        text: The raw text (a turn, a source item, a note) as it would be quoted.
        consented: Special categories the user has consented to.
        quote_uncovered: The app's opt-in to quoting languages the gate cannot read.
    """
    return _verdict(text, consented, quote_uncovered)


@functools.lru_cache(maxsize=8_192)
def _verdict(text: str, consented: frozenset[str], quote_uncovered: bool) -> QuoteVerdict:
    # Public key material and placeholders are neither a value nor a language: every check
    # below reads the text with them blanked (``detectors/public_material.py``).
    text = mask_public_material(text)
    floor = _floor(text)
    if floor.refused is not None:
        return QuoteVerdict(RejectionReason(floor.refused), floor.refused)
    if floor.category is not None and floor.category not in consented:
        return QuoteVerdict(RejectionReason.CONSENT_REQUIRED, floor.category)
    # Languages are judged without the floor's redaction markers (they are no language).
    uncovered = uncovered_segments(_REDACTED.sub(" ", text))
    cues = _cues()
    shaped = (
        _mixed(tok.strip(_EDGES))
        for seg in uncovered
        for tok in _TOKEN.findall(_REDACTED.sub(" ", text[seg.start : seg.end]))
    )
    if _credential_near_value(cues, text) or any(shaped):
        # In a language no cue reads, a credential-shaped token is judged by its shape alone.
        return QuoteVerdict(RejectionReason.QUOTE_CREDENTIAL, "credential")
    story = fiction_request(text)  # a story's figures are its characters' (blind19)
    # A program's lines state nobody's money or health (``policy.machine_lines``): read as blank.
    for sentence in sentences(_prose(text)):
        lowered = sentence.casefold()
        if cues.own_money(lowered) and _amount(sentence, cues.counts):
            # Cleared, asked only of a sentence with money: a market price asked about is no
            # one's money ("a normal rent … like £1,100?"): blind14; nor is a group's figure
            # ("le salaire médian est d'environ 2 100 €"): blindfix24c.
            cleared = (
                cues.about_others(lowered)
                or market_price_question(lowered)
                or story
                or group_figure(sentence, first_person().speaker)
            )
            if not cleared:
                return QuoteVerdict(RejectionReason.QUOTE_MONEY, "financial")
        found = sorted(special_cues(sentence) - consented)
        if found and not about_someone_else_or_topic(sentence) and not org_topic(sentence, found):
            return QuoteVerdict(RejectionReason.QUOTE_SPECIAL, found[0])
    if not quote_uncovered and not uncovered:
        misread = _misread_with_value(_REDACTED.sub(" ", text))
        if misread is not None:
            return QuoteVerdict(RejectionReason.QUOTE_LANGUAGE, misread)
    if uncovered and not quote_uncovered:
        # Last: what the cues above could read has been judged; the rest is withheld.
        return QuoteVerdict(RejectionReason.QUOTE_LANGUAGE, uncovered[0].language)
    return _PASS


def turn_safety(
    text: str,
    *,
    refused: Sequence[str] = (),
    quote_uncovered: bool = False,
    report: SensitivityReport | None = None,
) -> TurnSafety:
    """The safety report of one observed turn: what was redacted from it and why it will not
    be quoted, by category only (item 6 of issue 29: the app may tell its user).

    Args:
        text: The turn as the user sent it.
        refused: Reason codes of its statements the floor refused.
        quote_uncovered: The app's opt-in to quoting languages the gate cannot read.
        report: :func:`classify` of ``text`` when the caller has it (the write path's).
    """
    read = report if report is not None else classify(text)
    redacted = sorted(
        {
            f"{f.level.value}:{f.category or f.rule}"
            for f in read.findings
            if f.level in (SensitivityLevel.SECRET, SensitivityLevel.REGULATED)
        }
    )
    languages = [] if quote_uncovered else [s.language for s in uncovered_segments(text)]
    quote: str | None
    category: str | None = None
    if refused:
        quote = refused[0]
    else:
        verdict = quote_verdict(redact(text, read), quote_uncovered=quote_uncovered)
        quote = verdict.reason.value if verdict.reason else None
        category = verdict.category
    return TurnSafety(
        tuple(redacted),
        tuple(refused),
        quote,
        category,
        tuple(dict.fromkeys(lang for lang in languages if lang)),
    )


@functools.lru_cache(maxsize=8_192)
def _floor(text: str) -> Assessment:
    return assess_text(text)


# -- value-like tokens ---------------------------------------------------------------------------

_DIGIT_RUN = re.compile(r"\d+(?:[.,:/\- ]\d+)*")
_WORD_AFTER = re.compile(r"\s*-?([^\W\d_]+)")  # "6 digits", "a 4-digit code"
_TOKEN = re.compile(r"[^\s\"'`“”«»「」]+")
# A quoted value: a quote mark that opens (not an apostrophe inside "l'enveloppe").
# A corner bracket that closes ("」のように…") opens no quoted value.
_QUOTED = re.compile(r"(?<![^\W\d_])[\"'`“”«»「『][^\"'`“”«»「」『』\s]{3,}")
_EDGES = ".,;:!?¡¿()[]{}"
_REDACTED = re.compile(r"\[REDACTED:[\w-]+\]")
_WINDOW_BEFORE = 40
_WINDOW_AFTER = 80

# An amount: a number beside a currency sign, code or word, or a large / grouped number.
_AMOUNT = re.compile(
    r"(?i)(?:[$€£¥₹₩₺₽]|R\$|US\$|\b(?:usd|eur|gbp|cny|rmb|jpy|brl|chf)\b)\s?\d"
    r"|\d[\d.,\s]*\s?(?:[$€£¥₹]|万|千|億|円|元|块|k\b|thousand|million|mil\b|mille|tausend"
    r"|euros?|dollars?|reais|real\b|yuan|yen|pesos?|pounds?|bucks)"
    r"|\d{1,3}(?:[.,\s]\d{3})+|\d{4,}|[一二三四五六七八九十两百千]+[万千億亿]"
)


def _amount(sentence: str, counts: frozenset[str]) -> bool:
    """An amount in ``sentence`` that is not a count ("La salle compte 1 980 places"), a
    year or a percentage."""
    for m in _AMOUNT.finditer(sentence):
        if is_year(m.group(0)) or sentence[m.end() : m.end() + 2].strip().startswith("%"):
            continue  # "Die Rente steigt 2025 um 4,57 %": a year, a rate
        if not _counted(sentence, m.end(), counts):
            return True
    return _tendered(sentence)


# A number, perhaps with a magnitude word, then a word: the word may be a currency's name.
_NUMBER_THEN_WORD = re.compile(r"(?<![\w.,])\d[\d.,]*\s?(?:[^\W\d_]{2,4}\s)?([^\W\d_]{3,})")


def _tendered(text: str) -> bool:
    """A number before some CLDR locale's name of a currency in use ("600 soles", "18 mil
    pesos", "700 escudos"), whatever the text's language: an amount ``_AMOUNT``'s few names
    miss (blind20)."""
    return any(_tender_word(m.group(1)) for m in _NUMBER_THEN_WORD.finditer(text))


def _counted(text: str, end: int, counts: frozenset[str]) -> bool:
    """The number ending at ``end`` is followed by a count unit ("6 digits"); Chinese and
    Japanese write the unit into the clause after it ("12文字以上"), so a CJK word counts
    when it starts with one."""
    after = _WORD_AFTER.match(text, end)
    if after is None:
        return False
    word = after.group(1).casefold()
    if word in counts:
        return True
    return _CJK_OR_PUNCT.match(word) is not None and any(
        word.startswith(unit) for unit in counts if _CJK_OR_PUNCT.match(unit)
    )


_SHORT_COUNT: Final = 2  # digits of a number that can be a count in a list ("4 or 6 digits")
_LIST_GAP: Final = 24


def _listed_count(window: str, runs: list[re.Match[str]], i: int, counts: frozenset[str]) -> bool:
    """The number ``runs[i]`` stands in a list of counts whose other member carries the unit:
    "4 or 6 digits", "6 dígitos e não 4", "5 statt 4 Stellen" (blind17). Both are short (two
    digits at most: no code is) and only words or punctuation stand between them."""
    if len(runs[i].group(0)) > _SHORT_COUNT:
        return False
    for j in (i - 1, i + 1):
        if not 0 <= j < len(runs) or len(runs[j].group(0)) > _SHORT_COUNT:
            continue
        lo, hi = sorted((runs[i], runs[j]), key=lambda r: r.start())
        gap = window[lo.end() : hi.start()]
        if len(gap) <= _LIST_GAP and "\n" not in gap and _counted(window, runs[j].end(), counts):
            return True
    return False


def _value_like(window: str, counts: frozenset[str], lead: str = "") -> bool:
    """True when ``window`` holds something that reads as a credential's value: digits of any
    script (not a count), a run said in words, spelled or in NATO words (the shared normaliser,
    :mod:`userlore.policy.spoken`), a quoted string, or a run that is not a word. ``lead`` is
    the sentence's text before the window, read for a size word (:func:`_sized`)."""
    window = CLOCK_TIMES.sub(blanked, window)  # "a las 10:30", "à 14 h 30": a time, no code
    runs = list(_DIGIT_RUN.finditer(window))
    for i, m in enumerate(runs):
        if MONTH_YEAR.fullmatch(m.group(0)):
            continue  # a card's expiry alone ("07/26 en la tarjeta") is no value (blindfix17a)
        if _BARE_VERSION.match(window, max(0, m.start() - 1)) is not None and m.start() > 0:
            continue  # "not sure for v10": a major version, no code (blindfix21a)
        if _sized(lead + window[: m.start()], m.group(0), counts):
            continue
        if clock_time(window, *m.span()):
            continue  # "pon una alarma a las 0630": a time (blindfix22a)
        if not _counted(window, m.end(), counts) and not _listed_count(window, runs, i, counts):
            return True
    if _QUOTED.search(window) or spoken_spans(window):
        return True
    return any(
        _mixed(tok.strip(_EDGES)) and not _count_compound(tok.strip(_EDGES), counts)
        for tok in _TOKEN.findall(window)
    )


_COUNT_COMPOUND = re.compile(r"\d{1,2}-([^\W\d_]+)")
# A major version said alone ("v10", "V2"): three digits at most after a lone "v".
_BARE_VERSION = re.compile(r"(?<![^\W\d_])[vV]\d{1,3}(?![\w.,:/\-])")


def _count_compound(tok: str, counts: frozenset[str]) -> bool:
    """A count joined to its unit ("4-digit", "6-stellige"): a size, not a value."""
    m = _COUNT_COMPOUND.fullmatch(tok)
    return m is not None and m.group(1).casefold() in counts


_SIZE_WORDS = re.compile(  # casefolded text
    r"(?<![^\W\d_])(?:length|max|min|maximum|minimum|at least|up to|longitud|mínim[oa]|minim[oa]"
    r"|máxim[oa]|maxim[oa]|al menos|länge|mindestens|maximal|minimal|höchstens|longueur|au moins"
    r"|au minimum|au maximum|comprimento|no mínimo|no máximo|pelo menos|tamanho|taille)"
    r"(?![^\W\d_])|长度|至少|最少|最多|最低|最长|長さ|以上|以下|最大|最小"
)
_SIZE_REACH: Final = 64
_SENTENCE_STOP = re.compile(r"[.!?。！？\n]")


def _sized(before: str, run: str, counts: frozenset[str]) -> bool:
    """The number ``run`` is a format's size, said before it in its sentence (blindfix18a): a
    size word ("max length be 64 or 128", "no mínimo 8") before a number of three digits at
    most, or a count unit ("¿cuántos dígitos tiene un IBAN, 24?", "何桁目、12") before one of
    two. A code is four digits or more, so no code is read as a size."""
    if not run.isdigit() or len(run) > 3:
        return False
    before = before[-_SIZE_REACH:].casefold()
    stops = list(_SENTENCE_STOP.finditer(before))
    if stops:
        before = before[stops[-1].end() :]
    if _SIZE_WORDS.search(before):
        return True
    if len(run) > _SHORT_COUNT:
        return False
    words = _UNIT_WORD.findall(before)
    return any(w in counts for w in words) or any(
        u in before for u in counts if _CJK_OR_PUNCT.match(u)
    )


_UNIT_WORD = re.compile(r"[^\W\d_]+")


def _mixed(tok: str, names_ok: bool = False) -> bool:
    """A run that is not a word: letters with digits or symbols, or a case change inside one
    of its parts. Hyphens, apostrophes and dots join words ("e-mail", "l'enveloppe",
    "Handy-PIN"), so they do not count as symbols. Chinese and Japanese write no spaces, so a
    "token" there is a clause: its Han and kana and their punctuation are words and commas,
    and only the runs between them are judged ("，得重置一下" is no value, "是Abc!123x" holds
    one). A placeholder ("<password>", "****") is no value, nor a setting's name before its
    sign ("API_KEY=", "password:"); with ``names_ok``, nor a bare one ("authorized_keys"), for
    a caller that asks whether a text holds a value at all rather than what a cue points to."""
    if _CJK_OR_PUNCT.search(tok):
        return any(_mixed(part, names_ok) for part in _CJK_OR_PUNCT.split(tok) if part)
    named = tok.rstrip("=:")  # "password=", "API_KEY:": a name and its sign, no value yet
    if named != tok or names_ok:
        if _IDENTIFIER.fullmatch(named):
            return False  # "API_TOKEN=", "authorized_keys": a setting's or a file's name
        tok = named
    if len(tok) < 6 or not any(ch.isalpha() for ch in tok) or _is_placeholder(tok):
        return False
    if _HANDLE.fullmatch(tok):
        return False  # "@ana_r", "@joao.s": a public handle, said to be followed
    if any(ch.isdigit() for ch in tok):
        return True
    if any(
        not ch.isalnum() and ch not in _JOINERS and not unicodedata.category(ch).startswith("M")
        for ch in tok
    ):
        return True
    return any(
        any(ch.isupper() for ch in part[1:])
        and any(ch.islower() for ch in part)
        and not _known_name(part)
        for part in re.split(r"[-'’.]", tok)
    )


KNOWN_NAME_ZIPF: Final = 3.0
"""A mixed-case word this frequent in English text (``wordfreq``) is a name in common use
("GitHub", "iPhone", "PayPal"), not a value: once in a million words or more."""


@functools.lru_cache(maxsize=4_096)
def _known_name(part: str) -> bool:
    if not part.isalpha():
        return False
    from wordfreq import zipf_frequency

    return zipf_frequency(part.casefold(), "en") >= KNOWN_NAME_ZIPF


_JOINERS: Final = frozenset("-'’.")
# A name in code or configuration: words of letters joined by underscores, all in one case.
_IDENTIFIER = re.compile(r"[A-Z]+(?:_[A-Z]+)+|[a-z]+(?:_[a-z]+)+")
_HANDLE = re.compile(r"@[^\W\d_]+(?:[._][^\W\d_]+)*")
# Han, kana, Hangul and the CJK and full-width punctuation (not full-width letters or digits).
_CJK_OR_PUNCT = re.compile(
    r"[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
    r"\uff01-\uff0f\uff1a-\uff20\uff5b-\uff65]+"
)


def _credential_near_value(cues: Cues, text: str) -> bool:
    """A credential cue with a value-like token within its window (before or after)."""
    # A value the floor already redacted is gone: its marker is not a value; nor is an operand
    # of a check part's computation asked about ("dividir entre 23", "97 moins le reste").
    text = blank_operands(_REDACTED.sub(" ", text))
    text = blank_talked(text)  # a weak password judged, a product's name in a how-to (blindfix23a)
    # An amount with its currency is a price or a balance, no card's or id's value ("the
    # average credit card balance is $6,000", "cette carte coûte 12 €"): the own-money
    # checks below judge it (blindfix22b).
    text = _priced().sub(blanked, text)
    if fiction_request(text):
        return False  # a story's short code is its character's (blind19)
    lowered = text.casefold()
    for m in cues.credential_cues(lowered):  # not "zip code": a credential word naming no secret
        if names_an_organisation(text, m.group(0), m.end()):
            continue  # "le numéro de la SNCF c'est le 3635": a service line (blindfix18a)
        if m.group(0) == "pin" and pins_a_package(lowered, m.end()):
            continue  # "pin urllib3 below 3": the verb (blindfix18a)
        start, end = _cue_token(text, m.start(), m.end())
        line = in_machine_line(text, m.start(), m.end())
        if line is not None:
            if _output_value(text, m.start(), m.end(), start, end, line, cues.counts):
                return True
            continue
        before = text[max(0, start - _WINDOW_BEFORE) : start]
        after = text[end : end + _WINDOW_AFTER]
        lead = text[max(0, start - _WINDOW_BEFORE - _SIZE_REACH) : max(0, start - _WINDOW_BEFORE)]
        if _value_like(before, cues.counts, lead) or _value_like(after, cues.counts, text[:end]):
            return True
    return False


_ASSIGN = re.compile(r"[=:]")
_SHORT_ASSIGNED: Final = 4
_SHORT_NUMBER = re.compile(r"(?<![\w.])\d{1,3}(?![\w])")
_FIRST_TOKEN = re.compile(r"\s*\S+")


def _output_value(
    text: str,
    cue_start: int,
    cue_end: int,
    start: int,
    end: int,
    line: tuple[int, int],
    counts: frozenset[str],
) -> bool:
    """A value after a credential cue in a line a program printed (``policy.machine_lines``,
    blindfix23d), read on its line only and after the cue: a cue inside a name
    ("test_login_7", "KeyError") or a verdict in capitals ("--- PASS:") points to nothing
    unless a sign follows it; after a sign the value is the one token there ("code=killed"),
    of four characters or more, and a number of three digits or fewer is an exit code, a
    status or a count, no secret."""
    assigned = end > 0 and text[end - 1] in "=:"
    named_end = end - 1 if assigned else end
    glued = start < cue_start or named_end > cue_end
    word = text[cue_start:cue_end]
    if not assigned and (glued or verdict_caps(word)):
        return False
    after = text[end : line[1]]
    if assigned:
        first = _FIRST_TOKEN.match(after)
        after = first.group(0) if first is not None else ""
        if len(after.strip().strip(_EDGES)) < _SHORT_ASSIGNED:
            return False  # "code=0x1", "rc=2": a program's code, no secret's length
    after = _SHORT_NUMBER.sub(blanked, after[:_WINDOW_AFTER])
    return _value_like(after, counts)


def _prose(text: str) -> str:
    """``text`` with its machine lines blanked (``policy.machine_lines``)."""
    return blank_spans(text, machine_spans(text))


def _cue_token(text: str, start: int, end: int) -> tuple[int, int]:
    """The cue widened to the identifier it is written in: a cue inside a name
    ("authorized_keys", "~/.ssh/id_rsa.pub", "API_KEY=", "password=") is part of that name, and
    the rest of it is no value; what follows its ``=`` or ``:`` is (``API_KEY=sk_live…``)."""
    while start > 0 and text[start - 1] in _IDENT:
        start -= 1
    while end < len(text) and text[end] in _IDENT:
        end += 1
    assign = _ASSIGN.match(text, end)
    return start, assign.end() if assign is not None else end


_IDENT: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_~/.")
_ASSIGN = re.compile(r"[=:]")


def _misread_with_value(text: str) -> str | None:
    """``und`` when a Latin segment read as a covered language holds a value (a credential-
    shaped run, a number of four digits or more, an amount) beside words that language does not
    know: a close relative read as the covered language (issue 29, values5; see
    :func:`userlore.policy.known_words.read_by_its_words`). The gate cannot read it, so it
    withholds it as a language it does not cover."""
    for seg in segments(text):
        if seg.script != "Latn" or seg.language not in COVERED_LANGUAGES:
            continue
        chunk = without_versions(text[seg.start : seg.end])  # a version is no value (blind14)
        listed = without_listed_names(chunk)
        if listed is not None and seg.language in listed[1]:
            chunk = listed[0]  # "…, bitwarden or 1password?": a list's names (blindfix23a)
        if name_list_language(chunk) is not None:
            continue  # a list of names: the names are no words of a relative
        if not any(ch.isdigit() for ch in chunk) and not any(
            _mixed(tok.strip(_EDGES), names_ok=True) for tok in _TOKEN.findall(chunk)
        ):
            continue
        # An amount under four digits ("18 mil pesos", "600 soles") is a value too (blind20).
        valued = (
            any(_mixed(tok.strip(_EDGES), names_ok=True) for tok in _TOKEN.findall(chunk))
            or any(sum(ch.isdigit() for ch in m.group(0)) >= 4 for m in _DIGIT_RUN.finditer(chunk))
            or _AMOUNT.search(chunk) is not None
            or _tendered(chunk)
        )
        if valued and not read_by_its_words(chunk, seg.language):
            return UNDETERMINED
    return None
