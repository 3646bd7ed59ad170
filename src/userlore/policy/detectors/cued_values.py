"""Values a credential word points at, in any of the seven languages: the floor's side of the
gate's credential cue.

The keyword rules of ``passwords``/``national_ids`` know a few phrasings per language; a PIN
after "Geheimzahl", a door code after "digicode", an account after "口座番号" or a card number
that fails Luhn after "número do cartão" passed them and stayed in stored evidence, while the
gate withheld the snippet. Here every credential word of ``policy/data/quote_cues.yaml`` (the
gate's own list, one data file for both) redacts the value-like tokens that follow it in its
sentence: a run of four or more digits (spaced, dashed or dotted), or a token that mixes letters
and digits. Not a value: a count ("6 digits"), a time ("10:30"), a year said after a few words
("changed it in 2019"), or anything after a compound that names no secret ("zip code",
"código postal", "code promo").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.cue_data import cues
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.clock_times import clock_time
from userlore.policy.detectors.common import _Hit, _is_hash_like, is_year
from userlore.policy.detectors.money import _amount
from userlore.policy.findings import _REGULATED, _SECRET

_WINDOW: Final = 48
_LONGEST: Final = 16
# A cue glued to these is part of a URL, a path or a name ("?token=", "user:password@").
_GLUED_BEFORE: Final = frozenset("_=/&?.:@#")
_GLUED_AFTER: Final = frozenset("_=/&@#")
_END = re.compile(r"[!。！\n;]|(?<!\.\.)[.,](?!\d)(?=\s|$)")  # an ellipsis is a pause
# A run of four digits or more, or three single digits dictated with spaces ("c'est 7 4 2");
# a kana or CJK character beside it is a boundary too ("やめて0827にした", "改成了0613",
# "记：372906").
_CJK = "\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff"
_DIGITS = re.compile(
    rf"(?=\d)(?:(?<=[{_CJK}])|(?<=[{_CJK}]:)|(?<![\w\-@:/#.]))"
    rf"(?:\d(?:[ \-./]?\d){{3,}}|\d(?: \d){{2}})"
    rf"(?=[{_CJK}]|(?![\w@/]|[-:.]\w))"
)
_TIME = re.compile(r"\d{1,2}:\d{2}")
MONTH_YEAR = re.compile(r"(?:0[1-9]|1[0-2])/(?:\d{2}|20\d{2})")
"""A month and year as a card prints its expiry: no value on its own."""
_DATE = re.compile(r"(?:19|20)\d\d([-./])[01]?\d\1[0-3]?\d|[0-3]?\d([-./])[01]?\d\2(?:19|20)\d\d")
_TOKEN = re.compile(r"[^\s,;:()\"'“”«»「」。、]+")
_WORD = re.compile(r"[^\W\d_]{2,}")
# A token's part outside CJK characters and full-width forms.
_ASCII_CORE = re.compile(r"[^\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]+")
_COPULAS: Final = frozenset(
    ["is", "was", "ist", "war", "es", "era", "est", "était", "é", "era", "是", "は"]
)  # "PIN is 2019": the year is the value
_GOVERNMENT: Final = (
    "pass", "ausweis", "dni", "nie", "ssn", "social", "cpf", "licen", "护照", "身份证", "旅券",
    "パスポート", "マイナンバー",
)  # fmt: skip


# An organisation's acronym right after the cue ("numéro de la SNCF", "number of the DMV",
# "Nummer der AOK"): its public number, not the user's value (blindfix18a).
_ORGANISATION = re.compile(
    r"\s+(?:(?:de\s+la|du|des|de|del|of(?:\s+the)?|for(?:\s+the)?|der|von|vom|da|do)\s+"
    r"|de\s+l['’]\s*)[A-Z][A-Z0-9&]{1,7}(?![\w])"
)


def names_an_organisation(t: str, cue: str, at: int) -> bool:
    """The cue ``cue`` ending at ``at`` is a word for a number and an organisation's acronym
    follows it ("numéro de la CAF"): the number after is its public line, for the floor and
    the gate alike. A credential word before an acronym ("code of the ATM") still names one."""
    return cue.casefold() in _NUMBER_WORDS and _ORGANISATION.match(t, at) is not None


_NUMBER_WORDS = frozenset({"numéro", "número", "numero", "number", "nummer", "no", "nr"})


@functools.cache
def _restatement() -> re.Pattern[str]:
    """Words after a comma that restate the cue's value ("…, which is", "…, o sea", "…、つまり"),
    or the value itself in apposition."""
    # Lower-cased, not casefolded: the window is read in ``_lower``'s view ("heißt" keeps its ß).
    terms = data_yaml("cue_restatements.yaml")["restatements"].values()
    words = sorted({str(w).lower() for group in terms for w in group}, key=len, reverse=True)
    either = "|".join(re.escape(w) for w in words)
    # Or nothing at all: the value in apposition, alone up to its clause's end ("mon code de
    # carte, 7419", "a senha do banco, 6027.").
    alone = r"(?=\d(?:[ \-.]?\d){3,}\s*(?:[,.;!?。]|$))"
    return re.compile(rf"\s*(?:(?:{either})(?![^\W\d_])|{alone})")


def _lower(t: str) -> str:
    """``t`` lowercased with its length kept (so spans stay valid)."""
    low = t.lower()
    if len(low) == len(t):
        return low
    return "".join(ch.lower() if len(ch.lower()) == 1 else ch for ch in t)


def _shaped(tok: str) -> bool:
    """ASCII letters with at least two digits ("48B21", "ghar123"), four characters or more;
    longer only in groups ("VK7JG-NPHTM-C97JM-9MPGT-3V66T", "Otter7_Maple9_River3_Stone5")."""
    if len(tok) < 4 or "@" in tok or "=" in tok:
        return False
    if len(tok) > _LONGEST and not _grouped(tok):
        return False  # keys, hashes and digests are the token rules' (they know public ones)
    digits = sum(ch.isdigit() for ch in tok)
    return digits >= 2 and any(ch.isascii() and ch.isalpha() for ch in tok)


# A value in groups of letters and digits joined by one separator, each group at most _LONGEST.
_GROUPED = re.compile(
    r"[A-Za-z0-9]{2,16}(?:(?P<sep>[-_.])[A-Za-z0-9]{2,16})(?:(?P=sep)[A-Za-z0-9]{2,16}){1,10}"
)


def _grouped(tok: str) -> bool:
    """Three groups or more of a key or a password ("VK7JG-NPHTM-C97JM"), not a UUID."""
    return len(tok) <= 96 and _GROUPED.fullmatch(tok) is not None and not _is_hash_like(tok)


def cued_values(t: str) -> Iterator[_Hit]:
    """Value-like tokens in the sentence after a credential word (see the module docstring)."""
    c = cues()
    lowered = _lower(t)
    if not c.credential_words.search(lowered):
        return  # no credential word's literal: the pattern below cannot match
    matches = list(c.credential_scan.finditer(lowered))
    if not matches:
        return
    excluded = [m.span() for m in c.not_credential_scan.finditer(lowered)]
    for m in matches:
        if any(s <= m.start() < e or s < m.end() <= e for s, e in excluded):
            continue
        glued_after = m.end() < len(t) and t[m.end()] in _GLUED_AFTER
        if (m.start() > 0 and t[m.start() - 1] in _GLUED_BEFORE) or glued_after:
            continue
        if names_an_organisation(t, m.group(0), m.end()):
            continue  # "le numéro de la CAF c'est le 3230": a service line's, no one's secret
        end = min(len(t), m.end() + _WINDOW)
        stop = _END.search(t, m.end(), end)
        window_end = stop.start() if stop else end
        spans = [(m.end(), window_end)]
        restated = None
        if stop is not None and stop.group(0) == ",":
            restated = _restatement().match(lowered, stop.end())
        if restated is not None:  # "my PIN, which is 5183": the value restated (blind19)
            end = min(len(t), restated.end() + _WINDOW)
            stop = _END.search(t, restated.end(), end)
            # Read from the restating words, as after a copula ("passcode, aka 1945").
            spans.append((restated.end(), stop.start() if stop else end))
        cue = m.group(0)
        if c.identifier.fullmatch(cue) is not None:
            category = "government_id" if any(g in cue for g in _GOVERNMENT) else "financial"
            level, rule = _REGULATED, "cued_identifier"
        else:
            level, rule, category = _SECRET, "cued_credential", None
        for lo, hi in spans:
            for start, stop_at in _values(t, lo, hi, c.counts, level is _REGULATED):
                yield (level, rule, start, stop_at, category)


def _values(
    t: str, lo: int, hi: int, counts: frozenset[str], identifier: bool
) -> Iterator[tuple[int, int]]:
    """Spans of value-like tokens in ``t[lo:hi]``; a year is never an identifier's value, and
    a credential's only when it follows the word directly or after a copula ("PIN: 2019",
    "PIN is 2019", not "changed in 2019")."""
    taken: list[tuple[int, int]] = []
    # An amount with its currency after an identifier's word is a limit, a fee or a balance,
    # no number of the card's ("le plafond de la carte … est de 3 000 €"; blindfix22b): the
    # money rules judge whose it is.
    priced = [m.span() for m in _amount().finditer(t, lo, hi)] if identifier else []
    for d in _DIGITS.finditer(t, lo, hi):
        run = d.group(0)
        if _TIME.fullmatch(run) or clock_time(t, *d.span()):
            continue  # "14:30", "a las 0630": a time (blindfix22a)
        if any(s <= d.start() and d.end() <= e for s, e in priced):
            continue
        after = _WORD.match(t, d.end() + 1) if d.end() < hi else None
        if after is not None and t[d.end()] == " " and after.group(0).casefold() in counts:
            continue
        if identifier and MONTH_YEAR.fullmatch(run):
            continue  # "die Karte läuft 05/28 ab": an expiry, no card's number (blindfix17a)
        if (is_year(run) or _DATE.fullmatch(run)) and (
            identifier or any(w.casefold() not in _COPULAS for w in _WORD.findall(t, lo, d.start()))
        ):
            continue  # "changed it in 2019", "expires 2025-06-30": not the value
        taken.append(d.span())
        yield d.span()
    # A token that starts in the window is read whole (the window's end would cut a value in
    # groups short); a kana or CJK particle glued to it is not part of it ("キーは7XKQF-…です").
    for tok in _TOKEN.finditer(t, lo):
        if tok.start() >= hi:
            break
        if any(s <= tok.start() < e for s, e in taken):
            continue
        inner = _ASCII_CORE.search(tok.group(0))
        if inner is None:
            continue
        text = inner.group(0).rstrip(".!?")
        if _shaped(text):
            yield tok.start() + inner.start(), tok.start() + inner.start() + len(text)
