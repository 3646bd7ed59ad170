"""A setting's scan asks for a sign where no space key can be read (issue 30, floorcost16).

``config_secrets`` reads ``key value`` joined by a bare space only for the space keys
(``requirepass``, ``masterauth``…); elsewhere every such match is passed over. Where no space
key stands in the text's casefold it scans with the signed pattern alone (``_SIGNED``), which
must find exactly the settings the full pattern's loop finds: each text below is read both
ways, the full pattern standing in for the signed one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from userlore.policy.detectors import config_keys

DATA = Path(__file__).resolve().parents[1] / "data"

EDGES = [
    "foo bar=baz",
    "key = (x) then DB_PASSWORD=s3cr3t!Value",
    "user: admin, password: hunter2Hunter",
    "DB_PASSWORD = 'Tr0ub4dor&3' and API_KEY:  \"abcd1234efgh\"",
    "the token db_token=xyz  api_secret =   q9w8e7r6t5",
    "x.y-z_pass=abc123def password:=weird",
    "パスワード=kumo7788sora and 密码：abc12345",
    "requirepass foobared99 and REDIS_PASS=zzz999zzz",  # a space key: the full pattern
    "Masterauth Zq81!aa91 then auth_pass=p4ssw0rdX",
    "ROOTPW ＝ full width and bindpw=Secret12345",
    "paß word: x and PASSWORD_FILE=/etc/secret.txt",
    "a: b: c: d: e=f g=h secret_key=9f8e7d6c5b4a",
    "name:value:other token=abc:def:ghi123",
    "store:notes#m123",
    "İstanbul: şifre=Kedi12345 and İD=1234",
]


def _texts() -> list[str]:
    out = list(EDGES)
    for path in sorted(DATA.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            case = json.loads(line) if line.strip() else None
            if isinstance(case, dict) and isinstance(case.get("text"), str):
                out.append(case["text"])
    return [t for t in dict.fromkeys(out) if "=" in t or ":" in t]


def test_the_signed_scan_finds_what_the_full_scan_finds(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = _texts()
    assert len(texts) > 500
    signed = [list(config_keys.config_secrets(t, t.lower())) for t in texts]
    monkeypatch.setattr(config_keys, "_SIGNED", config_keys._ASSIGNED)
    full = [list(config_keys.config_secrets(t, t.lower())) for t in texts]
    differ = [t for t, a, b in zip(texts, signed, full, strict=True) if a != b]
    assert not differ, differ[:5]
    assert sum(map(bool, full)) >= 10  # the texts hold settings the rule reads


def test_a_space_key_keeps_the_full_scan() -> None:
    found = list(config_keys.config_secrets("requirepass foobared99", "requirepass foobared99"))
    assert [(h[1], h[2], h[3]) for h in found] == [("setting_value", 12, 22)]
