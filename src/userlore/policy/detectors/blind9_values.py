"""blind9's covered value classes, run after every other rule of the floor (issue 29, blindfix9a).

blind9, written without reading the rules, stored values the gate had withheld: a list of
backup codes under its title, a recovery key in dashed groups, a bank's mTAN, a card's security
code in the sentence after the card, an alarm's safe word in quotes, a changed password given
in the next sentence, a sort code or a branch number beside the account, and the bare numbers of
a salary negotiation. Each class reads its words from ``data/blind9_values.yaml`` (adding a
language is data); every rule sits behind a literal gate of those words. Where a rule before
these already names a span, its verdict and name stand.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final

import yaml  # type: ignore[import-untyped]

from userlore.policy.cue_data import alternation, cues, flat
from userlore.policy.detectors.common import _Hit, is_year
from userlore.policy.detectors.cued_values import _shaped
from userlore.policy.detectors.money import _others_money
from userlore.policy.findings import _BLOCKING, _REGULATED, _SECRET, SensitivityLevel
from userlore.policy.literal_gate import LiteralGate

__all__ = ["blind9_values"]

_SECTIONS: Final = (
    "code_lists",
    "key_words",
    "one_time",
    "card_checks",
    "said_words",
    "later_openers",
    "branches",
    "accounts",
    "negotiation",
    "pay",
)


@dataclass(frozen=True, slots=True)
class _Words:
    """One section's words: a cheap gate and the pattern that finds them."""

    gate: LiteralGate
    pattern: re.Pattern[str]

    def find(self, lowered: str) -> list[re.Match[str]]:
        return list(self.pattern.finditer(lowered)) if self.gate.search(lowered) else []


@functools.cache
def _data() -> dict[str, _Words]:
    raw: dict[str, Any] = yaml.safe_load(
        resources.files("userlore.policy.data").joinpath("blind9_values.yaml").read_text("utf-8")
    )
    out = {}
    for name in _SECTIONS:
        terms = flat(raw[name])
        out[name] = _Words(LiteralGate(t.strip("*") for t in terms), re.compile(alternation(terms)))
    return out


@functools.cache
def _any_word() -> LiteralGate:
    raw: dict[str, Any] = yaml.safe_load(
        resources.files("userlore.policy.data").joinpath("blind9_values.yaml").read_text("utf-8")
    )
    # The words a rule starts from; accounts, pay words and "now" only count beside one.
    primary = [n for n in _SECTIONS if n not in ("accounts", "pay", "later_openers")]
    words = [t.strip("*") for name in primary for t in flat(raw[name])]
    return LiteralGate([*words, *_PASSWORD_LITERALS])


_MARKER = re.compile(r"\[redacted:[\w-]+\]")
_ANY_DIGIT = re.compile(r"\d")
_OPENING_QUOTE = re.compile(r"[«\"„“「『]|(?:^|[\s:=])['‘]")


def blind9_values(t: str, lowered: str, hits: list[_Hit]) -> list[_Hit]:
    """The hits of blind9's classes in ``t`` that no blocking hit in ``hits`` already covers."""
    if len(lowered) != len(t):
        return []
    digits = _ANY_DIGIT.search(t) is not None
    # Every rule but the quoted word's needs a digit; that one needs an opening quote.
    if not digits and _OPENING_QUOTE.search(t) is None:
        return []
    if not _any_word().search(lowered):
        return []
    if "[redacted:" in lowered:  # a re-check: a rule's name in a marker is no cue
        lowered = _MARKER.sub(lambda m: " " * len(m.group(0)), lowered)
    d = _data()
    found: list[_Hit] = []
    if digits:
        found += _code_lists(t, d["code_lists"].find(lowered))
        found += _dashed_keys(t, lowered, d)
        found += _after(t, d["one_time"].find(lowered), 4, 8, _SECRET, "one_time_value")
        found += _after(t, d["card_checks"].find(lowered), 3, 4, _REGULATED, "check_digits")
        found += _bank_pairs(t, lowered, d)
        found += _negotiation(t, lowered, d)
        found += _later_values(t, lowered, d)
    found += _said_words(t, lowered, d["said_words"].find(lowered))
    if not found:
        return []
    named = [(h[2], h[3]) for h in hits if h[0] in _BLOCKING]
    return [h for h in found if not any(s < h[3] and h[2] < e for s, e in named)]


