"""Deterministic sensitivity floor: secrets, regulated identifiers and special categories.

Off-the-shelf detectors leak (see ``SENSITIVITY.md``): passwords stated in prose, Chinese resident
ids, dotted card numbers and almost every free-text health or religion statement got past all of
them. So the floor the governed write path relies on is this module: plain rules we own and test,
identifier validators with check digits from ``python-stdnum``, and a small lexicon plus an
"is this about the user?" check for special categories. It runs on every stored record and on
every record rendered into a context plan, so each family of rules sits behind a cheap gate and
every regular expression is compiled once, at import, with bounded repetition only.
"""

from __future__ import annotations

import base64
import binascii
import importlib
import math
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from stdnum import luhn as _luhn
from stdnum.cn import ric as _cn_ric

from userlore.policy.normalize import fold

__all__ = [
    "SPECIAL_CATEGORIES",
    "Finding",
    "SensitivityLevel",
    "SensitivityReport",
    "classify",
    "redact",
]


class SensitivityLevel(StrEnum):
    """How sensitive a text is; members compare by severity, not alphabetically."""

    NONE = "none"
    SPECIAL = "special"
    REGULATED = "regulated"
    SECRET = "secret"

    @property
    def severity(self) -> int:
        """0 for ``NONE`` up to 3 for ``SECRET``."""
        return _SEVERITY[self]

    def __lt__(self, other: str) -> bool:
        if isinstance(other, SensitivityLevel):
            return self.severity < other.severity
        return str.__lt__(self, other)

    def __le__(self, other: str) -> bool:
        if isinstance(other, SensitivityLevel):
            return self.severity <= other.severity
        return str.__le__(self, other)

    def __gt__(self, other: str) -> bool:
        if isinstance(other, SensitivityLevel):
            return self.severity > other.severity
        return str.__gt__(self, other)

    def __ge__(self, other: str) -> bool:
        if isinstance(other, SensitivityLevel):
            return self.severity >= other.severity
        return str.__ge__(self, other)


_SEVERITY: Final = {
    SensitivityLevel.NONE: 0,
    SensitivityLevel.SPECIAL: 1,
    SensitivityLevel.REGULATED: 2,
    SensitivityLevel.SECRET: 3,
}

SPECIAL_CATEGORIES: Final = frozenset(
    {
        "health",
        "religion",
        "sexual_orientation",
        "ethnicity",
        "political_opinion",
        "biometric",
        "trade_union",
    }
)
"""Special categories reported. GDPR art. 9 lists trade-union membership too, and treats genetic
data with health here; gender identity is reported under ``sexual_orientation`` ("sex life or
sexual orientation"), so consent is asked for one category rather than a new one."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One detection.

    Attributes:
        level: Severity of what was found.
        rule: Rule that fired (``github_token``, ``password_in_prose``, ``payment_card``...).
        start: Start of the span in the classified text.
        end: End of the span (exclusive). For secrets and regulated values this is the value
            itself, so redaction can keep the surrounding sentence; for special categories it is
            the statement, from its subject to the term.
        category: Special category, or ``government_id`` / ``financial`` for regulated values.
    """

    level: SensitivityLevel
    rule: str
    start: int
    end: int
    category: str | None = None


@dataclass(frozen=True, slots=True)
class SensitivityReport:
    """Everything :func:`classify` found in one text, ordered by position."""

    findings: tuple[Finding, ...]

    @property
    def level(self) -> SensitivityLevel:
        """The most severe level found; ``NONE`` when nothing was."""
        best = SensitivityLevel.NONE
        for f in self.findings:
            if _SEVERITY[f.level] > _SEVERITY[best]:
                best = f.level
        return best

    @property
    def categories(self) -> frozenset[str]:
        """Special categories found (``health``, ``religion``...)."""
        return frozenset(
            f.category
            for f in self.findings
            if f.level is SensitivityLevel.SPECIAL and f.category is not None
        )

    @property
    def is_blocked(self) -> bool:
        """True when the text holds a secret or a regulated value and may not be stored as is."""
        return any(f.level in _BLOCKING for f in self.findings)


_BLOCKING: Final = frozenset({SensitivityLevel.SECRET, SensitivityLevel.REGULATED})
_SECRET = SensitivityLevel.SECRET
_REGULATED = SensitivityLevel.REGULATED
_SPECIAL = SensitivityLevel.SPECIAL


def _words(text: str) -> frozenset[str]:
    """A word set written as a whitespace-separated block (keeps long lists readable)."""
    return frozenset(text.split())


# --------------------------------------------------------------------------------------------
# Text preparation. Detection runs on the folded view of ``policy.normalize`` (the text the model
# reads, lookalikes folded to ASCII, separators to ASCII), so "pаssword" with a Cyrillic а, a key
# split by U+200B or an SSN written with en dashes is still seen; spans are mapped back to the
# caller's text.
# --------------------------------------------------------------------------------------------

# --------------------------------------------------------------------------------------------
# Shared helpers
# --------------------------------------------------------------------------------------------

_Hit = tuple[SensitivityLevel, str, int, int, str | None]

_PLACEHOLDER_WORDS = re.compile(  # matched against the lowercased value
    r"(?:your|here|example|placeholder|redacted|dummy|sample|changeme|change_me|insert|"
    r"replace|xxxx|\*\*\*|\.\.\.|…|<|>|\$\{|\{\{|%\(|secret_?key_?here|todo|fixme|lorem)"
)
_DUMMY_VALUES: Final = frozenset(
    {
        "password",
        "passwd",
        "pass",
        "pwd",
        "secret",
        "token",
        "apikey",
        "api_key",
        "api-key",
        "key",
        "none",
        "null",
        "nil",
        "undefined",
        "true",
        "false",
        "test",
        "testing",
        "username",
        "user",
        "admin:admin",
        "foo",
        "bar",
        "foobar",
        "string",
        "str",
    }
)


def _is_placeholder(value: str) -> bool:
    """Obvious stand-ins: ``YOUR_KEY_HERE``, ``sk-...``, ``<token>``, ``${VAR}``, ``xxxx``."""
    v = value.strip("\"'`")
    if not v or v.lower() in _DUMMY_VALUES:
        return True
    if _PLACEHOLDER_WORDS.search(v.lower()):
        return True
    if v[0] in "$%[{(<":
        return True
    body = v.split("_", 1)[-1] if len(v) > 8 else v
    if len(body) < 6:
        return False
    most = Counter(body).most_common(1)[0][1]
    return most / len(body) > 0.6


def _entropy(s: str) -> float:
    n = len(s)
    return -sum(c / n * math.log2(c / n) for c in Counter(s).values())


def _char_classes(s: str) -> int:
    return any(c.islower() for c in s) + any(c.isupper() for c in s) + any(c.isdigit() for c in s)


_HEX = re.compile(r"[0-9a-fA-F]+")
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_IDENTIFIER_LIKE = re.compile(
    r"[a-z]+(?:[_\-.][a-z]+)*|[a-z]+(?:[A-Z][a-z]+)+|(?:[A-Z][a-z]+){2,}|[A-Z]+(?:_[A-Z]+)+"
)
_HASH_LENGTHS: Final = frozenset({32, 40, 56, 64, 96, 128})


def _is_hash_like(value: str) -> bool:
    """Hashes, UUIDs and git SHAs are identifiers, not credentials."""
    if _UUID.fullmatch(value):
        return True
    return bool(_HEX.fullmatch(value)) and (len(value) in _HASH_LENGTHS or 7 <= len(value) <= 12)


# --------------------------------------------------------------------------------------------
# Secrets: vendor token formats
# --------------------------------------------------------------------------------------------

