"""Values in text no rule reads, said in a neighbour's number words or grouped by spaces, and a
person's id with its check part said apart (issue 29, blindfix14c).

blind14's held-out set stored a door code in Luxembourgish, Occitan and Bashkir number words
after a word for "code", Occitan money in words and grouped by a space ("mila nòu cents èuros",
"4 200 €"), and a French NIR with its key in Occitan text. ``tests/data/said_codes_any_language.
jsonl`` holds fresh rows in languages no rule names (dev and a held-out split written with the
rest): first run 1/20 and 0/8 codes, 3/5 and 0/1 money in words, 2/3 and 0/1 grouped money;
3/20 and 0/4 benign rows changed. Rows the rules do not read are listed (a Frisian, Walloon,
Chuvash, Tajik, Zazaki or Neapolitan code: no ranked language's digits sound like them; Swiss
"8 400 CHF"; Sicilian "milli e cincucentu"), and so are the benign rows changed on main too.
"""

from __future__ import annotations

import pytest

from tests.support import data_sets
from userlore.policy.sensitivity import classify, redact

ROWS = data_sets.rows("said_codes_any_language.jsonl")
NOT_READ = {
    "sc-said_code-oc-03",  # "uèch" is no Catalan "vuit"
    "sc-said_code-fy-10",
    "sc-said_code-wa-16",
    "sc-said_code-cv-20",
    "sc-said_code-tg-21",
    "sc-said_code-zza-22",
    "sc-said_code-nap-27",
    "sc-money_grouped-rm-55",
    "sc-money_words-scn-56",
    "sc-benign-an-42",  # changed on main too
    "sc-benign-co-60",  # changed on main too
    "sc-benign-fur-61",  # changed on main too
}


@pytest.mark.parametrize("family", sorted({str(r["family"]) for r in ROWS}))
def test_every_row_of_the_family(family: str) -> None:
    wrong = set()
    for row in (r for r in ROWS if r["family"] == family):
        text = str(row["text"])
        red = redact(text)
        ok = red == text if family == "benign" else all(v not in red for v in row["values"])
        if not ok:
            wrong.add(row["id"])
    assert wrong - NOT_READ == set()


@pytest.mark.parametrize(
    ("text", "rule", "found"),
    [
        (
            "Mon numèro de seguretat sociala es 1 85 03 31 555 123 clau 48.",
            "keyed_identifier",
            True,
        ),
        ("ref 1 85 03 31 555 123 item 12", "keyed_identifier", False),  # the key does not hold
        ("Подъезд коды дүрт ике туғыҙ биш, курьерға әйт.", "credential_uncovered_language", True),
        ("Подъезд коды ике, өс тапҡыр үҙгәрҙе.", "credential_uncovered_language", False),
    ],
)
def test_keyed_ids_and_sounds(text: str, rule: str, found: bool) -> None:
    assert (rule in {f.rule for f in classify(text).findings}) is found