def _starting(pattern: re.Pattern[str], t: str, lo: int, reach: int) -> Iterator[re.Match[str]]:
    """Matches of ``pattern`` that start within ``reach`` characters of ``lo``; a match may run
    past that end (an end position would cut a value short, and redact only part of it)."""
    for m in pattern.finditer(t, lo):
        if m.start() >= lo + reach:
            return
        yield m


# -- codes ---------------------------------------------------------------------------------------

# An item of a code list: one or two groups of four to ten letters and digits (four digits or
# more, checked below).
_LIST_ITEM = re.compile(r"(?<![\w\-])[A-Za-z0-9]{4,10}(?:[ \-][A-Za-z0-9]{4,10})?(?![\w\-])")
_LIST_REACH: Final = 400


def _code_lists(t: str, titles: list[re.Match[str]]) -> Iterator[_Hit]:
    """Every item with digits in the stretch after a code list's title."""
    for title in titles:
        for m in _starting(_LIST_ITEM, t, title.end(), _LIST_REACH):
            if sum(ch.isdigit() for ch in m.group(0)) >= 4:
                yield (_SECRET, "backup_list", m.start(), m.end(), None)


_DASHED = re.compile(r"(?<![\w\-])[A-Za-z0-9]{4,6}(?:-[A-Za-z0-9]{4,6}){3,7}(?![\w\-])")


def _dashed_keys(t: str, lowered: str, d: dict[str, _Words]) -> Iterator[_Hit]:
    """A key in four or more dashed groups of letters and digits in a text naming a key."""
    if "-" not in t or not d["key_words"].find(lowered):
        return
    for m in _DASHED.finditer(t):
        run = m.group(0)
        if sum(ch.isdigit() for ch in run) >= 2 and sum(ch.isalpha() for ch in run) >= 2:
            yield (_SECRET, "dashed_groups", m.start(), m.end(), None)


# Digits set off from Latin letters (a CJK particle may touch them: "セキュリティコードは218").
_DIGIT_RUN = re.compile(r"(?<![A-Za-z0-9_.,/:\-])\d+(?![A-Za-z0-9_%/:]|[.,]\d)")
_REACH: Final = 40


def _after(
    t: str, found: list[re.Match[str]], least: int, most: int, level: SensitivityLevel, rule: str
) -> Iterator[_Hit]:
    """A run of ``least`` to ``most`` digits shortly after a cue, not a count or a year."""
    counts = cues().counts
    for cue in found:
        for m in _starting(_DIGIT_RUN, t, cue.end(), _REACH):
            run = m.group(0)
            if not least <= len(run) <= most or is_year(run):
                continue
            after = t[m.end() : m.end() + 12].strip().split(" ")[0].casefold()
            if after in counts:
                continue
            yield (level, rule, m.start(), m.end(), "financial" if level is _REGULATED else None)
            break


# A quoted word that opens after a space, a colon or a CJK copula, never inside code
# (``os.environ["PW"]``) or a marker.
_QUOTED_WORD = re.compile(
    r"(?:(?<=[\s:：=は是])|^)[«\"'„“‘「『]\s?([^\s«»\"'„“”‘’「」『』\[\]]{2,30})\s?[»\"'“”’」』]"
)


def _said_words(t: str, lowered: str, found: list[re.Match[str]]) -> Iterator[_Hit]:
    """A single quoted word shortly after a safe word's, a code word's or a password's cue."""
    if not found:
        return
    excluded = [m.span() for m in cues().not_credential_scan.finditer(lowered)]
    for cue in found:
        if any(s <= cue.start() < e for s, e in excluded):
            continue
        m = next(_starting(_QUOTED_WORD, t, cue.end(), _REACH), None)
        if m is not None and not m.group(1).startswith("[REDACTED"):
            yield (_SECRET, "said_word", m.start(1), m.end(1), None)


