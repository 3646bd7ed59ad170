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
_SECTIONS: Final = ("said_words", "later_openers", "part_openers", "ends", "after_marks")


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
    beside a password word; an end's opener or a part's mark starts the uncued reading."""
    words = gate_words(_FILE, ("said_words", "ends", "after_marks"))
    return [*words, *_PASSWORD_LITERALS, *_CONTINUED_LITERALS]


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
    r"|([^\s,;()\"'“”«»「」。、，；：！？（）\u3040-\u30ff\u3400-\u9fff]{2,40})"
)
_PART_TIME = re.compile(r"\d{1,2}(?:[h:.]\d{0,2})?|\d{1,2}(?:am|pm|uhr)")


def continued_values(t: str, lowered: str) -> Iterator[_Hit]:
    """A part of a secret after a part's opener ("la suite c'est", "the rest is", "后半是",
    "commence par", "the last 4 digits are") or before a part's mark ("Jx4q at the front"),
    within reach of a credential cue (the floor's shared reading); with no cue, a start and an
    end given as two shaped parts ("empieza con Vk9! y termina con qW3z", blindfix23a)."""
    found = sections(_FILE, _SECTIONS)
    if not found["part_openers"].gate.search(lowered) and not found["after_marks"].gate.search(
        lowered
    ):
        return
    marks = cues().credential_cues(lowered)
    if marks:
        for cue in marks:
            window = (cue.end(), cue.end() + _LATER_REACH)
            yield from (hit for hit, _ in _parts_in(t, lowered, *window))
        return
    parts = list(_parts_in(t, lowered, 0, len(t)))
    if len(parts) >= _UNCUED_PARTS and any(end for _, end in parts):
        yield from (hit for hit, _ in parts)


_UNCUED_PARTS: Final = 2
"""Shaped parts a turn with no credential cue needs, one of them an end, to be a secret's
pieces (see :func:`continued_values`)."""


def _parts_in(t: str, lowered: str, lo: int, hi: int) -> Iterator[tuple[_Hit, bool]]:
    """The shaped parts after an opener or before a mark in ``lowered[lo:hi]``, each with
    whether an end's opener or a mark named it."""
    found = sections(_FILE, _SECTIONS)
    ends = [m.span() for m in found["ends"].find(lowered[lo:hi])]
    for opener in found["part_openers"].find(lowered[lo:hi]):
        start = lo + opener.end()
        part = next(starting(_PART, t, start, 20), None)
        if part is None:
            continue
        between = t[start : part.start()].strip(" :：=,是はがes")
        counted = between != "" and _counted(between)
        if between != "" and not counted:
            continue
        hit = _part_hit(part, digits_ok=counted)
        if hit is not None:
            yield hit, opener.span() in ends
    for mark in found["after_marks"].find(lowered[lo:hi]):
        origin = max(0, lo + mark.start() - _MARK_REACH)
        m = _BEFORE_MARK.search(t[origin : lo + mark.start()].rstrip())
        if m is not None and _part_shaped(m.group(0)) and "REDACTED" not in m.group(0):
            yield (_SECRET, "secret_part", origin + m.start(), origin + m.end(), None), True


_MARK_REACH: Final = 41
_BEFORE_MARK = re.compile(
    r"[^\s,;()\"'“”«»「」。、，；：！？（）\u3040-\u30ff\u3400-\u9fff]{2,40}$"
)


def _part_hit(part: re.Match[str], *, digits_ok: bool) -> _Hit | None:
    quoted = part.group(1) is not None
    value = part.group(1) if quoted else part.group(2).rstrip(".?。")
    if "REDACTED" in value or "[" in value:
        return None  # a re-check: a part already redacted
    if value.endswith(("_", "-")):
        return None  # "começa com $aact_", "starts with 'sk-'": a format's prefix
    shaped = _part_shaped(value) or (digits_ok and value.isdigit() and len(value) >= 2)
    if not quoted and not shaped:
        return None
    lo = part.start(1) if quoted else part.start(2)
    return (_SECRET, "secret_part", lo, lo + len(value), None)


_COPULAS: Final = frozenset(
    ["are", "is", "sind", "ist", "son", "es", "sont", "est", "são", "é", "是", "は", "が"]
)
_COUNTED_REACH: Final = 20


def _counted(between: str) -> bool:
    """What stands between a part's opener and its value is a count and a copula ("the
    first" "4 digits are", "最初の" "2桁は", "the last" "four are"): the value is a part."""
    if len(between) > _COUNTED_REACH:
        return False
    folded = between.casefold()
    counts = cues().counts
    words = re.findall(r"[^\W\d_]+", folded)
    if any(w in counts for w in words) or any(u in folded for u in counts if not u.isascii()):
        return True
    return bool(words) and words[-1] in _COPULAS and len(words) <= 2


def _part_shaped(value: str) -> bool:
    letters = any(ch.isalpha() for ch in value)
    digits = any(ch.isdigit() for ch in value)
    if _PART_TIME.fullmatch(value.casefold()):
        return False
    return letters and digits and value.isascii()
