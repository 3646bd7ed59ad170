"""A credential's value said apart from its word: a quoted safe word or code word, a changed
password's new value in a later sentence (issue 29, blindfix9a).

blind9 stored an alarm's safe word in quotes ("the safe word is 'Tangerine'") and a password
given after it was changed ("… la cambié ayer. Ahora es Tomillo.2025"). Words in
``data/credential_words.yaml``; the password words of the later sentence are below.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.cue_data import cues
from userlore.policy.detectors.common import _Hit
from userlore.policy.detectors.cue_sections import gate_words, sections, starting
from userlore.policy.detectors.cued_values import _shaped
from userlore.policy.findings import _SECRET

__all__ = ["continued_values", "gate_terms", "later_values", "quoted_words"]

_FILE: Final = "credential_words.yaml"
_SECTIONS: Final = ("said_words", "later_openers", "part_openers")


_PASSWORD_LITERALS: Final = (
    "password", "passwort", "kennwort", "contraseña", "contrasena", "clave", "mot de passe",
    "mdp", "senha", "パスワード", "密码",
)  # fmt: skip
_PASSWORD_WORDS = re.compile("|".join(_PASSWORD_LITERALS))
# A secret told in parts opens with one of these too (the continuation rule below).
_CONTINUED_LITERALS: Final = (
    "passphrase", "phrase de passe", "code", "clé", "key", "pin", "暗証", "口令",
)  # fmt: skip


def gate_terms() -> list[str]:
    """The words either rule starts from (for the late hook's shared gate); "now" counts only
    beside a password word."""
    return [*gate_words(_FILE, ("said_words",)), *_PASSWORD_LITERALS, *_CONTINUED_LITERALS]


_REACH: Final = 40
# A quoted word that opens after a space, a colon or a CJK copula, never inside code
# (``os.environ["PW"]``) or a marker.
_QUOTED_WORD = re.compile(
    r"(?:(?<=[\s:：=は是])|^)[«\"'„“‘「『]\s?([^\s«»\"'„“”‘’「」『』\[\]]{2,30})\s?[»\"'“”’」』]"
)


def quoted_words(t: str, lowered: str) -> Iterator[_Hit]:
    """A single quoted word shortly after a safe word's, a code word's or a password's cue."""
    found = sections(_FILE, _SECTIONS)["said_words"].find(lowered)
    if not found:
        return
    excluded = [m.span() for m in cues().not_credential_scan.finditer(lowered)]
    for cue in found:
        if any(s <= cue.start() < e for s, e in excluded):
            continue
        m = next(starting(_QUOTED_WORD, t, cue.end(), _REACH), None)
        if m is not None and not m.group(1).startswith("[REDACTED"):
            yield (_SECRET, "said_word", m.start(1), m.end(1), None)


_TOKEN = re.compile(r"[^\s,;:()\"'“”«»「」。、]+")
_LATER_REACH: Final = 160


def later_values(t: str, lowered: str) -> Iterator[_Hit]:
    """A changed password's new value in a later sentence: the token after "now"/"ahora es"."""
    cue = _PASSWORD_WORDS.search(lowered)
    if cue is None:
        return
    openers = sections(_FILE, _SECTIONS)["later_openers"]
    for opener in openers.find(lowered[cue.end() : cue.end() + _LATER_REACH]):
        start = cue.end() + opener.end()
        tok = next(starting(_TOKEN, t, start, 24), None)
        if tok is None:
            continue
        value = tok.group(0).rstrip(".!?")
        between = t[start : tok.start()].strip().casefold()
        if len(between) <= 8 and _shaped(value):
            yield (_SECRET, "later_value", tok.start(), tok.start() + len(value), None)


# A part's value: a quoted run, or a token holding a digit beside letters ("-42-Lundi",
# "Storm#48", "Zq9x!"); a plain word ("une", "historia") or a time ("15h") is prose, and a run
# ending in "_" or "-" is a format's prefix ("$aact_", "sk-").
_PART = re.compile(
    r"[«\"'„“‘「『]\s?([^\s«»\"'„“”‘’「」『』]{2,40})\s?[»\"'“”’」』]"
    r"|([^\s,;()\"'“”«»「」。、，；：！？（）]{3,40})"
)
_PART_TIME = re.compile(r"\d{1,2}(?:[h:.]\d{0,2})?|\d{1,2}(?:am|pm|uhr)")


def continued_values(t: str, lowered: str) -> Iterator[_Hit]:
    """A part of a secret after a part's opener ("la suite c'est", "the rest is", "后半是",
    "commence par"), within reach of a credential cue (the floor's shared reading)."""
    openers = sections(_FILE, _SECTIONS)["part_openers"]
    found = cues().credential_cues(lowered)
    if not found:
        return
    for cue in found:
        for opener in openers.find(lowered[cue.end() : cue.end() + _LATER_REACH]):
            start = cue.end() + opener.end()
            part = next(starting(_PART, t, start, 12), None)
            if part is None or t[start : part.start()].strip(" :：=,是はがes") != "":
                continue
            quoted = part.group(1) is not None
            value = part.group(1) if quoted else part.group(2).rstrip(".?。")
            if "REDACTED" in value or "[" in value:
                continue  # a re-check: a part already redacted
            if value.endswith(("_", "-")):
                continue  # "começa com $aact_", "starts with 'sk-'": a format's prefix
            if quoted or _part_shaped(value):
                lo = part.start(1) if quoted else part.start(2)
                yield (_SECRET, "secret_part", lo, lo + len(value), None)


def _part_shaped(value: str) -> bool:
    letters = any(ch.isalpha() for ch in value)
    digits = any(ch.isdigit() for ch in value)
    if _PART_TIME.fullmatch(value.casefold()):
        return False
    return letters and digits and value.isascii()
