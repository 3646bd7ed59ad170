"""A server config's password directive told in a sentence (issue 29, blind15).

``config_keys`` reads ``requirepass Qiao_Mu@2023!!`` pasted as a setting; in chat the directive
is also told with a copula or a possessive between it and its value ("我的 redis requirepass 是
…", "redis の masterauth は …", "o requirepass do redis é …"). A directive's value is taken only
when it is shaped like a password (a digit, a symbol or an inner capital), so "requirepass
fica no redis.conf" or the docs' "foobared" are not. The directive names are the ``space_keys``
of ``data/config_keys.yaml``; a pgbouncer ``userlist.txt`` line (``"user" "password"``) is read
here too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from userlore.policy.detectors.common import _Hit, _is_placeholder
from userlore.policy.findings import _SECRET

__all__ = ["password_shaped", "told_directives"]

_VALUE_CHARS = r"[^\s,;'\"<>()\[\]{}，。、「」]{4,200}"
# After the directive: its owner ("do redis", "de redis"), then a copula, then the value.
_TOLD = re.compile(
    r"(?:\s+(?:do|da|de|del|du|of|von|der|des)\s+[\w.-]{2,20})?"
    r"\s*(?:是|为|為|は|が|も|:|=|\s(?:é|es|est|ist|is|era|war|was)\s)\s*"
    rf"(?P<value>{_VALUE_CHARS})"
)
# A pgbouncer userlist line: "user" "password".
_USERLIST = re.compile(r"\"[\w.@-]{1,40}\"\s+\"(?P<value>[^\"\s]{4,200})\"")
_SYMBOLS = frozenset("!@#$%^&*+?~=|")


def password_shaped(value: str) -> bool:
    """A directive's value that reads as a password: a digit, a symbol or an inner capital,
    in a Latin-script token that is not a stand-in ("foobared", "<your-password>")."""
    v = value.strip("\"'")
    if len(v) < 4 or not v.isascii() or _is_placeholder(v) or v.startswith(("/", "./", "~/")):
        return False
    return (
        any(c.isdigit() for c in v)
        or any(c in _SYMBOLS for c in v)
        or any(c.isupper() for c in v[1:])
    )


def told_directives(t: str, lowered: str, directives: frozenset[str]) -> Iterator[_Hit]:
    """Secret hits for the values of ``directives`` told with a copula (see the module
    docstring), and for a pgbouncer userlist line's password."""
    for name in directives:
        start = 0
        while (i := lowered.find(name, start)) >= 0:
            start = i + len(name)
            if i and (lowered[i - 1].isalnum() or lowered[i - 1] == "_"):
                continue
            if start < len(t) and (t[start].isalnum() or t[start] == "_"):
                continue
            m = _TOLD.match(t, start)
            if m is not None and password_shaped(m.group("value")):
                value = m.group("value").rstrip(".")
                yield (
                    _SECRET,
                    "setting_value",
                    m.start("value"),
                    m.start("value") + len(value),
                    None,
                )
    if "userlist" in lowered:
        for m in _USERLIST.finditer(t):
            if password_shaped(m.group("value")):
                yield (_SECRET, "setting_value", *m.span("value"), None)