_PASSWORD_LITERALS: Final = (
    "password", "passwort", "kennwort", "contraseña", "contrasena", "clave", "mot de passe",
    "mdp", "senha", "パスワード", "密码",
)  # fmt: skip
_PASSWORD_WORDS = re.compile("|".join(_PASSWORD_LITERALS))
_TOKEN = re.compile(r"[^\s,;:()\"'“”«»「」。、]+")
_LATER_REACH: Final = 160


def _later_values(t: str, lowered: str, d: dict[str, _Words]) -> Iterator[_Hit]:
    """A changed password's new value in a later sentence: the token after "now"/"ahora es"."""
    cue = _PASSWORD_WORDS.search(lowered)
    if cue is None:
        return
    for opener in d["later_openers"].find(lowered[cue.end() : cue.end() + _LATER_REACH]):
        start = cue.end() + opener.end()
        tok = next(_starting(_TOKEN, t, start, 24), None)
        if tok is None:
            continue
        value = tok.group(0).rstrip(".!?")
        between = t[start : tok.start()].strip().casefold()
        if len(between) <= 8 and _shaped(value):
            yield (_SECRET, "later_value", tok.start(), tok.start() + len(value), None)


# -- bank details ------------------------------------------------------------------------------

_VALUE_GAP = re.compile(r"[\s\"':=：、,]{0,6}(?:no\.?\s*|n[º°]\.?\s*)?")
_BRANCH_VALUE = re.compile(r"\d{2,8}(?:[ \-]\d{1,8}){0,2}(?![\w])")
_ACCOUNT_VALUE = re.compile(r"\d[\d \-]{4,22}\d(?![\w])")


def _bank_pairs(t: str, lowered: str, d: dict[str, _Words]) -> Iterator[_Hit]:
    """A branch or sort code and the account beside it, when the text names both."""
    branches = d["branches"].find(lowered)
    if not branches:
        return
    accounts = d["accounts"].find(lowered)
    if not accounts:
        return
    for cue, rule, pattern, least in (
        *((b, "bank_branch", _BRANCH_VALUE, 3) for b in branches),
        *((a, "bank_account", _ACCOUNT_VALUE, 6) for a in accounts),
    ):
        pos = _VALUE_GAP.match(t, cue.end())
        m = pattern.match(t, pos.end() if pos else cue.end())
        if m is not None and sum(ch.isdigit() for ch in m.group(0)) >= least:
            yield (_REGULATED, rule, m.start(), m.end(), "financial")


# -- a salary negotiation ---------------------------------------------------------------------

_AMOUNT = re.compile(
    r"(?<![A-Za-z0-9_.,/:\-])(?:\d{1,3}(?:[.,]\d{3})+|\d{1,7})(?:[.,]\d{1,2})?"
    r"(?:\s?(?:k|K|mil|tsd|万|千)(?![A-Za-z]))?(?![A-Za-z0-9_%:/]|[.,]\d)"
)
_SUFFIXED = re.compile(r"\s?(?:k|K|mil|tsd|万|千)$")


def _negotiation(t: str, lowered: str, d: dict[str, _Words]) -> Iterator[_Hit]:
    """Every amount of a salary negotiation that is the user's: two or more of them, with a
    negotiation word and a pay word (or a "k"/"mil"/"万" amount)."""
    if not d["negotiation"].find(lowered):
        return
    amounts = [
        m
        for m in _AMOUNT.finditer(t)
        if not is_year(m.group(0))
        and (len(m.group(0)) >= 2 or _SUFFIXED.search(m.group(0)) is not None)
        and (_SUFFIXED.search(m.group(0)) or sum(ch.isdigit() for ch in m.group(0)) >= 2)
    ]
    if len(amounts) < 2:
        return
    suffixed = any(_SUFFIXED.search(m.group(0)) for m in amounts)
    if not suffixed and not d["pay"].find(lowered):
        return
    if _others_money(t, cues()):
        return
    for m in amounts:
        yield (_REGULATED, "financial_figure", m.start(), m.end(), "financial")
