"""Keys pasted from configs, vendors' kits and routers' labels (issue 29).

Four shapes the token rules did not read, each a class:

- a setting named for a key (``OVH_APPLICATION_KEY=…``, ``"private_key_id": "…"``) whose
  value is token-shaped: twelve characters or more, letters and digits, random-looking. The
  key rules of ``config_keys`` hold names that always carry a secret; "key" alone also names
  ``SORT_KEY`` or ``KEY_LENGTH``, so here the value must look like one too;
- a 1Password Secret Key (``A3-`` and six dashed groups; gitleaks' rule);
- a Wi-Fi key after its words (a FRITZ!Box's "WLAN-Netzwerkschlüssel" in five groups of four
  digits, a Livebox's "clé WPA" in eighteen capitals and digits): any run of eight digits or
  more in groups, or a token of eight characters or more mixing letters and digits;
- an app password or a mail authorisation code after its words: sixteen lowercase letters, or
  four groups of four (Google), which no entropy rule reads as a key.

The words are data (``data/pasted_keys.yaml``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from userlore.policy.cue_data import literal_alternation
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import (
    _IDENTIFIER_LIKE,
    _UUID,
    _char_classes,
    _entropy,
    _Hit,
    _is_placeholder,
)
from userlore.policy.detectors.config_keys import setting_key
from userlore.policy.findings import _SECRET

__all__ = ["pasted_keys"]

_ONE_PASSWORD = re.compile(
    r"(?<![\w-])A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})"
    r"-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}(?![\w-])"
)
# A setting: a key (quoted in JSON or YAML, or bare), its sign, its value.
_SETTING = re.compile(
    r"(?<![\w.\-])[\"']?(?P<key>[A-Za-z_][\w.\-]{0,60})[\"']?\s*[:=]\s*"
    r"[\"']?(?P<value>[A-Za-z0-9+/_\-]{12,128})[\"']?(?![\w+/\-])"
)
# A setting's name holding "key", then its sign: what a text needs before the settings scan.
_KEY_SIGN = re.compile(r"key[\w.\-]*[\"']?\s*[:=]")
_KEY_PARTS = re.compile(r"[_.\-]+|(?<=[a-z])(?=[A-Z])")
_WINDOW: Final = 80
_GROUPED_DIGITS = re.compile(r"(?<![\w.,])(?:\d{4,5}(?:[ \-]\d{4,5}){1,5}|\d{8,})(?![\w.,]\d|\w)")
_TOKEN = re.compile(r"(?<![\w@./\-])[A-Za-z0-9!#$%&*+?@^_~\-]{8,63}(?![\w@])")
_LETTER_CODE = re.compile(r"(?<![a-zA-Z])(?:[a-z]{16}|[a-z]{4}(?: [a-z]{4}){3})(?![a-zA-Z])")
_PAREN = re.compile(r"\s*[(（][^)）\n]{0,60}[)）]")


@dataclass(frozen=True, slots=True)
class _Words:
    wifi: re.Pattern[str]
    wifi_key: re.Pattern[str]
    app_password: re.Pattern[str]
    public_parts: frozenset[str]
    wifi_literals: tuple[str, ...]
    """What a text must hold for ``wifi`` to match (the network words and compounds)."""
    app_literals: tuple[str, ...]
    """The literals of ``app_password``: a password word or a code word."""


@functools.cache
def _words() -> _Words:
    raw: dict[str, Any] = data_yaml("pasted_keys.yaml")
    wifi = literal_alternation(raw["wifi_words"])
    key = literal_alternation(raw["wifi_key_words"])
    compounds = literal_alternation(raw["wifi_compounds"])
    return _Words(
        wifi=re.compile(
            rf"(?:{compounds})|(?<![a-z])(?:{wifi})[^\n.:：。]{{0,24}}?(?:{key})"
            rf"|(?<![a-z])(?:{key})[^\n.:：。,]{{0,24}}?(?<![a-z])(?:{wifi})"  # "clé … wifi"
        ),
        wifi_key=re.compile(key),
        app_password=re.compile(literal_alternation(raw["app_password_words"])),
        public_parts=frozenset(str(p) for p in raw["public_key_parts"]),
        wifi_literals=tuple(str(x) for x in [*raw["wifi_words"], *raw["wifi_compounds"]]),
        app_literals=(
            "pass",
            "mot de passe",
            "contrase",
            "senha",
            "パスワード",
            "授权码",
            "授權碼",
            "密码",
            "密碼",
        ),
    )


def pasted_keys(t: str, lowered: str) -> Iterator[_Hit]:
    """Every value of the four shapes (see the module docstring)."""
    if "A3-" in t:
        for m in _ONE_PASSWORD.finditer(t):
            yield (_SECRET, "1password_secret_key", m.start(), m.end(), None)
    if "key" in lowered and _KEY_SIGN.search(lowered) is not None:
        yield from _key_settings(t)
    w = _words()
    if any(word in lowered for word in w.wifi_literals):
        for cue in w.wifi.finditer(lowered):
            yield from _after(t, cue.end(), _wifi_value)
    if any(word in lowered for word in w.app_literals):
        for cue in w.app_password.finditer(lowered):
            yield from _after(t, cue.end(), _letter_code)


def _key_settings(t: str) -> Iterator[_Hit]:
    public = _words().public_parts
    for m in _SETTING.finditer(t):
        parts = [p.casefold() for p in _KEY_PARTS.split(m.group("key")) if p]
        if "key" not in parts or setting_key(m.group("key")) or public.intersection(parts):
            continue
        value = m.group("value")
        if (
            _char_classes(value) < 2
            or not any(ch.isdigit() for ch in value)
            or _entropy(value) < 3.0
            or _IDENTIFIER_LIKE.fullmatch(value)
            or _UUID.fullmatch(value)
            or _is_placeholder(value)
        ):
            continue
        yield (_SECRET, "setting_value", m.start("value"), m.end("value"), None)


def _after(t: str, start: int, read: Any) -> Iterator[_Hit]:
    """The first value ``read`` finds on the cue's line, within the window after it (a
    parenthesis between, "(steht unten auf der FRITZ!Box)", is skipped)."""
    paren = _PAREN.match(t, start)
    lo = paren.end() if paren else start
    line_end = t.find("\n", lo)
    hi = min(len(t), lo + _WINDOW, len(t) if line_end < 0 else line_end)
    span = read(t, lo, hi)
    if span is not None:
        yield (_SECRET, "pasted_key", span[0], span[1], None)


def _wifi_value(t: str, lo: int, hi: int) -> tuple[int, int] | None:
    digits = _GROUPED_DIGITS.search(t, lo, hi)
    if digits is not None:
        return digits.span()
    for m in _TOKEN.finditer(t, lo, hi):
        value = m.group(0).rstrip(".!?")
        if (
            any(ch.isdigit() for ch in value)
            and any(ch.isalpha() for ch in value)
            and len(value) >= 8
            and not _is_placeholder(value)
        ):
            return m.start(), m.start() + len(value)
    return None


def _letter_code(t: str, lo: int, hi: int) -> tuple[int, int] | None:
    m = _LETTER_CODE.search(t, lo, hi)
    if m is None or _is_placeholder(m.group(0)) or _entropy(m.group(0).replace(" ", "")) < 3.2:
        return None
    return m.span()
