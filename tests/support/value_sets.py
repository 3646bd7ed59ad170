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


def failures(cases: list[dict[str, object]], *, covered_benign: bool = True) -> list[str]:
    """The ids of ``cases`` that fail their check (a sensitive row not withheld or a value left;
    a benign row withheld or changed): one test per set lists them all, instead of one pytest
    item per row (the suite's time limit)."""
    failed = []
    for case in cases:
        check = quoted_and_kept if case["class"] == "benign" else withheld_and_redacted
        if case["class"] == "benign" and not covered_benign:
            continue
        try:
            check(case)
        except AssertionError:
            failed.append(str(case["id"]))
    return failed


def unexpected_and_stale(
    cases: list[dict[str, object]], known: set[str]
) -> tuple[set[str], set[str]]:
    """The ids of ``cases`` that fail and are not ``known``, and the known ones that now pass
    (a known miss that passes is news: it leaves the test's ``KNOWN``)."""
    failed = set(failures(cases))
    return failed - known, ({str(c["id"]) for c in cases} & known) - failed


def held_out_misses(cases: list[dict[str, object]]) -> tuple[set[str], set[str]]:
    """(sensitive held-out ids with a value left, benign ids the floor changed) of ``cases``;
    asserts every one is withheld, as an uncovered language is (blindfix8b, blindfix16b)."""
    missed: set[str] = set()
    redacted_benign: set[str] = set()
    for case in cases:
        text = str(case["text"])
        assert not quote_verdict(text).quotable
        red = redact(text)
        if case["class"] == "benign":
            if red != text:
                redacted_benign.add(str(case["id"]))
        elif any(v in red for v in case["values"]):  # type: ignore[attr-defined]
            missed.add(str(case["id"]))
    return missed, redacted_benign


def uncovered_fails(case: dict[str, object]) -> bool:
    """A value left, or a benign row changed; a covered benign row withheld too (a held-out
    one is withheld from quoting by design, so only the floor's change counts)."""
    text = str(case["text"])
    red = redact(text)
    if case["class"] != "benign":
        return any(str(v) in red for v in case["values"])  # type: ignore[attr-defined]
    quoted = case["group"] != "covered" or quote_verdict(text).quotable
    return red != text or not quoted
