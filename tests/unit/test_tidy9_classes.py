"""tidy9's classes in the floor (issue 29), each written fresh in the seven languages first.

- ``tidy9_sep_tail.jsonl``: a key, a token or a password in groups joined by ``-``, ``_``,
  ``.`` or a space, cut by a rule's window or length cap ("[REDACTED:cued_credential]-9MPGT-3V66T"):
  every group is redacted, and what follows (a date, the next word) is kept (``keep``).
- ``tidy9_false_cues.jsonl``: a credential word that starts a longer ordinary word (キーボード,
  コードレス, 密码学) and a quantity of a credential word ("token count", "número de tokens",
  "Anzahl der Schlüssel", "トークン数") name no secret.
- ``tidy9_account_types.jsonl``: the number after an account's type word (普通, 当座,
  Girokonto, compte courant, cuenta corriente, conta corrente, checking…) is the account's.

Each file is one test listing every failing row (``tests/support/value_sets``).
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.sensitivity import redact

# Rows that fail for reasons this round did not change:
KNOWN: dict[str, set[str]] = {
    "tidy9_sep_tail.jsonl": {
        "t9-sep_tail-zh-028",  # 激活码 is no credential cue, and a three-group key no dashed key
        "t9-sep_tail-en-w003",  # the value starts past the cue's 48-character window
        # (en-b004, "release v2.4.1-beta … login": a version beside a version word is public
        # since blindfix12a's public_refs.)
        "t9-sep_tail-en-b028",  # "key-value store took 12-15 ms": a range read as a value
    },
    "tidy9_false_cues.jsonl": {
        # キーホルダーを5521円で買った: "キー" is no cue, but a price paid for one's own thing is
        # the user's money since blindfix21b (paguei 4.299 no meu notebook; 89,800で買った).
        "t9-cue_prefix-ja-002",
        "t9-cue_prefix-ja-007",  # トークンリング: only a short katakana cue stands alone
        "t9-cue_prefix-zh-013",  # 密码学课程编号 CS6120: a course code after a "number" word
        "t9-cue_prefix-zh-014",  # 口令式: the gate withholds a cue beside a count
        # (Digits glued to a kana particle or after a full-width colon, missed at tidy9's
        # stop, are read since blindfix10a's cued-value rule: ja-017, ja-020, zh-059, ja-060.)
        "t9-cue_measure-de-038",  # "Token-Limit": a hyphenated compound is not generated
    },
    # The gate withholds a sentence naming an account type beside a fee, a rate or a year; the
    # floor redacts a rate (普通預金の金利は0.001%) and a fee ("cobra 12 euros") as the
    # user's money.
    "tidy9_account_types.jsonl": {
        "t9-account_type-ja-029",
        "t9-account_type-zh-031",
        "t9-account_type-zh-032",
        "t9-account_type-de-033",
        "t9-account_type-fr-036",
        "t9-account_type-fr-037",
        "t9-account_type-es-038",
        "t9-account_type-es-039",
        "t9-account_type-pt-040",
        "t9-account_type-pt-041",
        "t9-account_type-en-042",
    },
}


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_every_row_of_the_class(name: str) -> None:
    assert set(value_sets.failures(data_sets.rows(name))) == KNOWN[name]


def test_what_follows_a_key_is_kept() -> None:
    rows = [r for r in data_sets.rows("tidy9_sep_tail.jsonl") if r.get("keep")]
    lost = [(r["id"], k) for r in rows for k in r["keep"] if k not in redact(str(r["text"]))]
    # "licence key: Q4RT2-HH8WK-ZP93M then restart the app": "then" is read as a pieces
    # connective, and "restart" taken as the next piece (the pieces rule, not this class).
    assert lost == [("t9-sep_tail-en-001", "restart")]


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # A key cut at a separator loses every group; the date, version or word after it stays.
        ("clé de licence Windows de mon PC : VK7JG-NPHTM-C97JM-9MPGT-3V66T", ["PC :"]),
        ("password of the shared drive we set u 4821.9930.7712.0458.3391.6620", ["set u"]),
        ("my backup passcode is 7731 2290 4418 and it expires 2025-06-30", ["2025-06-30"]),
        ("Lizenzschlüssel: 8XKQF-9MPGT-3V66T-BB7QW, gekauft am 12.03.2024", ["12.03.2024"]),
        ("my PIN is 4821 2024 was a good year", ["2024 was"]),
        ("code X7Q2-based login", ["login"]),
    ],
)
def test_groups_after_a_cut(text: str, kept: list[str]) -> None:
    red = redact(text)
    assert "[REDACTED" in red and not any(g in red for g in ("9MPGT", "3V66T", "6620", "4418"))
    assert all(k in red for k in kept)
