"""The gate's and the floor's check of one row of a value class set (``tests/data/*.jsonl``).

Shared by the class tests of each round (values5, dialects6, blindfix6, blindfix7): a
sensitive row is withheld from quoting and every one of its values is redacted; a covered
near-miss is quoted and kept word for word. :func:`set_tests` writes a round's two tests of
its sets once (every row as expected, each known miss still a miss).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, NamedTuple

import pytest

from tests.support import data_sets
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact

Case = dict[str, Any]


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


def row_fails(case: Case, *, covered_benign: bool = True) -> bool:
    """A sensitive row not withheld or with a value left; a benign row withheld or changed
    (never, with ``covered_benign=False``)."""
    if case["class"] == "benign" and not covered_benign:
        return False
    check = quoted_and_kept if case["class"] == "benign" else withheld_and_redacted
    try:
        check(case)
    except AssertionError:
        return True
    return False


def failures(cases: list[dict[str, object]], *, covered_benign: bool = True) -> list[str]:
    """The ids of ``cases`` that fail their check (:func:`row_fails`): one test per set lists
    them all, instead of one pytest item per row (the suite's time limit)."""
    return [str(c["id"]) for c in cases if row_fails(c, covered_benign=covered_benign)]


def unexpected_and_stale(
    cases: Sequence[Case], known: Collection[str], *, fails: Callable[[Case], bool] = row_fails
) -> tuple[set[str], set[str]]:
    """The ids of ``cases`` that fail and are not ``known``, and the known ones that now pass
    (a known miss that passes is news: it leaves the test's ``KNOWN``)."""
    failed = {str(c["id"]) for c in cases if fails(c)}
    return failed - set(known), ({str(c["id"]) for c in cases} & set(known)) - failed


class SetTests(NamedTuple):
    """A class test module's two tests, bound at its top level under its own names."""

    every_item: Callable[[str], None]
    """Parametrised over the sets (or families): no row fails but the known, each known fails."""
    known_miss: Callable[[str], None]
    """Strict xfail per known id: a known miss that passes is news."""


def set_tests(
    sets: Sequence[str],
    known: Collection[str] | Mapping[str, str] = frozenset(),
    *,
    fails: Callable[[Case], bool] = row_fails,
    by_family: bool = False,
) -> SetTests:
    """The two tests of the class sets ``sets`` (file names under ``tests/data``), one check.

    Args:
        sets: The round's sets; the first test is parametrised over them.
        known: The ids that still fail (a mapping gives each its xfail reason).
        fails: Whether a row fails (default :func:`row_fails`; held-out sets pass
            :func:`uncovered_fails` or their own).
        by_family: Parametrise the first test over the rows' ``family`` across all the sets.
    """
    known_ids = frozenset(known)
    reasons: Mapping[str, str] = known if isinstance(known, Mapping) else {}
    if by_family:
        cases = data_sets.rows(*sets)
        groups = sorted({str(c["family"]) for c in cases})

        def rows_of(group: str) -> list[Case]:
            return [c for c in cases if c["family"] == group]
    else:
        groups = list(sets)

        def rows_of(group: str) -> list[Case]:
            return data_sets.rows(group)

    @pytest.mark.parametrize("group", groups)
    def every_item(group: str) -> None:
        unexpected, stale = unexpected_and_stale(rows_of(group), known_ids, fails=fails)
        assert (unexpected, stale) == (set(), set()), (sorted(unexpected), sorted(stale))

    @pytest.mark.parametrize(
        "case_id",
        [
            pytest.param(
                case_id,
                marks=pytest.mark.xfail(
                    strict=True,
                    reason=reasons.get(case_id, "a known miss (KNOWN): passing is news"),
                ),
            )
            for case_id in sorted(known_ids)
        ],
    )
    def known_miss(case_id: str) -> None:
        assert not any(fails(c) for c in data_sets.rows(*sets) if c["id"] == case_id)

    return SetTests(every_item, known_miss)


def uncovered_fails(case: Case) -> bool:
    """A value left, or a benign row changed; a covered benign row withheld too (a held-out
    one is withheld from quoting by design, so only the floor's change counts)."""
    text = str(case["text"])
    red = redact(text)
    if case["class"] != "benign":
        return any(str(v) in red for v in case["values"])
    quoted = case["group"] != "covered" or quote_verdict(text).quotable
    return red != text or not quoted


def held_out_misses(cases: list[dict[str, object]]) -> tuple[set[str], set[str]]:
    """(sensitive held-out ids with a value left, benign ids the floor changed) of ``cases``,
    by :func:`uncovered_fails`; asserts every one is withheld, as an uncovered language is
    (blindfix8b, blindfix16b)."""
    missed: set[str] = set()
    redacted_benign: set[str] = set()
    for case in cases:
        # Held-out rows only: for a covered benign row uncovered_fails asks for a quote.
        assert case["group"] != "covered", case["id"]
        assert not quote_verdict(str(case["text"])).quotable
        if uncovered_fails(case):
            (redacted_benign if case["class"] == "benign" else missed).add(str(case["id"]))
    return missed, redacted_benign
