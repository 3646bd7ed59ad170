"""A value that says, in words of a covered language, what goes there (issue 29, blind13).

``api_key: "你的密钥"``, ``password=tu-contraseña``, ``API_KEY=dein_api_schluessel``: the
docs' and templates' stand-ins that English writes ``YOUR_API_KEY`` (which
:func:`~userlore.policy.detectors.common._is_placeholder` knew). Owner words per language in
``data/placeholder_values.yaml``, with the names of what goes there ("tu_perro_firulais"
names nothing: it may be a passphrase); a value with a digit is never one ("tuMadre2019!").
"""

from __future__ import annotations

import functools
import re

from userlore.policy.cue_data import flat
from userlore.policy.data_files import data_yaml

__all__ = ["says_what_goes_there", "slot_phrase_spans"]


@functools.cache
def _owner_start() -> re.Pattern[str]:
    words = sorted(flat(data_yaml("placeholder_values.yaml")["owners"]), key=len, reverse=True)
    latin = "|".join(re.escape(w) for w in words if w.isascii())
    cjk = "|".join(re.escape(w) for w in words if not w.isascii())
    return re.compile(rf"(?:{latin})[_\-. ][^\W\d_]|(?:{cjk})\S")


@functools.cache
def _names() -> tuple[str, ...]:
    return tuple(flat(data_yaml("placeholder_values.yaml")["names"]))


def says_what_goes_there(value: str) -> bool:
    """``value`` (lower-cased) starts with an owner word, names what goes there (a key, a
    password…) and holds no digit."""
    if any(ch.isdigit() for ch in value):
        return False
    m = _owner_start().match(value)
    return m is not None and any(name in value[m.end() - 1 :] for name in _names())


# A quoted phrase, up to forty characters, between a pair of quotes of one kind.
_QUOTED_PHRASE = re.compile(
    r"\"([^\"\n]{4,40})\"|(?<![^\W_])'([^'\n]{4,40})'(?![^\W_])|“([^”\n]{4,40})”"
    r"|„([^“”\n]{4,40})[“”]|«\s?([^»\n]{4,40}?)\s?»|「([^」\n]{4,40})」|『([^』\n]{4,40})』"
)
_LATIN_WORD = re.compile(r"[^\W\d_]+")


def slot_phrase_spans(text: str) -> list[tuple[int, int]]:
    """Quoted phrases that name the field they stand in ("wifi password as "your password
    here"", "la clave … es 'pon aquí la clave'", 「パスワードは「ここにパスワードを入力」」;
    blindfix21a): a form's or a story's stand-in, no value. One is two words or more (or a CJK
    run longer than its name), holds no digit and repeats a word of ``names`` said just before
    it; "the alarm code is 'key lime pie'" repeats none, and a single quoted word is a value."""
    if not any(q in text for q in "\"'“„«「『"):
        return []
    names = _names()
    lowered = text.casefold()
    found = []
    pos = 0
    # A phrase that names no field does not hide one quoted inside it (the JSON string around
    # 「ここにパスワードを入力」): the search goes on from its opening quote.
    while (m := _QUOTED_PHRASE.search(lowered, pos)) is not None:
        pos = m.start() + 1
        inner = next(g for g in m.groups() if g is not None)
        if any(ch.isdigit() for ch in inner):
            continue
        before = lowered[max(0, m.start() - _SLOT_REACH) : m.start()]
        words = _LATIN_WORD.findall(inner)
        said = set(_LATIN_WORD.findall(before))
        # Words apart, not a setting's name joined by "_" ("private_key_id").
        phrase = len(inner.split()) >= 2
        latin = phrase and any(w in names and w in said for w in words)
        cjk = any(
            not name.isascii()
            and name in inner
            and name in before
            and len(inner.strip()) >= len(name) + 2
            for name in names
        )
        if latin or cjk:
            found.append(m.span())
            pos = m.end()
    return found


_SLOT_REACH = 60
