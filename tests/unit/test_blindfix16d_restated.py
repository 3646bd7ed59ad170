"""A value said in words, then again in digits (issue 29, blindfix16d).

blind16 stored the "1938" of "mi pin … es el año en que nació mi abuela, mil novecientos
treinta y ocho, o sea 1938": the words were redacted, the year said again after "o sea" was
past the told-code window and a year besides. ``redact`` reads its own output again, so
``detectors/told_codes.py`` takes the digits right after a redaction marker and a restating
word (``data/told_codes.yaml`` restated) or a bracket as the value the marker hid. The marker
is the evidence: "at three, i.e. 15:00" has none. ``blindfix16d_restated.jsonl`` (first run
on main 27/32 caught, benign 0/12) and ``…2.jsonl`` (written after the fix, first sight 15/16,
benign 0/8) hold the seven covered languages.
"""

from __future__ import annotations

import pytest

from tests.support import value_sets
from userlore.policy.sensitivity import redact

SETS = ("blindfix16d_restated.jsonl", "blindfix16d_restated2.jsonl")
KNOWN: set[str] = set()


test_every_item_of_the_set = value_sets.set_tests(SETS, KNOWN).every_item


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("mi pin es mil novecientos treinta y ocho, o sea 1938, no lo olvido", False),
        ("mi abuela nació en mil novecientos treinta y ocho, o sea 1938", True),
        ("my PIN is seven two nine four, i.e. 7294", False),
        ("the meeting is at three, i.e. 15:00", True),
        ("暗証番号は四七一九、つまり4719です", False),
        ("会議は三時、つまり15時からです", True),
    ],
)
def test_twins_differ_by_what_was_said(text: str, kept: bool) -> None:
    red = redact(text)
    assert (red == text) is kept
    assert not any(d in red for d in ("1938", "7294", "4719")) or kept
