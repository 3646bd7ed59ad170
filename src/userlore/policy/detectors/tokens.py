"""Secrets by shape: vendor tokens, private key blocks, credentials in URLs and CLI pairs."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.detectors.common import _char_classes, _entropy, _Hit, _is_placeholder
from userlore.policy.detectors.passwords import _looks_like_password
from userlore.policy.findings import _SECRET

# --------------------------------------------------------------------------------------------
# Secrets: vendor token formats
# --------------------------------------------------------------------------------------------

_VENDOR_RULES: Final = (
    ("aws_access_key", r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])"),
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
    ("mailgun_api_key", r"key-[0-9a-z]{32}(?![0-9a-z])"),
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
        if "/" in value and any(_is_placeholder(p) for p in value.split("/")[2:] if p):
            continue  # a hook URL's docs stand-in: "…/services/T00000000/B00000000/XXXX"
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
    r"(?::(?P<pw>[^\s/\"'<>]{1,256}))?@(?:(?P<host>[A-Za-z0-9.\-_\[\]]+)|(?= {7}))"
)  # a password pasted unencoded may hold "#" or "?" ("app:Wq7#pLm2zR@db"): read it whole;
# an IP host is blanked as public material before the rules read the text (seven spaces or more)


_CREDENTIAL_PAIR = re.compile(
    r"(?i)\b(?:login|log-in|credentials?|creds|username|user(?:name)?\s*/\s*pass(?:word)?)"
    r"\s*[:=]\s*[^\s/]{2,64}\s*/\s*(?P<pw>[^\s/]{4,128})"
)
# The same pair said in prose, in the covered languages: "my Netflix login is jo.miller /
# Pancake!2024", "usuario del banco: jlopez77 / Tortuga!2022", "管理者は admin / Fuji!san88".
# A login word, a few words of the same clause, a user part, a slash, then the password.
LOGIN_WORDS = re.compile(
    r"(?i)(?:\b(?:login|log-in|credentials?|creds|username|user|usuario|usuário|utilisateur"
    r"|identifiant|benutzer(?:name)?|admin|zugang|zugangsdaten|conta|cuenta|compte|account)\b"
    r"|ログイン|ユーザー|管理者|账号|帳號|用户|登录|登錄)"
)
_PROSE_PAIR = re.compile(
    LOGIN_WORDS.pattern + r"[^\n/.;!?。]{0,40}?(?:\s|[:=：は是])\s*(?P<user>[^\s/]{2,64})"
    r"\s*/\s*(?P<pw>[^\s/]{4,128})"
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
    for m in _PROSE_PAIR.finditer(t):
        pw = m.group("pw").rstrip(".,;)?。")  # "!" stays: "Coqueiro7!" ends with one
        if not _is_placeholder(pw) and _looks_like_password(pw):
            yield (_SECRET, "password_in_prose", m.start("pw"), m.start("pw") + len(pw), None)


# Credentials in a URL's query string or fragment: ``?api_key=…``, ``&token=…``,
# ``#access_token=…``. The parameter name says what the value is, so no entropy test: any value
# of eight or more characters that is not a placeholder.
_QUERY_SECRET = re.compile(
    r"(?i)[?&#;](?P<name>(?:x-)?api[_\-]?key|apikey|key|(?:access|auth|api|id|refresh|session"
    r"|bearer|private|client)?[_\-]?token|access[_\-]?key|secret|client[_\-]?secret|auth"
    r"|password|passwd|pwd|pass|sig|signature|x-amz-signature|x-goog-signature|x-amz-credential"
    r"|x-amz-security-token|session[_\-]?id|sessionid|sid|code[_\-]?verifier|private[_\-]?key"
    r"|app[_\-]?id|app[_\-]?key|code|auth[_\-]?code)"
    r"=(?P<v>[^\s&#\"'<>]{8,512})"
)


def _query_secrets(t: str) -> Iterator[_Hit]:
    for m in _QUERY_SECRET.finditer(t):
        value = m.group("v").rstrip(".,;)")
        if _is_placeholder(value) or value.lower().startswith(("http", "%3c", "your")):
            continue
        if m.group("name").lower() in _WEAK_PARAMS and not _high_entropy_value(value):
            continue  # "?code=abc", "?appid=42": only a value that reads as random is a secret
        yield (_SECRET, "url_query_secret", m.start("v"), m.start("v") + len(value), None)


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


_WEAK_PARAMS: Final = frozenset({"code", "appid", "app_id", "app-id", "auth_code", "auth-code"})


def _high_entropy_value(value: str) -> bool:
    return len(value) >= 16 and _char_classes(value) >= 2 and _entropy(value) >= 3.5


# --------------------------------------------------------------------------------------------
# Session cookies: Express's signed ``s%3A<id>.<signature>`` anywhere, and the session cookie
# names of the common frameworks with a random value
# --------------------------------------------------------------------------------------------

_EXPRESS_SIGNED = re.compile(r"(?<![A-Za-z0-9])s%3A[A-Za-z0-9_\-]{6,}\.[A-Za-z0-9_\-+/%]{10,}")
_SESSION_COOKIE = re.compile(
    r"(?i)(?<![A-Za-z0-9_])(?:connect\.sid|sessionid|session_id|phpsessid|jsessionid"
    r"|laravel_session|_session|asp\.net_sessionid|sid)=(?P<v>[^\s;,&\"'<>]{16,256})"
)


def _session_cookies(t: str) -> Iterator[_Hit]:
    for m in _EXPRESS_SIGNED.finditer(t):
        yield (_SECRET, "session_cookie", m.start(), m.end(), None)
    for m in _SESSION_COOKIE.finditer(t):
        value = m.group("v").rstrip(".,)")
        if not _is_placeholder(value) and _entropy(value) >= 3.3:
            yield (_SECRET, "session_cookie", m.start("v"), m.start("v") + len(value), None)


# --------------------------------------------------------------------------------------------
# TOTP keys grouped in fours, the way authenticator apps show them ("JBSW Y3DP EHPK 3PXP")
# --------------------------------------------------------------------------------------------

_TOTP_GROUPS = re.compile(
    r"(?<![A-Za-z0-9])(?:[A-Z2-7]{4}(?: [A-Z2-7]{4}){3,7}|[a-z2-7]{4}(?: [a-z2-7]{4}){3,7})"
    r"(?![A-Za-z0-9])"
)
_TOTP_CONTEXT = re.compile(
    r"(?i)totp|2fa|mfa|two[- ]factor|2-step|two-step|authenticator|otp|secret|seed|key|schlüssel"
    r"|clave|clé|chave|密钥|秘钥|验证|認証|キー|シークレット"
)


def _totp_keys(t: str) -> Iterator[_Hit]:
    for m in _TOTP_GROUPS.finditer(t):
        if _TOTP_CONTEXT.search(t, max(0, m.start() - 60), m.start()):
            yield (_SECRET, "totp_secret", m.start(), m.end(), None)
