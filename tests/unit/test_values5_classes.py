"""Value classes of issue 29's fifth round (values5), each as a class in the seven languages.

1. A password after a short or borrowed word for one ("pw:", "mdp", "la contra", "PW vom
   Laptop ist", "identifiants", "邮箱密", "パスは", "暗証：5 2 8 8"), beside the benign uses of
   the same words ("pass the salt", "120 PW", "バスのパスは月5000円", "パスタ", "機密").
2. A close relative of a covered language read as it (Galician as Portuguese,
   Luxembourgish as Spanish, Scots as English): a segment with a value beside words the
   covered language does not know is withheld, and what no covered sentence holds by chance
   is redacted.
3. Values left in stored evidence in uncovered languages: amounts with a CLDR currency name
   or lettered symbol, credential shapes in Greek or Cyrillic letters.
4. Benign password talk ("我忘了密码，需要重置", "パスワードは12文字以上", "@ana_r") quoted.

The sets (``tests/data/values5_*.jsonl``) were written before the rules (first sets) and after
them (second sets, first sight); every item of them is checked here as the gate and the floor
score it in ``benchmarks/gate_classes.py`` (``docs/benchmarks.md``, "Issue 29: value classes,
fifth round", and its sixth round, dialects6, which caught the last six).
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact

SETS = (
    "values5_abbrev.jsonl",
    "values5_abbrev2.jsonl",
    "values5_benign.jsonl",
    "values5_benign2.jsonl",
    "values5_relatives.jsonl",
    "values5_relatives2.jsonl",
    "values5_stored.jsonl",
    "values5_stored2.jsonl",
)
# The six misses this round left (Swiss German, Cantonese in Han and Nigerian Pidgin read as
# German, Chinese and English) are caught since dialects6 (``policy/data/relatives.yaml``):
# every sensitive item is tested.


CASES = data_sets.rows(*SETS)
SENSITIVE = [c for c in CASES if c["class"] != "benign"]
COVERED_BENIGN = [c for c in CASES if c["class"] == "benign" and c["group"] == "covered"]


@pytest.mark.parametrize("case", SENSITIVE, ids=lambda c: str(c["id"]))
def test_withheld_and_every_value_redacted(case: dict[str, object]) -> None:
    value_sets.withheld_and_redacted(case)


@pytest.mark.parametrize("case", COVERED_BENIGN, ids=lambda c: str(c["id"]))
def test_covered_benign_is_quoted_and_kept(case: dict[str, object]) -> None:
    value_sets.quoted_and_kept(case)


@pytest.mark.parametrize(
    "text",
    [
        "pass the salt please",
        "the amp is rated 120 PW peak",
        "バスのパスは月5000円",
        "这个文件是机密的，别外传",
        "erinnere mich, das WLAN-Passwort zu ändern",
        "ここのWi-Fiのパスワード知ってる？",
        "Put <password> after the username in the config template.",
    ],
)
def test_the_short_words_benign_uses_keep_their_text(text: str) -> None:
    assert redact(text) == text


def test_a_galician_password_is_redacted_though_read_as_portuguese() -> None:
    text = "o contrasinal do correo é Lobo_Branco3"
    assert "Lobo_Branco3" not in redact(text)
    assert not quote_verdict(text).quotable


def test_a_portuguese_sentence_with_a_value_and_known_words_stays_quotable_by_language() -> None:
    # Every word is Portuguese: the relative's rule does not withhold it (the money rules may).
    verdict = quote_verdict("comprei 3 quilos de laranja por 12 reais na feira")
    assert verdict.reason is None or verdict.category != "und"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("мой пароль Зима_Снег88", "Зима_Снег88"),
        ("ο κωδικός μου είναι ΑστέριΜπλε77", "ΑστέριΜπλε77"),
        ("ho un debito di 12.000 euro con la banca", "12.000 euro"),
        ("dlužím bance 120 000 Kč", "120 000 Kč"),
    ],
)
def test_uncovered_values_leave_stored_evidence(text: str, value: str) -> None:
    assert value not in redact(text)


def test_a_shop_price_in_a_possibly_misread_sentence_is_kept() -> None:
    # "con", "la": function words of a covered language; a price under 1,000 is kept there.
    text = "la pizza costa 9 euro con la bibita"
    assert "9 euro" in redact(text)
