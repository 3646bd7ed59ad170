"""The password field of a format that carries one by position or by a one-letter name: a Wi-Fi
QR payload's ``P:`` and a ``.pgpass`` line's fifth field (issue 29, blind14).

URIs (``mysql://u:p@``, ``smb://``), connection strings (``Password=``), ``otpauth://…secret=``
and ``.netrc``'s ``password`` were read already, by their keys; these two formats name the
field with no key word a rule reads: ``WIFI:T:WPA;S:<ssid>;P:<password>;;`` (the QR a router
prints, ``;``, ``,``, ``:`` and ``\\`` escaped by a backslash) and
``host:port:database:user:password``. Not a value: an empty field, an open network
(``T:nopass``), a docs stand-in (``<password>``, ``password``), or a line whose port is a word
("hostname:port:database:username:password" is the format, not a line).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.detectors.common import _Hit, _is_placeholder
from userlore.policy.findings import _SECRET

__all__ = ["password_fields"]

RULE: Final = "password_field"

_WIFI = re.compile(r"WIFI:((?:\\.|[^\\\n])*?);;", re.IGNORECASE)
_WIFI_P = re.compile(r"(?:^|;)P:((?:\\.|[^;\\])+)")
# host:port:database:user:password; the host has a letter, a dot or is "*", the port is digits
# or "*" (a time "10:30:00:00" has no host). The floor reads a text with its host and port
# blanked as public material (``detectors/public_material.py``): a blank run stands for them.
_PGPASS = re.compile(
    r"(?:(?<![\w:/.@-])(?=[\w.\-]*[A-Za-z.]|\*)(?:[\w.\-]+|\*):(?:\d{1,5}|\*)"
    r"|(?<=\s\s)(?:\d{1,5}|\*)?)"
    r":(?:[\w.\-]+|\*):(?:[\w.\-@]+|\*):(?P<pw>[^\s:]+)"
)
_TRAILING: Final = ".,;)\"'"
_STAND_INS: Final = frozenset({"password", "passwd", "pass", "pwd", "secret"})


def password_fields(t: str) -> Iterator[_Hit]:
    """Secret hits for the password of each Wi-Fi QR payload and ``.pgpass`` line in ``t``."""
    if "WIFI:" in t.upper():
        for m in _WIFI.finditer(t):
            body = m.group(1)
            if re.search(r"(?:^|;)T:nopass(?:;|$)", body, re.IGNORECASE):
                continue
            p = _WIFI_P.search(body)
            if p is not None and _is_value(p.group(1)):
                start = m.start(1) + p.start(1)
                yield (_SECRET, RULE, start, start + len(p.group(1)), None)
    if t.count(":") >= 3:
        for m in _PGPASS.finditer(t):
            value = m.group("pw").rstrip(_TRAILING)
            if _is_value(value):
                yield (_SECRET, RULE, m.start("pw"), m.start("pw") + len(value), None)


def _is_value(value: str) -> bool:
    return bool(value) and value.casefold() not in _STAND_INS and not _is_placeholder(value)
