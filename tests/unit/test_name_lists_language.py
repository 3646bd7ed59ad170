"""A segment that is a list of names, read by its joiners (``policy.name_lists``).

``tests/data/name_lists_language.jsonl``: short covered turns made of tools', brands', people's
and places' names in the seven languages (``names_covered``: the gate quotes them) and name
lists in uncovered languages that carry a value or a special statement
(``names_uncovered_valued``: withheld). Split ``first`` was written before the rule (main:
33/49 covered quoted), ``second`` after it and scored once (main: 13/22).
"""

from __future__ import annotations

import pytest

from tests.support import data_sets
from userlore.policy.name_lists import name_list_language
from userlore.policy.quote_gate import quote_verdict

ROWS = data_sets.rows("name_lists_language.jsonl")


@pytest.mark.parametrize("family", ["names_covered", "names_uncovered_valued"])
def test_every_row_of_the_family(family: str) -> None:
    rows = [r for r in ROWS if r["family"] == family]
    quotable = family == "names_covered"
    assert [r["id"] for r in rows if quote_verdict(r["text"]).quotable != quotable] == []


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("FastAPI, SQLModel y Alembic", "es"),
        ("Postgres 16, pgvector 0.7, Redis 7.2 and FastAPI", "en"),
        ("Claude、Cursor、GitHub Copilot、Raycast", "zh"),
        ("Stack: FastAPI, Postgres and Redis", "en"),
        # A joiner no covered language writes, a count after a word, a head word no covered
        # list knows, four digits, a word of a sentence: not a covered list of names.
        ("Python, Django i Postgres", None),
        ("Binario 3, carrozza 8.", None),
        ("Salasana: Kissa, Koira e Hevonen", None),
        ("Revolut, N26 e PIN 4471", None),
        ("Python, Django and my password", None),
    ],
)
def test_name_list_language(text: str, language: str | None) -> None:
    assert name_list_language(text) == language
