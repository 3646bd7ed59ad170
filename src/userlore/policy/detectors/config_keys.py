"""Secrets pasted as settings: ``key=value`` in logs, ``.env`` files and configs (issue 29,
blindfix8a).

blind8 pasted ``requirepass=Qwe!2024redis`` inside a Redis log line and a Mercado Pago token
``APP_USR-…`` from an ``.env``; the floor's token rules know vendors by their prefix and
passwords by a word in prose, and neither read them. The class is the key's name: a setting
whose name holds a credential word (detect-secrets' KeywordDetector denylist, maintained
upstream, plus the words of ``data/config_keys.yaml``) has a secret for its value, unless
the name says it is a setting about the credential ("password_min_length", "token_ttl",
"password_file") or the value is a placeholder. Beside a credential cue, a token that starts
with a vendor's prefix and runs on in dashed groups of digits and hex ("APP_USR-552…-1204…-a9f3…")
is a secret too, whoever issued it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from userlore.policy.built_tables import built_table
from userlore.policy.cue_data import cues
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit, _is_placeholder, has_digit
from userlore.policy.detectors.config_directives import password_shaped, told_directives
from userlore.policy.findings import _SECRET

__all__ = ["config_secrets", "credential_words", "setting_key"]

# A key, its sign and its value: a quoted string or a run up to a space or a separator.
_KEY: Final = (
    r"(?<![\w.\-{$])(?P<key>[A-Za-z_\u3040-\u30ff\u4e00-\u9fff]"
    r"[\w.\-\u3040-\u30ff\u4e00-\u9fff]{1,60})"
)
_SIGN: Final = r"\s?[=:]\s?"
_VALUE: Final = r"(?P<value>\"[^\"\n]{1,200}\"|'[^'\n]{1,200}'|[^\s,;'\"<>()\[\]{}]{1,200})"
_ASSIGNED = re.compile(rf"{_KEY}(?P<sign>{_SIGN}|\s){_VALUE}")
# The same with a sign only, for a text where no key joined by a bare space can be read (no
# space key in its casefold): there every bare-space match is passed over, and none hides a
# signed one (a key is the longest run of key characters where it starts, so a start holds a
# signed match exactly when the sign's branch matches there; inside a key or at its space no
# key starts). Prose with a colon otherwise tried every pair of words (issue 30).
_SIGNED = re.compile(rf"{_KEY}(?P<sign>{_SIGN}){_VALUE}")
_PARTS = re.compile(r"[_.\-]+|(?<=[a-z])(?=[A-Z])")
# A vendor's token: a prefix of letters, then dashed groups of letters and digits.
_PREFIXED = re.compile(
    r"(?<![\w-])[A-Za-z]{2,10}(?:_[A-Za-z]{2,10})?-(?:[A-Za-z0-9]+-){1,6}[A-Za-z0-9]+(?![\w-])"
)
_CUE_BEFORE: Final = 80


@dataclass(frozen=True, slots=True)
class _Keys:
    denylist: re.Pattern[str]
    space_keys: frozenset[str]
    settings: frozenset[str]
    not_values: frozenset[str]


@built_table("config_keys.denylist")
def _denylist() -> tuple[str, ...]:
    """detect-secrets' KeywordDetector denylist (regex fragments): stored, since importing
    detect-secrets costs a new process ~0.2 s of CPU."""
    from detect_secrets.plugins.keyword import DENYLIST

    return tuple(str(w) for w in DENYLIST)


@functools.cache
def _keys() -> _Keys:
    raw: dict[str, Any] = data_yaml("config_keys.yaml")
    words = [*_denylist()] + [re.escape(str(w)) for w in raw["key_words"]]
    return _Keys(
        denylist=re.compile("|".join(words)),
        space_keys=frozenset(str(k) for k in raw["space_keys"]),
        settings=frozenset(str(p) for p in raw["setting_parts"]),
        not_values=frozenset(str(v) for v in raw["not_values"]),
    )


def setting_key(key: str) -> bool:
    """A key about a credential rather than holding one: "password_min_length", "token_ttl",
    "max_password_age", "password_file" (a part of its name from ``setting_parts``)."""
    parts = [p.casefold() for p in _PARTS.split(key) if p]
    k = _keys()
    return any(p in k.settings for p in parts)


def credential_words(key: str) -> bool:
    """A key whose name holds a credential word (detect-secrets' denylist, or ours)."""
    return _keys().denylist.search(key.casefold()) is not None


def _credential_key(key: str) -> bool:
    return credential_words(key) and not setting_key(key)


_REFERENCE = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_CODE_WORDS: Final = frozenset(
    {"await", "new", "function", "lambda", "getpass", "input", "self", "this", "env", "os"}
)


def _code(t: str, end: int, value: str) -> bool:
    """The value is code, not a secret: a call or an index follows it (``token = await
    getToken()``, ``password = os.environ["PW"]``), a dotted name, a keyword, or a shell
    default (``${DB_PASSWORD:?missing}``)."""
    return (
        t[end : end + 1] in ("(", "[")
        or _REFERENCE.fullmatch(value) is not None
        or value.casefold() in _CODE_WORDS
        or value[:1] in "?-"
    )


def config_secrets(t: str, lowered: str) -> Iterator[_Hit]:
    """The value of every setting whose key names a credential, and vendor-prefixed tokens
    beside a credential cue (see the module docstring)."""
    k = _keys()
    if "=" in t or ":" in t or any(s in lowered for s in k.space_keys):
        folded = t.casefold()  # a key's casefold is a piece of the text's
        assigned = _ASSIGNED if any(s in folded for s in k.space_keys) else _SIGNED
        pos = 0
        while (m := assigned.search(t, pos)) is not None:
            pos = m.start("value")  # the value may itself be a key ("failed: requirepass=…")
            key, sign, value = m.group("key"), m.group("sign"), m.group("value")
            if sign.isspace() and (
                key.casefold() not in k.space_keys or not password_shaped(value)
            ):
                continue  # a bare space joins keys only where the format has no sign
            if ":" in sign and not ("_" in key or "." in key or "-" in key or key.isupper()):
                continue  # "password: …" in prose is the prose rules' to read
            if not _credential_key(key):
                continue
            inner = value.strip("\"'")
            if (
                len(inner) < 4
                or inner.casefold() in k.not_values
                or _is_placeholder(inner)
                or inner.startswith(("[REDACTED", "/", "./", "~/", "http"))
                or "[REDACTED:" in t[m.start("value") : m.start("value") + 12]
            ):
                continue
            if (
                inner[-1] in "-_./:"
                or sum(ch.isalnum() for ch in inner) < len(inner) // 2
                or _code(t, m.end("value"), inner)
            ):
                continue  # "TEST-" before a blanked placeholder, "=====", a name in code
            start = m.start("value") + (1 if value[:1] in "\"'" else 0)
            pos = m.end()
            yield (_SECRET, "setting_value", start, start + len(inner), None)
    if "userlist" in lowered or any(s in lowered for s in k.space_keys):
        yield from told_directives(t, lowered, k.space_keys)
    if "-" in t and has_digit(t):
        c = cues()
        for m in _PREFIXED.finditer(t):
            body = m.group(0)
            digits = sum(ch.isdigit() for ch in body)
            if len(body) < 24 or digits < 10 or sum(ch.isalpha() for ch in body) < 6:
                continue
            before = lowered[max(0, m.start() - _CUE_BEFORE) : m.start()]
            if c.credential.search(before) is None and ".env" not in before:
                continue
            if not _is_placeholder(body):
                yield (_SECRET, "vendor_prefixed", m.start(), m.end(), None)
