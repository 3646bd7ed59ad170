"""Keys named in text, high-entropy values next to key words, AWS secret keys."""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.cue_data import cues
from userlore.policy.detectors.common import (
    _HEX,
    _IDENTIFIER_LIKE,
    _UUID,
    _char_classes,
    _entropy,
    _Hit,
    _is_hash_like,
    _is_placeholder,
)
from userlore.policy.findings import _SECRET, _words

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
    r"|(?P<cjk>密钥|秘钥|令牌|api密钥|访问密钥|トークン|シークレット)"
    # "clave del API", "clé de l’API", "chave da API": an article between (blindfix19e)
    r"|(?P<intl>clave(?:\s+de(?:l|\s+la)?)?\s+(?:api|acceso|secreta)"
    r"|cl[ée]\s+(?:de\s+l['’]\s*|d['’]?\s*)?api|cl[ée]\s+secr[èe]te"
    r"|jeton|api-schlüssel|schlüssel|chave(?:\s+d[aeo])?\s+(?:api|acesso)|token\s+de\s+acceso))"
)
_KEY_GATE = re.compile(
    r"key|secret|token|auth|bearer|credential|password|passwd|salt|session|密钥|秘钥|令牌"
    r"|clave|cl[ée]|jeton|schlüssel|chave|キー|トークン|シークレット"
)
_VALUE_TOKEN = re.compile(r"[A-Za-z0-9_\-+/.~][A-Za-z0-9_\-+/=.~]{15,}")
_DIGEST_PREFIX = re.compile(r"(?i)(?:sha\d{1,3}|md5|blake2b?|sri|integrity)[:\-=]\s*$")
_DIRECT_GAP = re.compile(r"[\"']?\s*(?:[:=＝：]|=>|is|was|是|为)?\s*[\"']?")
_TEMPLATE_OPEN = re.compile(r"(?:\{\{|\$\{|\{%|<%=?|%\()\s*$")
_SRI = re.compile(r"(?i)(?:sha(?:1|256|384|512))-[A-Za-z0-9+/]{20,}={0,2}")
_VERSION_OR_PATH = re.compile(r"(?:[\w\-]+\.)+[A-Za-z]{1,6}|v?\d+(?:\.\d+){1,3}(?:[-+][\w.]+)?")
_FILE_PATH = re.compile(r"[\w.\-~]*(?:/[\w.\-~]+)+\.[A-Za-z][A-Za-z0-9]{0,5}")
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
            # Inside a word ("monkey"), unless a camelCase hump ("myApiKey") or a parameter's
            # name that ends in its secret ("corpsecret", "appsecret").
            # A CJK cue glued to a Latin word is a compound's end ("APIトークン"), not inside one.
            inside = k > 0 and t[k - 1].isalpha() and t[k - 1].isascii() and not t[k].isupper()
            inside = inside and t[k].isascii()
            if inside and _GLUED_TAIL.match(lowered, k) is None:
                continue
            if _WORD_GOES_ON.match(t, kw.end()) is not None:
                continue  # "secretary", "keyboard", "tokenizer": a word the cue begins
            if k > seen:
                seen = k
                budget -= 1
                if budget < 0:
                    return
                yield kw


# A name glued before "secret" or "token" is a parameter's ("corpsecret", "channelsecret",
# "authtoken"): no English word ends in either, as words end in "key" ("monkey", "turkey").
_GLUED_TAIL = re.compile(r"(?:secret|token)(?![a-z])")
# The cue's word goes on in lower case (a plural's "s" ends it: "keys", "tokens").
_WORD_GOES_ON = re.compile(r"(?!s(?![a-z]))[a-z]")


_PUBLIC_KEY_PREFIX = re.compile(r"(?:ssh-(?:ed25519|rsa|dss)|ecdsa-sha2-nistp\d+|sk-ssh-\S+)\s+$")


