"""Whether a token read beside a word for a password is one: the value tests the password rules
share (``passwords``' keyword rule, ``nearby_passwords``, ``abbreviated_passwords``, ``tokens``).

A value after "is" or ":" must not be prose, a placeholder, code or a participle said of the
password (:func:`_password_value_ok`); one given with no separator, or near its word rather
than after it, must also look like a password: letters with digits or symbols
(:func:`_looks_like_password`, :func:`_near_password_token`).
"""

from __future__ import annotations

import re
from typing import Final

from userlore.policy.detectors.common import _is_placeholder
from userlore.policy.findings import _words

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


# A token near its word that is no password: a version, a size, an account's name.
_VERSION_LIKE = re.compile(r"[vV]?\d+(?:[.\-]\d+)*[a-z]?|[a-z]{1,3}-?\d{1,2}|\d{1,2}[a-zA-Z]{1,3}")
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
