"""Special categories from per-language data files: first person by class, near-misses benign.

``tests/data/special/set1.jsonl`` was written before the vocabularies (first run: 18 of 58
first-person statements caught, 1 of 29 near-misses flagged); ``set2.jsonl`` after them (first
sight 39 of 43, 4 of 21 near-misses flagged), ``set3.jsonl`` after set2's fixes (first sight
39 of 42: medication names missing in es/fr/pt; 0 of 21 flagged), ``set4.jsonl`` for two classes
the quote gate's sets exposed, written before their fix: German compounds ("Krebsdiagnose";
first run 3 of 10, final 9 of 10, near-misses 0 then 1 of 5) and the speaker as a patient
("我是糖尿病患者", "I'm a cancer patient"; first run 0 of 8, final 8 of 8, near-misses 0 of 6).
All are tables: one row, one expectation.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from userlore.errors import ConfigError
from userlore.policy.detectors import special_lang
from userlore.policy.detectors.special_lang import (
    about_someone_else_or_topic,
    covered_languages,
    load_languages,
    special_cues,
)
from userlore.policy.findings import SPECIAL_CATEGORIES, SensitivityLevel
from userlore.policy.sensitivity import classify

DATA = Path(__file__).resolve().parents[1] / "data" / "special"
VOCAB = Path(special_lang.__file__).resolve().parents[1] / "data" / "special"
SEVEN = frozenset({"en", "zh", "es", "de", "fr", "ja", "pt"})
HELD_OUT = ("ru", "ar", "hi", "tr", "ko")  # no vocabulary may name these (issue 29)

# Near-misses still flagged. "Asthmaspray für meinen Sohn" (a third party named only after the
# term, as the beneficiary) was one until the beneficiary class was fixed (issue 29 floor round:
# tests/unit/test_floor_special_classes.py).
KNOWN_BENIGN_FLAGS: frozenset[str] = frozenset()
# Statements still missed. "Seit meinem Kirchenaustritt ..." (leaving a church) was one until the
# leaving/joining-a-faith class was added to the vocabularies (same round).
KNOWN_MISSES: frozenset[str] = frozenset()


def _rows(name: str) -> list[dict[str, str | None]]:
    with (DATA / name).open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _special(text: str) -> set[str]:
    return {
        f.category or "" for f in classify(text).findings if f.level is SensitivityLevel.SPECIAL
    }


ROWS = [
    (name, row)
    for name in ("set1.jsonl", "set2.jsonl", "set3.jsonl", "set4.jsonl")
    for row in _rows(name)
]


@pytest.mark.parametrize(
    ("name", "row"),
    ROWS,
    ids=[f"{n[:4]}-{r['lang']}-{r['form']}-{i}" for i, (n, r) in enumerate(ROWS)],
)
def test_first_person_by_class_and_near_misses(name: str, row: dict[str, str | None]) -> None:
    text = str(row["text"])
    found = _special(text)
    if row["expect"] and text in KNOWN_MISSES:
        assert row["expect"] not in found, f"{text!r} is caught now: drop it from KNOWN_MISSES"
    elif row["expect"]:
        assert row["expect"] in found, (name, text, found)
        assert special_cues(text), text
        assert not about_someone_else_or_topic(text), text
    elif text not in KNOWN_BENIGN_FLAGS:
        assert not found, (name, text, found)


@pytest.mark.parametrize(
    ("text", "cues", "elsewhere"),
    [
        ("My sister has type 1 diabetes.", {"health"}, True),
        ("I'm reading about Ramadan traditions in Indonesia.", {"religion"}, True),
        ("Meine Schwester hat Diabetes.", {"health"}, True),
        ("母は糖尿病です。", {"health"}, True),
        ("Insulin since May.", {"health"}, False),  # no owner: the gate fails closed
        ("I don't have diabetes.", {"health"}, False),  # denied: no statement, still not cleared
        ("我没有犯罪记录。", {"criminal_record"}, False),
        ("El médico me dijo que tengo diabetes.", {"health"}, False),
        ("Let's book the flight for Friday.", set(), False),
    ],
)
def test_gate_api(text: str, cues: set[str], elsewhere: bool) -> None:
    assert special_cues(text) == cues
    assert about_someone_else_or_topic(text) is elsewhere


def test_the_seven_languages_ship_and_no_held_out_language_does() -> None:
    assert covered_languages() == SEVEN
    assert not set(HELD_OUT) & covered_languages()


def test_every_vocabulary_names_only_special_categories() -> None:
    for path in sorted(VOCAB.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert set(data["terms"]) <= SPECIAL_CATEGORIES, path.name
        assert data["self"], path.name


def test_a_language_is_a_data_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Italian is not shipped: one file makes it read, with no code change."""
    for path in VOCAB.glob("*.json"):
        shutil.copy(path, tmp_path / path.name)
    (tmp_path / "it.json").write_text(
        json.dumps(
            {
                "terms": {"health": ["diabete", "insulina"]},
                "self": ["io", "ho", "sono", "mi", "mio", "mia"],
                "other": ["mia sorella", "sorella", "madre", "lui", "lei"],
                "topic": ["sull'", "articolo", "leggendo"],
            }
        ),
        encoding="utf-8",
    )
    text, near_miss = "Il medico mi ha detto che ho il diabete.", "Mia sorella ha il diabete."
    assert "health" not in _special(text)
    monkeypatch.setattr(special_lang, "languages", lambda: load_languages(tmp_path))
    assert "health" in _special(text)
    assert not _special(near_miss)
    assert about_someone_else_or_topic(near_miss)


def test_a_malformed_vocabulary_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "xx.json").write_text(json.dumps({"terms": {"hobby": ["chess"]}}), "utf-8")
    with pytest.raises(ConfigError):
        load_languages(tmp_path)
    (tmp_path / "xx.json").write_text(json.dumps({"terms": {}, "slef": ["i"]}), "utf-8")
    with pytest.raises(ConfigError):
        load_languages(tmp_path)