def _high_entropy(t: str, lowered: str, spans: list[tuple[int, int]]) -> Iterator[_Hit]:
    for kw in _key_words_near(t, lowered, spans):
        strong = kw.group("strong") is not None or kw.group("cjk") is not None
        bearer = kw.group(0).lower() == "bearer"
        line_end = t.find("\n", kw.end())
        window_end = min(kw.end() + 60, len(t) if line_end < 0 else line_end)
        # Tokens that start in the window, each read to its end (a window-capped scan cut a
        # 64-character key and left its tail behind in the redacted text).
        for v in _VALUE_TOKEN.finditer(t, kw.end(), len(t) if line_end < 0 else line_end):
            if v.start() >= window_end:
                break
            value = v.group(0).rstrip(".")
            gap = t[kw.end() : v.start()]
            direct = _DIRECT_GAP.fullmatch(gap.strip()) is not None
            if _is_placeholder(value) or _SRI.fullmatch(value) or "REDACTED" in value:
                continue
            if _DIGEST_PREFIX.search(t, max(0, v.start() - 12), v.start()):
                continue
            if _PUBLIC_KEY_PREFIX.search(t, max(0, v.start() - 24), v.start()):
                continue  # "ssh-ed25519 AAAAC3…": a public key, shared by design
            if _TEMPLATE_OPEN.search(t, max(0, v.start() - 4), v.start()):
                continue  # {{ secrets.DEPLOY_KEY }}, ${TOKEN}, <%= key %>
            if _is_hash_like(value) and not (strong and direct):
                continue
            if _IDENTIFIER_LIKE.fullmatch(value) or _VERSION_OR_PATH.fullmatch(value):
                continue
            if _FILE_PATH.fullmatch(value):
                continue  # "…/test_secrets0/mail.mbox": a path, not a key
            if value.startswith(("http", "/", "./", "www.", "pk_live_", "pk_test_")):
                continue
            if t.startswith("://", v.start() + len(value)):
                continue  # "DATABASE_URL=postgres://…": a URL's scheme, the URL rules' (blind19)
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
                yield (_SECRET, "high_entropy_secret", _with_sigil(t, v.start()), end, None)
                break
    yield from _cued_keys(t, lowered)
    for m in _BASIC_AUTH.finditer(t) if "asic" in t else ():
        try:
            decoded = base64.b64decode(m.group("v") + "==", validate=False)
        except (binascii.Error, ValueError):
            continue
        if b":" in decoded and not _is_placeholder(m.group("v")):
            yield (_SECRET, "basic_auth", m.start("v"), m.end("v"), None)


# A credential cue of the floor's cue data (every language) that names a key or a token, and
# what may stand between it and the value: up to three words ("secrète d'API", "de acceso")
# and a separator or copula ("is", "est", "ist", "é", "是", "は").
_KEYISH_CUE = re.compile(
    r"key|token|secret|clé|cle|clave|chave|schlüssel|jeton|密钥|秘钥|令牌|キー|トークン|シークレット"
)
_CUE_GAP = re.compile(
    r"\s*(?:[^\W\d_][^\W\d_'’\-]*(?:['’\-][^\W\d_]+)*['’]?\s*){0,3}?"
    r"(?:[:=＝：]|=>|is|was|est|ist|lautet|es|é|era|foi|是|为|為|は|が)?\s*[\"'`]?\$?"
)
_HEX_KEY = re.compile(r"(?=[0-9a-fA-F]*[a-fA-F])(?=[0-9a-fA-F]*[0-9])[0-9a-fA-F]{16,}")
# The cue's owner and use written out as a label, then a colon (blindfix18a): "token de la API
# de Holded para el script de facturas: 8b2e…", "API key of the Mailgun account for the
# newsletter job: 3f9a…". Up to twelve words in one clause (each ends at a space or an
# apostrophe, so a word splits one way only), ending in the colon a label ends in.
_LABEL_GAP = re.compile(
    r"\s*(?:[^\W\d_][^\W\d_'’\-.]*(?:['’]\s*|\s+)){0,11}[^\W\d_][^\W\d_'’\-.]*"
    r"\s*[:：]\s*[\"'`]?"
)
_LABEL_LONGEST: Final = 80


