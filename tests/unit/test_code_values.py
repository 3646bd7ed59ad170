"""Every value of a turn about a code, ids printed after their word, public references (issue 29).

blind12 kept the second value of a code told as a correction, an old and a new code or a list
("el PIN de la tarjeta no es 4471, es 4417"), a dashed code at a sentence's end, a safe's dial
in words, a hex value after "AppSecret", a Uruguayan cédula in its printed form and an RFC
whose check does not validate; and withheld or redacted version pins, a mask and carriers'
tracking numbers beside credential words. The class sets (``tests/data/code_values.jsonl``,
``unvalidated_ids.jsonl``, ``credential_neighbours.jsonl``) were written before the rules and
scored on main first (``docs/benchmarks.md``, "blindfix12a"); each is one test listing every
failing row.
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.detectors.public_refs import public_ref_spans
from userlore.policy.detectors.stand_ins import stand_in_spans
from userlore.policy.sensitivity import redact

# Rows no rule of this round decides: a keypad word Spanish has no cue for ("teclado"); the
# gate alone on a keypad's rows (a PIN's length, "the PIN has 4 digits, not 6", passes since
# blindfix17a read digit counts as talk about a credential); version pins the language
# identifier reads as another language once the versions are blanked (quote_language, not a
# value; the English row is read as English since blindfix14a left pins out of its input), and
# "mot de passe oublié : commit <hex>" read as a password's pieces; a bill of 1.234.567 pesos
# after "cuenta" (an account's cue).
KNOWN: dict[str, set[str]] = {
    "code_values.jsonl": {"code_values-es-s06", "code_values-en-b04"},
    "unvalidated_ids.jsonl": {"unvalidated_ids-es-b06"},
    "credential_neighbours.jsonl": {
        "credential_neighbours-de-b01",
        "credential_neighbours-pt-b01",
        "credential_neighbours-fr-b02",
    },
}


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_every_row_of_the_class_set(name: str) -> None:
    assert set(value_sets.failures(data_sets.rows(name))) == KNOWN[name]


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # A year after a time word is a time, not the other code.
        ("my PIN is 4471, I have had this card since 2015", ["since 2015"]),
        # Without a value in the cue's clause, only a clause that opens with a correction or
        # new/old word is read.
        ("I changed my password yesterday, the meeting is in room 4012", ["room 4012"]),
        ("the door code is 4471. The bus leaves at 1530 from stop 2210", ["stop 2210"]),
        # An id word's value must be id-shaped: "RFC 7231" is an IETF document.
        ("RFC 7231 defines the semantics of HTTP", ["RFC 7231"]),
        ("CI: build 4512093 failed again", ["4512093"]),  # "CI" needs a dotted cédula
    ],
)
def test_neighbours_stay(text: str, kept: list[str]) -> None:
    red = redact(text)
    assert all(part in red for part in kept), red


@pytest.mark.parametrize(
    ("text", "public"),
    [
        ("Il-pakkett RR123456785MT għadu ma wasalx", "RR123456785MT"),  # S10, check digit 5
        ("parcel RR123456784MT", None),  # check digit wrong: not known to be a parcel's
        ("pin numpy to 1.26.4", "1.26.4"),
        ("my PIN is 1.234", None),  # two parts, no "==": not a version
    ],
)
def test_public_references(text: str, public: str | None) -> None:
    spans = [text[s:e] for s, e in public_ref_spans(text)]
    assert (public in spans) if public else not spans


@pytest.mark.parametrize(
    ("text", "public"),
    [
        ("パスワードは「********」と表示", "********"),
        ("PIN「＊＊＊＊」で表示", "＊＊＊＊"),  # full-width asterisks
        ("card ○○○○ ○○○○ ○○○○ 4821", "○○○○ ○○○○ ○○○○ 4821"),  # masked as •••• is
        ("IBAN DE∙∙ ∙∙∙∙ ∙∙∙∙ 31", "DE∙∙ ∙∙∙∙ ∙∙∙∙ 31"),
        ("my PIN is 4821", None),
    ],
)
def test_masks_are_one_definition_of_every_mask_character(text: str, public: str | None) -> None:
    # A mask alone and a masked number with its tail are read by stand_ins' one pattern.
    spans = [text[s:e] for s, e in stand_in_spans(text)]
    assert (public in spans) if public else not spans
