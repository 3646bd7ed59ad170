"""The floor classifies what the model will read: lookalikes, separators and group statements."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from userlore.policy import SensitivityLevel, classify, neutralize, redact
from userlore.policy.filter import rejection_reason
from userlore.policy.govern import POLICY_REV, assess_text
from userlore.policy.normalize import DIGIT_SEPARATORS, fold, fold_char

CASES_PATH = Path(__file__).resolve().parents[1] / "data" / "normalisation_cases.jsonl"
CASES: list[dict[str, Any]] = [
    json.loads(line) for line in CASES_PATH.read_text(encoding="utf-8").splitlines() if line
]


def _of(*expected: str) -> list[Any]:
    return [pytest.param(c, id=c["id"]) for c in CASES if c["expected"] in expected]


def test_every_class_has_at_least_ten_fresh_examples() -> None:
    counts: dict[str, int] = {}
    for c in CASES:
        counts[c["class"]] = counts.get(c["class"], 0) + 1
    assert set(counts) >= {
        "lookalike_secret",
        "lookalike_health",
        "lookalike_religion",
        "ssn_separators",
        "nhs_separators",
        "card_separators",
        "group_special",
        "benign",
    }
    assert all(n >= 10 for n in counts.values()), counts
    assert len({c["id"] for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", _of("secret", "regulated"))
def test_blocked_whatever_the_lookalike_or_separator(case: dict[str, Any]) -> None:
    report = classify(case["text"])
    assert report.level.value == case["expected"]
    out = redact(case["text"], report)
    for value in case["values"]:
        assert value not in out
        assert fold(value).text not in fold(out).text
    assert not classify(out).is_blocked


@pytest.mark.parametrize("case", _of("special"))
def test_special_whatever_the_lookalike_or_grouping(case: dict[str, Any]) -> None:
    report = classify(case["text"])
    assert report.level is SensitivityLevel.SPECIAL
    assert case["category"] in report.categories


def test_benign_near_misses_stay_unflagged() -> None:
    benign = [c for c in CASES if c["expected"] == "none"]
    flagged = [c["id"] for c in benign if classify(c["text"]).level is not SensitivityLevel.NONE]
    assert len(flagged) / len(benign) <= 0.03, flagged


@pytest.mark.parametrize(
    "text",
    [
        "we use Postgres at work",
        "We are migrating the billing service to Go",
        "We're a Catholic school in Boston",
        "We are reading about the history of Islam",
        "we pray the deploy works",
        "our family dog has diabetes",
        "We treat patients with diabetes at our clinic",
        "我们医院治疗糖尿病患者",
        "我们公司用的是Postgres",
        "我们在研究糖尿病",
        "Devout Catholics often fast during Lent",
        "We are proud of our Muslim colleagues",
    ],
)
def test_group_words_in_ordinary_sentences_do_not_flag(text: str) -> None:
    assert classify(text).level is SensitivityLevel.NONE, classify(text)


def test_redaction_removes_the_original_characters_and_keeps_the_rest() -> None:
    text = "my p\u0430ssword is hunter2!x, call me"
    out = redact(text)
    assert "hunter2!x" not in out
    assert out.startswith("my p\u0430ssword is [REDACTED:")  # the Cyrillic letter is kept
    assert out.endswith(", call me")


def test_spans_map_back_through_dropped_and_expanded_characters() -> None:
    text = "x\u200b\u200b SSN: 234\u201356\u20137890 &amp; \ufb01ne"
    report = classify(text)
    (finding,) = [f for f in report.findings if f.rule == "us_ssn"]
    assert text[finding.start : finding.end] == "234\u201356\u20137890"


def test_entity_spelt_keyword_is_read_as_the_renderer_shows_it() -> None:
    text = "pass&#119;ord: Lantern#2020"
    assert neutralize(text).startswith("password")
    assert classify(text).level is SensitivityLevel.SECRET
    assert "Lantern#2020" not in redact(text)


def test_tag_characters_are_read_as_the_ascii_they_hide() -> None:
    hidden = "".join(chr(0xE0000 + ord(c)) for c in "password: Zebra!4411")
    assert classify(f"note {hidden}").level is SensitivityLevel.SECRET


def test_fold_keeps_cjk_and_plain_text() -> None:
    for text in ["我们全家都是天主教徒，好吗？", "東京で会いましょう", "plain ascii text", "안녕"]:
        assert fold(text).text == text
    assert fold("p\u0430ssword").text == "password"
    assert fold("\u0406slam").text == "Islam"  # capital-I lookalikes read as I, not l
    assert fold("\u0662\u0663\u0664").text == "234"  # digits of any script


def test_fold_separators_are_ascii() -> None:
    dashes = "\u2010\u2011\u2012\u2013\u2014\u2212\ufe63\uff0d"
    others = "\u00a0\u2009\u3000\uff0f\u2215\uff3f\u00b7"
    for ch in dashes + others:
        assert fold_char(ch) in DIGIT_SEPARATORS, repr(ch)
    assert fold("4111\u20131111").text == "4111-1111"


def test_stored_records_from_older_rules_are_rechecked() -> None:
    @dataclass
    class Rec:
        content: str
        scope: str = "u1"
        state: str = "active"
        user_state: str = "auto"
        valid_from: datetime | None = None
        valid_until: datetime | None = None
        disclosure: str = "normal"
        sensitivity: str = "none"
        sensitivity_category: str | None = None
        policy_rev: int = 1
        value: str | None = None

    now = datetime(2026, 1, 1, tzinfo=UTC)
    assert POLICY_REV >= 2
    old_secret = Rec("my p\u0430ssword is hunter2!x")
    old_special = Rec("We are proud Catholics")
    args: dict[str, Any] = {"scope": "u1", "now": now, "consented": frozenset()}
    assert rejection_reason(old_secret, **args) == "secret"
    assert rejection_reason(old_special, **args) == "consent_required"
    assert rejection_reason(Rec("card 4111_1111_1111_1111"), **args) == "regulated"
    assert assess_text("I have d\u0456abetes").category == "health"
