"""Close relatives read as a covered language, and their values in stored evidence (issue 29,
sixth round: dialects6).

Swiss German read as German, Nigerian Pidgin and Scots as English, Luxembourgish as German and
Cantonese written in Han as Chinese were judged by the covered language's rules, which do not
know their words: "ich verdien 6'800 Stutz" and "密碼係四五七二" stayed in stored evidence. A
segment holding a relative's own words (``policy/data/relatives.yaml``) is now read as that
relative: not covered, so withheld by the gate, and its credential shapes and values of four
digits or more (Han numerals in Cantonese) are redacted by the floor.

The own money of a magnitude said in a word ("1.4 million dollars", "1,5 Millionen Euro",
"1,3 millones de euros", "2 milhões de reais") was stored in all seven languages too (the
number before the word is only its mantissa); ``detectors/money.py`` reads the word now.

The sets (``tests/data/dialects6_*.jsonl``) were written before the rules (``_a``,
``_magnitude``) and after them (``_b``, ``_magnitude2``, first sight); every item is checked
here as ``benchmarks/gate_classes.py`` scores it, except those listed in ``KNOWN_MISSES`` and
``KNOWN_WITHHELD`` (``docs/benchmarks.md``, "Issue 29: relatives read as covered, sixth
round").
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.language import segments
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.relatives import RELATIVES, _relatives_data, cantonese, relative_of
from userlore.policy.sensitivity import redact

SETS = (
    "dialects6_a.jsonl",
    "dialects6_b.jsonl",
    "dialects6_magnitude.jsonl",
    "dialects6_magnitude2.jsonl",
)
# Empty since blindfix13c: the Scots "hauf a million pound" is read by the currency words of
# text no rule reads (detectors/unread_values), so every case is tested.
KNOWN_MISSES: frozenset[str] = frozenset()
KNOWN_WITHHELD = frozenset(
    {
        # A film's box office (興行収入) beside an amount: the gate's money rule withholds it
        # (as on main); the floor keeps its text.
        "dialects6-mag-ja-benign-029",
    }
)

CASES = data_sets.rows(*SETS)
SENSITIVE = [c for c in CASES if c["class"] != "benign" and c["id"] not in KNOWN_MISSES]
BENIGN = [c for c in CASES if c["class"] == "benign"]
COVERED_BENIGN = [c for c in BENIGN if c["group"] == "covered" and c["id"] not in KNOWN_WITHHELD]


@pytest.mark.parametrize("case", SENSITIVE, ids=lambda c: str(c["id"]))
def test_withheld_and_every_value_redacted(case: dict[str, object]) -> None:
    value_sets.withheld_and_redacted(case)


@pytest.mark.parametrize("case", COVERED_BENIGN, ids=lambda c: str(c["id"]))
def test_covered_near_misses_are_quoted_and_kept(case: dict[str, object]) -> None:
    value_sets.quoted_and_kept(case)


# A price after a currency sign in a language no rule reads is redacted from evidence since
# blindfix21b (uncovered_tender: a week's pay and a pint are told apart only by words).
KNOWN_REDACTED = frozenset({"dialects6-b-sco-benign-029"})  # "a pint costs £5.20 … doon the road"


@pytest.mark.parametrize(
    "case", [c for c in BENIGN if c["id"] not in KNOWN_REDACTED], ids=lambda c: str(c["id"])
)
def test_benign_text_keeps_every_word_in_evidence(case: dict[str, object]) -> None:
    """A relative's benign turn is withheld from quoting (fail closed) but nothing in it is
    redacted: a tea at 二十八蚊, a coffee at 4.50 Franke, three children are no values."""
    text = str(case["text"])
    assert redact(text) == text


def test_known_misses_are_still_misses() -> None:
    """When a rule starts catching one, move it out of ``KNOWN_MISSES`` (it is then tested)."""
    by_id = {c["id"]: c for c in CASES}
    for key in KNOWN_MISSES:
        case = by_id[key]
        text = str(case["text"])
        red = redact(text)
        caught = not quote_verdict(text).quotable and all(
            v not in red
            for v in case["values"]  # type: ignore[attr-defined]
        )
        assert not caught, key


@pytest.mark.parametrize(
    "text",
    [
        "我跟他的關係很好，週末一起去吃飯",  # traditional Mandarin: 係 inside 關係
        "這個係數要重新算一下",  # 係數, a coefficient
        "蚊子太多了，晚上睡不好",  # a mosquito, no number before it
        "我们的关系一直很好",
        "這杯奶茶二十八塊，有點貴",
    ],
)
def test_mandarin_is_not_read_as_cantonese(text: str) -> None:
    assert not cantonese(text)
    assert {s.language for s in segments(text)} == {"zh"}


@pytest.mark.parametrize(
    "text",
    ["佢今日冇返工", "我哋聽日見", "密碼係四五七二", "一杯咖啡三十蚊", "我而家喺屋企"],
)
def test_cantonese_in_han_is_read_as_cantonese(text: str) -> None:
    assert cantonese(text)


@pytest.mark.parametrize(
    ("text", "language", "relative"),
    [
        ("ich verdien 6'800 Stutz im Monet", "de", "gsw"),
        ("I dey collect 250,000 naira every month", "en", "pcm"),
        ("A'm owin the bank £4,500 the noo", "en", "sco"),
        ("ech hunn 12.000 Euro op mengem Spuerkont", "de", "lb"),
        # Read as an uncovered language by the identifier (Igbo): the markers still decide.
        ("my BVN na 22154879630, abeg keep am", "ig", "pcm"),
    ],
)
def test_a_relatives_own_words_name_it(text: str, language: str, relative: str) -> None:
    assert relative_of(text, language) == relative


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Aye, I'll see you at the pub around 8", "en"),  # one weak word alone
        ("They were having a wee chat about the match", "en"),
        ("I don't think Don will come", "en"),  # "don't" is no Pidgin "don"
        ("My password manager is 1Password, it works great.", "en"),  # "my … is": English
        ("Wir treffen uns am Montag um acht", "de"),
        ("Ich habe Abi gemacht", "de"),
        ("Ich fahre seit Jahren einen Mini", "de"),  # a capitalised German noun, no marker
        # "sha" of an id is no Pidgin "sha": only whole words count.
        ("pin the image to node@sha256:4f2a7c1e9b8d3a6f5e0c2b1a9d8e7f6a5b4c3d2e", "en"),
    ],
)
def test_covered_text_names_no_relative(text: str, language: str) -> None:
    assert relative_of(text, language) is None


def test_an_uncovered_verdict_keeps_its_own_words() -> None:
    # Dutch "dat" is a Pidgin marker only where the identifier did not name Dutch.
    assert relative_of("ik denk dat het morgen regent", "nl") is None


def test_every_relative_of_the_data_file_is_named() -> None:
    assert set(_relatives_data()["relatives"]) | {"yue"} == set(RELATIVES)


def test_a_relatives_small_price_stays_but_its_wage_goes() -> None:
    kept = "de Kafi choschtet 4.50 Franke im Bahnhof isch tüür"
    assert redact(kept) == kept
    assert "7'200" not in redact("ich verdiene 7'200 Stutz im Monet")
    assert "二十八" in redact("呢杯奶茶要二十八蚊")
    assert "三萬五" not in redact("我份工一個月出三萬五蚊人工")


@pytest.mark.parametrize(
    "text",
    [
        "The city spent 3 million dollars on the new bridge",
        "The stadium holds 50 thousand people",
        "I have 2 million followers on my account",  # a count, not money
        "la película recaudó 20 millones de dólares",
    ],
)
def test_a_magnitude_that_is_not_the_users_money_is_kept(text: str) -> None:
    assert redact(text) == text


def test_the_swiss_social_security_number_is_taken_by_its_name() -> None:
    assert "756.1234.5678.97" not in redact("Meine AHV-Nummer ist 756.1234.5678.97")
    assert "756.9876.5432.17" not in redact("mon numéro AVS: 756.9876.5432.17")


@pytest.mark.parametrize("key", sorted(KNOWN_REDACTED))
def test_the_known_redacted_are_still_redacted(key: str) -> None:
    """When the floor keeps one whole again, move it out of ``KNOWN_REDACTED``."""
    case = next(c for c in BENIGN if c["id"] == key)
    assert redact(str(case["text"])) != case["text"]
