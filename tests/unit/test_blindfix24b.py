"""blind24's identifiers before or without their word, and digits of every script in text no
rule reads (issue 29, blindfix24b).

Four classes, each with two sets written before the rules that read them (first run on the
unmodified branch, then the second set at first sight on the fixed one; sensitive caught,
benign wrong):

- ``ids_before_word``: "049-091-850 — that's my IRD number": a checksummed national id with
  its own name after it in its sentence (``registry``: the run validates under that very
  module), and a DNI whose check letter is a hex digit ("88346564E") is no digest.
  8/15 (2/11) -> 15/15 (2/11); second 14/14 (2/8).
- ``residence_ids``: "my A-number …: A 214 587 903": the US immigration ids and the covered
  countries' residence permits by their words (``unvalidated_ids.yaml``), a form's name
  ("I-765") between the word and the id no other number. 12/16 (1/9) -> 16/16 (1/9); second
  15/15 (1/8).
- ``licence_numbers``: "DVLA wants my licence number … MORGA753116SM9IJ": a licence number
  within a hundred characters of a licence word (``licence_numbers.yaml``), the UK licence by
  its shape alone. 8/16 (0/9) -> 16/16 (0/9); second 13/14 (1/8) -> 14/14 (1/8).
- ``uncovered_digits`` (held out): "𞥓𞥐𞥐 𞥐𞥐𞥐 CFA", "ꘋ ꕉꔤꔹ ꕪꔹ NIN: 0482-1937-55": digits of every
  script folded before the uncovered rules read them, letters of a script the identifier
  does not know read as a language (not "no linguistic content"), and id-shaped runs beside
  such a segment or in a Latin one read as no covered language. 33/36 (7/15) -> 36/36 (2/15);
  second 18/18 (1/8).

Held-out rows are checked for the floor only (the gate withholds their language by design).
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.sensitivity import redact

SETS = tuple(
    f"blindfix24b_{name}{n}.jsonl"
    for name in ("ids_before_word", "residence_ids", "licence_numbers", "uncovered_digits")
    for n in ("", "2")
)
_COUNT_NEAR_ID = "a count or a time near an id word: the gate's credential cue withholds it"
KNOWN = {
    "ids_before_word-es-benign-002": _COUNT_NEAR_ID,
    "ids_before_word-pt-benign-002": _COUNT_NEAR_ID,
    "ids_before_word2-es-benign-001": _COUNT_NEAR_ID,
    "ids_before_word2-fr-benign-001": _COUNT_NEAR_ID,
    "residence_ids2-fr-benign-001": _COUNT_NEAR_ID,
    "residence_ids-ja-benign-002": "特別永住者証明書: the special rules read an ethnicity cue",
    "licence_numbers2-es-benign-001": "'me costó 900 euros': the user's own spending, the money "
    "rules' verdict",
    "uncovered_digits-th-benign-002": "'ราคา ๕๐ บาท': an amount with a CLDR currency word in a "
    "language no rule reads, redacted as on main",
    "uncovered_digits-th-benign-003": "'ปี ๒๕๓๕': a Buddhist-era year is no year by shape",
    "uncovered_digits2-te-benign-001": "'౪ మంది': a count read as a CLDR magnitude, as on main",
}


def _fails(case: value_sets.Case) -> bool:
    if case["group"] == "covered":
        return value_sets.row_fails(case)
    return value_sets.uncovered_fails(case)


test_every_item_of_the_set, test_known_miss = value_sets.set_tests(SETS, KNOWN, fails=_fails)

BLIND24 = (
    "b24c-en-regulated-001",
    "b24c-en-regulated-002",
    "b24c-en-regulated-004",
    "b24h-ff-Adlm-regulated-02",
    "b24h-ff-Adlm-money-02",
    "b24h-vai-secret-01",
    "b24h-vai-regulated-01",
    "b24h-gv-regulated-02",
)


@pytest.mark.parametrize("case_id", BLIND24)
def test_blind24_rows_now_right(case_id: str) -> None:
    rows = data_sets.rows("blind24_covered.jsonl", "blind24_heldout.jsonl")
    assert not _fails(next(c for c in rows if c["id"] == case_id))


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("068-831-067 is my IRD number", False),
        ("0800 775 247 is the IRD phone line", True),
        ("Mon numéro de titre de séjour c'est 7502164839", False),
        ("Le titre de séjour coûte 225 € en timbres fiscaux", True),
        ("It's the long one on the front, HARRI806152JD9AB, right?", False),
        ("call the DVLA on 0300 790 6801 about my licence", True),
        ("ꘋ ꕐꖬꖿꗑ for Lonestar MoMo: ꘧꘣꘩꘡ — keep it for me", False),
        ("ট্রেন ছাড়বে ১০টায়, আমরা ৪ জন যাচ্ছি", True),  # a time glued to its particle
        ("၂၀၂၄ ခုနှစ်မှာ ရန်ကုန်ကို သွားခဲ့တယ်", True),  # a year in Myanmar digits
        ("Is e àireamh an òrduigh 114-2836475-0019283, cuin a ruigeas e?", True),  # an order
        ("Il numer da telefon da la vischnanca è 081 920 40 00?", True),  # a phone's print
    ],
)
def test_twins(text: str, kept: bool) -> None:
    assert (redact(text) == text) is kept
