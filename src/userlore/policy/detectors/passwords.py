"""Passwords stated in text: keyword, separator, then a value that looks like one."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.detectors.common import _Hit, _is_placeholder
from userlore.policy.findings import _SECRET, _words
from userlore.policy.literal_gate import GatedPattern

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
# Words that can follow "password" without naming the account it belongs to.
_NOT_A_NAME = (
    r"manager|managers|reset|resets|policy|policies|field|hint|strength|length|requirements?"
    r"|rules?|change|changes|changed|expiry|expiration|expires|expired|prompt|box|form|page|screen"
    r"|generator|hash|hashes|vault|protected|app|recovery|update|updated|login|entry|input|dialog"
    r"|check|validation|complexity|history|storage|file|list|section|option|settings?|feature"
    r"|system|protection|sharing|must|should|can|could|will|would|has|had|have|needs?|may|might"
    r"|does|did|do|and|or|but|not|never|always|again|too|so|that|which|who|isn't|wasn't"
    r"|doesn't|don't|didn't|won't|can't|field|fields|stdin|file|flag|option|argument|parameter"
    r"|param|variable|value|string|text|type|column|attribute|label|reuse|reused|sharing|leak"
    r"|leaked|breach|strength|meter|tips?|ideas?|example|examples|format|length|minimum|maximum"
    r"|min|max|characters?|chars?|digits?|letters?|with|without|from|by|as|if|when|then|than"
    r"|like|yet|still|now|ever|even|just|only|also|already|here|there|this|these|those|it|they"
    r"|you|we|i|he|she|de|la|le|el|der|die|das|ist|est|es|muss|doit|debe|sollte|wird|sera|será"
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
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_CODE_REF = re.compile(
    r"\w\(|\w\[|\bos\.|environ|getenv|process\.env|\benv\b|^\$[A-Z_]|^%\w|::|^self\.|^args\.|^this\."
)
_NOT_A_NAME_RE = re.compile(_NOT_A_NAME)
_ATTR_ACCESS = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
# Capitals and a digit: "Olas.Azules8"; capitalised words joined by dots, a digit after an
# underscore too ("Tortilla.Patatas_77": blind17), where code's names are lower or upper case.
_DOTTED_PASSWORD = re.compile(
    r"(?=.*[A-Z])(?=.*\d)[A-Za-z][A-Za-z0-9]*(?:\.[A-Za-z0-9]+)+"
    r"|(?=.*\d)[A-Z][a-z]+(?:\.[A-Z][a-z]+)+_?\d+"
)
_ENV_NAME = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
_LOWER_IDENT = re.compile(r"[a-z_]+")
_BAD_SUFFIX = re.compile(
    r"(?i)hash|digest|salt|hint|len|policy|reset|field|label|prompt|file|path|manager|strength"
    r"|min|max|regex|pattern|expir|age|valid|rule|error|url|env|var|name|column|stdin|change"
    r"|confirm_?text|input|box|type|format|id$"
)
_PW_STOPWORDS: Final = _words(
    """
    the a an my your his her their our its this that these those it not no too very so also
    still now just only required optional mandatory incorrect wrong invalid correct right
    valid expired reset changed same different weak strong secure insecure long short empty
    blank missing hidden masked encrypted hashed stored saved set case-sensitive protected
    forgotten lost locked compromised leaked ok okay fine good bad hard easy simple complex
    complicated needed necessary being been going what which where when how why who whom
    whose in on at for to of with from by as and or but if then than str string int bool
    none null nil undefined true false text type field input value secretstr bytes any
    object used sent shown displayed generated rotated updated provided entered typed known
    unknown asked requested accepted rejected verified printed logged ignored stolen secret
    private personal unique random temporary old new current default same similar different
    there here something anything nothing everything same one two three four five six seven
    eight nine ten at least most more less enough weak-ish reused shared written sticky
    about around like please cannot can't doesn't won't isn't wasn't don't should must will
    would could may might working broken case sensitive la el los las un una uno muy que le
    les une est der die das ein eine nicht zu sehr ist war demasiado trop incorrecte
    incorrecta falsch richtig geheim secreto secreta segredo segura seguro sicher sûr sûre
    dans sur chez im auf em na no en
    """
)
# Participles in the covered languages, said of a password rather than being one.
_PARTICIPLE = re.compile(
    r"(?:ab|an|auf|aus|ein|um|zu|vor|nach|weg|zurück)?ge\w+(?:t|en)|\w+iert"
    r"|\w+(?:ado|ada|ido|ida|ados|adas|é|ée|és)"
)
_DIGITS_ONLY = re.compile(r"\d{4,12}")
_CODE_VALUE = re.compile(r"[A-Za-z0-9]{4,12}|\d{1,3}(?:[-/ ]\d{1,3}){2,3}")
_TRAILING_PUNCT = ".,;:)]}"


def _password_value_ok(
    kind: str, value: str, quoted: bool, sep: str, dashed: bool, env_style: bool = False
) -> bool:
    """Decide whether the text after a password keyword is a real value, not prose or code."""
    if _is_placeholder(value) or _CJK.search(value):
        return False
    if kind in {"pin", "otp"}:
        return bool(_DIGITS_ONLY.fullmatch(value)) or (
            kind == "pin" and bool(_CODE_VALUE.fullmatch(value)) and any(c.isdigit() for c in value)
        )
    lowered = value.lower()
    if lowered in _PW_STOPWORDS:
        return False
    if quoted:
        return len(value) >= 3
    bare_sep = sep.strip() == ""
    if bare_sep and not dashed and not _looks_like_password(value):
        return False
    if _CODE_REF.search(value) or _ENV_NAME.fullmatch(value):
        return False
    if (
        _ATTR_ACCESS.fullmatch(value)
        and not _DOTTED_PASSWORD.fullmatch(value)
        and not (bare_sep and _WORD_PASSPHRASE.fullmatch(value) and _looks_like_password(value))
    ):
        return False  # ``cfg.db_pass``, not "Olas.Azules8" (capitals and a digit: a password)
    if len(value) < 4:
        return False
    sep_s = sep.strip()
    if sep_s in {"=", "->", "→", "=>", ":="} and _LOWER_IDENT.fullmatch(value) and not env_style:
        return False  # ``password = pw``: a variable, not a value (``DB_PASSWORD=x`` is config)
    if value.isalpha() and value.islower():
        if _PARTICIPLE.fullmatch(lowered):
            return False  # "Passwort ist deaktiviert", "la contraseña está bloqueada"
        if sep_s in {":", "：", "="}:
            return not lowered.endswith(("ed", "ing", "ly"))
        return not lowered.endswith(("ed", "ing", "ly", "ful", "less", "ous", "able", "ible"))
    return True


_TECH_TOKENS: Final = _words(
    """
    sha1 sha256 sha384 sha512 md5 bcrypt argon2 argon2id pbkdf2 scrypt utf8 utf-8 utf16 base64
    aes128 aes256 aes-256 rsa2048 rsa4096 ed25519 x25519 rot13 hmac-sha256 http2 ipv4 ipv6 oauth2
    mp3 mp4 h264 win32 win64 x86 x64 arm64 python3 py3 es6 html5 css3 s3 ec2 k8s 2fa mfa totp
    """
)


def _looks_like_password(value: str) -> bool:
    """A value given without "is" or ":" ("密码 abc!2345", "wifi password hunter22")."""
    if len(value) < 6 or value.lower() in _TECH_TOKENS or _CODE_REF.search(value):
        return False
    has_digit = any(c.isdigit() for c in value)
    has_alpha = any(c.isalpha() for c in value)
    has_symbol = any(not c.isalnum() for c in value)
    if value.isdigit():
        return 6 <= len(value) <= 12  # "银行卡密码 802731"
    if _WORD_PASSPHRASE.fullmatch(value):  # "das Passwort Amsel-Drossel-Fink-Star" (blind15)
        parts = re.split(r"[-._]", value)
        # Not "reset-link-page"; dotted only in capitalised words ("self.config.db" is code).
        return not any(_NOT_A_NAME_RE.fullmatch(p.lower()) for p in parts) and (
            "." not in value or all(p[0].isupper() for p in parts)
        )
    return has_digit and (has_alpha or has_symbol)


# Three words or more of three letters or more, joined by one kind of joiner: a passphrase.
_WORD_PASSPHRASE = re.compile(r"[^\W\d_]{3,}([-._])[^\W\d_]{3,}(?:\1[^\W\d_]{3,}){1,6}")


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


# --------------------------------------------------------------------------------------------
# Secrets: lists of recovery / backup codes
# --------------------------------------------------------------------------------------------

# A keyword naming the codes, then every code-shaped token up to the end of the sentence or
# list: codes come in lists ("8302 1147, 5590 2831 and 7716 0042", one per numbered line), and
# each one is a credential on its own.
_RECOVERY_KW = re.compile(  # lowercased text
    r"(?:recovery|backup|back-up|emergency|scratch|rescue|2fa|mfa|two-factor|2-step|one[- ]time"
    r"|single[- ]use)\s+(?:(?:login|sign-in|verification|security)\s+)?(?:codes?|keys?|pins?)"
    r"(?:\s+list)?|recovery\s+(?:key|phrase)|恢复码|恢復碼|备用(?:验证)?码|備用(?:驗證)?碼|备份码"
    r"|救援码|リカバリーコード|バックアップコード|복구\s*코드|백업\s*코드"
    r"|c[óo]digos?\s+de\s+(?:recuperaci[óo]n|recupera[çc][ãa]o|respaldo|seguridad|seguran[çc]a"
    r"|backup|emergencia|emerg[êe]ncia|copia\s+de\s+seguridad|reserva)"
    r"|codes?\s+de\s+(?:secours|r[ée]cup[ée]ration|sauvegarde|s[ée]curit[ée])"
    r"|wiederherstellungs-?codes?|backup-?codes?|notfall-?codes?|sicherungs-?codes?"
)
_RECOVERY_GATE = GatedPattern(
    re.compile(r"code|key|pin|恢|备|備|救援|コード|코드|digo|wiederherstellung")
)
_CODE_TOKEN = re.compile(
    r"(?<![A-Za-z0-9])[A-Za-z0-9]{3,16}(?:-[A-Za-z0-9]{2,16}){0,7}(?![A-Za-z0-9])"
)
_SENTENCE_END = re.compile(r"(?<!\n\d)(?<!\n\d\d)(?<!^\d)[.!。！](?=\s|$)|\n\s*\n")
_YEAR_OR_SMALL = re.compile(r"(?:19|20)\d{2}|\d{1,3}")


def _code_like(token: str) -> bool:
    alnum = token.replace("-", "")
    if not any(c.isdigit() for c in alnum) or _YEAR_OR_SMALL.fullmatch(alnum):
        return False
    if alnum.isdigit():
        return len(alnum) >= 4
    letters = sum(c.isalpha() for c in alnum)
    return len(alnum) >= 6 or (letters > 0 and ("-" in token or len(alnum) >= 4))


def _recovery_codes(t: str, lowered: str) -> Iterator[_Hit]:
    if not _RECOVERY_GATE.search(lowered):
        return
    for kw in _RECOVERY_KW.finditer(lowered):
        stop = _SENTENCE_END.search(t, kw.end(), kw.end() + 400)
        limit = stop.start() if stop else min(len(t), kw.end() + 400)
        found = [m for m in _CODE_TOKEN.finditer(t, kw.end(), limit) if _code_like(m.group(0))]
        total = sum(len(m.group(0).replace("-", "")) for m in found)
        if not found or total < 8:
            continue
        for m in found:
            yield (_SECRET, "recovery_code", m.start(), m.end(), None)


# --------------------------------------------------------------------------------------------
# Secrets: a PIN or passcode described rather than named ("the code to unlock my iPad? It's
# 6652", "use 7749 as the passcode", "5820 is my PIN")
# --------------------------------------------------------------------------------------------

_DEVICE = (
    r"(?:unlock|open|atm|cash\s+machine|card|phone|iphone|ipad|tablet|laptop|door|safe|alarm"
    r"|garage|gate|locker|keypad|screen|sim|bike\s+lock|padlock)"
)
_PIN_DESCRIBED = re.compile(  # lowercased text
    r"\b(?:code|digits|numbers?|combo|combination|passcode|pin)\s+(?:to|for|that|which|i|we|you"
    r"|on|of)\s+[^.!?\n]{0,40}?\b" + _DEVICE + r"\b[^.!\n\d]{0,24}?(?:is|are|it'?s|:|=|was)\s*"
    r"(?P<v>\d{4,8})(?!\d)"
    r"|\b(?:use|enter|type|punch\s+in|key\s+in|tap\s+in)\s+(?P<v2>\d{4,8})\s+(?:as|for|into)\s+"
    r"(?:the|my|your|our)\s+(?:[a-z']+\s+){0,2}(?:pin|passcode|pass\s+code|unlock\s+code"
    r"|password|combination|door\s+code|code)\b"
    r"|\b" + _DEVICE + r"\s+(?:opens|unlocks|unlock|open|disarms|is\s+unlocked)\s+with\s+"
    r"(?:the\s+)?(?:code\s+|pin\s+|passcode\s+)?(?P<v4>\d{4,8})(?!\d)"
    r"|(?<![\d.,$€£])(?P<v3>\d{4,8})\s+is\s+(?:my|our|the)\s+(?:[a-z']+\s+){0,2}(?:pin|passcode"
    r"|unlock\s+code|door\s+code|alarm\s+code|password)\b"
)


_PIN_DESCRIBED_GATE = GatedPattern(re.compile(r"code|digit|number|combo|pin|unlock|opens|disarm"))


def _described_pins(lowered: str) -> Iterator[_Hit]:
    if not _PIN_DESCRIBED_GATE.search(lowered):
        return
    for m in _PIN_DESCRIBED.finditer(lowered):
        group = next(g for g in ("v", "v2", "v3", "v4") if m.group(g) is not None)
        yield (_SECRET, "pin_code", m.start(group), m.end(group), None)


# --------------------------------------------------------------------------------------------
# Secrets: a password given in prose near its keyword, before or after it, in another sentence
# ("Te digo la contraseña del wifi. Es naranja2291.", "Framboise88 comme mot de passe",
# "パスワードはsakura2024です")
# --------------------------------------------------------------------------------------------

_PW_NEAR_KW = re.compile(  # lowercased text
    r"pass(?:word|wort|wd|phrase)|contraseña|contrasena|mot de passe|kennwort|senha|palavra-passe"
    r"|wachtwoord|密码|密碼|口令|パスワード"
)
# "password manager", "Passwort-Manager", "password vault": the words name a tool, and the
# token beside them ("1Password", "Bitwarden2") is its name, not a password.
_PW_TOOL_AFTER = re.compile(
    r"[\s-]?(?:manager|managers|vault|generator|app|apps|tool|safe|gestionnaire|gestor|tresor)"
    r"(?![a-z])"
)
_PW_NEAR_GATE = GatedPattern(
    re.compile(r"pass|contrase|mot de|kennwort|senha|wachtwoord|密|口令|パスワード")
)
_PW_TOKEN = re.compile(
    r"(?<![A-Za-z0-9_@./:%=\-])[A-Za-z0-9][A-Za-z0-9!@#$%^&*_+?\-]{3,63}(?![A-Za-z0-9_@/:%=])"
)
_EXAMPLE_BEFORE = re.compile(
    r"(?i)(?:e\.g\.|like|such as|example|z\.b\.|p\.ex\.|ej\.|例如|例え)\W*$"
)
_VERSION_LIKE = re.compile(r"[vV]?\d+(?:[.\-]\d+)*[a-z]?|[a-z]{1,3}-?\d{1,2}|\d{1,2}[a-zA-Z]{1,3}")
_NEAR_WINDOW: Final = 90
_NAMED_ID = re.compile(r"(?i)[a-z]+-id")
_CASED_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+")  # "Apple-ID", "Google-ID": an account's name


def _near_password_token(token: str) -> bool:
    """A token that reads as a password: letters with digits or symbols, not a word or a code."""
    token = token.rstrip("?.-")
    if len(token) < 5 or _is_placeholder(token) or token.lower() in _TECH_TOKENS:
        return False
    if _VERSION_LIKE.fullmatch(token) or token.isdigit() or _NAMED_ID.fullmatch(token):
        return False
    has_digit = any(c.isdigit() for c in token)
    has_alpha = any(c.isalpha() for c in token)
    has_symbol = any(not c.isalnum() for c in token.strip("-"))
    mixed_case = any(c.isupper() for c in token[1:]) and any(c.islower() for c in token)
    if not has_digit and all(_CASED_WORD.fullmatch(part) for part in token.split("-")):
        return False  # "Wi-Fi", "E-Mail", "WLAN-Router": words joined by hyphens
    return has_alpha and (has_digit or (has_symbol and mixed_case))


def _passwords_nearby(t: str, lowered: str) -> Iterator[_Hit]:
    if not _PW_NEAR_GATE.search(lowered):
        return
    for kw in _PW_NEAR_KW.finditer(lowered):
        if _PW_TOOL_AFTER.match(lowered, kw.end()):
            continue
        if kw.start() > 0 and lowered[kw.start() - 1].isdigit():
            continue  # "1Password": a product's name holds the word
        lo = max(0, kw.start() - _NEAR_WINDOW)
        hi = min(len(t), kw.end() + _NEAR_WINDOW)
        para_start = t.rfind("\n\n", lo, kw.start())
        para_end = t.find("\n\n", kw.end(), hi)
        lo = lo if para_start < 0 else para_start
        hi = hi if para_end < 0 else para_end
        for m in _PW_TOKEN.finditer(t, lo, hi):
            if m.start() < kw.end() and kw.start() < m.end():
                continue  # the word itself or its compound ("WLAN-Passwort"), not a value
            token = m.group(0)
            if not _near_password_token(token):
                continue
            if _EXAMPLE_BEFORE.search(t, max(0, m.start() - 20), m.start()):
                continue
            end = m.end()
            while end > m.start() and t[end - 1] in ".,;:)":
                end -= 1
            yield (_SECRET, "password_in_prose", m.start(), end, None)


# A passphrase of capitalised words joined by one kind of joiner, digits or a sign perhaps at
# its end ("Tortilla.Sin.Cebolla77", "Tanne-Kiesel-Flur"): three words or more, each capitalised,
# which no sentence's words are. Told after a correction or an aside between the word and the
# value ("mi contraseña del Cl@ve pin... no, la permanente, es …", "le mot de passe du wifi,
# enfin celui des invités, est …"; blind20), further than ``_PW_BODY`` reads.
_PHRASE_TOKEN = re.compile(
    r"(?<![\w.\-@/])[A-ZÀ-Þ][^\W\d_]{2,}([.\-_])[A-ZÀ-Þ][^\W\d_]{2,}(?:\1[A-ZÀ-Þ][^\W\d_]{2,})+"
    r"[\d!#$%*&]{0,6}(?![\w\-@/]|\.\w)"
)
# What stands right before the passphrase: a copula or a colon, so a name beside the word ("je
# l'ai noté chez Marie-Claire-Anne", "le Portail Mein-Elster-Konto") is no password.
_PHRASE_BEFORE = re.compile(  # lowercased text
    r"(?:(?<![^\W\d_])(?:is|was|es|era|est|ist|war|lautet|é|foi|now|ahora|como|ficou|devenu)"
    r"|c'est|[:：=是为為は])\s*$"
)
_PHRASE_KW = re.compile(  # lowercased text: every word for a password the floor reads
    _PW_NEAR_KW.pattern + r"|" + r"(?<![a-z0-9])(?:pw|pwd|mdp|clave|contra)(?![a-z])|密|暗証"
)


def _passphrases_nearby(t: str, lowered: str) -> Iterator[_Hit]:
    """Passphrases (:data:`_PHRASE_TOKEN`) after a word for a password, within
    :data:`_NEAR_WINDOW` characters of one paragraph (see the comment above)."""
    if len(lowered) != len(t):
        return
    for kw in _PHRASE_KW.finditer(lowered):
        hi = min(len(t), kw.end() + _NEAR_WINDOW)
        para_end = t.find("\n\n", kw.end(), hi)
        for m in _PHRASE_TOKEN.finditer(t, kw.end(), hi if para_end < 0 else para_end):
            if _is_placeholder(m.group(0)) or _EXAMPLE_BEFORE.search(t, kw.end(), m.start()):
                continue
            if not _PHRASE_BEFORE.search(lowered, max(kw.end(), m.start() - 12), m.start()):
                continue
            words = re.split(r"[.\-_]", m.group(0).rstrip("0123456789!#$%*&"))
            if len({w.casefold() for w in words}) < 2:
                continue  # "Palabra-Palabra-Palabra": a pattern, one word repeated
            yield (_SECRET, "password_in_prose", m.start(), m.end(), None)


# --------------------------------------------------------------------------------------------
# Secrets: a password after a short or borrowed word for it (issue 29, values5): "pw:", "pwd",
# "mdp", "la contra", "PW vom Laptop ist", "creds", "identifiants", "邮箱密", "口令", "暗証",
# "パスは". Short words are also units, brands and everyday words ("pass the salt", "120 PW",
# "バスのパス"), so the value must follow closely and read as a password: letters with digits,
# or with symbols and a case change (a price or a count never does).
# --------------------------------------------------------------------------------------------

_ABBREV_LATIN = re.compile(  # lowercased text
    r"(?<![a-z0-9])(?:pw|pwd|pwds|pass|mdp|contra|clave|kennwort|senha|creds|identifiants"
    r"|zugangsdaten|login)(?![a-z])"
)
# CJK: the word then a value within a separator or two; 密 alone only straight before one
# ("邮箱密 Tiger#2288", "wifi密是 …"), so 秘密, 加密 or 密度 never reach the token test.
_ABBREV_CJK = re.compile(
    r"(?:密|口令|暗証|(?<![ァ-ヺー])パス(?![ァ-ヺー]))(?:\s*(?:是|为|為|は|も|:|：|=)\s*|\s+)"
)
_ABBREV_GATE = GatedPattern(
    re.compile(
        r"pw|pass|mdp|contra|clave|kennwort|senha|creds|identifiants"
        r"|zugangsdaten|login|密|口令|暗証|パス"
    )
)
_ABBREV_WINDOW: Final = 40
_ABBREV_DIGITS = re.compile(r"\d(?:[ \-]?\d){3,11}(?!\d)")
# As ``_PW_TOKEN``, but a colon may stand before it ("パス：kumo#7788sora", folded to ":").
_ABBREV_TOKEN = re.compile(
    r"(?<![A-Za-z0-9_@./%=\-])[A-Za-z0-9][A-Za-z0-9!@#$%^&*_+?\-]{3,63}(?![A-Za-z0-9_@/:%=])"
)


# The value drawn as a conclusion after the clause that says how it was made ("vault pass is
# the name of our first dog plus the street number, so Biscuit42!", "… also Minka1988", "… o
# sea Toby2016": blindfix18a): further from its word than a short word's window, still its value.
_STATED = re.compile(  # lowercased text: the word is what the clause describes ("pass is …")
    r"(?:\s+(?:del|de|do|da|du|of|for|vom|von)\s+[^\W\d_]+)?"
    r"\s+(?:is|was|es|era|ist|war|lautet|est|é|foi)\s[^.!?\n]*$"
)
_CONCLUDED = re.compile(
    r"(?i)(?:\bso|\bi\.?e\.?|\balso|\bdonc|\bo sea|\bou seja|\bd\.h\.|也就是|即|つまり)"
    r",?\s*[\"'`]?$"
)


def _abbreviated_passwords(t: str, lowered: str) -> Iterator[_Hit]:
    """Passwords after a short or borrowed word for one (see the block comment above)."""
    if not _ABBREV_GATE.search(lowered):
        return
    starts = [(m.end(), _ABBREV_WINDOW) for m in _ABBREV_LATIN.finditer(lowered)]
    for m in _ABBREV_CJK.finditer(lowered):
        starts.append((m.end(), 1))
        digits = _ABBREV_DIGITS.match(t, m.end())
        if digits is not None:  # "暗証：5 2 8 8", "口令 8 3 0 6": a code said as digits
            yield (_SECRET, "pin_code", digits.start(), digits.end(), None)
    for end, window in starts:
        for m in _ABBREV_TOKEN.finditer(t, end, min(len(t), end + _NEAR_WINDOW + 64)):
            if m.start() > end + window and not (
                m.start() <= end + _NEAR_WINDOW
                and _STATED.match(lowered, end, m.start()) is not None
                and _CONCLUDED.search(t, max(end, m.start() - 12), m.start()) is not None
            ):
                if m.start() > end + _NEAR_WINDOW:
                    break
                continue
            token = m.group(0)
            if not _near_password_token(token) or _EXAMPLE_BEFORE.search(t, end, m.start()):
                continue
            stop = m.end()
            while stop > m.start() and t[stop - 1] in ".,;:)":
                stop -= 1
            yield (_SECRET, "password_in_prose", m.start(), stop, None)
            break
