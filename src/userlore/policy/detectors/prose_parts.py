"""Values told in parts (issue 29, blindfix6 class 2): a password described as a word then a
number, a code whose digits are spaced out in the sentence after its cue, and a bank account
number after a bank and an account-type word.

Blind text showed each leaking into stored evidence while the gate withheld the snippet: "It's
my dog's name, Biscuit, then 1994, no spaces", "Es Manzana y luego 7781", "门禁密码改了。新的是
8 8 0 2 1 9", "三井住友銀行の普通口座7712345". The rules before this one read a value right after
its cue, in the same sentence, in one piece.

- **Parts**: in a turn with a secret cue (a credential word of ``quote_cues.yaml`` that names no
  identifier), a word, a connector of ``prose_parts.yaml`` ("then", "y luego", "dann", "puis",
  "e depois", "后面再加", "に続けて") and a number of two or more digits: the span from the word
  to the number is a secret.
- **Spaced code**: in a turn with a secret cue, four or more single digits each set apart by a
  space, comma or dash ("8 8 0 2 1 9"), in any sentence of the turn.
- **Bank account**: a run of 6–20 digits (single ``-`` or space inside) within a few characters
  after an account-type word ("普通口座", "checking account", "Girokonto", "compte courant",
  "conta corrente"); a generic one ("account", "Konto", "口座") only with a bank word before it
  in the sentence. An amount (a currency after the number) is left to the money rules.

Adding a language is adding its words to ``policy/data/prose_parts.yaml``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any

from userlore.policy.cue_data import alternation, cues
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit, has_digit
from userlore.policy.findings import _REGULATED, _SECRET
from userlore.policy.literal_gate import GatedPattern

__all__ = ["prose_parts"]


@functools.cache
def _data() -> dict[str, Any]:
    return data_yaml("prose_parts.yaml")


def _flat(section: str) -> list[str]:
    return [str(w) for words in _data()[section].values() for w in words]


@functools.cache
def _parts() -> re.Pattern[str]:
    """A word, a connector, a number: "Biscuit, then 1994", "Xiaomei，后面再加2016"."""
    conn = alternation(_flat("connectors"))
    return re.compile(
        r"(?P<word>[^\W\d_]{3,24})[\s,，、]{0,3}(?:" + conn + r")[\s,，:：]{0,3}"
        r"(?:with |mit |avec |con |com )?(?P<num>\d{2,8})(?!\d)",
        re.IGNORECASE,
    )


@functools.cache
def _account_types() -> tuple[GatedPattern, GatedPattern, re.Pattern[str]]:
    """(specific account-type words, generic ones, bank words). The first two are scanned on
    every text with a digit (every store key): only where one of their words stands."""
    return (
        GatedPattern(re.compile(alternation(_flat("account_types")), re.IGNORECASE)),
        GatedPattern(re.compile(alternation(_flat("generic_accounts")), re.IGNORECASE)),
        re.compile(alternation(_flat("bank_words")), re.IGNORECASE),
    )


# A code's last digit may end a sentence ("so 1-6-9-1."): a full stop after it is no decimal.
_SPACED = re.compile(r"(?<![\d.,])\d(?:(?:[ \t]|,[ \t]?|[ \t]?-[ \t]?)\d(?!\d|\.\d)){3,}")
_ACCOUNT_NUMBER = re.compile(r"(?<!\d)\d+(?:[- ]\d+){0,4}(?!\d)")
_CURRENCY_AFTER = re.compile(r"\s?(?:[€$£¥]|円|元|eur|usd|euro|dollar|real|reais|yen|万|千)", re.I)
_SENTENCE_END = re.compile(r"[.!?。！？\n]")
_NEXT_WORD = re.compile(r"\s?([^\W\d_]+)")
_ACCOUNT_GAP = 24


def _secret_cue(lowered: str) -> bool:
    """A credential word that names no identifier (a password, a code, a login)."""
    c = cues()
    found = c.credential_cues(lowered)
    if not found:
        return False
    idents = [m.span() for m in c.identifier.finditer(lowered)]
    return any(not any(s <= m.start() < e for s, e in idents) for m in found)


def prose_parts(t: str) -> Iterator[_Hit]:
    """Secrets told in parts and bank account numbers after their words, in ``t``."""
    if not has_digit(t):
        return
    lowered = t.casefold()
    if len(lowered) == len(t) and _secret_cue(lowered):
        counts = cues().counts
        for m in _parts().finditer(t):
            unit = _NEXT_WORD.match(lowered, m.end("num"))
            if unit is not None and unit.group(1) in counts:
                continue  # "starts with 10 minutes of intro": a count (blindfix23a)
            yield (_SECRET, "password_in_parts", m.start("word"), m.end("num"), None)
        for m in _SPACED.finditer(t):
            yield (_SECRET, "code_in_parts", m.start(), m.end(), None)
    yield from _bank_accounts(t)


def _bank_accounts(t: str) -> Iterator[_Hit]:
    specific, generic, bank = _account_types()
    for pattern, needs_bank in ((specific, False), (generic, True)):
        for cue in pattern.finditer(t):
            if needs_bank:
                start = max((m.end() for m in _SENTENCE_END.finditer(t, 0, cue.start())), default=0)
                if not bank.search(t[start : cue.start()]):
                    continue
            window_end = cue.end() + _ACCOUNT_GAP
            m = _ACCOUNT_NUMBER.search(t, cue.end(), min(len(t), window_end + 24))
            if m is None or m.start() > window_end:
                continue
            digits = sum(ch.isdigit() for ch in m.group(0))
            if not 6 <= digits <= 20 or _CURRENCY_AFTER.match(t, m.end()):
                continue
            if _SENTENCE_END.search(t, cue.end(), m.start()):
                continue
            yield (_REGULATED, "bank_account", m.start(), m.end(), "financial")
