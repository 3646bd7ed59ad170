"""Key material that is public, and values that are placeholders: not secrets (issue 29, blindfix6).

A public SSH key, a PEM public key or certificate, a PGP fingerprint or an ``age1…`` recipient is
meant to be shared; a value such as ``your-key-here``, ``<token>``, ``xxxxxxxx``, ``changeme`` or
an all-zero IBAN stands in for one. The floor and the gate read every other part of a text as
usual, but these spans are blanked first (:func:`mask_public_material`: replaced by spaces of
the same length, so every span found afterwards still points into the caller's text). Blind
text showed why: 8 of 63 benign turns were withheld for them (public keys redacted as
credentials, a key's base64 read as a health cue, an ASCII placeholder making a Chinese turn
read as Breton).

Recall first. Never blanked: a private key block (``PRIVATE KEY``, ``AGE-SECRET-KEY-``), a
value with the shape of a real one however near a placeholder word ("replace the placeholder
with my real key sk_live_…"), or a real value beside an all-zero one. A weak value (``0000``,
``123456``, ``4111 1111 1111 1111``) is blanked only when a placeholder word ("example",
"Beispiel", "示例", "サンプル"…, ``policy/data/placeholder_words.yaml``) stands in its sentence;
without one, "my PIN is 0000" is still a PIN.
"""

from __future__ import annotations

import re
from typing import Final

from userlore.policy.detectors.benign_shapes import benign_spans, default_said, with_key
from userlore.policy.detectors.benign_values import benign_value_spans
from userlore.policy.detectors.common import has_decimal
from userlore.policy.detectors.masked_values import masked_spans
from userlore.policy.detectors.placeholder_values import says_what_goes_there, slot_phrase_spans
from userlore.policy.detectors.placeholders import placeholder_gate, placeholder_words
from userlore.policy.detectors.public_refs import public_ref_spans
from userlore.policy.detectors.stand_ins import stand_in_spans
from userlore.policy.literal_gate import GatedPattern
from userlore.policy.machine_lines import carry, output_name_spans

__all__ = ["mask_public_material", "placeholder_words", "public_spans"]

# -- public key material ------------------------------------------------------------------------

# An OpenSSH public key line: its type, a base64 blob that starts with the length-prefixed type
# name ("AAAA…"), and an optional comment ("dana@laptop").
_SSH_PUBLIC = re.compile(
    r"(?<![\w-])(?:ssh-(?:ed25519|rsa|dss)|ecdsa-sha2-nistp(?:256|384|521)"
    r"|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)"
    r"[ \t]+AAAA[A-Za-z0-9+/]{4,}={0,3}(?:[ \t]+[\w.+-]+@[\w.-]*\w)?"
)
# A PEM block of public material, to its END line (or the end of the text when cut off).
_PEM_PUBLIC = re.compile(
    r"-----BEGIN (?P<kind>(?:RSA |EC |SSH2 |PGP )?PUBLIC KEY(?: BLOCK)?|CERTIFICATE)-----"
    r".*?(?:-----END (?P=kind)-----|$)",
    re.DOTALL,
)
# A PGP fingerprint as gpg prints it: ten groups of four hex digits (a double space halfway).
_FINGERPRINT = re.compile(
    r"(?<![0-9A-Za-z])[0-9A-Fa-f]{4}(?:[ \t]{1,2}[0-9A-Fa-f]{4}){9}(?![0-9A-Za-z])"
)
# An ungrouped fingerprint or key id needs a fingerprint word before it.
_HEX_ID = re.compile(r"(?<![0-9A-Za-z])(?:0x)?(?:[0-9A-Fa-f]{40}|[0-9A-Fa-f]{16})(?![0-9A-Za-z])")
_FINGERPRINT_WORD = re.compile(
    r"(?i)(?:fingerprint|gpg|pgp|key ?id|fingerabdruck|empreinte|huella|impress[ãa]o digital"
    r"|指纹|指紋|フィンガープリント)[^.!?\n。]{0,30}$"
)
_KEY_FINGERPRINT = GatedPattern(
    re.compile(
        r"(?i)\b(?:gpg|pgp|ssh|host|tls|ssl|cert(?:ificate)?|(?:public |signing |server )?key)"
        r"[ \t-]+fingerprints?\b"
    )
)
_FINGERPRINT_NOUN = re.compile(r"(?i)\bfingerprints?\b")
# AWS's documented example credentials end in EXAMPLE ("AKIAIOSFODNN7EXAMPLE",
# "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"): printed in every doc and scanner, no one's key.
_DOC_EXAMPLE_KEY = re.compile(
    r"(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{8,40}EXAMPLE(?:KEY)?(?![A-Za-z0-9/+])"
)
# An age recipient (bech32, 58 characters after ``age1``); a secret key is AGE-SECRET-KEY-1….
_AGE_RECIPIENT = re.compile(r"(?<![\w-])age1[02-9ac-hj-np-z]{58}(?![0-9a-z])")

# -- placeholders --------------------------------------------------------------------------------

