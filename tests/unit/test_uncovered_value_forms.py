"""Values said in forms no rule of an uncovered language reads (issue 29, blind11).

``tests/data/uncovered_value_forms.jsonl``: by family, in languages no rule names (``split``
``held_out`` languages were not looked at while writing the rules) — a code said as a list of
words after a word for "code" (``detectors/code_lists.py``), a password and its corrected
spelling (``detectors/password_variants.py``), lettered national ids, money with a currency
word and a suffix or in words, values in a segment holding a covered function word that no
covered list reads (``known_words.unread_by_covered``), and benign near-misses. Each family is one
test listing every failure.
"""

from __future__ import annotations

import pytest

from tests.support import data_sets
from userlore.policy.detectors.code_lists import code_lists
from userlore.policy.detectors.password_variants import password_variants
from userlore.policy.known_words import unread_by_covered
from userlore.policy.sensitivity import redact

ROWS = data_sets.rows("uncovered_value_forms.jsonl")
FAMILIES = sorted({str(r["family"]) for r in ROWS} - {"benign"})
# Money in words CLDR does not spell for the language ("laki", a lakh in Swahili; Tagalog
# "limampung libong") and a variant beside a secret the floor reads as an identifier
# (Polish "Bursztyn#55", cued_identifier) are not read.
KNOWN = {
    "money_words": {"uvf-words-sw-01", "uvf-words-tl-01"},
    "correction": {"uvf-corr-pl-01"},
}
# Benign rows the floor changes (withheld from plans anyway, as every uncovered text is): an
# order number and a price (earlier rules), and a dress code listing four single words.
FLAGGED = {"uvf-benign-id-02", "uvf-benign-pl-02", "uvf-benign-hr-01", "uvf-benign-tl-02"}


def _left(row: dict[str, object]) -> bool:
    red = redact(str(row["text"]))
    return any(str(v) in red for v in row["values"])  # type: ignore[attr-defined]


@pytest.mark.parametrize("family", FAMILIES)
def test_every_value_of_the_family_is_redacted(family: str) -> None:
    rows = [r for r in ROWS if r["family"] == family]
    assert {str(r["id"]) for r in rows if _left(r)} == KNOWN.get(family, set())


def test_benign_rows() -> None:
    rows = [r for r in ROWS if r["family"] == "benign"]
    changed = {str(r["id"]) for r in rows if redact(str(r["text"])) != r["text"]}
    assert changed == FLAGGED


@pytest.mark.parametrize(
    ("text", "listed"),
    [
        ("Kodi ya mlango ni tano, mbili, nane, sita", True),
        ("kode brankas: empat-tujuh-satu-dua", True),
        ("Kıyafet kodu: siyah, beyaz, gri ya da lacivert", False),  # three words
        ("Kodi ya mlango: Juma, Amina, Baraka, Neema", False),  # names
        ("the door code is four, seven, one, two", False),  # covered: its own rules
    ],
)
def test_code_lists(text: str, listed: bool) -> None:
    assert any(True for _ in code_lists(text)) is listed


def test_password_variants() -> None:
    text = "salasana ei ole Revontuli1 vaan Revontuli_88, ei Revontuli"
    start = text.index("Revontuli_88")
    found = list(password_variants(text, [(start, start + len("Revontuli_88"))]))
    assert [text[s:e] for s, e in found] == ["Revontuli1"]  # the bare word holds no digit


@pytest.mark.parametrize(
    ("text", "unread"),
    [
        ("Henkilötunnukseni on 131052-308T, pankki kysyi sitä eilen", True),
        ("Kimlik numaram da 38472910510, bankaya verdim", True),
        ("The zip code is 94107.", False),
        ("the zip code is 94107, the street is Příční", False),
        ("Mi madre gana 2.000 euros.", False),
    ],
)
def test_unread_by_covered(text: str, unread: bool) -> None:
    assert unread_by_covered(text) is unread