def _cued_keys(t: str, lowered: str) -> Iterator[_Hit]:
    """A hex key (16+) or a high-entropy token after a key or token cue in any covered language.

    The cue words are the floor's credential cues (``quote_cues.yaml``); digests after a digest
    word are blanked before any rule reads the text (``detectors/benign_values.py``)."""
    for cue in cues().credential_cues(lowered):
        if not _KEYISH_CUE.search(cue.group(0)):
            continue
        line_end = t.find("\n", cue.end())
        v = _VALUE_TOKEN.search(t, cue.end(), len(t) if line_end < 0 else line_end)
        if v is None or not cue.end() < v.start() <= cue.end() + _LABEL_LONGEST:
            continue
        if not v.group(0)[0].isalnum():
            continue  # "AWS_SECRET_ACCESS_KEY=…": the cue is part of a name, read by _KEY_WORDS
        near = v.start() <= cue.end() + 40 and _CUE_GAP.fullmatch(t, cue.end(), v.start())
        if not near and _LABEL_GAP.fullmatch(t, cue.end(), v.start()) is None:
            continue
        value = v.group(0).rstrip(".")
        if _is_placeholder(value) or "REDACTED" in value or _UUID.fullmatch(value):
            continue
        if _DIGEST_PREFIX.search(t, max(0, v.start() - 12), v.start()):
            continue
        if _HEX_KEY.fullmatch(value) or key_shaped(value):
            start = _with_sigil(t, v.start())
            yield (_SECRET, "high_entropy_secret", start, v.start() + len(value), None)


def _with_sigil(t: str, start: int) -> int:
    """``start``, or one before it when a ``$`` opens the key as its vendor prefix
    ("$aact_YTU5…": blindfix19e), so the sigil goes with the value it prefixes."""
    if start > 0 and t[start - 1] == "$" and (start == 1 or not t[start - 2].isalnum()):
        return start - 1
    return start


def key_shaped(value: str) -> bool:
    """A key's or a token's shape: twenty characters or more with lower and upper case and
    digits, high entropy, not an identifier, a version, a path, a URL or a public key's
    prefix. What a cue word points at; what stands alone in a turn no covered rule reads
    (``detectors/uncovered.py``)."""
    return (
        len(value) >= 20
        and _char_classes(value) == 3
        and _entropy(value) >= 3.5
        and not _IDENTIFIER_LIKE.fullmatch(value)
        and not _VERSION_OR_PATH.fullmatch(value)
        and not _FILE_PATH.fullmatch(value)
        and not value.startswith(("http", "/", "./", "www.", "pk_live_", "pk_test_"))
    )


def standalone_keys(t: str, lo: int, hi: int) -> Iterator[tuple[int, int]]:
    """Key-shaped tokens in ``t[lo:hi]`` (no cue needed), not after a digest's or a public
    key's prefix, not a placeholder, an SRI hash or a UUID."""
    for v in _VALUE_TOKEN.finditer(t, lo, hi):
        value = v.group(0).rstrip(".")
        if _is_placeholder(value) or _SRI.fullmatch(value) or _UUID.fullmatch(value):
            continue
        if _DIGEST_PREFIX.search(t, max(0, v.start() - 12), v.start()):
            continue
        if _PUBLIC_KEY_PREFIX.search(t, max(0, v.start() - 24), v.start()):
            continue
        if key_shaped(value) and not _public_base58(value):
            yield v.start(), v.start() + len(value)


_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_CID_V0 = re.compile(rf"Qm[{_BASE58}]{{44}}")


