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

__all__ = ["says_what_goes_there"]


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
