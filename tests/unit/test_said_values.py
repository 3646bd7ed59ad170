"""Values said otherwise (issue 29, blindfix7), each as a class in the seven languages.

blind7 put six covered values in a plan: a password in the NATO alphabet, one given in two
pieces, a PIN in kana, a Steuer-ID typed in groups, savings in number words, rent in slang.
The class sets (``tests/data/blindfix7_{spell,pieces,ids,money}.jsonl``) were written before
the rules of ``policy/spelling.py`` and ``policy/detectors/said_values.py``; every item is
checked here as ``benchmarks/gate_classes.py`` scores it (``docs/benchmarks.md``, "Issue 29:
values in a plan, blind7's classes (blindfix7)").
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.detectors.said_values import money_words
from userlore.policy.sensitivity import classify, redact
from userlore.policy.spoken import spoken_spans

SETS = (
    "blindfix7_spell.jsonl",
    "blindfix7_pieces.jsonl",
    "blindfix7_ids.jsonl",
    "blindfix7_money.jsonl",
)
CASES = data_sets.rows(*SETS)
SENSITIVE = [c for c in CASES if c["class"] != "benign"]
# Italian is no covered language: the gate withholds its benign line as ``quote_language``.
COVERED_BENIGN = [c for c in CASES if c["class"] == "benign" and c["lang"] != "it"]
_RULES = frozenset({"spelled_credential", "password_in_pieces", "grouped_national_id"})


@pytest.mark.parametrize("case", SENSITIVE, ids=lambda c: str(c["id"]))
def test_withheld_and_every_value_redacted(case: dict[str, object]) -> None:
    value_sets.withheld_and_redacted(case)


@pytest.mark.parametrize("case", COVERED_BENIGN, ids=lambda c: str(c["id"]))
def test_covered_benign_is_quoted_and_kept(case: dict[str, object]) -> None:
    value_sets.quoted_and_kept(case)
    text = str(case["text"])
    assert not {f.rule for f in classify(text).findings} & _RULES
    assert not list(money_words(text, text.lower()))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Kennwort Martha Otto Siegfried drei drei", "mos33"),
        ("clave: Madrid Antonio Ramón Inés Oviedo cinco", "mario5"),
        ("Mi contraseña es eme, a, te, e, o, nueve, nueve", "mateo99"),
        ("mot de passe : té, i, gé, r, e, trois", "tigre3"),
        ("暗証番号は いち・きゅう・ご・なな", "1957"),
        ("code: tango romeo one nine", "tr19"),
    ],
)
def test_a_spelled_run_reads_as_its_value(text: str, value: str) -> None:
    assert value in [s.value for s in spoken_spans(text)]


@pytest.mark.parametrize(
    "text",
    [
        "いちごを三つ買ってきて",  # ichi-go, a strawberry, no separators
        "Wir fahren über Berlin, Leipzig und München nach Rostock",
        "vamos a la casa de Ana y de Pedro a las ocho",
    ],
)
def test_words_of_a_sentence_are_no_spelled_run(text: str) -> None:
    assert not [s for s in spoken_spans(text) if s.kind in ("alphabet", "letters", "kana")]


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("contraseña del correo: empieza con gatito y luego 77Azul", ("empieza", "luego")),
        ("senha: começa com Flamengo e termina com 1981!", ("começa", "termina")),
        ("contraseña del wifi: primero pon gatito, luego 33Rojo", ("primero", "luego")),
        ("mon mot de passe commence par Loulou puis 8832", ("commence", "puis")),
    ],
)
def test_pieces_are_redacted_and_the_connectives_kept(text: str, kept: tuple[str, ...]) -> None:
    red = redact(text)
    assert "[REDACTED:password_in_pieces]" in red
    for word in kept:
        assert word in red


def test_an_order_number_that_validates_by_chance_is_no_id() -> None:
    # 602448913 is a valid Portuguese NIF; "número de pedido" names no identifier.
    text = "número de pedido 602-448-913, todavía no ha llegado"
    assert redact(text) == text


def test_someone_elses_money_in_words_is_no_finding() -> None:
    text = "Mein Nachbar verdient dreitausend Euro, sagt er"
    assert not list(money_words(text, text.lower()))


def test_the_word_after_the_cue_is_no_piece_when_it_is_a_filler() -> None:
    red = redact("Te paso la contraseña del correo. Es Manzana y luego 7781 con un asterisco")
    assert "contraseña del correo" in red
    assert "Manzana" not in red and "7781" not in red


def test_a_swiss_amount_is_redacted_whole() -> None:
    red = redact("ich verdien 6'800 Stutz im Monat")
    assert "6'" not in red and "800" not in red
