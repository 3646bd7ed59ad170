"""Special-category statements the speaker shares with someone (issue 29, blindfix11b).

"My wife and I both voted Green", "我和我老公都是穆斯林", "eu e a minha esposa somos filiados
ao PSOL": the subject names another person, but it includes the speaker, so the fact is the
speaker's too. "My sister is gay, and so am I", "Mi hermano es gay y yo también", "兄はゲイで、
私もです": the fact is told of someone else, then the speaker joins it. Attribution
(:mod:`.special_lang`) reads the nearest person word before a cue, and both read as someone
else's; this module's one question, asked only of a cue that attribution gave to no one or to
someone else, is whether the speaker shares it. A statement about "they" is never the speaker's.

The forms are data (``policy/data/special_shared.yaml``), per language of ``special/<lang>.json``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Final

from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.special_lang_vocab import _Language

__all__ = ["shared_with_the_speaker"]

_REACH: Final = 6  # words (twice as many characters unspaced) from the shared subject to the cue
_UNSPACED: Final = frozenset({"zh", "ja"})
_TOPIC_AFTER: Final = 2  # characters between a cue and a topic word that makes it one ("の歴史")
# Marker kinds that stop a shared subject from reaching the cue: someone else named after it
# ("we visited my sister, who is gay"), a topic ("we read about Islam"), a denial, a profession.
_STOPS: Final = frozenset({"other", "topic", "negation", "profession"})


@dataclass(frozen=True, slots=True)
class _Forms:
    """One language's forms (see ``policy/data/special_shared.yaml``)."""

    with_me: re.Pattern[str] | None
    me_too: re.Pattern[str] | None
    closes: re.Pattern[str] | None = None
    topic_after_other: re.Pattern[str] | None = None
    subject_before_cue: re.Pattern[str] | None = None
    cause_after: re.Pattern[str] | None = None
    bodies: re.Pattern[str] | None = None


def _alt(forms: list[str], *, spaced: bool) -> re.Pattern[str] | None:
    alt = "|".join(f"(?:{f})" for f in forms)
    if alt and spaced:
        alt = r"(?<!\w)(?:" + alt + r")(?!\w)"
    return re.compile(alt, re.IGNORECASE) if alt else None


def _cause_after(words: str | None, *, spaced: bool) -> re.Pattern[str] | None:
    if not words:
        return None
    edge = r"(?!\w)" if spaced else ""
    return re.compile(r"[\s\-]{0,2}(?:" + words + ")" + edge, re.IGNORECASE)


@cache
def _forms() -> dict[str, _Forms]:
    """Per language: its forms, compiled once."""
    out: dict[str, _Forms] = {}
    for code, entry in data_yaml("special_shared.yaml").items():
        spaced = code not in _UNSPACED
        unsaid = entry.get("unsaid_subject") or {}
        out[code] = _Forms(
            _alt(entry.get("with_me") or [], spaced=spaced),
            _alt(entry.get("me_too") or [], spaced=spaced),
            **{
                k: re.compile(unsaid[k]) if k in unsaid else None
                for k in ("closes", "topic_after_other", "subject_before_cue")
            },
            cause_after=_cause_after(entry.get("cause_after"), spaced=spaced),
            bodies=_alt([entry["bodies"]], spaced=spaced) if entry.get("bodies") else None,
        )
    return out


def shared_with_the_speaker(
    lang: _Language, t: str, s: int, e: int, start: int, end: int, after_end: int
) -> bool:
    """Whether the cue ``t[start:end]`` (sentence ``t[s:e]``) is shared by the speaker: a
    subject including the speaker reaches it, or the speaker joins it after it (up to
    ``after_end``, the end of the next sentence: "My dad is in the Labour Party. Me too.")."""
    forms = _forms().get(lang.code)
    if forms is None:
        return False
    joint = forms.with_me.search(t, s, start) if forms.with_me is not None else None
    joins = forms.me_too.search(t, end, after_end) if forms.me_too is not None else None
    closed = forms.closes is not None and forms.closes.match(t, end) is not None
    if joint is None and joins is None and not closed:
        return False  # none of the forms: no markers to read (issue 30: the floor's cost)
    kinds = [(m.lastgroup, m.start(), m.end()) for m in lang.markers.finditer(t, s, e)]
    if any(
        k == "profession" or (k == "topic" and (b <= start or 0 <= a - end <= _TOPIC_AFTER))
        for k, a, b in kinds
    ):
        return False  # "we read about Islam", "伊斯兰教的历史", "we're nurses and treat HIV"
    if forms.cause_after is not None and forms.cause_after.match(t, end):
        return False  # "work we still have to do for LGBTQ rights": a cause, not a fact
    if (
        joint is not None
        and forms.with_me is not None
        # "we're a Catholic school", "我们医院治疗糖尿病患者": "we" is a body, the cue its
        and not (forms.bodies and _beside_body(forms.bodies, t, s, e, start, end, lang.spaced))
    ):
        for m in forms.with_me.finditer(t, joint.start(), start):
            gap = t[m.end() : start]
            reach = len(gap.split()) if lang.spaced else len(gap) // 2
            if reach <= _REACH and not any(
                k in _STOPS and m.end() <= a and b <= start for k, a, b in kinds
            ):
                return True
    if joins is not None:
        return True
    return closed and _unsaid_subject(forms, t, kinds, start, end)


_BODY_REACH: Final = 2  # words (twice as many characters unspaced) between a body and its cue


def _beside_body(
    bodies: re.Pattern[str], t: str, s: int, e: int, start: int, end: int, spaced: bool
) -> bool:
    """Whether an organisation's noun stands beside the cue ``t[start:end]`` in its sentence
    (``bodies`` in ``special_shared.yaml``), before or after it."""
    for m in bodies.finditer(t, s, e):
        if m.end() <= start:
            gap = t[m.end() : start]
        elif m.start() >= end:
            gap = t[end : m.start()]
        else:
            return True
        reach = len(gap.split()) if spaced else len(gap.strip()) // 2
        if reach <= _BODY_REACH:
            return True
    return False


def _unsaid_subject(
    forms: _Forms, t: str, kinds: list[tuple[str | None, int, int]], start: int, end: int
) -> bool:
    """A cue closed by a copula (the caller checked it) with no subject of its own is the
    speaker's ("会社で言えないゲイです"), unless someone else is the sentence's topic
    ("兄は…ゲイです") or the cue's subject ("妹がゲイです"). Someone named on the way
    ("彼氏がいるって…") is not."""
    for kind, _, b in kinds:
        if kind != "other" or b > start:
            continue
        if forms.topic_after_other is not None and forms.topic_after_other.match(t, b):
            return False
        subject = forms.subject_before_cue.match(t, b) if forms.subject_before_cue else None
        if subject is not None and subject.end() >= start:
            return False
    return True