# Shapes that are placeholders wherever they stand: a bracketed or templated name, a run of
# x or *, a "your-…-here" phrase, a known stand-in word; a docs' elided vendor prefix and
# ellipses go with it ("sk-...your-key-here...", "sk_test_...replace-me...").
_ELIDED_PREFIX = r"(?:[A-Za-z]{2,8}(?:[-_][A-Za-z]{2,8})?[-_](?:\.{2,3}|…))?"
_PLACEHOLDER_TOKEN = re.compile(
    rf"(?<![A-Za-z0-9_<{{$]){_ELIDED_PREFIX}"
    r"(?:<[A-Za-z][\w .-]{0,38}>|<[^\W\d_][\w .-]{0,38}>|\{\{\s*\w+\s*\}\}|\$\{\w+\}"
    r"|[xX]{4,}(?:[-_][xX]{2,})*|\*{4,}|•{4,}"
    r"|[A-Za-z]{2,8}(?:[-_][A-Za-z]{2,8}){0,2}[-_](?:xxx|XXX)[xX]*"  # "sk_test_xxx" (blind19)
    r"|(?i:(?:your|my|tu|su|sua|seu|votre|ta|dein|ihr|ton)[-_](?:[a-z]+[-_]){0,3}"
    r"(?:here|aqui|aquí|ici|hier)|[a-z]+(?:[-_][a-z]+){0,3}[-_](?:here|aqui|aquí|ici|hier)"
    r"|change[-_]?me|change[-_]?this|replace[-_]?me|placeholder|insert[-_]\w+[-_]here))"
    r"(?:\.{2,3}|…)?(?![A-Za-z0-9_>}])"
)
# Every placeholder shape holds one of these: the cheap test before the alternation.
_PLACEHOLDER_HINT = GatedPattern(re.compile(r"(?i)[<{$*•_-]|xxxx|change|replace|placeholder"))
# Values that are placeholders only beside a placeholder word: all one digit, a counting run,
# or a documented test card number.
_WEAK_VALUE = re.compile(
    r"(?<![\w.,-])(?:[A-Z]{2})?\d[\d \t-]{2,30}\d(?![\w-])|(?<![\w.,-])\d{4,}(?![\w-])"
)
_TEST_NUMBERS: Final = frozenset(
    {
        "4111111111111111",
        "4242424242424242",
        "4012888888881881",
        "5555555555554444",
        "5105105105105100",
        "378282246310005",
        "371449635398431",
        "6011111111111117",
        "3530111333300000",
    }
)


def _weak(value: str) -> bool:
    """All zeros after a country prefix, one repeated digit, a counting run or a test card."""
    digits = "".join(ch for ch in value if ch.isdigit())
    if len(digits) < 4:
        return False
    if set(digits) == {"0"} or (value[:2].isalpha() and set(digits) == {"0"}):
        return True
    if len(set(digits)) == 1:
        return True
    if digits in "12345678901234567890" or digits in "98765432109876543210":
        return True
    return digits in _TEST_NUMBERS


def _all_zero(value: str) -> bool:
    """Eight or more digits, all zero (with at most a country prefix): never a real number."""
    digits = "".join(ch for ch in value if ch.isdigit())
    return len(digits) >= 8 and set(digits) == {"0"}


def _specimen_iban(value: str) -> bool:
    """A country code, check digits no IBAN can have (00, 01 or 99: ISO 13616 computes 02 to
    98) and an account that counts up or down ("DE00 1234 5678 9012 3456 78"): a documentation
    specimen, never an account, whatever sentence it stands in (blindfix16a)."""
    compact = value.replace(" ", "").replace("-", "").replace("\t", "")
    if not compact[:2].isalpha() or compact[2:4] not in ("00", "01", "99"):
        return False
    rest = compact[4:]
    return len(rest) >= 8 and (rest in "1234567890" * 4 or rest in "9876543210" * 4)


_SENTENCE_END = re.compile(r"[.!?。！？\n]")


def _sentence_of(text: str, start: int, end: int) -> str:
    lo = max((m.end() for m in _SENTENCE_END.finditer(text, 0, start)), default=0)
    hi_m = _SENTENCE_END.search(text, end)
    return text[lo : hi_m.start() if hi_m else len(text)]


