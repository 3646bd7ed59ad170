"""Lists of recovery or backup codes after the word that names them (the floor's password rules).

A keyword naming the codes, then every code-shaped token up to the end of the sentence or
list: codes come in lists ("8302 1147, 5590 2831 and 7716 0042", one per numbered line), and
each one is a credential on its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from userlore.policy.detectors.common import _Hit
from userlore.policy.findings import _SECRET
from userlore.policy.literal_gate import GatedPattern

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
