"""Values in languages no rule reads (issue 29, blindfix9c), each as a class in fresh languages.

blind9's held-out set stored eleven values in Urdu, Telugu, Amharic, Yoruba and Khmer: PINs in
the language's own number words after an ASCII acronym ("ATM کا پن چار دو نو سات"), national
ids after an acronym in a Latin segment holding a covered function word ("BVN mi ni ..."), and
the user's money in local words and formats ("ایک لاکھ بیس ہزار", "Rs. 25,000", "1,80,000",
"₦1.2m", "ሃምሳ ሺህ ብር", "៨ លានរៀល"). ``tests/data/blindfix9_heldout_values.jsonl`` holds fresh
items of each class (``family``) in thirteen languages no rule names and no earlier set used,
written before ``detectors/uncovered_cued.py``; each family is one test listing every failure.
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.detectors.uncovered import _guarded
from userlore.policy.detectors.uncovered_cued import _clause_after, _unmistakable_amounts
from userlore.policy.sensitivity import redact

CASES = data_sets.rows("blindfix9_heldout_values.jsonl")
# The second set (Kyrgyz, Tajik, Kinyarwanda, Malagasy, Punjabi, Kannada, Malayalam, Tigrinya)
# was written after the rules and scored once, nothing changed after: its magnitudes and
# currency names that CLDR does not have for the language ("ibihumbi", "tapitrisa", "ሽሕ") are
# not read.
SECOND = data_sets.rows("blindfix9_heldout_values2.jsonl")
KNOWN_SECOND = {
    "bf9c2-money-rw-01",
    "bf9c2-money-mg-01",
    "bf9c2-money-ml-01",
    # "ሸሞንተ ሽሕ ናቕፋ" is read since blindfix16b: a segment is read in the languages whose CLDR
    # magnitudes it says ("ሽሕ" is Tigrinya's), whatever the identifier guessed.
}
FLAGGED_SECOND = {"bf9c2-benign-tg-01", "bf9c2-benign-kn-01", "bf9c2-benign-ky-02"}
FAMILIES = sorted({str(c["family"]) for c in CASES} - {"benign"})
# Sinhala "ලක්ෂ" (a lakh) is no word of CLDR's Sinhala data: not read (docs/safety.md).
KNOWN = {"money": {"bf9c-money-si-02"}}
# Benign rows the floor redacts (withheld from plans anyway, as every uncovered text is): a price
# of four digits or more or beside a currency sign (rules before this round), and a statement
# after "PIN" of three words (the clause rule cannot tell it from a PIN said in words).
FLAGGED = {
    "bf9c-benign-ha-02",
    "bf9c-benign-ig-02",
    "bf9c-benign-uz-02",
    "bf9c-benign-uz-04",
    "bf9c-benign-ps-02",
    "bf9c-benign-is-02",
    "bf9c-benign-zu-02",
}


@pytest.mark.parametrize("family", FAMILIES)
def test_every_item_of_the_family(family: str) -> None:
    cases = [c for c in CASES if c["family"] == family]
    assert set(value_sets.failures(cases)) == KNOWN.get(family, set())


def test_every_item_of_the_second_set() -> None:
    assert set(value_sets.failures(SECOND, covered_benign=False)) == KNOWN_SECOND


@pytest.mark.parametrize(("cases", "flagged"), [(CASES, FLAGGED), (SECOND, FLAGGED_SECOND)])
def test_the_benign_rows_the_floor_redacts(
    cases: list[dict[str, object]], flagged: set[str]
) -> None:
    benign = [c for c in cases if c["class"] == "benign"]
    assert {str(c["id"]) for c in benign if redact(str(c["text"])) != c["text"]} == flagged


@pytest.mark.parametrize(
    ("text", "clause"),
    [
        ("PIN ATM mi ni ẹ̀rin, èje, ọ̀kan, ẹ̀ta — jọ̀wọ́", "mi ni ẹ̀rin, èje, ọ̀kan, ẹ̀ta"),
        ("UPI PIN ఒకటి తొమ్మిది ఐదు ఎనిమిది, మర్చిపోతే గుర్తు", "ఒకటి తొమ్మిది ఐదు ఎనిమిది"),
        ("PIN-númerið mitt er fjórir sjö, mundu", "mitt er fjórir sjö"),  # one word: no list
        ("PIN-ka ATM-kayga waa afar toddoba kow sagaal, ii xusuuso", "waa afar toddoba kow sagaal"),
        ("PIN ɗin ATM ya kulle, me zan yi?", None),  # two words after the last acronym
        ("ATM PIN څنګه بدلولای شم؟", None),  # a question states no PIN
        ("Kedu ka esi agbanwe PIN ATM?", None),
    ],
)
def test_the_clause_after_an_acronym(text: str, clause: str | None) -> None:
    at = text.index("PIN") + 3
    span = _clause_after(text, at)
    assert (text[span[0] : span[1]] if span else None) == clause


@pytest.mark.parametrize(
    ("text", "amounts"),
    [
        ("committee mein Rs. 25,000 har mahine", ["Rs. 25,000"]),
        ("bank mein sirf 1,80,000 bache hain", ["1,80,000"]),
        ("owó ilé jẹ mí ₦1.2m lọ́dún", ["₦1.2m"]),
        ("order 12,345 shipped, 3 items at 1,250", []),  # not grouped by lakhs, no symbol
        ("version 2.10.3, port 8,080", []),
    ],
)
def test_amounts_no_sentence_holds_by_chance(text: str, amounts: list[str]) -> None:
    assert [text[s:e] for s, e in _unmistakable_amounts(text)] == amounts


@pytest.mark.parametrize(
    ("text", "guarded"),
    [
        ("BVN mi ni 22183746509, wọ́n ní kí n fi ránṣẹ́", False),  # "ọ": no covered language
        ("mi número es 22183746509, llámame", True),  # a covered sentence, perhaps misread
        ("bank kartamning PIN kodi to'rt olti ikki sakkiz", False),  # "to'rt" is no "to"
    ],
)
def test_a_covered_function_word_guards_only_a_covered_alphabet(text: str, guarded: bool) -> None:
    assert _guarded(text, text) is guarded
