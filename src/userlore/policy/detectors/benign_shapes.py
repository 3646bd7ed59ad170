"""Value shapes that are no secret: revisions, defaults from the docs, masked log values,
ports, public hotlines (issue 29, blindfix8a).

blind8 withheld 8 of 77 benign turns over them, and fresh text the same class more
(``tests/data/blindfix8_values.jsonl``): a commit hash read as a high-entropy key, ``pwd=***``
letting a password rule take the next field for the value, ``port: 3306`` read as a code after
"password", ``curl -u admin:admin`` quoted from a manual. These spans join
``public_material``'s: blanked before any rule reads the text. Recall first: each needs its
context (a git word before a hex run, a doc word beside a default login, a hotline word before
a number), and a value with the shape of a real secret is never blanked.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any, Final

from userlore.policy.cue_data import CueAlternation
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import has_digit
from userlore.policy.detectors.placeholders import placeholder_words
from userlore.policy.literal_gate import GatedPattern, LiteralGate

__all__ = ["benign_spans", "default_said", "docs_sentence", "own_real_said", "with_key"]

# A revision: 7-12 lower-case hex (a short hash), or 40 or 64 (SHA-1, SHA-256), digits and
# letters both, after a git word within 40 characters.
_HEX = re.compile(r"(?<![0-9A-Za-z])(?:[0-9a-f]{40}|[0-9a-f]{64}|[0-9a-f]{7,12})(?![0-9A-Za-z])")
_GIT_BEFORE: Final = 40
# ``-u name:password`` or ``scheme://name:password@`` (the flag goes with the pair).
_LOGIN_PAIR = re.compile(
    r"(?:(?<![\w-])-u |(?<![\w-])--user |(?<=://))"
    r"(?P<user>[^\s:@/]{2,30}):(?P<pw>[^\s:@/]{2,30})(?=[\s@,]|$)"
)
# A private or loopback IPv4 address (RFC 1918, 127/8): a host on the user's network, no value.
_PRIVATE_IP = re.compile(
    r"(?<![\d.])(?:10\.\d{1,3}|127\.\d{1,3}|192\.168|172\.(?:1[6-9]|2\d|3[01]))\.\d{1,3}\.\d{1,3}"
    r"(?![\d]|\.\d)"
)
# A port setting: "port: 3306", "PORT=8080", "mysql_port: 3306", "ports: 5432:5432".
_PORT = re.compile(
    r"(?i)(?<![\w])(?:[a-z_]*_)?ports?\s?[=:]\s?[\"']?(?:\d{2,5}(?::\d{2,5})?)(?![\d])"
)
# A key and its sign right before a blanked placeholder: the key goes with it ("pwd=***").
_KEY_BEFORE = re.compile(r"[\w.\-]{1,40}\s?[=:]\s?[\"']?$")
_STARS = re.compile(r"(?<=[=:])\s?\*{3,}(?![\w*])")
_TEST_VALUE = re.compile(r"(?i)(?<![\w-])test[-_](?:[x0]{4,}[-_]?)+(?![\w-])")
_YOUR_NAME = re.compile(r"(?<![\w])(?:YOUR|SEU|SUA|TU|VOTRE|DEIN|IHR)_[A-Z0-9_]{2,40}(?![\w])")
# A setting about a credential with its value ("password_min_length=12", "token_ttl=3600",
# "password_file=/etc/app/secret.txt"): a number, a duration, a switch or a path.
_SETTING = GatedPattern(
    re.compile(
        r"(?<![\w.\-])(?P<key>[A-Za-z_][\w.\-]{2,60})\s?[=:]\s?"
        r"(?P<value>\d{1,6}[smhdw]?|true|false|yes|no|on|off|(?:~|\.{1,2})?/[\w./\-]{1,100})(?![\w/])"
    )
)
# A URL of the user's own machine or a documentation domain, with no login or query in it.
_LOCAL_URL = re.compile(
    r"(?i)(?:https?://)?(?:localhost|127\.0\.0\.1|0\.0\.0\.0|(?:[\w-]+\.)*(?:example|exemplo|ejemplo"
    r"|exemple|beispiel)\.(?:com|org|net|de|fr|es|com\.br|pt))(?::\d{2,5})?(?:/[\w.\-/]*)?(?![\w@?=&])"
)
# A setting whose key names a credential, with a dictionary word and a few digits for its
# value ("PASSWORD=geheim", "DB_PASS=motdepasse123"): the docs' value where the sentence says so.
_WEAK_SETTING = GatedPattern(
    re.compile(
        r"(?<![\w.\-])(?P<key>[A-Za-z_][\w.\-]{1,60})\s?[=:]\s?"
        r"(?P<value>[a-zäöüßéèêàçãõáíóú]{3,20}\d{0,4})(?=[\s,;!?)—]|[.](?!\w)|$)"
    )
)
# A number of a public line after a hotline word: digits in up to five groups.
_LINE_NUMBER = re.compile(r"[^\d\n]{0,30}?(?<![\d])(\d{3,5}(?:[ \-.]\d{2,5}){0,4})(?![\d])")


@dataclass(frozen=True, slots=True)
class _Shapes:
    # The word lists as :class:`CueAlternation`: the same matches as ``re.compile(alternation
    # (words))``, scanning only the terms whose literal is in the text (issue 30, perf24: the
    # default words' alternation alone was ~0.1 ms of every stored value).
    git: CueAlternation
    git_words: LiteralGate
    docs: CueAlternation
    defaults: frozenset[str]
    masked: re.Pattern[str]
    hotline: CueAlternation
    hotline_words: LiteralGate
    own_real: CueAlternation
    defaults_said: CueAlternation


@functools.cache
def _shapes() -> _Shapes:
    raw: dict[str, Any] = data_yaml("benign_shapes.yaml")

    def words(key: str) -> list[str]:
        return [str(w).casefold() for w in raw[key]]

    markers = "|".join(re.escape(str(m)) for m in raw["masked_markers"])
    return _Shapes(
        git=CueAlternation(words("git_words")),
        git_words=LiteralGate(words("git_words")),
        docs=CueAlternation(words("doc_words")),
        defaults=frozenset(words("default_logins")),
        masked=re.compile(rf"\[(?:{markers})\](?!:)"),
        hotline=CueAlternation(words("hotline_words")),
        hotline_words=LiteralGate(words("hotline_words")),
        own_real=CueAlternation(words("own_real")),
        defaults_said=CueAlternation(words("default_words")),
    )


def default_said(sentence: str) -> bool:
    """``sentence`` (casefolded) calls a credential the vendor's default ("the factory default
    PIN", "默认密码") and names none as the user's real one: its weak value is the manual's."""
    s = _shapes()
    return s.defaults_said.search(sentence) is not None and s.own_real.search(sentence) is None


