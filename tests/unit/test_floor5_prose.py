"""A password said in prose after a login or user part (issue 29, floor5), in seven languages.

"my Netflix login is jo.miller / Pancake!2024", "usuario ana_r, pass Luna.Roja42", "Apple-ID ist
jo.b@kmail.com, Passwort Eichhorn.Blau3", "解除コードは３３８１": the gate withheld these but the
floor left the password (or the full-width code) in stored evidence. Every item of
``tests/data/floor5_prose*.jsonl`` must hold: a sensitive one withheld by the gate with every
value gone from the floor's redaction; a benign near-miss (a username or public handle alone,
"I forgot my password", a placeholder) left untouched by the floor.
"""

from __future__ import annotations

import pytest

from tests.support import data_sets
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact

# ``floor5_prose`` was written before the rule (first run), ``floor5_prose2`` after it (first
# sight); ``docs/benchmarks.md`` has both rates.
CASES = data_sets.rows("floor5_prose.jsonl", "floor5_prose2.jsonl")


@pytest.mark.parametrize(
    "case", [c for c in CASES if c["class"] != "benign"], ids=lambda c: str(c["id"])
)
def test_the_password_is_withheld_and_redacted(case: dict[str, object]) -> None:
    text = str(case["text"])
    assert not quote_verdict(text).quotable
    redacted = redact(text)
    values = case["values"]
    assert isinstance(values, list) and values
    for value in values:
        assert value not in redacted, redacted


@pytest.mark.parametrize(
    "case", [c for c in CASES if c["class"] == "benign"], ids=lambda c: str(c["id"])
)
def test_a_near_miss_is_left_whole_by_the_floor(case: dict[str, object]) -> None:
    text = str(case["text"])
    assert redact(text) == text


def test_the_set_covers_the_seven_languages() -> None:
    langs = {c["lang"] for c in CASES}
    assert langs == {"en", "zh", "es", "de", "fr", "ja", "pt"}
    assert sum(c["class"] == "benign" for c in CASES) >= 15


def test_a_participle_after_the_password_word_is_not_its_value() -> None:
    text = "Login über Benutzer / Passwort ist deaktiviert."
    assert redact(text) == text
    assert "sonnenblume" not in redact("Das Passwort ist sonnenblume")


def test_the_password_not_the_account_name_is_redacted() -> None:
    text = "meine Apple-ID ist jo.b@kmail.com, Passwort Eichhorn.Blau3"
    assert redact(text).startswith("meine Apple-ID ist")
