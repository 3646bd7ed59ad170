"""The value classes run after every other rule of the floor (issue 29), behind one hook.

Each class is a module named by what it finds: a value described then assembled
(``assembled_values``), secrets pasted as settings (``config_keys``), social-security numbers in
groups (``social_ids``), the rent beside the user's salary and a salary negotiation's numbers
(``second_amounts``), backup code lists and dashed recovery keys (``backup_codes``), one-time
codes and a card's security code (``short_codes``), a quoted safe word and a password given in
the next sentence (``credential_words``), a branch or sort code beside the account and the
number after an account's type word (``bank_accounts``). Where a rule before them already names
a span, its verdict and its name stand (the redaction's re-check reads those names:
"[REDACTED:password_in_pieces]" tells the pieces rule its work is done); the word-cued classes,
added later, also yield to the first four.
"""

from __future__ import annotations

import functools
import re

from userlore.policy.detectors import backup_codes, bank_accounts, credential_words, short_codes
from userlore.policy.detectors.assembled_values import assembled_values
from userlore.policy.detectors.common import _Hit, blanked, has_decimal, has_digit, named_spans
from userlore.policy.detectors.config_keys import config_secrets
from userlore.policy.detectors.second_amounts import (
    negotiation_amounts,
    negotiation_terms,
    second_amounts,
)
from userlore.policy.detectors.social_ids import social_ids
from userlore.policy.literal_gate import GatedPattern, LiteralGate

__all__ = ["late_values"]

_Span = tuple[int, int]


def late_values(t: str, lowered: str, hits: list[_Hit]) -> list[_Hit]:
    """The hits of the late classes in ``t`` that no blocking hit in ``hits`` already covers."""
    named = named_spans(hits)
    found = _uncovered(_shaped_values(t, lowered, named), named)
    named += named_spans(found)
    return found + _uncovered(_cued_values(t, lowered), named)


def _uncovered(found: list[_Hit], named: list[_Span]) -> list[_Hit]:
    if not found:
        return []
    return [h for h in found if not any(s < h[3] and h[2] < e for s, e in named)]


def _shaped_values(t: str, lowered: str, named: list[_Span]) -> list[_Hit]:
    """Assembled values, pasted settings, social ids in groups, the rent beside a salary."""
    found = [*assembled_values(t, lowered, named), *config_secrets(t, lowered)]
    if has_digit(t):
        found += [*social_ids(t, lowered), *second_amounts(t, lowered)]
        found += backup_codes.checked_recovery_keys(t)  # a BitLocker key, any language
    return found


@functools.cache
def _any_word() -> LiteralGate:
    # The words a rule starts from; account, pay and "now" words only count beside one.
    return LiteralGate(
        [
            *backup_codes.gate_terms(),
            *short_codes.gate_terms(),
            *credential_words.gate_terms(),
            *bank_accounts.gate_terms(),
            *negotiation_terms(),
        ]
    )


_MARKER = re.compile(r"\[redacted:[\w-]+\]")
_SYMBOL = re.compile(r"[!#$%&*@+=~^]")
_OPENING_QUOTE = GatedPattern(re.compile(r"[«\"„“「『]|(?:^|[\s:=])['‘]"))


def _cued_values(t: str, lowered: str) -> list[_Hit]:
    """Codes after a list's title or a key word, short codes, bank pairs, a negotiation's
    amounts, a password's later value, a quoted safe word."""
    if len(lowered) != len(t):
        return []
    digits = has_decimal(t)
    # Every rule but the quoted word's and a continuation's needs a digit; those need an
    # opening quote or a symbol.
    if not digits and _OPENING_QUOTE.search(t) is None and not _SYMBOL.search(t):
        return []
    if not _any_word().search(lowered):
        return []
    if "[redacted:" in lowered:  # a re-check: a rule's name in a marker is no cue
        lowered = _MARKER.sub(blanked, lowered)
    found: list[_Hit] = []
    if digits:
        found += backup_codes.code_lists(t, lowered)
        found += backup_codes.dashed_keys(t, lowered)
        found += short_codes.one_time_codes(t, lowered)
        found += short_codes.card_checks(t, lowered)
        found += bank_accounts.bank_pairs(t, lowered)
        found += bank_accounts.typed_accounts(t, lowered)
        found += negotiation_amounts(t, lowered)
        found += credential_words.later_values(t, lowered)
    found += credential_words.continued_values(t, lowered)
    found += credential_words.quoted_words(t, lowered)
    return found
