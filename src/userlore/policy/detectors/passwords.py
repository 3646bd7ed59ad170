"""Passwords stated in text: keyword, separator, then a value that looks like one."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.detectors.abbreviated_passwords import (
    _abbreviated_passwords as _abbreviated_passwords,
)
from userlore.policy.detectors.common import _Hit
from userlore.policy.detectors.described_pins import _described_pins as _described_pins
from userlore.policy.detectors.nearby_passwords import (
    _passphrases_nearby as _passphrases_nearby,
)
from userlore.policy.detectors.nearby_passwords import _passwords_nearby as _passwords_nearby
from userlore.policy.detectors.password_values import _CJK as _CJK
from userlore.policy.detectors.password_values import (
    _DIGITS_ONLY,
    _NOT_A_NAME,
    _near_password_token,
    _password_value_ok,
)
from userlore.policy.detectors.password_values import _looks_like_password as _looks_like_password
from userlore.policy.detectors.recovery_codes import _recovery_codes as _recovery_codes
from userlore.policy.findings import _SECRET
from userlore.policy.literal_gate import GatedPattern

# The password family's other rules live in their own modules (``password_values``,
# ``nearby_passwords``, ``abbreviated_passwords``, ``described_pins``, ``recovery_codes``); the
# names other modules import from here stay importable from here (the ``as`` re-exports).

# --------------------------------------------------------------------------------------------
# Secrets: passwords, PINs and codes stated in prose or key=value form, in several languages
# --------------------------------------------------------------------------------------------

_PW_KEYWORDS = (
    r"(?P<pw>pass(?:word|wd|phrase|code)s?|pass[ \-](?:word|phrase|code)|pwd|pw|p/w|passkey"
    r"|pass(?=\s*(?:[:=：]|is\s|was\s)|\s+\S*[\d!#$%@&*])|clave del cajero|clave"
    r"|contraseña|contrasena|clave de acceso|mot de passe|mdp|passwort|kennwort|senha"
    r"|palavra[- ]passe|wachtwoord|parola d'ordine|пароль|密码|密碼|口令|パスワード|비밀번호"
    r"|(?:wi-?fi|network|router) (?:key|password|pass)|wlan-schlüssel|wlan-passwort"
    r"|wpa[23]?(?:[ -]?(?:psk|key|passphrase))?)"
    r"|(?P<pin>(?:pin|puk)(?: ?(?:code|number|no\.?|#))?|(?:pin|puk)-(?:code|nummer)"
    r"|(?:código|code) (?:pin|puk)|geheimzahl|puk番号"
    r"|暗証番号|暗証コード|パスコード|(?:pin|puk)コード|(?:解除|解錠|開錠|警報)コード"
    r"|code (?:de (?:la )?)?carte(?: bleue)?"
    r"|code confidentiel|código (?:do|da) (?:portão|porta|cartão|alarme)|senha do cartão"
    r"|(?:door|gate|alarm|garage|keypad|lock|safe|locker|entry|building|unlock|access|security)"
    r" (?:code|combination)|combination|支付密码|取款密码|门禁密码|pin码|puk码|digicode"
    r"|code (?:de la |d'|du )?(?:porte|entrée|portail|alarme|immeuble)"
    r"|código (?:de la |del )?(?:puerta|alarma|portal)|tür-?code|alarmcode|zahlencode)"
    r"|(?P<otp>(?:verification|confirmation|one[- ]?time|otp|2fa|mfa|sms|login|auth(?:entication)?"
    r"|backup|recovery) codes?|otp|验证码|código de verificación|bestätigungscode"
    r"|code de vérification)"
    r"|(?P<seed>seed phrase|recovery phrase|mnemonic(?: phrase)?|secret recovery phrase|助记词)"
)
# Gates run on the lowercased text without IGNORECASE, which lets the engine skip ahead fast.
# A gate of literal words is asked of the text's shared scan (``GatedPattern``; issue 30).
_PW_GATE = GatedPattern(
    re.compile(
        r"pass|pw|p/w|wpa|digicode|contrase|clave|mdp|kennwort|senha|wachtwoord|parola|пароль|密"
        r"|口令|パスワード|비밀번호|pin|puk|code|combination|geheimzahl|otp|验证码|código|phrase"
        r"|mnemonic|助记词|schlüssel|暗証|パスコード|解除コード|解錠コード|開錠コード|警報コード"
    )
)
_SEP_WORDS = (
    r"is|was|'s|are|were|is set to|was changed to|changed to|set to|is now|is still|to be"
    r"|will be|should be|reads|es|era|sea|est|était|c'est|ist|war|lautet|é|foi|sind"
)
# A character of an account's name; a dot inside it too ("gov.br", "impots.gouv").
_NAME_CHAR = r"[^\s:=：,.;!?\"'()]|\.(?=[^\W_])"
_PW_BODY = (
    r"(?:(?<![A-Za-z])|(?=[^\x00-\x7f])|(?=pass(?:word|wd)))(?P<dash>--?)?(?:"
    + _PW_KEYWORDS
    + r")(?P<suffix>[A-Za-z0-9_]{0,20})"
    r"(?P<mid>(?:\s+(?:for|to|of|on|at|de|del|da|do|das|dos|du|des|der|für|fuer|fürs|von|vom|zu|pour"
    r"|para|en|in|bei|beim|auf|zum|zur|am|dla)(?:\s+(?!(?:"
    + _SEP_WORDS
    + r")\b)(?!\d{4})(?:"
    + _NAME_CHAR
    + r"){1,30}){1,3})"
    r"|\s+(?!(?:" + _SEP_WORDS + "|" + _NOT_A_NAME + r")(?!\w))(?:" + _NAME_CHAR + r"){2,30}"
    r"(?=\s+(?:" + _SEP_WORDS + r")(?!\w)|\s*[:=：])|)"
    # An aside in brackets before the copula names the account ("senha das Finanças (Portal)
    # é …", "mon mot de passe (Ameli) est …": blindfix19e).
    r"(?P<aside>\s*[(（][^()（）\n:=]{1,24}[)）])?"
    r"(?P<adv>(?:\s+(?:now|still|actually|currently|again|always|ahora|jetzt|maintenant|也|都|还))?)"
    r"(?P<sep>\s*(?:=>|:=|->|→)\s*|\s*[:=：＝]\s*"
    r"|\s+(?:is|was|'s)\s+(?:still|now|actually|currently|always|just)\s+"
    r"|\s+(?:" + _SEP_WORDS + r")(?!\w)\s*[:=]?\s*"
    r"|\s*[?:\-–—]\s*(?:it'?s|it\s+is|that'?s|use|try)\s+|'s\s+|\s+to\s+(?=\d{4})"
    r"|\s*(?:是|为|為|就是|改成了?|改为了?|设为|设置为|设置成|还是|は|:)\s*|\s+"
    # Chinese and Japanese write no space: "支付密码5581", "暗証番号3316" (numerals in words
    # reach here as digits through the shared normaliser).
    r"|(?<=[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff])(?=[0-9A-Za-z]))"
    r"(?P<val>\"[^\"\n]{1,128}\"|'[^'\n]{1,128}'|`[^`\n]{1,128}`|“[^”\n]{1,128}”|「[^」\n]{1,128}」"
    r"|[^\s\"'`“”「」，。；！？、]{1,128})"
)
_PW_RE = re.compile("(?i)" + _PW_BODY)
_PW_RE_LOWER = re.compile(_PW_BODY)  # same rules, run on lowercased text: much faster
_MARKER = re.compile(r"\[REDACTED:[\w-]+\]")
_BAD_SUFFIX = re.compile(
    r"(?i)hash|digest|salt|hint|len|policy|reset|field|label|prompt|file|path|manager|strength"
    r"|min|max|regex|pattern|expir|age|valid|rule|error|url|env|var|name|column|stdin|change"
    r"|confirm_?text|input|box|type|format|id$"
)
_TRAILING_PUNCT = ".,;:)]}"


_QUERY_PARAM = re.compile(r"&\w+=")
_WEAK_PW_KEYWORDS: Final = frozenset({"pass", "clave"})
_SEED_WORDS = re.compile(r"(?:[a-z]{3,8}[ ,]+){11,23}[a-z]{3,8}")


# A value spelled out one character at a time: "p a s s w 0 r d", "h-u-n-t-e-r-2", "Q - 7 - z".
_SPELLED = re.compile(
    r"(?:[^\s\"'`]\s{0,2}[\-._/|,]?\s{0,2}(?=[^\s\"'`](?:\s|[\-._/|,]|$))){3,63}[^\s\"'`]"
)
_SPELLED_SEP = re.compile(r"[\s\-._/|,]+")


def _spelled_value(t: str, start: int) -> tuple[str, int] | None:
    """The collapsed value and its end when ``t`` spells a value out from ``start``."""
    m = _SPELLED.match(t, start)
    if m is None:
        return None
    text = m.group(0)
    pieces = [p for p in _SPELLED_SEP.split(text) if p]
    if len(pieces) < 4 or any(len(p) > 1 for p in pieces):
        return None
    return "".join(pieces), m.end()


_PINNED = re.compile(
    r"[a-z][a-z0-9_.\-]*\s+(?:below|under|to|at|before|<|<=|==|>=|~=|version)(?![a-z])"
)


def pins_a_package(t: str, at: int) -> bool:
    """The "pin" ending at ``at`` is the verb: a package held below or at a version follows
    ("pin urllib3 below 3", "pin pandas to 2.1"), for the floor and the gate alike."""
    return _PINNED.match(t, at + 1 if t[at : at + 1] == " " else at) is not None


def _passwords(t: str, lowered: str) -> Iterator[_Hit]:
    matches = _PW_RE_LOWER.finditer(lowered) if len(lowered) == len(t) else _PW_RE.finditer(t)
    # redact's re-check reads its own markers, whose rule names hold "password": not a cue.
    markers = [x.span() for x in _MARKER.finditer(t)] if "[REDACTED:" in t else []
    for m in matches:
        if any(
            a <= m.start() < b or a < m.end() <= b or a <= m.start("val") < b for a, b in markers
        ):
            continue
        kind = next(k for k in ("pw", "pin", "otp", "seed") if m.group(k) is not None)
        suffix = m.group("suffix")
        if suffix and _BAD_SUFFIX.search(suffix):
            continue
        if kind == "seed":
            s = _SEED_WORDS.match(t, m.start("val"))
            # Three distinct words or fewer: the documentation's "abandon abandon … about".
            if s and len(set(re.split(r"[ ,]+", s.group(0).lower()))) > 3:
                yield (_SECRET, "seed_phrase", s.start(), s.end(), None)
            continue
        if kind == "pin" and m.group("pin").lower() == "combination" and not m.group("sep").strip():
            continue
        if kind == "pin" and not m.group("sep").strip() and _PINNED.match(t, m.start("val")):
            continue  # "pin urllib3 below 3": the verb, a package held at a version (blindfix18a)
        start, end = m.start("val"), m.end("val")
        raw = t[start:end]
        quoted = raw[0] in "\"'`“「" and len(raw) >= 2
        if quoted:
            value = raw[1:-1]
            start, end = start + 1, end - 1
        else:
            value = raw
            while value and value[-1] in _TRAILING_PUNCT:
                value = value[:-1]
                end -= 1
            value = value.split("&", 1)[0] if _QUERY_PARAM.search(value) else value
            cjk = _CJK.search(value)
            if cjk is not None and cjk.start() > 0:
                value = value[: cjk.start()]  # "暗証番号は8316です": the sentence goes on
            end = start + len(value)
        if kind == "pin" and not quoted:
            value = value.rstrip("#*")  # keypad codes are often written "4417#"
            end = start + len(value)
        spelled = _spelled_value(t, start) if not quoted else None
        if spelled is not None and spelled[1] > end:
            value, end = spelled  # checked as the collapsed value, redacted as written
        keyword = t[m.start("pw") : m.end("suffix")] if kind == "pw" else ""
        if kind == "pw" and _CJK.search(keyword) and _DIGITS_ONLY.fullmatch(value.rstrip("#*")):
            yield (_SECRET, "password_in_prose", start, end, None)  # "开机密码 3391"
            continue
        env_style = keyword.isupper() and m.group("sep") == "="
        weak = keyword.lower() in _WEAK_PW_KEYWORDS
        rule = {"pw": "password_in_prose", "pin": "pin_code", "otp": "one_time_code"}[kind]
        if (
            not value
            or (weak and not (quoted or _looks_like_password(value)))  # "pass"/"clave": words too
            # After an aside a word is prose ("(mínimo 8 caracteres) es obligatoria").
            or (m.group("aside") is not None and not (quoted or _looks_like_password(value)))
            or not _password_value_ok(
                kind, value, quoted, m.group("sep"), bool(m.group("dash")), env_style
            )
        ):
            if kind in {"pw", "pin"} and not m.group("sep").strip():
                owned = _owned_value(t, lowered, m.end("suffix"), kind)
                if owned is not None:
                    yield (_SECRET, rule, *owned, None)
            continue
        yield (_SECRET, rule, start, end, None)


# The account's phrase after the word, longer than ``_PW_BODY``'s name reads ("mot de passe du
# wifi chez mes beaux-parents est …", "Kennwort vom Laptop auf der Arbeit ist …": blind17):
# that pattern takes the phrase's last word as a bare value and, finding no password there,
# gives up. A phrase opening with a preposition, up to nine words in one clause, then a copula.
_OWNER_THEN_VALUE = re.compile(  # lowercased text
    r"\s+(?:for|of|on|at|de|del|da|do|du|des|der|für|fürs|von|vom|zu|pour|para|en|in|bei|beim"
    r"|auf|zum|zur|am|chez|dans|no|na|nos|nas|im)(?:\s+(?:[^\s:=：,.;!?\"'()]|['.](?=\w)){1,30}){1,9}?"
    r"\s+(?:is|was|es|era|est|c'est|ist|war|lautet|é|foi|sind|are)\s+"
    r"(?P<val>[^\s\"'`“”「」，。；！？、]{1,128})"
)


def _owned_value(t: str, lowered: str, at: int, kind: str) -> tuple[int, int] | None:
    """The span of a password after its account's long phrase and a copula, or None. The
    phrase leaves room for prose ("… est écrit sur le frigo", "… ist leider weg"), so a
    password must read as one: letters with digits or symbols and a case change, not a word."""
    m = _OWNER_THEN_VALUE.match(lowered, at)
    if m is None or len(lowered) != len(t):
        return None
    start, value = m.start("val"), t[m.start("val") : m.end("val")].rstrip(_TRAILING_PUNCT)
    if not value or not _password_value_ok(kind, value, False, " is ", False):
        return None
    if kind == "pw" and not (_looks_like_password(value) or _near_password_token(value)):
        return None
    return start, start + len(value)