def _public_base58(value: str) -> bool:
    """A content id (IPFS CIDv0, "Qm…") or a value that carries its own Base58Check checksum
    (a Bitcoin address): public by design, shared to be paid or fetched, not a key."""
    if _CID_V0.fullmatch(value):
        return True
    if not 25 <= len(value) <= 35 or any(ch not in _BASE58 for ch in value):
        return False
    n = 0
    for ch in value:
        n = n * 58 + _BASE58.index(ch)
    pad = len(value) - len(value.lstrip("1"))
    raw = b"\0" * pad + n.to_bytes((n.bit_length() + 7) // 8, "big")
    body, check = raw[:-4], raw[-4:]
    return len(raw) == 25 and hashlib.sha256(hashlib.sha256(body).digest()).digest()[:4] == check


def _aws_secret(t: str, lowered: str) -> Iterator[_Hit]:
    if "aws" not in lowered and "akia" not in lowered and "asia" not in lowered:
        return
    for m in _AWS_SECRET.finditer(t):
        v = m.group(0)
        if _HEX.fullmatch(v) or _char_classes(v) < 3 or _entropy(v) < 4.0 or _is_placeholder(v):
            continue
        yield (_SECRET, "aws_secret_key", m.start(), m.end(), None)


# --------------------------------------------------------------------------------------------
# Secrets: one key split in pieces by words ("sk-abc… and then …xyz", "part one: …, part two: …")
# --------------------------------------------------------------------------------------------

# Where a split key starts: a vendor prefix (matched on the original text), or a key word and
# a first piece (on the lowercased text, whose offsets are the same). No pattern starts with a
# lookbehind, so the engine can skip ahead to the prefix; the boundary is checked by hand.
_SPLIT_VENDOR = re.compile(
    r"(?:sk-(?:proj-|ant-(?:api\d\d-)?|svcacct-|admin-)?|[sr]k_(?:live|test)_|gh[pousr]_"
    r"|github_pat_|gl(?:pat|dt|rt|ptt)-|xox[abposre]-|hf_|npm_|pypi-|AKIA|ASIA|AIza|ya29\.|xai-"
    r"|gsk_|r8_|lin_api_|shp(?:at|ss|ca|pa)_|do[opr]_v1_|sbp_|SG\.|whsec_|GOCSPX-)[A-Za-z0-9_\-]*"
)
_SPLIT_KEYWORD = re.compile(
    r"(?:api[_\-\s]?key|token|secret|key|密钥|令牌)(?![a-z0-9_])\s*(?:is|was|:|=|是)?\s*"
    r"(?P<w>[a-z0-9_\-]{6,64})(?![a-z0-9_\-])"
)
_SPLIT_ANNOUNCED: Final = _words(
    "then rest half part followed continues continued ends end second last plus remaining next"
    " piece bit"
)
_SPLIT_PIECE = re.compile(r"[A-Za-z0-9_\-+/]{3,128}")
_SPLIT_GAP_WORDS = _words(
    """
    and then after that followed by continues continue continued with as the rest is was second
    half part two 2 bit ends end in last finally plus next one piece remaining goes on it
    """
)
_SPLIT_GAP = re.compile(r"[\s,;:+.…=\"'()\-–—>|]*")
_GAP_WORD = re.compile(r"[A-Za-z0-9]+")


def _gap_joins(gap: str) -> bool:
    """Only separators and connective words between two pieces of one value."""
    if not gap.strip() or len(gap) > 40:
        return False
    words = _GAP_WORD.findall(gap.lower())
    rest = _GAP_WORD.sub("", gap)
    return all(w in _SPLIT_GAP_WORDS for w in words) and _SPLIT_GAP.fullmatch(rest) is not None


def _split_keys(
    t: str, lowered: str, words: frozenset[str], vendor: re.Pattern[str]
) -> Iterator[_Hit]:
    """Pieces joined by connective words that make a vendor token or a high-entropy key."""
    if _SPLIT_ANNOUNCED.isdisjoint(words) and "+" not in t and "..." not in t and "…" not in t:
        return  # a split is announced ("then", "the rest", "part two", "+", "..."): cheap gate
    starts = [m.span() for m in _SPLIT_VENDOR.finditer(t)]
    if "key" in lowered or "token" in lowered or "secret" in lowered or "密钥" in t or "令牌" in t:
        starts += [
            m.span("w") for m in _SPLIT_KEYWORD.finditer(lowered) if m.span("w") not in starts
        ]
    for first in starts:
        if first[0] > 0 and (t[first[0] - 1].isalnum() and t[first[0] - 1].isascii()):
            continue
        pieces = [first]
        pos = first[1]
        while len(pieces) < 5:
            nxt = next(
                (
                    p
                    for p in _SPLIT_PIECE.finditer(t, pos, min(len(t), pos + 60))
                    if p.group(0).lower() not in _SPLIT_GAP_WORDS
                ),
                None,
            )
            if nxt is None or not _gap_joins(t[pos : nxt.start()]):
                break
            piece = nxt.group(0)
            if not any(c.isdigit() for c in piece) and _char_classes(piece) < 2:
                break
            pieces.append(nxt.span())
            pos = nxt.end()
        if len(pieces) < 2:
            continue
        joined = "".join(t[s:e] for s, e in pieces)
        if _is_placeholder(joined):
            continue
        whole = vendor.fullmatch(joined) is not None
        keyish = (
            len(joined) >= 20
            and _char_classes(joined) == 3
            and _entropy(joined) >= 3.5
            and not _is_hash_like(joined)
        )
        if whole or keyish:
            for s, e in pieces:
                yield (_SECRET, "split_secret", s, e, None)
