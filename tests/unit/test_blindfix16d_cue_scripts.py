"""A credential acronym written in another script (issue 29, blindfix16d).

blind16 stored "Сбербанк картам ПИН-кода: түөрт ағыс икки тоҕус" and "মোৰ এটিএম কাৰ্ডৰ পিন চাৰি
সাত এক ন": the clause rule for uncovered text (``detectors/uncovered_cued.py``) read its
acronyms in Latin capitals only. It now reads a short word of any other script through
``anyascii``: capitals in a script with case ("ПИН", "ΠΙΝ", "PİN"), any word in a caseless one
("পিন", "पिन", "핀", "პინ"); no language is named. ``blindfix16d_cue_scripts.jsonl`` (first
run on main 19/28 caught, benign 1/12 flagged) and ``…2.jsonl`` (written after the fix, first
sight 20/20 caught, benign 3/8 flagged) hold the cue in Cyrillic, Greek, Armenian, Georgian,
Hangul, Ge'ez, Khmer, Lao and eight Indic scripts, map pins and badges beside it.
"""

from __future__ import annotations

import pytest

from tests.support import value_sets
from userlore.policy.sensitivity import redact

SETS = ("blindfix16d_cue_scripts.jsonl", "blindfix16d_cue_scripts2.jsonl")
KNOWN = {
    # An abjad writes no short vowel ("پن" reads "pn") and Gurmukhi doubles the n after a
    # nasal mark ("ਪਿੰਨ" reads "pimn"): no transliteration gives PIN back.
    "cue_scripts-ur-secret-001",
    "cue_scripts-pa-secret-001",
    # The clause rule's cost, as with "PIN" in Latin capitals: a clause of three words after
    # the cue is redacted on store (a map pin, a PIN's length, a bank's advice).
    "cue_scripts-hi-benign-001",
    "cue_scripts-hy-benign-001",
    "cue_scripts2-ru-benign-001",
    "cue_scripts2-hi-benign-001",
    "cue_scripts2-si-benign-001",
    # Flagged on main by the money rule for uncovered text, not this one.
    "cue_scripts-th-benign-001",
}


test_every_item_of_the_set, test_known_miss = value_sets.set_tests(
    SETS, KNOWN, fails=value_sets.uncovered_fails
)


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        ("Мой ПИН от карты: четыре восемь ноль два", True),
        ("поставь пин на карте у входа в парк", False),  # lower case: a map pin
        ("Ο ΠΙΝ της κάρτας μου είναι έξι ένα οκτώ τρία", True),
        ("Πόσα ψηφία έχει το ΠΙΝ της κάρτας;", False),  # a question states no PIN
        ("내 카드 핀 번호는 일 칠 사 구 이야", True),
        ("지도에 핀을 꽂아 줘, 거기서 만나자", False),  # a particle glued: not the acronym
    ],
)
def test_twins_differ_by_case_and_question(text: str, redacted: bool) -> None:
    assert (redact(text) != text) is redacted
