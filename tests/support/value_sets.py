"""The gate's and the floor's check of one row of a value class set (``tests/data/*.jsonl``).

Shared by the class tests of each round (values5, dialects6, blindfix6, blindfix7): a
sensitive row is withheld from quoting and every one of its values is redacted; a covered
near-miss is quoted and kept word for word.
"""

from __future__ import annotations

from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact


def withheld_and_redacted(case: dict[str, object]) -> None:
    """Assert a sensitive row is withheld and none of its ``values`` survives redaction."""
    text = str(case["text"])
    assert not quote_verdict(text).quotable
    red = redact(text)
    for value in case["values"]:  # type: ignore[attr-defined]
        assert value not in red


def quoted_and_kept(case: dict[str, object]) -> None:
    """Assert a covered near-miss is quoted and the floor changes none of it."""
    text = str(case["text"])
    assert quote_verdict(text).quotable
    assert redact(text) == text
