"""Passwords talked about, not given (issue 29, blindfix23a).

blind23 redacted "Warum ist passwort123 eigentlich so ein schlechtes Passwort?" and withheld "Wie
setze ich in LibreOffice ein Passwort für eine PDF?": the credential rules read a value beside a
password word and are right to (recall first), but the first turn judges a weak password in
general and the second asks how to set one. Two narrow readings, both in
``data/password_talk.yaml``:

- **An example judged.** A sentence with a word that judges passwords in general ("bad",
  "schlechtes", "最常见", "弱い", "default") holds a weak-shaped token before its password word
  ("why is X a bad password?", "X 是最常见的密码") or after a plural password word and "like"
  ("passwords like letmein and admin123"). Weak-shaped: one word with at most four digits after
  it and no capital inside ("passwort123", "Summer2024", "qwerty"), two such words around a
  slash ("admin/admin"), or a run of digits that repeats or counts ("123456", "111111"). Never
  in a turn with a first-person word (``data/first_person.yaml``, the speaker's and the
  owner's words: "my", "I", "mi", "uso", "ich", "je", "j'utilise", "eu", "我", "私"): "is my
  password hunter2 strong?" names the user's own password, and it is still redacted.
- **A how-to question.** In a sentence that asks how to set, change or reset one ("how do I",
  "cómo", "wie", "comment", "como", "怎么", "方法"), a product's name is no value: a word with a
  capital inside and no digit or symbol that ``wordfreq`` knows in a covered language
  ("LibreOffice", "ThinkPad"; a passphrase "BlueOtter" is known to no list), a count joined to
  a capitalised word ("7-Zip") and a number of at most three digits after a name ("iOS 17",
  "Windows 11"). A credential-shaped value in such a question ("… the current one is
  Qv8!mz42") is read as before.

The floor drops its secret findings on such tokens (:func:`drop_talked`); the quote gate reads
its credential windows without them (:func:`blank_talked`).
"""

from __future__ import annotations

import functools
import itertools
import re
from typing import Final

from userlore.policy.cue_data import cues
from userlore.policy.detectors.common import _Hit, blank_spans
from userlore.policy.detectors.cue_sections import sections
from userlore.policy.findings import _SECRET
from userlore.policy.first_person import first_person
from userlore.policy.word_lists import COVERED_LANGUAGES, LEXICON_ZIPF, _vouch_lexicon

__all__ = ["blank_talked", "drop_talked", "talked_spans"]

_FILE: Final = "password_talk.yaml"
_SECTIONS: Final = ("judgements", "likes", "howto")
_SENTENCE = re.compile(r"[^.!?。！？\n]+[.!?。！？]*")
_LATIN = "A-Za-zÀ-ÖØ-öø-ɏ"
_NO_VALUE_EDGE = rf"{_LATIN}0-9_!@#$%^&*"
# A weak-shaped token: a word and up to four digits, two words around a slash, or digits;
# whole, never a part of "4-digit" or "l'exemple".
_WEAK = re.compile(
    rf"(?<![{_NO_VALUE_EDGE}\-'’.])(?:[{_LATIN}]+/[{_LATIN}]+|[{_LATIN}]+\d{{0,4}}|\d{{4,10}})"
    rf"(?![{_NO_VALUE_EDGE}\-'’]|\.\w)"
)
_LIKE_REACH: Final = 60
# A how-to question's names: a word with a capital inside ("LibreOffice", "iOS"), a count
# joined to a capitalised word ("7-Zip"), and a short number after a name ("iOS 17").
_CAMEL = re.compile(rf"(?<![{_NO_VALUE_EDGE}\-])[{_LATIN}]+(?![{_NO_VALUE_EDGE}\-])")
_COUNT_NAME = re.compile(rf"(?<![{_NO_VALUE_EDGE}\-])\d{{1,2}}-[A-Z][a-z]+(?![{_NO_VALUE_EDGE}\-])")
_VERSIONED = re.compile(
    rf"(?<![{_NO_VALUE_EDGE}])([{_LATIN}]+) (\d{{1,3}})(?![{_NO_VALUE_EDGE}/-]|[.,:]\d)"
)
NAME_ZIPF: Final = 2.0
"""A word with a capital inside is a product's name when ``wordfreq`` gives it this Zipf
frequency in a covered language (once in a hundred million words): "LibreOffice" 2.2-2.6,
"ThinkPad" 2.2-2.7; a passphrase of joined words ("BlueOtter") is in no list."""