def public_spans(text: str) -> list[tuple[int, int]]:
    """Spans of ``text`` holding public key material or a placeholder value, sorted."""
    if not text:
        return []
    spans: list[tuple[int, int]] = []
    if "AAAA" in text:
        spans.extend(m.span() for m in _SSH_PUBLIC.finditer(text))
    if "-----BEGIN" in text:
        spans.extend(m.span() for m in _PEM_PUBLIC.finditer(text))
    if "EXAMPLE" in text:
        spans.extend(with_key(text, *m.span()) for m in _DOC_EXAMPLE_KEY.finditer(text))
    if "age1" in text:
        spans.extend(m.span() for m in _AGE_RECIPIENT.finditer(text))
    digits = has_decimal(text)
    hexes = [m.span() for m in _FINGERPRINT.finditer(text)] if digits else []
    for m in _HEX_ID.finditer(text) if digits else ():
        if _FINGERPRINT_WORD.search(text[max(0, m.start() - 40) : m.start()]):
            hexes.append(m.span())
    spans.extend(hexes)
    # A key's fingerprint is no biometric: the word goes with the value it names ("my key
    # fingerprint for signing releases: 4B2C …"), and a key's or host's fingerprint anywhere.
    spans.extend(m.span() for m in _KEY_FINGERPRINT.finditer(text))
    for start, _ in hexes:
        spans.extend(
            (max(0, start - 60) + w.start(), max(0, start - 60) + w.end())
            for w in _FINGERPRINT_NOUN.finditer(text[max(0, start - 60) : start])
        )
    if _PLACEHOLDER_HINT.search(text):
        # The key goes with its placeholder ("DB_PASSWORD=<passwort>"): a bare key left
        # behind reads as a credential cue before whatever follows it (blindfix8a).
        spans.extend(with_key(text, *m.span()) for m in _PLACEHOLDER_TOKEN.finditer(text))
    spans.extend(benign_spans(text))  # blindfix8a: revisions, defaults, masked values, ports
    spans.extend(benign_value_spans(text))  # blindfix9b: last fours, test cards, digests…
    spans.extend(stand_in_spans(text))  # blindfix10c: env references, zero forms, masks, log ids
    spans.extend(masked_spans(text))  # blind15: masks with a visible head or middle
    spans.extend(public_ref_spans(text))  # blind12: versions, tracking numbers
    spans.extend(_owner_value_spans(text))  # blind13: "你的密钥", "tu_clave_api" as a value
    spans.extend(slot_phrase_spans(text))  # 'pon aquí la clave' after "la clave" (blindfix21a)
    if not digits:
        return sorted(spans)
    cue: bool | None = None
    for m in _WEAK_VALUE.finditer(text):
        value = m.group(0).strip()
        if _all_zero(value) or _specimen_iban(value):
            spans.append(m.span())
            continue
        if not _weak(value):
            continue
        sentence = _sentence_of(text, m.start(), m.end()).casefold()
        if cue is None:
            cue = placeholder_gate().search(text.casefold()) is not None
        # A docs' stand-in, or the factory default ("the default PIN … 1234?": blindfix21a).
        if (cue and placeholder_words().search(sentence)) or default_said(sentence):
            spans.append(m.span())
    spans.extend(_word_values(text))
    return sorted(spans)


_VALUE_RUN = re.compile(r"(?<=[=:\s])[A-Za-zÀ-ÿ]+[0-9]{0,4}(?=[\s,.;!?]|$)")


def _word_values(text: str) -> list[tuple[int, int]]:
    """Values that are a placeholder word itself, with at most four digits ("beispiel123",
    "exemplo1"), in a sentence that names another placeholder word ("Im Beispiel steht
    passwort=beispiel123"): a stand-in written in the language of the text."""
    lowered = text.casefold()
    if len(lowered) != len(text) or placeholder_gate().search(lowered) is None:
        return []
    found = []
    for m in _VALUE_RUN.finditer(text):
        word = m.group(0).rstrip("0123456789").casefold()
        if not any(ch.isdigit() for ch in m.group(0)):
            continue
        if placeholder_words().fullmatch(word) is None:
            continue
        sentence = _sentence_of(lowered, m.start(), m.end())
        others = [w for w in placeholder_words().findall(sentence) if w != word]
        if others:
            found.append(m.span())
    return found


def mask_public_material(text: str) -> str:
    """``text`` with every :func:`public_spans` span replaced by spaces of the same length,
    and every name a program printed in a pasted output (``policy.machine_lines``) by
    underscores: no letter or digit left to read, and the line still reads as output."""
    spans = public_spans(text)
    names = output_name_spans(text)
    if not spans and not names:
        return text
    chars = list(text)
    for fill, found in ((" ", spans), ("_", names)):
        for start, end in found:
            for i in range(start, end):
                if not chars[i].isspace():
                    chars[i] = fill
    masked = "".join(chars)
    carry(masked, text)
    return masked


# A setting's value after its sign, quoted or bare, to the next space, quote or clause mark.
_ASSIGNED = re.compile(r"[=:：]\s*[\"'“「]?([^\s\"'”」,，。、；;]{2,60})[\"'”」]?")


def _owner_value_spans(text: str) -> list[tuple[int, int]]:
    """Spans of settings whose value says what goes there (``api_key: "你的密钥"``, read by
    :func:`~userlore.policy.detectors.placeholder_values.says_what_goes_there`), each with its
    key and quotes: a key left behind would read as a credential cue before the value."""
    if "=" not in text and ":" not in text and "：" not in text:
        return []
    spans = []
    for m in _ASSIGNED.finditer(text):
        if says_what_goes_there(m.group(1).casefold()):
            start, end = with_key(text, m.start(1), m.end())
            spans.append((min(start, m.start()), end))
    return spans