_VENDOR_RULES: Final = (
    ("aws_access_key", r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}(?![A-Za-z0-9])"),
    ("github_token", r"gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{50,255}"),
    (
        "gitlab_token",
        r"(?:glpat|gldt|glrt|glptt|glft|glsoat|glcbt|glimt|gloas)-[A-Za-z0-9_\-]{20,}"
        r"|GR1348941[A-Za-z0-9_\-]{20,}",
    ),
    ("slack_token", r"xox[abposre]-[A-Za-z0-9\-]{10,}|xapp-\d-[A-Za-z0-9\-]{20,}"),
    ("slack_webhook", r"hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_\-]{20,}"),
    ("discord_webhook", r"discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_\-]{40,}"),
    ("stripe_key", r"(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9+/=]{24,}"),
    ("anthropic_api_key", r"sk-ant-[A-Za-z0-9_\-]{20,}"),
    ("openai_api_key", r"sk-(?:proj|svcacct|admin)-[A-Za-z0-9_\-]{20,}|sk-[A-Za-z0-9]{32,}"),
    ("google_api_key", r"AIza[0-9A-Za-z_\-]{35}"),
    ("google_oauth_secret", r"GOCSPX-[A-Za-z0-9_\-]{20,}"),
    ("google_oauth_token", r"ya29\.[0-9A-Za-z_\-]{20,}|1//0[0-9A-Za-z_\-]{40,}"),
    ("jwt", r"eyJ[A-Za-z0-9_\-]{5,}\.eyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]*"),
    ("npm_token", r"npm_[A-Za-z0-9]{36}"),
    ("pypi_token", r"pypi-[A-Za-z0-9_\-]{50,}"),
    ("huggingface_token", r"hf_[A-Za-z0-9]{30,}|api_org_[A-Za-z0-9]{30,}"),
    ("twilio_api_key", r"SK[0-9a-fA-F]{32}(?![0-9a-fA-F])"),
    ("sendgrid_api_key", r"SG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}"),
    ("mailgun_api_key", r"key-[0-9a-f]{32}"),
    ("mailchimp_api_key", r"[0-9a-f]{32}-us\d{1,2}"),
    ("azure_client_secret", r"[A-Za-z0-9_~.\-]{3}\dQ~[A-Za-z0-9_~.\-]{31,34}"),
    ("digitalocean_token", r"do[opr]_v1_[a-f0-9]{64}"),
    ("shopify_token", r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"),
    ("linear_api_key", r"lin_api_[A-Za-z0-9]{40}"),
    ("databricks_token", r"dapi[a-f0-9]{32}(?:-\d)?"),
    ("telegram_bot_token", r"\d{8,10}:AA[A-Za-z0-9_\-]{32,}"),
    ("atlassian_token", r"ATATT3[A-Za-z0-9_\-=]{60,}"),
    ("postman_api_key", r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}"),
    ("vault_token", r"hv[sbr]\.[A-Za-z0-9_\-]{24,}"),
    ("grafana_token", r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2}"),
    ("supabase_token", r"sbp_[a-f0-9]{40}"),
    ("replicate_token", r"r8_[A-Za-z0-9]{37}"),
    ("groq_api_key", r"gsk_[A-Za-z0-9]{48,}"),
    ("xai_api_key", r"xai-[A-Za-z0-9]{60,}"),
    ("notion_token", r"(?:secret|ntn)_[A-Za-z0-9]{43,}"),
    ("doppler_token", r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}"),
    ("square_token", r"sq0(?:atp|csp)-[0-9A-Za-z_\-]{22,}"),
    ("meta_access_token", r"EAA[ABCG][A-Za-z0-9]{60,}"),
    ("dropbox_token", r"sl\.[A-Za-z0-9_\-]{100,}"),
    ("age_secret_key", r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}"),
    ("private_key", r"b3BlbnNzaC1rZXktdjE[A-Za-z0-9+/=]{20,}"),
    ("private_key", r"MII[A-Za-z0-9+/]{1,3}(?:IBAAK|QIBADAN)[A-Za-z0-9+/=]{40,}"),
    ("azure_storage_key", r"(?i:AccountKey|SharedAccessKey)=[A-Za-z0-9+/]{30,}={0,2}"),
    ("azure_sas_token", r"(?<=[?&])sig=[A-Za-z0-9%+/=]{30,}"),
)
_VENDOR = re.compile(
    r"(?<![A-Za-z0-9])(?:"
    + "|".join(f"(?P<r{i}>{pattern})" for i, (_, pattern) in enumerate(_VENDOR_RULES))
    + ")"
)
_VENDOR_NAMES: Final = {f"r{i}": name for i, (name, _) in enumerate(_VENDOR_RULES)}
_VENDOR_VALUE_START: Final = {"azure_storage_key": "=", "azure_sas_token": "="}

_TOKEN_GATE = re.compile(r"[A-Za-z0-9_\-+/=.:~%]{16,}")


def _vendor_tokens(t: str, spans: list[tuple[int, int]]) -> Iterator[_Hit]:
    for m in (m for s, e in spans for m in _VENDOR.finditer(t, s, e)):
        rule = _VENDOR_NAMES[m.lastgroup or ""]
        start, end = m.start(), m.end()
        sep = _VENDOR_VALUE_START.get(rule)
        if sep is not None:
            start = t.index(sep, start) + 1
        while end < len(t) and (t[end].isalnum() or t[end] in "_-") and t[end].isascii():
            end += 1
        value = t[start:end]
        if _is_placeholder(value):
            continue
        if rule == "openai_api_key" and _char_classes(value) < 2:
            continue
        if rule == "azure_client_secret" and _char_classes(value) < 3:
            continue
        yield (_SECRET, rule, start, end, None)


_PEM_BEGIN = re.compile(r"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----")
_PEM_END = re.compile(r"-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----")
_PUTTY = re.compile(r"PuTTY-User-Key-File-\d+:")
_PUTTY_END = re.compile(r"Private-(?:MAC|Hash):[^\n]*")


def _private_key_blocks(t: str) -> Iterator[_Hit]:
    for begin_re, end_re in ((_PEM_BEGIN, _PEM_END), (_PUTTY, _PUTTY_END)):
        pos = 0
        while (m := begin_re.search(t, pos)) is not None:
            e = end_re.search(t, m.end())
            end = e.end() if e else len(t)
            yield (_SECRET, "private_key", m.start(), end, None)
            pos = end


# Credentials in URLs: scheme://user:password@host (and token@host for token-shaped userinfo).
_URL_CREDS = re.compile(
    r"(?i)\b[a-z][a-z0-9+.\-]{1,30}://(?P<user>[^\s:/?#@\"'<>\[\]]{0,128})"
    r"(?::(?P<pw>[^\s/?#\"'<>]{1,256}))?@(?P<host>[A-Za-z0-9.\-_\[\]]+)"
)


_CREDENTIAL_PAIR = re.compile(
    r"(?i)\b(?:login|log-in|credentials?|creds|username|user(?:name)?\s*/\s*pass(?:word)?)"
    r"\s*[:=]\s*[^\s/]{2,64}\s*/\s*(?P<pw>[^\s/]{4,128})"
)
_CLI_CREDS = re.compile(
    r"(?<!\S)(?:-u|--user)\s*[\"']?[^\s:\"']{1,64}:(?P<pw>[^\s\"']{1,128})"
    r"|\bsshpass\s+-p\s*[\"']?(?P<pw2>[^\s\"']{1,128})"
    r"|\bmysql(?:dump|admin)?\b[^\n]{0,80}?(?<!\S)-p(?P<pw3>[^\s\"']{3,128})"
    r"|\bredis-cli\b[^\n]{0,80}?(?<!\S)-a\s+[\"']?(?P<pw4>[^\s\"']{3,128})"
)


def _credential_pairs(t: str) -> Iterator[_Hit]:
    """``login: jane@example.com / Summer!2023``: a user and a password side by side."""
    for m in _CREDENTIAL_PAIR.finditer(t):
        pw = m.group("pw").rstrip(".,;)")
        if not _is_placeholder(pw) and (_looks_like_password(pw) or _char_classes(pw) >= 2):
            yield (_SECRET, "password_in_prose", m.start("pw"), m.start("pw") + len(pw), None)


def _url_credentials(t: str) -> Iterator[_Hit]:
    if "-u" in t or "-p" in t or "-a" in t:
        for m in _CLI_CREDS.finditer(t):
            group = next(g for g in ("pw", "pw2", "pw3", "pw4") if m.group(g) is not None)
            if not _is_placeholder(m.group(group)):
                yield (_SECRET, "cli_credentials", m.start(group), m.end(group), None)
    for m in _URL_CREDS.finditer(t):
        pw = m.group("pw")
        if pw is not None:
            if not _is_placeholder(pw):
                yield (_SECRET, "url_credentials", m.start("pw"), m.end("pw"), None)
            continue
        user = m.group("user")
        if len(user) >= 20 and _char_classes(user) >= 2 and not _is_placeholder(user):
            yield (_SECRET, "url_credentials", m.start("user"), m.end("user"), None)


# --------------------------------------------------------------------------------------------
# Secrets: passwords, PINs and codes stated in prose or key=value form, in several languages
# --------------------------------------------------------------------------------------------

_PW_KEYWORDS = (
    r"(?P<pw>pass(?:word|wd|phrase|code)s?|pass[ \-](?:word|phrase|code)|pwd|pw|p/w|passkey"
    r"|pass(?=\s*(?:[:=：]|is\s|was\s))|clave"
    r"|contraseña|contrasena|clave de acceso|mot de passe|mdp|passwort|kennwort|senha"
    r"|wachtwoord|parola d'ordine|пароль|密码|密碼|口令|パスワード|비밀번호"
    r"|(?:wi-?fi|network|router) (?:key|password|pass)|wlan-schlüssel|wlan-passwort"
    r"|wpa[23]?(?:[ -]?(?:psk|key|passphrase))?)"
    r"|(?P<pin>pin(?: ?(?:code|number|no\.?|#))?|pin-code|código pin|code pin|geheimzahl"
    r"|(?:door|gate|alarm|garage|keypad|lock|safe|locker|entry|building|unlock|access|security)"
    r" (?:code|combination)|combination|支付密码|取款密码|门禁密码|pin码|digicode"
    r"|code (?:de la |d'|du )?(?:porte|entrée|portail|alarme|immeuble)"
    r"|código (?:de la |del )?(?:puerta|alarma|portal)|tür-?code|alarmcode|zahlencode)"
    r"|(?P<otp>(?:verification|confirmation|one[- ]?time|otp|2fa|mfa|sms|login|auth(?:entication)?"
    r"|backup|recovery) codes?|otp|验证码|código de verificación|bestätigungscode"
    r"|code de vérification)"
    r"|(?P<seed>seed phrase|recovery phrase|mnemonic(?: phrase)?|secret recovery phrase|助记词)"
)
# Gates run on the lowercased text without IGNORECASE, which lets the engine skip ahead fast.
_PW_GATE = re.compile(
    r"pass|pw|p/w|wpa|digicode|contrase|clave|mdp|kennwort|senha|wachtwoord|parola|пароль|密|口令"
    r"|パスワード|비밀번호|pin|code|combination|geheimzahl|otp|验证码|código|phrase|mnemonic|助记词"
    r"|schlüssel"
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
_PW_BODY = (
    r"(?:(?<![A-Za-z])|(?=[^\x00-\x7f])|(?=pass(?:word|wd)))(?P<dash>--?)?(?:"
    + _PW_KEYWORDS
    + r")(?P<suffix>[A-Za-z0-9_]{0,20})"
    r"(?P<mid>(?:\s+(?:for|to|of|on|at|de|del|da|do|du|des|für|fuer|von|zu|pour|para|en|in|bei"
    r"|auf|zum|zur|am|dla)(?:\s+(?!(?:" + _SEP_WORDS + r")\b)[^\s:=：,.;!?\"'()]{1,30}){1,3})"
    r"|\s+(?!(?:" + _SEP_WORDS + "|" + _NOT_A_NAME + r")(?!\w))[^\s:=：,.;!?\"'()]{2,30}"
    r"(?=\s+(?:" + _SEP_WORDS + r")(?!\w)|\s*[:=：])|)"
    r"(?P<adv>(?:\s+(?:now|still|actually|currently|again|always|ahora|jetzt|maintenant|也|都|还))?)"
    r"(?P<sep>\s*(?:=>|:=|->|→)\s*|\s*[:=：＝]\s*|\s+(?:" + _SEP_WORDS + r")(?!\w)\s*[:=]?\s*"
    r"|\s*(?:是|为|為|就是|改成了?|改为了?|设为|设置为|设置成|还是)\s*|\s+)"
    r"(?P<val>\"[^\"\n]{1,128}\"|'[^'\n]{1,128}'|`[^`\n]{1,128}`|“[^”\n]{1,128}”|「[^」\n]{1,128}」"
    r"|[^\s\"'`“”「」，。；！？、]{1,128})"
)
_PW_RE = re.compile("(?i)" + _PW_BODY)
_PW_RE_LOWER = re.compile(_PW_BODY)  # same rules, run on lowercased text: much faster
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_CODE_REF = re.compile(
    r"\w\(|\w\[|\bos\.|environ|getenv|process\.env|\benv\b|^\$[A-Z_]|^%\w|::|^self\.|^args\.|^this\."
)
_ATTR_ACCESS = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
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
    incorrecta falsch richtig
    """
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
    if _CODE_REF.search(value) or _ATTR_ACCESS.fullmatch(value) or _ENV_NAME.fullmatch(value):
        return False
    if len(value) < 4:
        return False
    sep_s = sep.strip()
    if sep_s in {"=", "->", "→", "=>", ":="} and _LOWER_IDENT.fullmatch(value) and not env_style:
        return False  # ``password = pw``: a variable, not a value (``DB_PASSWORD=x`` is config)
    if value.isalpha() and value.islower():
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
    return has_digit and (has_alpha or has_symbol)


_QUERY_PARAM = re.compile(r"&\w+=")
_WEAK_PW_KEYWORDS: Final = frozenset({"pass", "clave"})
_SEED_WORDS = re.compile(r"(?:[a-z]{3,8}[ ,]+){11,23}[a-z]{3,8}")


def _passwords(t: str, lowered: str) -> Iterator[_Hit]:
    matches = _PW_RE_LOWER.finditer(lowered) if len(lowered) == len(t) else _PW_RE.finditer(t)
    for m in matches:
        kind = next(k for k in ("pw", "pin", "otp", "seed") if m.group(k) is not None)
        suffix = m.group("suffix")
        if suffix and _BAD_SUFFIX.search(suffix):
            continue
        if kind == "seed":
            s = _SEED_WORDS.match(t, m.start("val"))
            if s:
                yield (_SECRET, "seed_phrase", s.start(), s.end(), None)
            continue
        if kind == "pin" and m.group("pin").lower() == "combination" and not m.group("sep").strip():
            continue
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
            end = start + len(value)
        keyword = t[m.start("pw") : m.end("suffix")] if kind == "pw" else ""
        env_style = keyword.isupper() and m.group("sep") == "="
        if keyword.lower() in _WEAK_PW_KEYWORDS and not (quoted or _looks_like_password(value)):
            continue  # "pass"/"clave" are ordinary words too: only a password-shaped value
        if not value or not _password_value_ok(
            kind, value, quoted, m.group("sep"), bool(m.group("dash")), env_style
        ):
            continue
        rule = {"pw": "password_in_prose", "pin": "pin_code", "otp": "one_time_code"}[kind]
        yield (_SECRET, rule, start, end, None)


# --------------------------------------------------------------------------------------------
# Secrets: high-entropy tokens next to key/secret/token words
# --------------------------------------------------------------------------------------------

_KEY_WORDS = re.compile(  # run on the lowercased text; the word boundary is checked on the original
    r"(?:(?P<strong>api[_\-\s.]?key|apikey|x-api-key|api[_\-\s]?token"
    r"|access[_\-\s]?token|refresh[_\-\s]?token|auth[_\-\s]?token|authtoken|_auth|id[_\-\s]?token"
    r"|bearer|secret(?:[_\-\s]?(?:access[_\-\s]?)?key)?|client[_\-\s]?secret"
    r"|private[_\-\s]?key|signing[_\-\s]?key|encryption[_\-\s]?key|master[_\-\s]?key"
    r"|access[_\-\s]?key(?:[_\-\s]?id)?|webhook[_\-\s]?secret|hmac[_\-\s]?key|password|passwd"
    r"|session[_\-\s]?(?:token|secret|key|cookie|id)|session(?=\s*[=:]))"
    r"|(?P<weak>token|credentials?|authorization|auth|key|license[_\-\s]?key|secret|salt)"
    r"|(?P<cjk>密钥|秘钥|令牌|api密钥|访问密钥)"
    r"|(?P<intl>clave(?:\s+de)?\s+(?:api|acceso|secreta)|cl[ée]\s+(?:d'?)?api|cl[ée]\s+secr[èe]te"
    r"|jeton|api-schlüssel|schlüssel|chave(?:\s+de)?\s+api|token\s+de\s+acceso))"
)
_KEY_GATE = re.compile(
    r"key|secret|token|auth|bearer|credential|password|passwd|salt|session|密钥|秘钥|令牌"
    r"|clave|cl[ée]|jeton|schlüssel|chave"
)
_VALUE_TOKEN = re.compile(r"[A-Za-z0-9_\-+/.~][A-Za-z0-9_\-+/=.~]{15,511}")
_DIGEST_PREFIX = re.compile(r"(?i)(?:sha\d{1,3}|md5|blake2b?|sri|integrity)[:\-=]\s*$")
_DIRECT_GAP = re.compile(r"[\"']?\s*(?:[:=＝：]|=>|is|was|是|为)?\s*[\"']?")
_TEMPLATE_OPEN = re.compile(r"(?:\{\{|\$\{|\{%|<%=?|%\()\s*$")
_SRI = re.compile(r"(?i)(?:sha(?:1|256|384|512))-[A-Za-z0-9+/]{20,}={0,2}")
_VERSION_OR_PATH = re.compile(r"(?:[\w\-]+\.)+[A-Za-z]{1,6}|v?\d+(?:\.\d+){1,3}(?:[-+][\w.]+)?")
_BASIC_AUTH = re.compile(r"(?i)\bbasic\s+(?P<v>[A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])")
_AWS_SECRET = re.compile(r"(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])")


def _key_words_near(t: str, lowered: str, spans: list[tuple[int, int]]) -> Iterator[re.Match[str]]:
    """Key/secret/token words at most 60 characters before (or inside) a long token."""
    seen = -1
    budget = 64  # a pathological text of repeated "key=" must not cost quadratic time
    for s, e in spans:
        line_start = t.rfind("\n", 0, s) + 1
        for kw in _KEY_WORDS.finditer(lowered, max(line_start, s - 60, seen + 1), e):
            k = kw.start()
            if k > 0 and t[k - 1].isalpha() and t[k - 1].isascii() and not t[k].isupper():
                continue  # inside a word ("monkey"), unless a camelCase hump ("myApiKey")
            if k > seen:
                seen = k
                budget -= 1
                if budget < 0:
                    return
                yield kw


def _high_entropy(t: str, lowered: str, spans: list[tuple[int, int]]) -> Iterator[_Hit]:
    for kw in _key_words_near(t, lowered, spans):
        strong = kw.group("strong") is not None or kw.group("cjk") is not None
        bearer = kw.group(0).lower() == "bearer"
        line_end = t.find("\n", kw.end())
        window_end = min(kw.end() + 60, len(t) if line_end < 0 else line_end)
        for v in _VALUE_TOKEN.finditer(t, kw.end(), window_end):
            value = v.group(0).rstrip(".")
            gap = t[kw.end() : v.start()]
            direct = _DIRECT_GAP.fullmatch(gap.strip()) is not None
            if _is_placeholder(value) or _SRI.fullmatch(value) or "REDACTED" in value:
                continue
            if _DIGEST_PREFIX.search(t, max(0, v.start() - 12), v.start()):
                continue
            if _TEMPLATE_OPEN.search(t, max(0, v.start() - 4), v.start()):
                continue  # {{ secrets.DEPLOY_KEY }}, ${TOKEN}, <%= key %>
            if _is_hash_like(value) and not (strong and direct):
                continue
            if _IDENTIFIER_LIKE.fullmatch(value) or _VERSION_OR_PATH.fullmatch(value):
                continue
            if value.startswith(("http", "/", "./", "www.", "pk_live_", "pk_test_")):
                continue
            if bearer:
                ok = len(value) >= 16
            elif _HEX.fullmatch(value):
                ok = strong and direct and len(value) >= 16
            else:
                ent = _entropy(value)
                ok = _char_classes(value) >= 2 and (
                    ent >= 3.5 or (ent >= 3.0 and len(value) < 24 and _char_classes(value) == 3)
                )
                if not strong:
                    ok = ok and _char_classes(value) == 3 and len(value) >= 20
            if ok:
                end = v.start() + len(value)
                quote = t[v.start() - 1] if v.start() > 0 else ""
                if quote in "\"'`":
                    close = t.find(quote, end, window_end + 200)
                    if close > 0 and "\n" not in t[end:close]:
                        end = close  # the whole quoted value, symbols included
                yield (_SECRET, "high_entropy_secret", v.start(), end, None)
                break
    for m in _BASIC_AUTH.finditer(t) if "asic" in t else ():
        try:
            decoded = base64.b64decode(m.group("v") + "==", validate=False)
        except (binascii.Error, ValueError):
            continue
        if b":" in decoded and not _is_placeholder(m.group("v")):
            yield (_SECRET, "basic_auth", m.start("v"), m.end("v"), None)


def _aws_secret(t: str, lowered: str) -> Iterator[_Hit]:
    if "aws" not in lowered and "akia" not in lowered and "asia" not in lowered:
        return
    for m in _AWS_SECRET.finditer(t):
        v = m.group(0)
        if _HEX.fullmatch(v) or _char_classes(v) < 3 or _entropy(v) < 4.0 or _is_placeholder(v):
            continue
        yield (_SECRET, "aws_secret_key", m.start(), m.end(), None)


# --------------------------------------------------------------------------------------------
# Regulated: payment cards, IBAN, national identifiers, bank accounts, financial figures
# --------------------------------------------------------------------------------------------

_DIGIT_GATE = re.compile(r"\d(?:\D{0,3}\d){5}")
_ANY_DIGIT = re.compile(r"\d")
# Separators are the ASCII ones: ``normalize.fold`` has turned every Unicode dash, space, slash,
# dot and underscore variant into one of ``DIGIT_SEPARATORS`` before any rule runs.
# ``_`` is a separator, not part of a word: "card_4111…" reads like "card 4111…".
_CARD_CAND = re.compile(r"(?<![^\W_]|[.,\-/])\d(?:[ \-._/]{1,3}\d|\d){11,22}(?![^\W_])(?!\.\d)")
_SEP_RUN = re.compile(r"[ \-._/]+")
_CARD_NEG = re.compile(
    r"(?i)(?:tracking|track|order|invoice|isbn|issn|phone|tel|fax|mobile|imei|serial|ref"
    r"|reference|confirmation|booking|awb|parcel|shipment|ticket|case|订单|快递|单号|运单|电话"
    r"|手机)[^\n]{0,20}$"
)
_CARD_POS = re.compile(
    r"(?i)(?:card|visa|master ?card|amex|american express|discover|diners|jcb|maestro|unionpay"
    r"|卡号|银行卡|信用卡|借记卡|储蓄卡|tarjeta|karte|carte|cartão|kreditkarte)[^\n]{0,30}$"
)


def _card_prefix_ok(d: str) -> bool:
    n = len(d)
    two, four = int(d[:2]), int(d[:4])
    if d[0] == "4":
        return n in (13, 16, 19)
    if 51 <= two <= 55 or 2221 <= four <= 2720:
        return n == 16
    if two in (34, 37):
        return n == 15
    if two in (36, 38, 39) or 300 <= int(d[:3]) <= 305:
        return 14 <= n <= 19
    if four in (2131, 1800):
        return n == 15
    if two == 35:
        return 16 <= n <= 19
    if d[:2] in ("50", "56", "57", "58", "63", "67") or d[:4] in ("6304", "6759", "0604", "6390"):
        return 12 <= n <= 19
    if d[0] == "6":
        return 16 <= n <= 19
    return False


def _cards(t: str, taken: list[tuple[int, int]]) -> Iterator[_Hit]:
    for m in _CARD_CAND.finditer(t):
        if _overlaps(m.start(), m.end(), taken):
            continue
        groups: list[tuple[int, int]] = []
        pos = m.start()
        for sep in _SEP_RUN.finditer(t, m.start(), m.end()):
            groups.append((pos, sep.start()))
            pos = sep.end()
        groups.append((pos, m.end()))
        before = t[max(0, m.start() - 40) : m.start()]
        positive = bool(_CARD_POS.search(before))
        if not positive and _CARD_NEG.search(before):
            continue
        best: tuple[int, int] | None = None
        for i in range(len(groups)):
            digits = ""
            for j in range(i, min(len(groups), i + 8)):
                digits += t[groups[j][0] : groups[j][1]]
                if len(digits) > 19:
                    break
                if len(digits) < 12:
                    continue
                valid = _luhn.is_valid(digits) and _card_prefix_ok(digits)
                if not valid and positive and 13 <= len(digits) <= 19:
                    valid = _luhn.is_valid(digits) or digits.startswith("62")
                span = (groups[i][0], groups[j][1])
                if valid and (best is None or span[1] - span[0] > best[1] - best[0]):
                    best = span
            if best is not None:
                break
        if best is not None:
            yield (_REGULATED, "payment_card", best[0], best[1], "financial")


_ID_SEPARATORS = re.compile(r"[\s\-._/]")
# One separator between digit groups, with optional spaces around it ("234 / 56 / 7890").
_SEP = r"(?:\s?[\-._/]\s?|\s)"
_CN_RIC = re.compile(
    r"(?<![0-9A-Za-z])[1-9]\d{5}[ \-_.]?(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])"
    r"[ \-_.]?\d{3}[\dXx](?![0-9A-Za-z])"
)


def _cn_resident_ids(t: str) -> Iterator[_Hit]:
    for m in _CN_RIC.finditer(t):
        number = _ID_SEPARATORS.sub("", m.group(0)).upper()
        if _cn_ric.is_valid(number):
            yield (_REGULATED, "cn_resident_id", m.start(), m.end(), "government_id")


_IBAN_LENGTHS: Final = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22,
    "BI": 27, "BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DJ": 27,
    "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24, "FI": 18, "FK": 18, "FO": 18, "FR": 27,
    "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28, "HR": 21, "HU": 28, "IE": 22,
    "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32,
    "LI": 21, "LT": 20, "LU": 20, "LV": 21, "LY": 25, "MC": 27, "MD": 24, "ME": 22, "MK": 19,
    "MN": 20, "MR": 27, "MT": 31, "MU": 30, "NI": 28, "NL": 18, "NO": 15, "OM": 23, "PK": 24,
    "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "RU": 33, "SA": 24, "SC": 31,
    "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "SO": 23, "ST": 25, "SV": 28, "TL": 23,
    "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20, "YE": 30,
}  # fmt: skip


def _iban_checksum_ok(compact: str) -> bool:
    """ISO 13616 mod-97 over the rearranged IBAN. National check digits inside the BBAN are not
    checked: a mistyped account is still an account, and the floor must not let it through."""
    if not compact.isalnum() or not compact[2:4].isdigit():
        return False
    rearranged = compact[4:] + compact[:4]
    return int("".join(str(int(c, 36)) for c in rearranged)) % 97 == 1


# Spaces or hyphens only (Unicode ones are folded to these): underscores and dots would make
# snake_case or dotted keys that start with a country code look like accounts.
_IBAN_CAND = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]{2}\d{2}(?:[ \-]?[A-Za-z0-9]){11,32}")


def _ibans(t: str) -> Iterator[_Hit]:
    for m in _IBAN_CAND.finditer(t):
        country = m.group(0)[:2].upper()
        length = _IBAN_LENGTHS.get(country)
        if length is None:
            continue
        positions = [i for i in range(m.start(), m.end()) if t[i].isalnum()]
        if len(positions) < length:
            continue
        compact = "".join(t[i] for i in positions[:length]).upper()
        end = positions[length - 1] + 1
        if end < len(t) and t[end].isalnum():
            continue  # the run goes on without a separator: not this IBAN
        if _iban_checksum_ok(compact):
            yield (_REGULATED, "iban", m.start(), end, "financial")


_SSN = re.compile(r"(?<![\w\-./])(\d{3})(\s?[\-._/]\s?|\s)(\d{2})\2(\d{4})(?![\w\-]|[./]\d)")


def _ssn_ok(area: str, group: str, serial: str) -> bool:
    return (
        area not in ("000", "666")
        and area[0] != "9"
        and group != "00"
        and serial != "0000"
        and f"{area}-{group}-{serial}" not in ("078-05-1120", "219-09-9999", "457-55-5462")
    )


_SSN_CONTEXT = re.compile(r"(?i)(?:ssn|social security|sozialversicherung|seguro social)")


def _ssns(t: str) -> Iterator[_Hit]:
    for m in _SSN.finditer(t):
        if m.group(2) != "-" and not _SSN_CONTEXT.search(t, max(0, m.start() - 40), m.start()):
            continue
        if _ssn_ok(m.group(1), m.group(3), m.group(4)):
            yield (_REGULATED, "us_ssn", m.start(), m.end(), "government_id")


_CPF = re.compile(r"(?<![\d.])\d{3}\.\d{3}\.\d{3}-\d{2}(?![\d])")


def _cpfs(t: str) -> Iterator[_Hit]:
    for m in _CPF.finditer(t):
        if _validate("br.cpf", m.group(0)):
            yield (_REGULATED, "br_cpf", m.start(), m.end(), "government_id")


_VALIDATORS: dict[str, Any] = {}


def _validate(module: str, value: str) -> bool:
    """``stdnum.<module>.is_valid``, importing the module on first use."""
    mod = _VALIDATORS.get(module)
    if mod is None:
        mod = importlib.import_module(f"stdnum.{module}")
        _VALIDATORS[module] = mod
    try:
        return bool(mod.is_valid(value))
    except Exception:
        return False


# Identifiers stated in context: a keyword, then within a short window a value of the right shape.
_ID_SPECS: Final = (
    # (group, keyword regex, value regex, validators or None, rule, category)
    (
        "passport",
        r"passport(?:\s*(?:number|no\.?|num|#))?|reisepass(?:nummer)?|passnummer|pasaporte"
        r"|passeport|passaporte|passaporto|护照(?:号码|号)?|護照(?:號碼|號)?|港澳通行证|旅行证件",
        r"[A-Z]{1,2}\d{6,9}|\d{8,9}|[CFGHJKLMNPRTVWXYZ][CFGHJKLMNPRTVWXYZ0-9]{8}"
        r"|[A-Z0-9]{6,10}",
        None,
        "passport_number",
        "government_id",
    ),
    (
        "de_svnr",
        r"sozialversicherungsnummer|rentenversicherungsnummer|versicherungsnummer|svnr|rvnr",
        r"\d{2}\s?\d{6}\s?[A-Za-z]\s?\d{2,3}",
        None,
        "de_social_insurance",
        "government_id",
    ),
    (
        "cvv",
        r"cvv2?|cvc2?|csc|card\s+security\s+code|security\s+code|安全码|cvv码",
        r"\d{3,4}",
        None,
        "card_security_code",
        "financial",
    ),
    (
        "ssn",
        r"ssn|social\s+security(?:\s+(?:number|no\.?|#))?|social(?=\s*(?:is|was|:|#|number))",
        rf"\d{{3}}{_SEP}?\d{{2}}{_SEP}?\d{{4}}",
        ("us.ssn",),
        "us_ssn",
        "government_id",
    ),
    (
        "itin",
        r"itin",
        rf"9\d{{2}}{_SEP}?\d{{2}}{_SEP}?\d{{4}}",
        ("us.itin",),
        "us_itin",
        "government_id",
    ),
    (
        "nino",
        r"national\s+insurance(?:\s+(?:number|no\.?))?|\bni\s+(?:number|no)|nino",
        r"[A-CEGHJ-PR-TW-Za-ceghj-pr-tw-z][A-CEGHJ-NPR-TW-Za-ceghj-npr-tw-z]\s?\d{2}\s?\d{2}"
        r"\s?\d{2}\s?[A-Da-d]",
        ("nino",),
        "uk_nino",
        "government_id",
    ),
    (
        "nhs",
        r"nhs\s+(?:number|no\.?)",
        rf"\d{{3}}{_SEP}?\d{{3}}{_SEP}?\d{{4}}",
        ("gb.nhs",),
        "uk_nhs",
        "government_id",
    ),
    (
        "es",
        r"dni|nie|nif|documento\s+nacional\s+de\s+identidad",
        r"[XYZxyz]?\d{7,8}[\- ]?[A-Za-z]",
        ("es.dni", "es.nie", "es.nif"),
        "es_dni",
        "government_id",
    ),
    (
        "de_tax",
        r"steuer-?id(?:entifikationsnummer)?|steuerliche\s+identifikationsnummer|idnr"
        r"|tax\s+id(?:entification)?(?:\s+(?:number|no\.?))?|\btin\b",
        rf"\d{{2}}{_SEP}?\d{{3}}{_SEP}?\d{{3}}{_SEP}?\d{{3}}|\d{{3}}{_SEP}?\d{{2}}{_SEP}?\d{{4}}"
        r"|\d{2}-\d{7}",
        ("de.idnr", "us.ssn", "us.itin", "us.ein"),
        "tax_id",
        "government_id",
    ),
    (
        "de_id",
        r"personalausweis(?:nummer)?|ausweisnummer|ausweis-?nr\.?",
        r"[CFGHJKLMNPRTVWXYZ0-9]{9,10}",
        None,
        "national_id",
        "government_id",
    ),
    (
        "aadhaar",
        r"aadhaar|aadhar|adhaar|uidai|आधार",
        rf"\d{{4}}{_SEP}?\d{{4}}{_SEP}?\d{{4}}",
        ("in_.aadhaar",),
        "in_aadhaar",
        "government_id",
    ),
    (
        "pan",
        r"pan(?:\s*(?:card|number|no\.?))?"
        r"|permanent\s+account\s+number",
        r"[A-Za-z]{5}\d{4}[A-Za-z]",
        ("in_.pan",),
        "in_pan",
        "government_id",
    ),
    (
        "fr_nir",
        r"num[ée]ro\s+de\s+s[ée]curit[ée]\s+sociale|\bnir\b|carte\s+vitale|num[ée]ro\s+insee",
        r"[12]\s?\d{2}\s?\d{2}\s?(?:\d{2}|2[AB])\s?\d{3}\s?\d{3}\s?\d{2}",
        ("fr.nir",),
        "fr_nir",
        "government_id",
    ),
    (
        "it_cf",
        r"codice\s+fiscale",
        r"[A-Za-z]{6}\d{2}[A-Za-z]\d{2}[A-Za-z]\d{3}[A-Za-z]",
        ("it.codicefiscale",),
        "it_codice_fiscale",
        "government_id",
    ),
    (
        "ca_sin",
        r"social\s+insurance\s+number|sin",
        rf"\d{{3}}{_SEP}?\d{{3}}{_SEP}?\d{{3}}",
        ("ca.sin",),
        "ca_sin",
        "government_id",
    ),
    ("nl_bsn", r"bsn|burgerservicenummer", r"\d{9}", ("nl.bsn",), "nl_bsn", "government_id"),
    ("br_cpf", r"cpf", r"\d{3}\.?\d{3}\.?\d{3}-?\d{2}", ("br.cpf",), "br_cpf", "government_id"),
    (
        "cn_ric",
        r"身份证(?:号码|号)?|居民身份证|身份證(?:號碼|號)?|resident\s+id(?:entity)?(?:\s+(?:card|number))?"
        r"|chinese\s+id(?:\s+(?:card|number))?|id\s+card(?:\s+(?:number|no\.?))?",
        r"\d{17}[\dXx]|\d{15}",
        None,
        "cn_resident_id",
        "government_id",
    ),
    (
        "license",
        r"driver'?s?\s+licen[cs]e(?:\s+(?:number|no\.?|#))?|driving\s+licen[cs]e(?:\s+number)?"
        r"|\bdl\s*(?:number|no\.?|#)|führerschein(?:nummer)?|permis\s+de\s+conduire"
        r"|licencia\s+de\s+conducir|驾驶证(?:号)?|驾照(?:号)?",
        r"[A-Za-z0-9\-]{5,18}",
        None,
        "drivers_license",
        "government_id",
    ),
    (
        "national",
        r"national\s+id(?:entity)?(?:\s+(?:card|number|no\.?))?|national\s+identification\s+number"
        r"|identity\s+(?:card\s+)?number|citizen\s+id|c[ée]dula|n[uú]mero\s+de\s+identidad"
        r"|carte\s+d'identit[ée]|personnummer|henkilötunnus|pesel|\bid\s+(?:number|no\.?)"
        r"|身份号码|证件号(?:码)?|medicare\s+(?:number|card|no\.?)|health\s+insurance\s+(?:number|id)"
        r"|医保卡号|社保卡号|社保号|krankenversichertennummer|versichertennummer",
        r"[A-Za-z0-9\-]{6,20}",
        None,
        "national_id",
        "government_id",
    ),
    (
        "card",
        r"card\s*(?:number|no\.?|#)|credit\s+card|debit\s+card|卡号|信用卡号?|银行卡号?"
        r"|kartennummer|num[ée]ro\s+de\s+carte|n[uú]mero\s+de\s+tarjeta",
        r"\d(?:[ \-._/]?\d){11,18}",
        None,
        "payment_card",
        "financial",
    ),
    (
        "routing",
        r"routing\s*(?:number|no\.?|#)?|aba\s*(?:routing\s*)?(?:number|no\.?|#)?",
        r"\d{9}",
        ("us.rtn",),
        "routing_number",
        "financial",
    ),
    (
        "bank",
        r"(?:bank\s+)?account\s*(?:number|no\.?|num|#)|bank\s+account|acct\.?\s*(?:number|no\.?|#)?"
        r"|(?:checking|savings)\s+account|sort\s*code|bsb(?:\s*number)?|kontonummer"
        r"|bankleitzahl|\bblz\b|n[uú]mero\s+de\s+cuenta|cuenta\s+bancaria|num[ée]ro\s+de\s+compte"
        r"|\brib\b|n[uú]mero\s+da\s+conta|conta\s+corrente|银行账号|银行帐号|账号|帳號|银行账户"
        r"|账户号码|帐户号码|开户账号",
        r"\d(?:[ \-._]?\d){5,19}",
        None,
        "bank_account",
        "financial",
    ),
)
# Gates: a word of the text (see ``_detect``) or, for CJK, a substring must be present.
_ID_GATE_WORDS: Final = _words(
    """
    passport reisepass reisepassnummer passnummer pasaporte passeport passaporte passaporto
    social sozialversicherungsnummer insurance documento steuer steuerid steueridentifikationsnummer
    steuerliche idnr tax ausweis personalausweis personalausweisnummer ausweisnummer ausweis
    aadhaar aadhar adhaar uidai permanent sécurité securite vitale insee fiscale
    burgerservicenummer resident chinese driver driver's drivers driving führerschein
    führerscheinnummer permis licencia national identity identification citizen cédula cedula
    identidad identité personnummer henkilötunnus pesel medicare health versichertennummer
    krankenversichertennummer rentenversicherungsnummer versicherungsnummer svnr rvnr card karte
    kartennummer cvv cvv2 cvc cvc2 csc security carte
    tarjeta routing account acct checking
    savings sort konto kontonummer bankleitzahl cuenta compte conta ssn itin tin ni nino nhs dni
    nie nif pan nir sin bsn cpf dl aba bsb blz rib id
    """
)
_ID_GATE_CJK = re.compile(
    r"安全码|护照|護照|通行证|旅行证件|身份|證|证件|驾驶|驾照|医保|社保|卡|账|帳|आधार"
)
_ID_KEYWORDS = re.compile(  # run on the lowercased text
    r"(?<![a-z])(?:" + "|".join(f"(?P<{g}>{kw})" for g, kw, *_ in _ID_SPECS) + r")(?![a-z])"
)
_UPPER_ONLY_KEYWORDS: Final = frozenset({"pan", "sin"})  # "PAN", "SIN"; not "pan", "sin"
_ID_VALUES: Final = {
    g: (re.compile(r"(?<![A-Za-z0-9])(?:" + val + r")(?![A-Za-z0-9])"), vals, rule, cat)
    for g, _, val, vals, rule, cat in _ID_SPECS
}
_ID_NEG_BEFORE = re.compile(  # lowercased text
    r"(?:order|tracking|invoice|customer|employee|student|member|ticket|transaction|booking"
    r"|session|product|device|request|case|aws|account|user|github|app|client|game|steam)"
    r"[\s_\-]*$"
)
_ID_FILLER = re.compile(  # lowercased text
    r"(?:[\s:：#=.\-]|is|was|are|number|no|num|ist|lautet|es|est|é|是|为|為|号码|号)*"
)
_NINO_BAD_PREFIX: Final = frozenset({"BG", "GB", "NK", "KN", "TN", "NT", "ZZ"})


def _id_value_ok(group: str, value: str, validators: tuple[str, ...] | None) -> bool:
    compact = _ID_SEPARATORS.sub("", value).upper()
    if validators is None:
        digits = sum(c.isdigit() for c in compact)
        if group == "passport":
            return digits >= 5 or (digits >= 3 and len(compact) == 9)
        if group in {"national", "license", "de_id"}:
            return digits >= 5 and not _is_placeholder(value)
        if group == "cn_ric":  # stated as an id: a mistyped check digit is still an id
            return len(compact) == 15 or _CN_RIC.fullmatch(compact) is not None
        return True
    if validators == ("nino",):
        return compact[:2] not in _NINO_BAD_PREFIX
    if group == "ssn":
        return len(compact) == 9 and _ssn_ok(compact[:3], compact[3:5], compact[5:])
    return any(_validate(v, compact) for v in validators)


def _contextual_ids(t: str, lowered: str) -> Iterator[_Hit]:
    for m in _ID_KEYWORDS.finditer(lowered):
        group = m.lastgroup or ""
        if m.group(0) in _UPPER_ONLY_KEYWORDS and not t[m.start() : m.end()].isupper():
            continue
        if group in {"national", "bank"} and _ID_NEG_BEFORE.search(
            lowered, max(0, m.start() - 24), m.start()
        ):
            continue
        value_re, validators, rule, category = _ID_VALUES[group]
        line_end = t.find("\n", m.end())
        limit = min(m.end() + 40, len(t) if line_end < 0 else line_end)
        filler = _ID_FILLER.match(lowered, m.end(), limit)
        start = filler.end() if filler else m.end()
        v = value_re.search(t, start, min(limit, start + 30))
        if v is None:
            continue
        if not _id_value_ok(group, v.group(0), validators):
            continue
        level = _REGULATED
        yield (level, rule, v.start(), v.end(), category)


# Exact financial figures about the user.
_AMOUNT = (
    r"(?:(?:[$€£¥₹]|US\$|USD|EUR|GBP|CNY|RMB|R\$)\s?\d[\d,.\s]*\d(?:\s?(?:[kKmM]\b|thousand"
    r"|million|grand))?"
    r"|[$€£¥₹]\s?\d(?:\s?(?:[kKmM]\b|thousand|million|grand))?"
    r"|\d[\d,.]*\s?(?:[kK]\b|thousand|grand|million|dollars|euros?|pounds|yuan|rmb|usd|eur|gbp"
    r"|cny|bucks|€|\$|£|元|块|万)"
    r"|\d{1,3}(?:[,.\s]\d{3})+(?:[.,]\d{1,2})?|\d{4,}(?:[.,]\d{1,2})?|\d+[.,]\d{2}(?!\d))"
)
_AMOUNT_RE = re.compile(r"(?<![A-Za-z0-9.,])(?:" + _AMOUNT + r")")
# "my salary ... <amounts>": every amount in the rest of the clause is redacted.
_FIN_SUBJECTS: Final = (
    re.compile(
        r"(?i)\b(?:my|our|user's|the\s+user's)\s+(?:[a-z()\-0-9]+\s+){0,3}?"
        r"(?:salary|salaries|income|pay|paycheck|take-home(?:\s+pay)?|wages?|earnings"
        r"|compensation|bonus|balance|savings|net\s+worth|debt|debts|loan|loans|mortgage"
        r"|credit\s+limit|portfolio|pension|401\(?k\)?|ira|inheritance|tax\s+refund|assets"
        r"|overdraft|arrears|(?:checking|savings|bank|brokerage|investment)\s+account|wallet)\b"
    ),
    re.compile(
        r"(?i)\b(?:mi|mis|mein|meine|meinem|mon|ma|mes)\s+(?:[^\s]+\s+)?(?:salario|sueldo|saldo"
        r"|ingresos|deuda|hipoteca|patrimonio|gehalt|einkommen|kontostand|jahresgehalt"
        r"|monatsgehalt|schulden|ersparnisse|vermögen|salaire|solde|revenu|revenus|dette|épargne"
        r"|patrimoine)\b"
    ),
)
_CLAUSE_END = re.compile(r"[!?\n;]|\.(?!\d)|\bbut\b")
_ZH_NUMBER = re.compile(r"信用分|[一二三四五六七八九十两百]+[万千]")
_YEAR = re.compile(r"(?:19|20)\d{2}")
_FIN_PATTERNS: Final = (
    re.compile(
        r"(?i)\b(?:my|our)\s+(?:fico\s+|credit\s+)?(?:credit\s+score|fico(?:\s+score)?)"
        r"(?:\s+(?:is|was|of|sits\s+at|came\s+back\s+at|dropped\s+to|rose\s+to|=|:))+\s*"
        r"(?P<amt>\d{3})\b"
    ),
    re.compile(
        r"(?i)\bI(?:\s*'m|\s+am)?\s+(?:currently\s+|now\s+|only\s+|also\s+)?(?P<verb>earn|earning"
        r"|make|making|made|earned|take\s+home|bring\s+in|get\s+paid|got\s+paid|(?:'m|am)\s+paid"
        r"|paid|owe|owed|have\s+saved|saved|have|had|inherited|net|gross|still\s+owe)"
        r"\s+(?:about|around|roughly|approximately|exactly|over|nearly|almost|just\s+under"
        r"|just\s+over|only|close\s+to)?\s*(?P<amt>" + _AMOUNT + r")(?P<tail>[^.!?\n]{0,40})"
    ),
    re.compile(
        r"(?:我|本人)(?:的|现在|目前|每月|每个月|一个月|一年|每年|税前|税后|现在的|目前的)*"
        r"(?:工资|月薪|年薪|薪水|薪资|收入|月收入|年收入|存款|积蓄|余额|银行余额|账户余额|卡里|负债"
        r"|欠款|贷款|房贷|车贷|信用卡欠款|信用分|芝麻信用分|公积金|资产|净资产)"
        r"[^，。！？\n\d]{0,8}?(?P<amt>\d[\d,，.]*\s*(?:万|千|元|块|美元|人民币|[kKwW])?"
        r"|[一二三四五六七八九十两百]+(?:万|千)[一二三四五六七八九]?(?:元|块)?)"
    ),
    re.compile(
        r"我(?:一个月|每月|每个月|每年|一年|月|年)?(?:能)?(?:挣|赚|收入|拿|到手|存了|欠了?|还欠|入)"
        r"(?:了)?(?:大概|大约|约|差不多|将近)?(?P<amt>\d[\d,，.]*\s*(?:万|千|元|块|美元|[kKwW])"
        r"|\d{4,}|[一二三四五六七八九十两百]+(?:万|千)[一二三四五六七八九]?(?:元|块)?)"
    ),
    re.compile(
        r"(?i)\bI(?:\s*'m|\s+am)\s+(?:about\s+|around\s+|over\s+|nearly\s+)?(?P<amt>"
        + _AMOUNT
        + r")\s+in\s+(?:debt|the\s+red|arrears|credit\s+card\s+debt|student\s+(?:loan\s+)?debt)"
    ),
    re.compile(
        r"(?i)\b(?:gano|cobro|ich\s+verdiene|je\s+gagne|je\s+touche)\s+(?:unos\s+|etwa\s+"
        r"|environ\s+)?(?P<amt>" + _AMOUNT + r")"
    ),
)
_FIN_GATE_WORDS: Final = _words(
    """
    salary salaries income pay paid paycheck wage wages earn earns earning earnings earned make
    makes making made balance savings saving saved worth debt debts owe owed loan loans mortgage
    credit fico portfolio pension 401k 401 ira inherited inheritance bonus compensation refund
    assets overdraft arrears have had net gross take bring score sueldo salario saldo gano cobro
    ingresos deuda hipoteca patrimonio gehalt jahresgehalt monatsgehalt einkommen kontostand
    verdiene schulden ersparnisse vermögen salaire solde revenu revenus gagne touche dette
    épargne patrimoine mi mis mein meine mon ma mes account wallet i'm am
    """
)
_FIN_GATE_CJK = re.compile(
    r"工资|薪|收入|存款|积蓄|余额|欠|贷|挣|赚|月入|年入|资产|信用分|公积金|卡里|拿|到手"
)
_PER_PERIOD = re.compile(
    r"(?i)^\s*(?:(?:a|per|/|an|each|every)\s*(?:year|yr|month|mo|week|wk|hour|hr|annum)|annually"
    r"|monthly|yearly|weekly|hourly|before\s+tax|after\s+tax|gross|net|salary|in\s+(?:my\s+)?"
    r"(?:savings|the\s+bank|checking|bank|debt|student\s+loans|credit\s+card\s+debt|account"
    r"|crypto|stocks|401k|ira|retirement|brokerage))"
)


_NON_DIGITS = re.compile(r"\D")
_THOUSANDS = re.compile(r"\d\s?k\b|thousand|grand")
_MILLIONS = re.compile(r"\d\s?m\b|million")


def _amount_value(amount: str) -> float:
    """Rough size of an amount, only to tell "$20" from "$95k a year"."""
    digits = _NON_DIGITS.sub("", amount.split(".")[0] if amount.count(".") == 1 else amount)
    value = float(digits or 0)
    low = amount.lower()
    if _THOUSANDS.search(low):
        value *= 1000
    if "万" in amount:
        value *= 10000
    elif _MILLIONS.search(low):
        value *= 1_000_000
    return value


def _financial(t: str) -> Iterator[_Hit]:
    for pattern in _FIN_SUBJECTS:
        for m in pattern.finditer(t):
            stop = _CLAUSE_END.search(t, m.end(), m.end() + 60)
            limit = stop.start() if stop else min(len(t), m.end() + 60)
            for a in _AMOUNT_RE.finditer(t, m.end(), limit):
                amount = a.group(0).rstrip(" ,.")
                if _YEAR.fullmatch(amount):
                    continue
                yield (
                    _REGULATED,
                    "financial_figure",
                    a.start(),
                    a.start() + len(amount),
                    "financial",
                )
    for i, pattern in enumerate(_FIN_PATTERNS):
        for m in pattern.finditer(t):
            amount = m.group("amt").rstrip(" ,.")
            start = m.start("amt")
            end = start + len(amount)
            if i == 1:
                verb = m.group("verb").lower()
                per = bool(_PER_PERIOD.match(m.group("tail")))
                if verb in {"have", "had", "saved", "have saved"} and not per:
                    continue
                if not per and _amount_value(amount) < 1000:
                    continue
            yield (_REGULATED, "financial_figure", start, end, "financial")


# --------------------------------------------------------------------------------------------
# Special categories: a lexicon, and a check that the statement is about the user
# --------------------------------------------------------------------------------------------

# kind: "cond" (condition, medication, practice: a self subject within a few words),
# "ident" (identity word: needs a copula frame such as "I'm a ..."), "poss" (needs "my").
_EN_LEXICON_SRC: Final = {
    ("health", "cond"): """
        diabetes|diabetic|prediabetes|prediabetic|insulin|metformin|ozempic|wegovy|mounjaro
        |semaglutide|hypertension|high blood pressure|high cholesterol|asthma|asthmatic|inhaler
        |epilepsy|epileptic|seizures|seizure disorder|migraine|migraines|cancer|leukemia|lymphoma
        |melanoma|tumor|tumour|chemo|chemotherapy|radiation therapy|radiotherapy|dialysis|hiv
        |hiv positive|hepatitis|tuberculosis|lupus|multiple sclerosis|crohn's|crohns|colitis|ibs
        |celiac|coeliac|arthritis|rheumatoid|fibromyalgia|chronic fatigue|endometriosis|pcos
        |infertility|infertile|ivf|pregnant|pregnancy|miscarriage|trimester|postpartum|menopause
        |adhd|autism|autistic|asperger's|aspergers|dyslexia|dyslexic|depression|depressed
        |anxiety|anxiety disorder|panic attacks|panic disorder|ptsd|ocd|bipolar|schizophrenia
        |schizophrenic|eating disorder|anorexia|anorexic|bulimia|bulimic|insomnia|sleep apnea
        |suicidal|self-harm|self harm|antidepressants|antidepressant|ssri|ssris|sertraline
        |zoloft|prozac|fluoxetine|lexapro|escitalopram|wellbutrin|bupropion|xanax|alprazolam
        |adderall|ritalin|vyvanse|lithium|seroquel|quetiapine|abilify|lamotrigine|lamictal
        |birth control|prep|methadone|suboxone|naltrexone|hormone therapy|hrt|blood thinners
        |warfarin|eliquis|levothyroxine|hypothyroidism|hyperthyroidism|hashimoto's|heart disease
        |heart condition|heart attack|stroke|arrhythmia|afib|pacemaker|kidney disease
        |kidney failure|liver disease|cirrhosis|sickle cell|cystic fibrosis|parkinson's
        |parkinsons|alzheimer's|alzheimers|dementia|long covid|covid|chronic pain|chronic illness
        |gout|psoriasis|eczema|hearing loss|deaf|hard of hearing|hearing aid|hearing aids
        |visually impaired|wheelchair|paralyzed|paraplegic|quadriplegic|amputee|disability
        |disabled|therapy|therapist|psychiatrist|psychologist|oncologist|endocrinologist
        |cardiologist|rehab|addiction|alcoholic|alcoholism|sober
        |recovering addict|opioids|diagnosed|diagnosis|allergic|allergy|allergies|anaphylaxis
        |anaphylactic|epipen|intolerant|intolerance|lactose intolerant|medication|medications
        |meds|prescription|surgery|blood type|blood sugar|a1c|viral load|brca|brca1|brca2
        |genetic mutation|concussion|cerebral palsy|down syndrome|tourette's|tourettes|glaucoma
        |cataracts|sciatica|herniated disc|scoliosis|anemia|anemic|hemophilia|stutter|stammer
        |tinnitus|vertigo|herpes|chlamydia|gonorrhea|syphilis|hpv|incontinence
        |erectile dysfunction|hormones|expecting a baby|expecting twins|expecting our first
        |expecting my first|weight loss drug|pneumonia|bronchitis|copd
    """,
    (
        "health",
        "poss",
    ): "dna|genome|23andme|genetic test|genetic testing|blood pressure|cholesterol|bmi",
    ("religion", "ident"): """
        muslim|christian|catholic|protestant|jewish|jew|hindu|buddhist|sikh|mormon|evangelical
        |baptist|methodist|lutheran|anglican|presbyterian|pentecostal|jehovah's witness|quaker
        |atheist|agnostic|pagan|wiccan|taoist|jain|bahai|bahá'í|sunni|shia|shiite|rastafarian
        |zoroastrian|unitarian|adventist|born-again christian|orthodox christian|churchgoer
        |religious
    """,
    ("religion", "cond"): """
        islam|christianity|judaism|hinduism|buddhism|sikhism|catholicism|ramadan|lent
        |yom kippur|shabbat|sabbath|kosher|halal|hijab|niqab|turban|yarmulke|kippah|bible study
        |prayer group|pray|prayers|mass|church|mosque|synagogue|gurdwara|parish|congregation
        |pastor|imam|rabbi|priest|faith|god|allah|jesus|baptized|baptised|bar mitzvah
        |bat mitzvah|confirmation class
    """,
    ("sexual_orientation", "ident"): """
        gay|lesbian|bisexual|bi|queer|pansexual|asexual|homosexual|heterosexual|transgender
        |trans|nonbinary|non-binary|non binary|genderqueer|genderfluid|intersex|lgbt|lgbtq
        |trans woman|trans man|closeted
    """,
    ("ethnicity", "ident"): """
        hispanic|latino|latina|latinx|african american|african-american|black|asian american
        |caucasian|native american|indigenous|aboriginal|first nations|pacific islander|arab
        |middle eastern|roma|romani|uyghur|uighur|tibetan|kurdish|mixed race|mixed-race|biracial
        |multiracial|white|asian|hmong|māori|maori|han chinese
    """,
    ("ethnicity", "cond"): "descent|ethnicity|ethnic background",
    ("political_opinion", "ident"): """
        democrat|republican|tory|socialist|communist|libertarian|leftist|left-wing|right-wing
        |maga|trump supporter|biden supporter|social democrat|anarchist|marxist|pro-life
        |pro-choice|labour voter|tory voter|conservative|liberal|progressive|green party member
        |party member|ccp member|communist party member|feminist|nationalist|zionist
        |anti-zionist|monarchist|republican voter|democrat voter
    """,
    ("trade_union", "ident"): "union member|shop steward|union rep|trade unionist",
    ("biometric", "poss"): """
        fingerprint|fingerprints|faceprint|face scan|facial scan|facial geometry
        |facial recognition data|voiceprint|voice print|iris scan|retina scan|retinal scan
        |palm print|biometric data|biometrics|face template
    """,
}


def _build_lexicon() -> dict[str, list[tuple[tuple[str, ...], str, str]]]:
    lex: dict[str, list[tuple[tuple[str, ...], str, str]]] = {}
    for (category, kind), src in _EN_LEXICON_SRC.items():
        for term in src.split("|"):
            words = tuple(_EN_WORD.findall(term.strip().lower()))
            if words:
                lex.setdefault(words[0], []).append((words, category, kind))
    for entries in lex.values():
        entries.sort(key=lambda e: -len(e[0]))
    return lex


_EN_WORD = re.compile(r"[A-Za-z0-9À-ÖØ-öø-ɏ]+(?:'[A-Za-z0-9À-ÖØ-öø-ɏ]+)?")
_EN_LEXICON: Final = _build_lexicon()
_EN_FIRST: Final = frozenset(_EN_LEXICON)
_EN_FIRST_PLURAL: Final = frozenset(
    f"{w}s" for w, entries in _EN_LEXICON.items() if any(e[2] == "ident" for e in entries)
)

_SELF: Final = frozenset(
    {"i", "i'm", "im", "i've", "ive", "i'd", "i'll", "me", "my", "mine", "myself", "user",
     "user's"}
)  # fmt: skip
_BLOCK_BETWEEN: Final = _words(
    """
    friend friends mom mum mother dad father parents parent brother sister sibling siblings
    son daughter kid kids child children baby wife husband spouse partner boyfriend
    girlfriend fiancé fiance fiancee grandma grandmother grandpa grandfather grandparents
    aunt uncle cousin niece nephew family relative relatives dog dogs cat cats pet pets
    puppy kitten horse patient patients client clients customer customers colleague
    colleagues coworker coworkers co boss manager employee employees neighbor neighbour
    neighbors neighbours roommate teacher student students classmate classmates team
    teammate people person someone somebody everyone anyone he she they him them his hers
    their theirs who whose whom character protagonist hero author celebrity users population
    community members about regarding research researching researcher study studies studying
    article articles essay paper papers book books podcast documentary course class lecture
    lectures topic history news report reports story stories novel movie film show writing
    write wrote reading read learn learning teaching teach taught explain explaining
    explained define definition what how why whether cure curing prevent preventing
    prevention treat treating treats working work works job company startup app apps website
    project projects code coding database dataset volunteer volunteering donate donated
    donating fundraiser charity organizing organize interested curious wondering wonder know
    knows heard hear saw watched watching seen translate translating translation summarize
    summary quiz exam homework assignment thesis dissertation blog post tweet joke jokes
    meme game playing play role pretend hypothetical hypothetically imagine suppose
    fictional fiction draft drafting campaign policy policies law laws debate debating
    discuss discussing discussion question questions quote sell selling sold market
    marketing design designing build building developing develop grant analyze analyzing
    analysing survey interview interviewing covering cover reviewing review editing
    patient's
    """
)
_BLOCK_AFTER: Final = _words(
    """
    research researcher researchers study studies awareness app apps clinic clinics ward
    unit center centre foundation charity society association fundraiser walk run month week
    day conference summit industry market epidemic rates rate statistics prevalence patients
    patient community communities population people friends friend neighbor neighbors
    neighbours colleague colleagues coworker coworkers family families students student
    customers clients voters groups group culture cultures history literature art
    architecture music food foods cuisine restaurant restaurants recipe recipes dishes
    cookbook holidays holiday festival wedding weddings scholar scholars theology philosophy
    specialist specialists doctor doctors nurse nurses educator educators advocate advocates
    expert experts scientist scientists professor teacher guidelines guide book books
    article articles paper papers essay documentary podcast course class module dataset
    model policy cells cat dog pet character characters protagonist jokes memes friendly
    diet stocks stock company companies startup cure
    cures kid kids son daughter mom dad wife husband partner boyfriend girlfriend brother
    sister mother father parents children child baby member members couple couples bar bars
    club clubs movie movies film films show shows song songs novel novels label
    labels vote votes candidate candidates media press news channel
    station rules restrictions lockdown vaccine vaccines test tests testing pandemic
    investor investors estimate estimates approach driver drivers eater spender arts rock
    reader sensor scanner unlock login insurance dior bale
    """
)
_PROVIDER_TERMS: Final = frozenset(
    {"therapist", "psychiatrist", "psychologist", "oncologist", "endocrinologist", "cardiologist",
     "counselor", "counsellor", "pastor", "imam", "rabbi", "priest", "surgery", "therapy"}
)  # fmt: skip
_NEEDS_ARTICLE: Final = frozenset(
    {"conservative", "liberal", "progressive", "feminist", "nationalist", "white", "religious"}
)  # fmt: skip
_IDENT_MODIFIERS: Final = _words(
    """
    a an the also actually really very quite pretty proudly openly fully proud practicing
    practising devout observant lifelong life-long registered card-carrying staunch
    committed religious strict lapsed non-practicing non-practising born-again cultural
    culturally secular orthodox reform reformed conservative liberal devoted faithful gay
    queer young old married single closeted out black white female male trans cis christian
    sunni shia shiite roman evangelical politically fiscally socially member of not both
    half bisexual lesbian woman man hardcore diehard die-hard loyal long-time longtime
    self-identified identifying strong ex former non life long born again card carrying self
    identified die hard time labour labor democratic green communist socialist tory gop ccp
    cpc snp ukip afd cdu spd fdp party
    """
)
_COPULA_PREFIX = re.compile(
    r"(?i)(?:\b(?:i\s*'?\s*m|i\s+am|i\s+was|i've\s+been|i\s+have\s+been|i\s+became|i\s+identify"
    r"\s+as|i\s+came\s+out\s+as|i\s+grew\s+up|i\s+was\s+raised|i\s+was\s+born|identif(?:y|ies)"
    r"\s+as|came\s+out\s+as|user\s+is|the\s+user\s+is|i'm\s+not|am\s+i)|(?:^|[.,;:!?]\s*|\band\s+)"
    r"as\s+an?|(?:^|[.;:!?\n]\s*)(?:is|was|identifies\s+as))\s+(?P<mods>(?:[\w']+(?:\s+|-)){0,5})$"
)
_PRACTICE_VERBS = re.compile(
    r"(?i)\b(?:i|i'm|im|user|we|we're|we've)\s+(?:\w+\s+){0,2}?(?:go\s+to|goes\s+to|going\s+to|attend|attending"
    r"|pray|praying|worship|worshipping|belong\s+to|converted\s+to|convert\s+to|reverted\s+to"
    r"|practice|practise|practicing|practising|follow|observe|observing|keep|keeping|eat|only\s+eat"
    r"|wear|wearing|fast|fasting|celebrate|believe\s+in|raised|baptized|baptised|was\s+baptized"
    r"|had\s+my|member\s+of|devoted\s+to|found)\s+(?:[\w'\-]+\s+){0,3}$"
)
_RELIGION_VERB_TERMS: Final = frozenset({"pray", "prayers", "baptized", "baptised"})
# Group self-statements ("we are proud Catholics", "our family is Muslim", "my wife and I are
# Jewish") disclose the user's own identity too. They count for the identity categories and for
# religious practice, not for health ("we treat diabetes", "we had an asthma case"), and only when
# the identity word ends the phrase ("we're a Catholic school" is about an institution).
_GROUP_COPULA = re.compile(
    r"(?i)\b(?:we\s*'\s*re|we\s+are|we\s+were|we(?:\s+have|\s*'\s*ve)\s+(?:always\s+)?been"
    r"|we\s+became|(?:both|all)\s+of\s+us\s+are|(?:our|my)\s+(?:whole\s+|entire\s+)?"
    r"(?:family|household)\s+(?:is|are|was|were|has\s+always\s+been)|(?:my\s+)?(?:family"
    r"|wife|husband|partner|spouse|parents)\s+and\s+i\s+are)"
    r"\s+(?P<mods>(?:[\w']+(?:\s+|-)){0,5})$"
)
_GROUP_CATEGORIES: Final = frozenset(
    {"religion", "ethnicity", "political_opinion", "sexual_orientation", "trade_union"}
)
_GROUP_SELF: Final = frozenset({"we", "we're", "we've"})
_GROUP_MODS: Final = frozenset({"all", "both"})
_GROUP_NEXT_OK: Final = _words(
    "and too now here by since so but ourselves both all family household"
)
_RELIGION_MY_TERMS: Final = frozenset(
    {"church", "mosque", "synagogue", "gurdwara", "parish", "congregation", "pastor", "imam",
     "rabbi", "priest", "my faith", "bar mitzvah", "bat mitzvah", "hijab", "faith"}
)  # fmt: skip
_RELIGION_FOOD: Final = frozenset({"food", "foods", "meat", "meals", "diet", "restaurants"})
_NEEDS_TAKE: Final = frozenset({"prep", "lithium", "hormones"})
_TAKE_WORDS: Final = frozenset(
    {"on", "taking", "take", "takes", "took", "started", "prescribed", "using", "stopped"}
)
_NEEDS_COPULA: Final = frozenset({"disabled", "depressed", "sober", "deaf", "paralyzed"})
_COPULA_WORDS: Final = frozenset({"am", "was", "been", "is", "be", "being", "became", "become"})
_CLAUSE_BREAK = re.compile(r"[.!?;\n。！？；]")
_QUOTED_EXAMPLE = re.compile(
    r"(?i)\b(?:translate|translation\s+of|say|saying|write|spell|pronounce|means?|phrase"
    r"|sentence|quote|how\s+do\s+you\s+say|in\s+\w+\s+is)\b[^\n]{0,20}?[\"'“‘«]\s*$"
)


def _en_special(t: str, lowered: str) -> Iterator[_Hit]:
    if len(lowered) != len(t):
        return
    toks = [(m.group(0), m.start(), m.end()) for m in _EN_WORD.finditer(lowered)]
    n = len(toks)
    i = 0
    while i < n:
        entries = _EN_LEXICON.get(toks[i][0])
        plural = False
        if not entries and toks[i][0].endswith("s"):
            # "we are proud Catholics": plural identity words, for group statements only
            entries = [e for e in _EN_LEXICON.get(toks[i][0][:-1], ()) if e[2] == "ident"]
            plural = True
        if not entries:
            i += 1
            continue
        matched = None
        for words, category, kind in entries:
            k = len(words)
            got = tuple(w for w, _, _ in toks[i : i + k])
            if plural:
                got = (*got[:-1], got[-1][:-1])
            if got == words and _joined(t, toks, i, k):
                matched = (words, category, kind)
                break
        if matched is None:
            i += 1
            continue
        words, category, kind = matched
        k = len(words)
        hit = _self_statement(t, toks, i, k, category, kind, plural=plural)
        if hit is not None and _QUOTED_EXAMPLE.search(t, max(0, hit - 40), hit):
            hit = None  # translate 'I am a Muslim' into French: an example, not a disclosure
        if hit is not None:
            yield (_SPECIAL, category, hit, toks[i + k - 1][2], category)
        i += k


def _joined(t: str, toks: list[tuple[str, int, int]], i: int, k: int) -> bool:
    """The words of a multi-word term are adjacent (spaces or a hyphen between them)."""
    return all(t[toks[j][2] : toks[j + 1][1]] in (" ", "-") for j in range(i, i + k - 1))


def _self_statement(
    t: str,
    toks: list[tuple[str, int, int]],
    i: int,
    k: int,
    category: str,
    kind: str,
    *,
    plural: bool = False,
) -> int | None:
    """Start of the statement if the term at token ``i`` is said about the user, else None.

    ``plural`` marks an identity word in the plural ("Catholics"): only a group self-statement
    ("we are proud Catholics") makes that about the user.
    """
    term = " ".join(w for w, _, _ in toks[i : i + k])
    last = i + k - 1
    nxt = toks[last + 1][0] if last + 1 < len(toks) else ""
    same_clause = bool(nxt) and not _CLAUSE_BREAK.search(t, toks[last][2], toks[last + 1][1])
    religion_food = category == "religion" and nxt in _RELIGION_FOOD
    if same_clause and nxt.removesuffix("'s") in _BLOCK_AFTER and not religion_food:
        return None
    if term == "stroke" and nxt == "of":
        return None
    if same_clause and nxt in {"for", "of", "to"} and last + 2 < len(toks):
        after = toks[last + 2][0]
        third = after
        if after in {"my", "his", "her", "their", "our", "the"} and last + 3 < len(toks):
            third = toks[last + 3][0]
        if third.removesuffix("'s") in _BLOCK_BETWEEN and third not in {"about", "what"}:
            return None
    if kind == "ident":
        window_start = max(0, toks[i][1] - 80)
        cm = None if plural else _COPULA_PREFIX.search(t, window_start, toks[i][1])
        group = False
        if cm is None and category in _GROUP_CATEGORIES:
            cm = _GROUP_COPULA.search(t, window_start, toks[i][1])
            group = cm is not None
            if group and same_clause and nxt not in _GROUP_NEXT_OK:
                return None  # "we're a Catholic school": an institution, not the user
        if cm is None:
            return None if plural else _labelled_identity(t, toks, i)
        mods = cm.group("mods").lower().replace("-", " ").split()
        if any(m not in _IDENT_MODIFIERS and not (group and m in _GROUP_MODS) for m in mods):
            return None
        if term in _NEEDS_ARTICLE and not (
            {"a", "an", "politically", "socially", "fiscally", "very", "deeply"} & set(mods)
        ):
            return None
        if term in {"bi", "trans"} and nxt in {"weekly", "annual", "monthly", "fat", "atlantic"}:
            return None
        start = cm.start()
        while start < toks[i][1] and not t[start].isalnum():
            start += 1
        return start
    # Walk back to the nearest self subject within the clause.
    subject = None
    j = i - 1
    while j >= 0 and i - j <= 8:
        if _CLAUSE_BREAK.search(t, toks[j][2], toks[j + 1][1]):
            break
        word = toks[j][0]
        if word in _SELF and not (word == "i" and j > 0 and toks[j - 1][0] == "type"):
            subject = j
            break
        if word in _GROUP_SELF and category == "religion":
            subject = j  # "we go to church": only a practice verb makes it count (below)
            break
        j -= 1
    if subject is None:
        return _subjectless(t, toks, i, j, kind) if kind == "cond" else None
    between = [w.removesuffix("'s") for w, _, _ in toks[subject + 1 : i]]
    if any(w in _BLOCK_BETWEEN for w in between):
        return None
    subj_word = toks[subject][0]
    copula = subj_word in {"i'm", "im"} or any(w in _COPULA_WORDS for w in between)
    if kind == "poss":
        if subj_word not in {"my", "user's"} or len(between) > 2:
            return None
        return toks[subject][1]
    if category == "religion":
        group = subj_word in _GROUP_SELF
        direct_my = subj_word == "my" and not between and term in _RELIGION_MY_TERMS
        verb_term = term in _RELIGION_VERB_TERMS and len(between) <= 3 and not group
        if not (direct_my or verb_term or _PRACTICE_VERBS.search(t, toks[subject][1], toks[i][1])):
            return None
    if term in _NEEDS_TAKE and (not between or between[-1] not in _TAKE_WORDS):
        return None
    if term in _NEEDS_COPULA and not copula:
        return None
    if term in _PROVIDER_TERMS and copula and set(between) <= {"a", "an", "am", "was"}:
        return None  # "I'm a therapist": an occupation, not a disclosure
    return toks[subject][1]


_SUBJECTLESS_START: Final = _words(
    """
    has had takes took been diagnosed suffers lives struggles deals recovering started uses
    needs allergic intolerant currently is was gets got on prescribed wears sees attends
    """
)
_NOT_ABOUT_USER: Final = _words("you your we our it its anyone anybody someone people one")
_STRONG_IDENTITY_MODS: Final = _words(
    """
    practicing practising devout observant openly lifelong life-long registered card-carrying
    staunch committed proud out
    """
)


def _subjectless(t: str, toks: list[tuple[str, int, int]], i: int, j: int, kind: str) -> int | None:
    """Terse record style, "Has type 2 diabetes" / "Allergic to shellfish": the user is implied.

    ``j`` is the token before the clause (or -1). Questions and general statements ("Taking
    metformin can cause...") are not records about the user, so only a clause that opens with a
    finite verb or participle of the known list and has no other subject counts.
    """
    first = j + 1
    if first > i or i - first > 5 or kind != "cond":
        return None
    if toks[first][0] not in _SUBJECTLESS_START and first != i:
        return None
    if first == i and toks[i][0] not in {"allergic", "intolerant", "pregnant", "diabetic"}:
        return None
    words = [w.removesuffix("'s") for w, _, _ in toks[first:i]]
    if any(w in _BLOCK_BETWEEN or w in _NOT_ABOUT_USER for w in words):
        return None
    end = _CLAUSE_BREAK.search(t, toks[i][2])
    if end is not None and t[end.start()] == "?":
        return None
    return toks[first][1]


def _labelled_identity(t: str, toks: list[tuple[str, int, int]], i: int) -> int | None:
    """ "Practicing Muslim, no pork": a clause made of strong modifiers and the identity word."""
    j = i - 1
    while j >= 0 and i - j <= 3 and not _CLAUSE_BREAK.search(t, toks[j][2], toks[j + 1][1]):
        j -= 1
    mods = [w for w, _, _ in toks[j + 1 : i]]
    if mods and all(m in _IDENT_MODIFIERS for m in mods) and _STRONG_IDENTITY_MODS & set(mods):
        return toks[j + 1][1]
    return None


# Other-language self statements (Spanish, German, French): compact frames.
_INTL_TERMS: Final = {
    "health": r"diabetes|diabète|diabetico|diabética|diabético|diabétique|depresión|depression"
    r"|dépression|cáncer|krebs|cancer|vih|hiv|asma|asthma|asthme|embarazada|schwanger|enceinte"
    r"|alérgic[oa]|allergisch|allergique|epilepsia|epilepsie|ansiedad|angststörung|insulina"
    r"|insulin|insuline|tdah|adhs|autismo|autismus|bipolar|bipolaire|esquizofrenia"
    r"|schizophrenie|celíac[oa]|zöliakie|cœliaque|migraña|migräne|migraine",
    "religion": r"musulm[aá]n[a]?|muslim[a]?|musulman[e]?|cat[oó]lic[oa]|katholisch|catholique"
    r"|jud[ií][oa]|jüdisch|juif|juive|cristian[oa]|christ(?:in)?|chrétien(?:ne)?|budista"
    r"|buddhist(?:in)?|bouddhiste|ateo|atea|atheist(?:in)?|athée|evangélic[oa]|evangelisch"
    r"|hind[uú]|hindou(?:e)?",
    "sexual_orientation": r"gay|lesbiana|lesbisch|lesbienne|bisexual|bisexuell|bisexuel(?:le)?"
    r"|homosexual|homosexuell|homosexuel(?:le)?|trans|transgénero|transgender|queer",
    "political_opinion": r"comunista|kommunist(?:in)?|communiste|socialista|sozialist(?:in)?"
    r"|socialiste|del\s+pp|del\s+psoe|de\s+vox|afd-mitglied|spd-mitglied|cdu-mitglied",
}
_INTL_RE = re.compile(
    r"(?i)\b(?P<subj>tengo|padezco(?:\s+de)?|sufro\s+de|soy|estoy|me\s+diagnosticaron"
    r"|ich\s+habe|ich\s+leide\s+an|ich\s+bin|bei\s+mir\s+wurde|ich\s+nehme|j'ai|je\s+suis"
    r"|je\s+souffre\s+d[e']|on\s+m'a\s+diagnostiqué(?:\s+une?)?|je\s+prends)\s+"
    r"(?:(?:un|una|el|la|muy|eine?n?|sehr|seit|une?|du|de\s+la|de|d'|tipo\s+\d|typ\s+\d|type\s+\d"
    r"|practicante|praticante|pratiquant(?:e)?|gläubige[rn]?|überzeugte[rn]?|\d+)\s+){0,3}"
    r"(?P<term>" + "|".join(f"(?P<{c}>{p})" for c, p in _INTL_TERMS.items()) + r")\b"
)
_INTL_GATE_WORDS: Final = _words("tengo padezco sufro soy estoy diagnosticaron ich j'ai je m'a bei")


def _intl_special(t: str) -> Iterator[_Hit]:
    for m in _INTL_RE.finditer(t):
        category = next(c for c in _INTL_TERMS if m.group(c) is not None)
        yield (_SPECIAL, category, m.start(), m.end("term"), category)


# Chinese: subject 我/本人/用户 followed directly by adverbs and a verb, then the term.
_ZH_TERMS_SRC: Final = {
    ("health", "cond"): """
        糖尿病|高血压|低血压|心脏病|冠心病|癌症|肺癌|乳腺癌|肝癌|胃癌|肠癌|宫颈癌|白血病|淋巴瘤|肿瘤|艾滋病
        |艾滋|HIV|乙肝|丙肝|肝炎|哮喘|癫痫|抑郁症|抑郁|焦虑症|双相情感障碍|双相|躁郁症|精神分裂症|强迫症
        |自闭症|多动症|ADHD|PTSD|阿尔茨海默|帕金森|中风|痛风|甲亢|甲减|贫血|不孕|不育|偏头痛|失眠症
        |厌食症|暴食症|进食障碍|创伤后应激障碍|过敏|过敏症|乳糖不耐受|不耐受|乳糜泻|怀孕|孕期|流产
        |残疾|截肢|耳聋|失明|视障|听障|红斑狼疮|类风湿|克罗恩病|肾病|尿毒症|透析|化疗|放疗|胰岛素
        |二甲双胍|抗抑郁药|安眠药|降压药|心理咨询|心理治疗|精神科|湿疹|银屑病|结核|性病|梅毒|疱疹
        |心律不齐|脂肪肝|痔疮|慢性病|重病|绝症|病|药
    """,
    ("religion", "ident"): """
        穆斯林|伊斯兰教|基督徒|基督教|天主教徒|天主教|佛教徒|佛教|佛|道教|犹太教|犹太人|印度教|锡克教
        |无神论者|教徒|信徒|基督|伊斯兰|主|真主|上帝
    """,
    ("religion", "cond"): "清真|斋月|礼拜|受洗|教会|清真寺|教堂",
    (
        "sexual_orientation",
        "ident",
    ): "同性恋|双性恋|异性恋|男同|女同|拉拉|跨性别|变性人|无性恋|酷儿|gay|GAY|les|LGBT",
    ("ethnicity", "ident"): """
        回族|维吾尔族|藏族|蒙古族|壮族|满族|苗族|彝族|土家族|朝鲜族|哈萨克族|少数民族|汉族|黑人|白人|混血
        |亚裔|华裔|拉丁裔|非裔
    """,
    ("political_opinion", "ident"): """
        党员|共产党员|中共党员|预备党员|共青团员|民主党人|共和党人|民主党|共和党|民进党|国民党|左派|右派
        |自由派|保守派|社会主义者|共产主义者|无政府主义者
    """,
    ("biometric", "poss"): "指纹|虹膜|声纹|人脸数据|面部数据|掌纹|人脸信息|面部识别数据",
    ("trade_union", "ident"): "工会会员|工会成员",
}
_ZH_TERM_INFO: Final = {
    term.strip(): (category, kind)
    for (category, kind), src in _ZH_TERMS_SRC.items()
    for term in src.split("|")
    if term.strip()
}
_ZH_TERMS = re.compile("|".join(sorted(map(re.escape, _ZH_TERM_INFO), key=len, reverse=True)))
# Group subjects (我们, 我们全家, 咱们家...) disclose the user's identity too, except for health:
# "我们医院治疗糖尿病" is about an institution far more often than about the user.
_ZH_GROUP = r"(?:我们|咱们)(?:全家|一家|家)?人?|我家|咱家|我和家人|我们夫妻"
_ZH_SUBJ = r"(?:(?P<grp>" + _ZH_GROUP + r")|我|本人|用户|该用户)"
_ZH_ADV = (
    r"(?:自己|也|还|都|一直|从小就?|小时候就?|前几年|去年|今年|上个月|上周|最近|近来|已经|曾经|目前|现在"
    r"|正在|刚刚?|早就|其实|确实|本身|就|才|又|有点|比较|非常|特别|严重|长期|常年|每天|平时|天天|长年|要"
    r"|一直在|在|会|得|是个|算是)"
)
_ZH_VERB = (
    r"(?:有|得了|得过|患有|患了|患上了?|罹患|确诊(?:了|为|出)?|被确诊(?:为|出|了)?|被诊断(?:为|出了?|患有)?"
    r"|诊断(?:为|出)|查出(?:了|来)?|检查出(?:了)?|在吃|吃|在服用|服用|在用|用|打|在打|注射|需要|靠|做过"
    r"|做了|在做|接受(?:了)?|在接受|怀了|有过|对[^，。！？；\s]{1,10}|信|信仰|信奉|皈依了?|加入了?"
    r"|入了|是|是个|是一个|是一名|是一位|是名|是位|属于|去|常去|每周去|每周都去|做|戴|过|只吃)"
)
_ZH_MOD = (
    r"(?:一点|点|轻度|中度|重度|严重的?|轻微的?|慢性|急性|晚期|早期|[0-9一二三四]+型|[0-9一二三四]+期"
    r"|I型|II型|先天性|遗传性|产后|季节性|的|些|一些|种|个|了|一名|一个|名|位|虔诚的|忠实的|坚定的"
    r"|骄傲的|公开的|出柜的|老|资深|正式|预备|个人|过)"
)
_ZH_FRAME = re.compile(
    "(?:" + _ZH_SUBJ + _ZH_ADV + "*(?:" + _ZH_VERB + _ZH_MOD + "*|的" + _ZH_MOD + "*)?"
    r"|(?:作为|身为)" + _ZH_MOD + "*)$"
)
_ZH_POSS_FRAME = re.compile(_ZH_SUBJ + "的" + _ZH_MOD + "*$")
_ZH_POL_FRAME = re.compile(
    _ZH_SUBJ + _ZH_ADV + "*(?:支持|投票给|投给了?|投了|拥护|把票投给了?)" + _ZH_MOD + "*$"
)
_ZH_BLOCK_AFTER = re.compile(
    r"朋友|同事|邻居|同学|家人|亲戚|研究|专家|医生|护士|科普|知识|文章|论文|报告|书|电影|纪录片|餐厅|饭店"
    r"|菜|食品|社区|群体|人群|历史|文化|协会|基金会|项目|相关|话题|患者们|病人|的人|朋友们|教授|学者"
    r"|方面的|的书|的文章|的电影|的知识|的历史|的资料|的新闻|的论文|的研究|的药物|的治疗方法|的症状"
    r"|的病因|小说|题材|游戏|名词|这个词|患者"
)
_ZH_GENERIC: Final = frozenset({"病", "药", "佛", "主", "基督", "伊斯兰", "les"})
_ZH_FAITH_TERMS: Final = frozenset({"佛", "主", "基督", "伊斯兰"})
_ZH_TAKES = re.compile(_ZH_SUBJ + _ZH_ADV + r"*(?:在吃|吃|服用|在服用|得了|生了|患了)$")
_ZH_BELIEVES = re.compile(_ZH_SUBJ + _ZH_ADV + r"*(?:信|信仰|信奉|皈依了?)$")
_ZH_CLAUSE_BREAK = re.compile(r"[，,。！？；;!?\n]")


def _zh_special(t: str) -> Iterator[_Hit]:
    for m in _ZH_TERMS.finditer(t):
        term = m.group(0)
        category, kind = _ZH_TERM_INFO[term]
        window_start = max(0, m.start() - 24)
        breaks = list(_ZH_CLAUSE_BREAK.finditer(t, window_start, m.start()))
        clause_start = breaks[-1].end() if breaks else window_start
        prefix = t[clause_start : m.start()]
        if _ZH_BLOCK_AFTER.match(t, m.end()):
            continue
        if term in _ZH_GENERIC and not (
            _ZH_TAKES.search(prefix) or (term in _ZH_FAITH_TERMS and _ZH_BELIEVES.search(prefix))
        ):
            # 病/药/佛/主 alone need a clear verb: "我在吃药", "我信佛"; "我有病" is an insult.
            continue
        if kind == "poss":
            fm = _ZH_POSS_FRAME.search(prefix)
        else:
            fm = _ZH_FRAME.search(prefix)
            if fm is None and category == "political_opinion":
                fm = _ZH_POL_FRAME.search(prefix)
        if fm is None or (category == "health" and fm.group("grp")):
            continue
        yield (_SPECIAL, category, clause_start + fm.start(), m.end(), category)


# Extra English frames that do not hinge on one lexicon word.
_EN_FRAMES: Final = (
    (
        "political_opinion",
        _words("vote voted votes voting"),
        re.compile(
            r"(?i)\bI\s+(?:always\s+|usually\s+|proudly\s+|just\s+|also\s+)?(?:voted|vote|will\s+vote"
            r"|am\s+voting|'m\s+voting|plan\s+to\s+vote)\s+(?:for\s+)?(?:the\s+)?(?:democrats?"
            r"|republicans?|labour|tory|tories|conservatives?|greens?|liberals?|lib\s+dems?|snp"
            r"|ukip|reform\s+uk|trump|biden|harris|obama|sanders|afd|cdu|spd|fdp|grüne|psoe|vox"
            r"|podemos|le\s+pen|macron|m[ée]lenchon|modi|bjp|kmt|dpp)\b"
        ),
    ),
    (
        "political_opinion",
        _words("party"),
        re.compile(
            r"(?i)\bI(?:\s*'m|\s+am)?\s+(?:a\s+)?(?:\w+\s+){0,2}?(?:support|back|donate\s+to"
            r"|campaign\s+for|volunteer\s+for|member\s+of|joined|belong\s+to)\s+(?:the\s+)?"
            r"(?:[A-Z][\w\-]+\s+){1,3}[Pp]arty\b"
        ),
    ),
    (
        "trade_union",
        _words("union"),
        re.compile(
            r"(?i)\bI(?:\s*'m|\s+am)\s+(?:a\s+)?(?:proud\s+)?(?:member\s+of|in)\s+(?:the|a|my)\s+"
            r"(?!european|soviet|african)(?:[\w'\-]+\s+){0,3}union\b(?!\s+(?:square|station|street"
            r"|jack|pacific|city|county|hall|bank|avenue|ave|park|road|college))"
        ),
    ),
    (
        "sexual_orientation",
        _words("out"),
        re.compile(
            r"(?i)\bI\s+(?:recently\s+|finally\s+|just\s+)?(?:came|come|have\s+come)\s+out\s+"
            r"(?:as\b|to\s+(?:my|our)\s+(?:parents|family|mom|mum|dad|friends|boss|coworkers"
            r"|colleagues|team))"
        ),
    ),
    (
        "sexual_orientation",
        _words("attracted"),
        re.compile(
            r"(?i)\bI(?:\s*'m|\s+am)\s+(?:only\s+|mostly\s+)?attracted\s+to\s+(?:men|women|both"
            r"|guys|girls|other\s+(?:men|women))\b"
        ),
    ),
    (
        "biometric",
        _words("fingerprint face iris retina voice palm"),
        re.compile(
            r"(?i)\b(?:here\s+is|here's|this\s+is|attached\s+is)\s+my\s+(?:fingerprint|face|iris"
            r"|retina|voice|palm)\s*(?:template|scan|hash|data|print|map)?\b"
        ),
    ),
)
_EN_FRAME_GATE_WORDS: Final = frozenset().union(*(triggers for _, triggers, _ in _EN_FRAMES))


def _special(t: str, lowered: str, words: frozenset[str]) -> Iterator[_Hit]:
    if not _EN_FIRST.isdisjoint(words) or not _EN_FIRST_PLURAL.isdisjoint(words):
        yield from _en_special(t, lowered)
    if not _EN_FRAME_GATE_WORDS.isdisjoint(words):
        for category, triggers, pattern in _EN_FRAMES:
            if not triggers.isdisjoint(words):
                for m in pattern.finditer(t):
                    yield (_SPECIAL, category, m.start(), m.end(), category)
    if not t.isascii() and _CJK.search(t):
        yield from _zh_special(t)
    if not _INTL_GATE_WORDS.isdisjoint(words):
        yield from _intl_special(t)


# --------------------------------------------------------------------------------------------
# Entry points
# --------------------------------------------------------------------------------------------


def _overlaps(start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    return any(s < end and start < e for s, e in spans)


def _detect(t: str) -> list[_Hit]:
    hits: list[_Hit] = []
    lowered = t.lower()
    words = frozenset(_EN_WORD.findall(lowered))
    cjk = not t.isascii() and _CJK.search(t) is not None
    if "PRIVATE KEY" in t or "PuTTY" in t:
        hits.extend(_private_key_blocks(t))
    spans = [m.span() for m in _TOKEN_GATE.finditer(t)]
    if spans:
        hits.extend(_vendor_tokens(t, spans))
        if _KEY_GATE.search(lowered):
            hits.extend(_high_entropy(t, lowered, spans))
        hits.extend(_aws_secret(t, lowered))
    if ("://" in t and "@" in t) or "-u" in t or "-p" in t or "-a " in t:
        hits.extend(_url_credentials(t))
    if _PW_GATE.search(lowered):
        hits.extend(_passwords(t, lowered))
    if "/" in t and ("login" in lowered or "cred" in lowered or "user" in lowered):
        hits.extend(_credential_pairs(t))
    six_digits = _DIGIT_GATE.search(t) is not None
    id_words = not _ID_GATE_WORDS.isdisjoint(words) or (cjk and _ID_GATE_CJK.search(t) is not None)
    if six_digits or (id_words and _ANY_DIGIT.search(t)):
        taken: list[tuple[int, int]] = []
        gens = [_cn_resident_ids(t), _ibans(t), _cpfs(t), _ssns(t)] if six_digits else []
        if id_words:
            gens.append(_contextual_ids(t, lowered))
        for gen in gens:
            for hit in gen:
                hits.append(hit)
                taken.append((hit[2], hit[3]))
        if six_digits:
            taken.extend((h[2], h[3]) for h in hits if h[0] is _SECRET)
            hits.extend(_cards(t, taken))
    if (not _FIN_GATE_WORDS.isdisjoint(words) or (cjk and _FIN_GATE_CJK.search(t))) and (
        _AMOUNT_RE.search(t) or "score" in words or _ZH_NUMBER.search(t)
    ):
        hits.extend(_financial(t))
    hits.extend(_special(t, lowered, words))
    return hits


def classify(text: str) -> SensitivityReport:
    """Find secrets, regulated identifiers and special-category statements in ``text``.

    Deterministic and offline; safe to call on every record. Detection reads the folded view
    the renderer's reader sees (:func:`userlore.policy.normalize.fold`: lookalike letters,
    entities, invisible characters and separators folded); findings carry spans into ``text``,
    the caller's string.
    """
    if not text:
        return _EMPTY
    folded = fold(text)
    hits = _detect(folded.text)
    if not hits:
        return _EMPTY
    seen: set[tuple[str, int, int]] = set()
    findings: list[Finding] = []
    for level, rule, start, end, category in hits:
        if end <= start:
            continue
        start, end = folded.span(start, end)
        key = (rule, start, end)
        if key in seen:
            continue
        seen.add(key)
        findings.append(Finding(level, rule, start, end, category))
    findings.sort(key=lambda f: (f.start, -_SEVERITY[f.level], f.end))
    return SensitivityReport(tuple(findings))


_EMPTY: Final = SensitivityReport(())


def redact(text: str, report: SensitivityReport | None = None) -> str:
    """Replace every secret or regulated span with ``[REDACTED:<rule>]``.

    Special-category text is kept: it is stored gated by consent, not removed. The result is
    re-checked, so a value that only becomes visible once its neighbours are gone is redacted
    too; the returned text never classifies as blocked.
    """
    current = text
    rep = report if report is not None else classify(text)
    for _ in range(4):
        spans = sorted((f.start, f.end, f.rule) for f in rep.findings if f.level in _BLOCKING)
        if not spans:
            return current
        current = _apply_redactions(current, spans)
        rep = classify(current)
    if rep.is_blocked:
        return "[REDACTED:unclassified]"
    return current


def _apply_redactions(text: str, spans: list[tuple[int, int, str]]) -> str:
    merged: list[list[Any]] = []
    for start, end, rule in spans:
        if merged and start < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
            continue
        merged.append([start, end, rule])
    out: list[str] = []
    pos = 0
    for start, end, rule in merged:
        out.append(text[pos:start])
        out.append(f"[REDACTED:{rule}]")
        pos = end
    out.append(text[pos:])
    return "".join(out)