def own_real_said(lowered: str) -> bool:
    """``lowered`` (lower-cased text) names a value as the user's real one ("my real", "prod")."""
    return _shapes().own_real.search(lowered) is not None


def with_key(text: str, start: int, end: int) -> tuple[int, int]:
    """The span widened to the key and sign written right before it."""
    key = _KEY_BEFORE.search(text, max(0, start - 44), start)
    return (key.start() if key is not None else start), end


def benign_spans(text: str) -> list[tuple[int, int]]:
    """Spans of ``text`` holding a value shape that is no secret (see the module docstring)."""
    lowered = text.casefold()
    if len(lowered) != len(text):
        return []
    s = _shapes()
    spans: list[tuple[int, int]] = []
    digits = has_digit(text)
    if digits and s.git_words.search(lowered):
        for m in _HEX.finditer(text):
            run = m.group(0)
            if run.isdigit() or run.isalpha():
                continue
            if s.git.search(lowered, max(0, m.start() - _GIT_BEFORE), m.start()):
                spans.append(m.span())
    if "[" in text:
        spans.extend(with_key(text, *m.span()) for m in s.masked.finditer(text))
    if "*" in text:
        spans.extend(with_key(text, *m.span()) for m in _STARS.finditer(text))
    if ":" in text and ("-u " in text or "--user " in text or "://" in text):
        for m in _LOGIN_PAIR.finditer(text):
            user, pw = m.group("user").casefold(), m.group("pw").casefold()
            default = pw in s.defaults and (user in s.defaults or user == pw)
            if default and s.own_real.search(lowered) is None:
                spans.append(_docs_url(text, m) or m.span())
    if s.defaults_said.search(lowered):
        spans.extend(_default_pairs(text, lowered))  # "admin/admin" asked about (blindfix21a)
    if digits and "." in text:
        spans.extend(m.span() for m in _PRIVATE_IP.finditer(text))
    if (
        "localhost" in lowered
        or "127.0.0.1" in text
        or "0.0.0.0" in text
        or "xempl" in lowered
        or "jempl" in lowered
        or "beispiel." in lowered
    ):
        spans.extend(m.span() for m in _LOCAL_URL.finditer(text))
    if digits and "port" in lowered:
        spans.extend(m.span() for m in _PORT.finditer(text))
    if "test" in lowered:
        spans.extend(with_key(text, *m.span()) for m in _TEST_VALUE.finditer(text))
    if "_" in text:
        spans.extend(m.span() for m in _YOUR_NAME.finditer(text))
    if "=" in text or ":" in text:
        spans.extend(_settings(text))
    if digits and s.hotline_words.search(lowered):
        for m in s.hotline.finditer(lowered):
            line = _LINE_NUMBER.match(text, m.end())
            if line is not None:
                spans.append(line.span(1))
    return spans


# A login pair of two plain words ("admin/admin", "pi / raspberry"): a digit or a symbol in
# either makes it a password someone chose.
_PLAIN_PAIR = re.compile(r"(?<![\w/:@.-])[a-z]{2,20} ?[/:] ?[a-z]{2,20}(?![\w/:@.-])")