def _trivial_digits(run: str) -> bool:
    """A run that repeats ("111111", "123123") or counts up or down ("123456", "987654")."""
    steps = {(int(b) - int(a)) % 10 for a, b in itertools.pairwise(run)}
    if len(steps) == 1 and steps <= {0, 1, 9}:
        return True
    return any(run == run[:n] * (len(run) // n) for n in (1, 2, 3) if len(run) % n == 0)


def _weak(token: str) -> bool:
    if token.isdigit():
        return _trivial_digits(token)
    if token.isalpha() and _frequent(token):
        return False  # a word of the sentence ("safe", "set"), not an example ("letmein")
    letters = token.rstrip("0123456789")
    return all(not ch.isupper() for part in letters.split("/") for ch in part[1:])


def _examples(sentence: str, base: int, lowered: str) -> list[tuple[int, int]]:
    found = sections(_FILE, _SECTIONS)
    likes = found["likes"].find(lowered)
    if not likes and not found["judgements"].find(lowered):
        return []
    marks = cues().credential_cues(lowered)
    last_cue = max((m.start() for m in marks), default=-1)
    out: list[tuple[int, int]] = []
    for m in _WEAK.finditer(sentence):
        if any(c.start() < m.end() and m.start() < c.end() for c in marks):
            continue  # the password word itself
        after_like = any(0 <= m.start() - lk.end() <= _LIKE_REACH for lk in likes)
        if (m.start() < last_cue or after_like) and _weak(m.group(0)):
            out.append((base + m.start(), base + m.end()))
    return out


@functools.lru_cache(maxsize=4_096)
def _known_name(word: str, zipf: float = NAME_ZIPF) -> bool:
    folded = word.casefold()
    for language in COVERED_LANGUAGES:
        lexicon = _vouch_lexicon(language)  # the Latin-script ones
        if lexicon is not None and lexicon.get(folded, 0.0) >= zipf:
            return True
    return False


def _frequent(word: str) -> bool:
    """A frequent word of a covered language (:data:`LEXICON_ZIPF`)."""
    return _known_name(word, LEXICON_ZIPF)


def _camel(word: str) -> bool:
    return any(ch.isupper() for ch in word[1:]) and any(ch.islower() for ch in word)


def _names(sentence: str, base: int, lowered: str) -> list[tuple[int, int]]:
    if not sections(_FILE, _SECTIONS)["howto"].find(lowered):
        return []
    marks = [m.span() for m in cues().credential_cues(lowered)]
    out = [
        (base + m.start(), base + m.end())
        for m in _CAMEL.finditer(sentence)
        if _camel(m.group(0)) and _known_name(m.group(0))
    ]
    out.extend((base + m.start(), base + m.end()) for m in _COUNT_NAME.finditer(sentence))
    for m in _VERSIONED.finditer(sentence):
        name = m.group(1)
        named = name[0].isupper() or _camel(name)
        if named and not any(s < m.end(1) and m.start(1) < e for s, e in marks):
            out.append((base + m.start(2), base + m.end(2)))  # "iOS 17", not "PIN 482"
    return out


@functools.lru_cache(maxsize=1_024)
def talked_spans(text: str) -> tuple[tuple[int, int], ...]:
    """The spans of ``text`` that name a password talked about, not given (see the module)."""
    gate = sections(_FILE, _SECTIONS)
    lowered_text = text.casefold()
    if not any(s.gate.search(lowered_text) for s in gate.values()):
        return ()
    selves = first_person()
    mine = selves.speaker.search(text) is not None or selves.owner.search(text) is not None
    out: list[tuple[int, int]] = []
    for m in _SENTENCE.finditer(text):
        sentence = m.group(0)
        lowered = sentence.casefold()
        if len(lowered) != len(sentence):
            continue  # a casefold that changes lengths ("ß"): spans would not map
        if not mine:
            out.extend(_examples(sentence, m.start(), lowered))
        out.extend(_names(sentence, m.start(), lowered))
    return tuple(out)


def drop_talked(t: str, hits: list[_Hit]) -> list[_Hit]:
    """``hits`` without the secrets that are only a password talked about (see the module)."""
    if not any(h[0] is _SECRET for h in hits):
        return hits
    spans = talked_spans(t)
    if not spans:
        return hits
    return [h for h in hits if not (h[0] is _SECRET and _within(t, h[2], h[3], spans))]


def _within(t: str, start: int, end: int, spans: tuple[tuple[int, int], ...]) -> bool:
    end = start + len(t[start:end].rstrip(_TRAILING))  # "mit 7-Zip?": the rule took the "?"
    return any(s <= start and end <= e for s, e in spans)


_TRAILING: Final = ".,;:!?…。，？！"


def blank_talked(text: str) -> str:
    """``text`` with the tokens of a password talked about as spaces, for the gate."""
    return blank_spans(text, talked_spans(text))