def _default_pairs(text: str, lowered: str) -> list[tuple[int, int]]:
    """Plain login pairs that a vendor's default word before them, or a doc word in their
    sentence, calls the manual's (:func:`default_said`, ``doc_words``), and none the user's
    real one: two default logins ("admin/admin", "root:root") or any pair asked about
    ("pi/raspberry ?"); "… changed it to admin/tortuga" is a login someone chose."""
    if _CHOSEN_PAIR.search(lowered) is not None:
        return []  # "replaced admin/admin with admin/Quokka_71": the default tells the change
    s = _shapes()
    found = []
    for m in _PLAIN_PAIR.finditer(lowered):
        sentence = _sentence_at(lowered, m.start(), m.end())
        if s.own_real.search(sentence) is not None:
            continue
        before = lowered[max(0, m.start() - _DEFAULT_REACH) : m.start()]
        asked = sentence.rstrip().endswith(("?", "？"))
        # A default word before the pair, or anywhere in a question ("… ubnt/ubnt as the
        # default login?"), or a doc word in its sentence.
        if (
            s.defaults_said.search(before) is None
            and not (asked and s.defaults_said.search(sentence) is not None)
            and s.docs.search(sentence) is None
        ):
            continue
        user, _, pw = (p.strip() for p in re.split(r"([/:])", m.group(0), maxsplit=1))
        manual = (user in s.defaults or user == pw) and pw in s.defaults | {user}
        if manual or asked:
            found.append(m.span())
    for m in _STATED_WORD.finditer(lowered):  # "the default password is admin"
        word = m.group(1)
        before = lowered[max(0, m.start() - _DEFAULT_REACH) : m.start()]
        sentence = _sentence_at(lowered, m.start(), m.end())
        if (
            word in s.defaults
            and word not in _CUE_WORDS
            and s.defaults_said.search(before) is not None
            and s.own_real.search(sentence) is None
        ):
            found.append(m.span(1))
    return found


_DEFAULT_REACH: Final = 160
# A single word stated as the value ("… is admin", "…: root"), and the default logins that are
# credential words themselves: blanking one would take the cue from a real value after it.
_STATED_WORD = re.compile(
    r"(?:\s(?:is|es|ist|est|é|was|era|war)\s+|[:=：]\s*|是|は)([a-z]{2,20})(?![\w/:@.-])"
)
_CUE_WORDS: Final = frozenset(
    {"password", "pass", "passwd", "pwd", "senha", "contraseña", "contrasena", "passwort",
     "kennwort", "motdepasse", "mdp", "secret", "login", "user", "username", "name"}
)  # fmt: skip
# A login pair whose password holds a digit or a symbol: one someone chose.
_CHOSEN_PAIR = re.compile(
    r"(?<![\w/:@.-])[\w.-]{2,30} ?[/:] ?"
    r"(?=[\w.!#$%&*+=@^~-]*[\d_!#$%&*+=@^~])[\w.!#$%&*+=@^~-]{2,40}"
)


def _sentence_at(lowered: str, start: int, end: int) -> str:
    lo = max((m.end() for m in _SENTENCE_END.finditer(lowered, 0, start)), default=0)
    hi = _SENTENCE_END.search(lowered, end)
    return lowered[lo : hi.start() if hi else len(lowered)]


_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]{1,20}://$")


def _docs_url(text: str, pair: re.Match[str]) -> tuple[int, int] | None:
    """The whole URL around a default login pair when its host is the user's machine or a docs
    domain ("postgres://user:password@localhost/db"): a left-over scheme would read as a value
    in a sentence whose language no cue reads (blind19)."""
    scheme = _SCHEME.search(text, max(0, pair.start() - 22), pair.start())
    if scheme is None or text[pair.end() : pair.end() + 1] != "@":
        return None
    host = _LOCAL_URL.match(text, pair.end() + 1)
    if host is None:
        return None
    return scheme.start(), host.end()


_SENTENCE_END = re.compile(r"[.!?。！？\n]\s|[。！？\n]")


def docs_sentence(text: str, lowered: str, start: int, end: int) -> bool:
    """The sentence around ``start:end`` says its values are an example or the docs' (a
    placeholder or doc word), and names no value as the user's real one."""
    lo = max((m.end() for m in _SENTENCE_END.finditer(text, 0, start)), default=0)
    hi_m = _SENTENCE_END.search(text, end)
    sentence = lowered[lo : hi_m.start() if hi_m else len(text)]
    s = _shapes()
    said = s.docs.search(sentence) is not None or placeholder_words().search(sentence) is not None
    return said and s.own_real.search(sentence) is None


def _settings(text: str) -> list[tuple[int, int]]:
    from userlore.policy.detectors.config_keys import credential_words, setting_key

    found = []
    for m in _SETTING.finditer(text):
        key = m.group("key")
        if credential_words(key) and setting_key(key):
            found.append(m.span())
    lowered = text.casefold()
    for m in _WEAK_SETTING.finditer(text):
        if credential_words(m.group("key")) and docs_sentence(text, lowered, m.start(), m.end()):
            found.append(m.span())
    return found
