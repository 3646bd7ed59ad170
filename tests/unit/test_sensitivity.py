"""The deterministic sensitivity floor: corpus cases, targeted rules and properties."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from userlore.policy import (
    SPECIAL_CATEGORIES,
    Finding,
    SensitivityLevel,
    SensitivityReport,
    classify,
    redact,
)

CASES_PATH = Path(__file__).resolve().parents[1] / "data" / "sensitivity_cases.jsonl"
CASES: list[dict[str, Any]] = [
    json.loads(line) for line in CASES_PATH.read_text(encoding="utf-8").splitlines() if line
]


def _of(kind: str) -> list[Any]:
    return [pytest.param(c, id=c["id"]) for c in CASES if c["expected"] == kind]


# Benign near-misses we knowingly flag. Keep this exact: a new false positive fails the suite,
# and so does fixing one without updating the list.
KNOWN_BENIGN_FALSE_POSITIVES: frozenset[str] = frozenset()


def test_corpus_shape() -> None:
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids)), "case ids must be unique"
    counts = {k: sum(c["expected"] == k for c in CASES) for k in {c["expected"] for c in CASES}}
    assert set(counts) == {"secret", "regulated", "special", "injection", "benign"}
    assert len(CASES) >= 180
    assert counts["secret"] >= 50
    assert counts["regulated"] >= 45
    assert counts["special"] >= 30
    assert counts["injection"] >= 30
    assert counts["benign"] >= 40
    for c in CASES:
        if c["expected"] in {"secret", "regulated"}:
            assert c["values"], c["id"]
            assert all(v in c["text"] for v in c["values"]), c["id"]
        else:
            assert c["values"] == [], c["id"]


@pytest.mark.parametrize("case", _of("secret") + _of("regulated"))
def test_blocked_cases_are_blocked_and_redacted(case: dict[str, Any]) -> None:
    report = classify(case["text"])
    assert report.is_blocked
    assert report.level is SensitivityLevel(case["expected"])
    clean = redact(case["text"], report)
    for value in case["values"]:
        assert value not in clean
    assert "[REDACTED:" in clean
    assert not classify(clean).is_blocked


@pytest.mark.parametrize("case", _of("special"))
def test_special_cases_are_special_with_a_category(case: dict[str, Any]) -> None:
    report = classify(case["text"])
    assert report.level is SensitivityLevel.SPECIAL
    assert report.categories
    assert report.categories <= SPECIAL_CATEGORIES
    assert not report.is_blocked
    assert redact(case["text"], report) == case["text"]  # stored gated, not redacted


@pytest.mark.parametrize("case", _of("injection"))
def test_injection_cases_hold_no_secrets(case: dict[str, Any]) -> None:
    assert not classify(case["text"]).is_blocked


def test_benign_false_positives_are_exactly_the_known_ones() -> None:
    benign = [c for c in CASES if c["expected"] == "benign"]
    flagged = {c["id"] for c in benign if classify(c["text"]).level is not SensitivityLevel.NONE}
    assert flagged == KNOWN_BENIGN_FALSE_POSITIVES
    assert len(flagged) <= 0.03 * len(benign)


@pytest.mark.parametrize("case", _of("benign"))
def test_benign_cases_are_none(case: dict[str, Any]) -> None:
    if case["id"] in KNOWN_BENIGN_FALSE_POSITIVES:
        pytest.skip("known false positive")
    report = classify(case["text"])
    assert report.level is SensitivityLevel.NONE, [
        (f.rule, case["text"][f.start : f.end]) for f in report.findings
    ]
    assert redact(case["text"]) == case["text"]


# ------------------------------------------------------------------------------ report API


def test_levels_compare_by_severity() -> None:
    ordered = [
        SensitivityLevel.NONE,
        SensitivityLevel.SPECIAL,
        SensitivityLevel.REGULATED,
        SensitivityLevel.SECRET,
    ]
    assert sorted(reversed(ordered)) == ordered
    assert max(ordered) is SensitivityLevel.SECRET
    assert SensitivityLevel.REGULATED > SensitivityLevel.SPECIAL
    assert SensitivityLevel.NONE <= SensitivityLevel.NONE
    assert [lvl.severity for lvl in ordered] == [0, 1, 2, 3]
    assert SensitivityLevel("regulated") == "regulated"  # still a plain string


def test_empty_report() -> None:
    for text in ("", "hello there", "   "):
        report = classify(text)
        assert report.findings == ()
        assert report.level is SensitivityLevel.NONE
        assert report.categories == frozenset()
        assert not report.is_blocked
        assert redact(text) == text


def test_report_aggregates_findings() -> None:
    report = SensitivityReport(
        (
            Finding(SensitivityLevel.SPECIAL, "health", 0, 5, "health"),
            Finding(SensitivityLevel.REGULATED, "iban", 6, 10, "financial"),
            Finding(SensitivityLevel.SPECIAL, "religion", 11, 15, "religion"),
        )
    )
    assert report.level is SensitivityLevel.REGULATED
    assert report.categories == frozenset({"health", "religion"})
    assert report.is_blocked


def test_findings_are_frozen() -> None:
    finding = classify("my PIN is 4821").findings[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        finding.rule = "other"  # type: ignore[misc]


def test_spans_point_into_the_text() -> None:
    text = "note: my password is Xk9!mmq2 and my IBAN is GB29NWBK60161331926819."
    report = classify(text)
    found = {(f.rule, text[f.start : f.end]) for f in report.findings}
    assert ("password_in_prose", "Xk9!mmq2") in found
    assert ("iban", "GB29NWBK60161331926819") in found
    assert [f.start for f in report.findings] == sorted(f.start for f in report.findings)


def test_mixed_text_reports_every_family() -> None:
    text = "I have asthma. Card 4111 1111 1111 1111. Token ghp_" + "a1B2c3D4e5" * 4
    report = classify(text)
    levels = {f.level for f in report.findings}
    assert levels == {SensitivityLevel.SPECIAL, SensitivityLevel.REGULATED, SensitivityLevel.SECRET}
    assert report.level is SensitivityLevel.SECRET
    assert report.categories == {"health"}
    clean = redact(text)
    assert "I have asthma." in clean
    assert "[REDACTED:payment_card]" in clean
    assert "[REDACTED:github_token]" in clean


# ------------------------------------------------------------------------------ secrets


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("AKIAZ3MFAKE2QWERTY7Q", "aws_access_key"),
        ("gho_" + "Zz9" * 12, "github_token"),
        ("glpat-" + "Ab3_" * 5, "gitlab_token"),
        ("xoxp-1234567890-abcdefABCDEF", "slack_token"),
        ("sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc", "stripe_key"),
        ("sk-ant-api03-" + "x9Y8" * 10, "anthropic_api_key"),
        ("sk-proj-" + "Q1w2E3r4T5y6" * 3, "openai_api_key"),
        ("AIza" + "SyB1c2D3e4F5g6H7i8J9k0L1m2N3o4P5q6r", "google_api_key"),
        ("npm_" + "a1B2c3D4e5F6" * 3, "npm_token"),
        ("hf_" + "aBcDeFgHiJ" * 4, "huggingface_token"),
        ("SG." + "a1B2c3D4e5F6g7H8i9J0kl" + "." + "m1N2o3P4q5R6" * 4, "sendgrid_api_key"),
        ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJlLWZha2UtMTIz", "jwt"),
        ("postgres://app:Sup3r$ecret@db:5432/x", "url_credentials"),
        ("Password=Tr0ub4dor&3;Encrypt=True", "password_in_prose"),
        ("我的密码是 Passw0rd!x", "password_in_prose"),
        ("口令：Lx8$kk21", "password_in_prose"),
        ("contraseña: Perro_2021", "password_in_prose"),
        ("Mot de passe : Chat#2022", "password_in_prose"),
        ("Kennwort lautet Haus123!", "password_in_prose"),
        ("senha: Brasil@123", "password_in_prose"),
        ("my PIN is 0429", "pin_code"),
        ("the alarm code is 7777", "pin_code"),
        ("verification code: 552901", "one_time_code"),
        ("client_secret = 'q8Fj2LmX9vBn4TpW7yRc3K'", "high_entropy_secret"),
        ("curl -u admin:pa55word https://x.test", "cli_credentials"),
    ],
)
def test_secret_rules(text: str, rule: str) -> None:
    report = classify(text)
    assert report.level is SensitivityLevel.SECRET
    assert rule in {f.rule for f in report.findings}


def test_private_key_block_is_redacted_whole() -> None:
    body = "MIIEowIBAAKCAQEA" + "q" * 64
    text = f"key:\n-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----\nbye"
    clean = redact(text)
    assert body not in clean
    assert "PRIVATE KEY" not in clean
    assert clean.startswith("key:\n[REDACTED:private_key]")
    assert clean.endswith("bye")


def test_truncated_private_key_runs_to_the_end() -> None:
    text = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU"
    assert redact(text) == "[REDACTED:private_key]"


def test_quoted_generic_secret_is_redacted_with_its_symbols() -> None:
    text = "SECRET_KEY = 'django-insecure-9x!k2m@7q#r4t$w8z&p1v^b6n*c3'"
    assert redact(text) == "SECRET_KEY = '[REDACTED:high_entropy_secret]'"


@pytest.mark.parametrize(
    "text",
    [
        "api_key = YOUR_API_KEY_HERE",
        "OPENAI_API_KEY=sk-...",
        "token: xxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "Authorization: Bearer <token>",
        "export API_TOKEN=${API_TOKEN}",
        "secret: {{ secrets.DEPLOY_KEY }}",
        "password: ********",
        "AKIAIOSFODNN7EXAMPLE",
        "request_id=3f1c2b9e-8d7a-4c6b-9e5f-1a2b3c4d5e6f",
        "token hash 5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8",
        "git checkout 9fceb02d0ae598e95dc970b74767f19372d61af8",
        "image: redis@sha256:4f2a7c1e9b8d3a6f5e0c2b1a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e",
        '"integrity": "sha512-k9s3zY7tW2xQpL0mN4bV6cJ8hG5fE1aS2dF3gH4jK5lZ6x7c8v9b0n1m2Qw=="',
        'password = os.environ["PW"]',
        "password = getpass.getpass()",
        "def login(username: str, password: str | None = None) -> None:",
        "cat pw.txt | docker login --password-stdin",
        "self.password = password",
        "the password reset link is in your inbox",
        "pin the message and spin up two runners",
        "postgresql://user:password@localhost/app",
        "publishable key pk_test_TYooMQauvdEDq54NiTphI7jx is fine to ship",
        "PASSWORD_MIN_LENGTH = 12",
    ],
)
def test_secret_look_alikes_pass(text: str) -> None:
    report = classify(text)
    assert report.level is SensitivityLevel.NONE, [
        (f.rule, text[f.start : f.end]) for f in report.findings
    ]


def test_zero_width_characters_do_not_hide_a_token() -> None:
    token = "ghp_" + "a1B2c3D4e5" * 4
    hidden = token[:10] + "\u200b" + token[10:]
    text = f"token {hidden} end"
    report = classify(text)
    assert report.is_blocked
    clean = redact(text)
    assert clean == "token [REDACTED:github_token] end"


def test_fullwidth_password_keyword_is_seen() -> None:
    text = "ｐａｓｓｗｏｒｄ: Hx7-qq!29"
    report = classify(text)
    assert report.level is SensitivityLevel.SECRET
    assert redact(text) == "ｐａｓｓｗｏｒｄ: [REDACTED:password_in_prose]"


# ------------------------------------------------------------------------------ regulated


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("4111 1111 1111 1111", "payment_card"),
        ("5500-0000-0000-0004", "payment_card"),
        ("3782 822463 10005", "payment_card"),
        ("6011.1111.1111.1117", "payment_card"),
        ("6212345678901265", "payment_card"),
        ("卡号 6222 0000 0000 0000 001", "payment_card"),
        ("IBAN DE89 3704 0044 0532 0130 00", "iban"),
        ("gb29 nwbk 6016 1331 9268 19", "iban"),
        ("ssn 536-90-4399", "us_ssn"),
        ("11010519491231002X", "cn_resident_id"),
        ("CPF 529.982.247-25", "br_cpf"),
        ("护照号码 E12345678", "passport_number"),
        ("Reisepass C01X00T47", "passport_number"),
        ("aadhaar 2341 2341 2346", "in_aadhaar"),
        ("mi DNI es 12345678Z", "es_dni"),
        ("NHS number 943 476 5919", "uk_nhs"),
        ("routing number 021000021", "routing_number"),
        ("account number 0012-3456-7890", "bank_account"),
        ("my salary is $98,500", "financial_figure"),
        ("我的月薪是两万五", "financial_figure"),
    ],
)
def test_regulated_rules(text: str, rule: str) -> None:
    report = classify(text)
    assert report.level is SensitivityLevel.REGULATED, report.findings
    assert rule in {f.rule for f in report.findings}


@pytest.mark.parametrize(
    "text",
    [
        "4111 1111 1111 1112",  # fails Luhn
        "tracking 4111111111111111 from the carrier",  # Luhn-valid, but a tracking number
        "1700000000000 ms since epoch",
        "ISBN 978-0-306-40615-7",
        "+44 20 7946 0958 or +1 415 555 0142",
        "DE89 3704 0044 0532 0130 01",  # IBAN with a bad mod-97
        "000-12-3456 and 666-12-3456 and 912-12-3456",  # SSN areas never issued
        "110105194912310021",  # resident id with a wrong check digit, no context
        "build 2024.06.11.1337, version 10.4.2",
        "coordinates 48.858370, 2.294481",
        "the average salary here is $60,000",
        "the house sold for $1,250,000",
        "I made 3 cakes and saved 20 minutes",
        "my passport expires in 2027",
        "order id number 8812345",
    ],
)
def test_regulated_look_alikes_pass(text: str) -> None:
    report = classify(text)
    assert report.level is SensitivityLevel.NONE, [
        (f.rule, text[f.start : f.end]) for f in report.findings
    ]


def test_card_separators_are_all_redacted() -> None:
    text = "pay with 4111  1111 11 11 1111 today"
    assert redact(text) == "pay with [REDACTED:payment_card] today"


# ------------------------------------------------------------------------------ special


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("I have diabetes", "health"),
        ("I'm on insulin", "health"),
        ("I was diagnosed with bipolar disorder", "health"),
        ("Allergic to shellfish.", "health"),
        ("User takes metformin", "health"),
        ("I'm lactose intolerant", "health"),
        ("I'm a practicing Muslim", "religion"),
        ("I go to church every Sunday", "religion"),
        ("I'm gay", "sexual_orientation"),
        ("I'm bisexual", "sexual_orientation"),
        ("I'm Hispanic", "ethnicity"),
        ("I'm a registered Republican", "political_opinion"),
        ("I voted for Labour", "political_opinion"),
        ("here's my fingerprint template", "biometric"),
        ("I'm a member of the teachers' union", "trade_union"),
        ("我有糖尿病", "health"),
        ("我对花生过敏", "health"),
        ("我是穆斯林", "religion"),
        ("我信佛", "religion"),
        ("我是同性恋", "sexual_orientation"),
        ("我是回族", "ethnicity"),
        ("我是党员", "political_opinion"),
        ("tengo diabetes", "health"),
        ("je suis musulmane", "religion"),
    ],
)
def test_special_statements_about_the_user(text: str, category: str) -> None:
    report = classify(text)
    assert report.level is SensitivityLevel.SPECIAL
    assert category in report.categories


@pytest.mark.parametrize(
    "text",
    [
        "I'm reading about diabetes research",
        "my dog has diabetes",
        "my mom has high blood pressure",
        "I'm a pharmacist",
        "I'm a therapist in Ohio",
        "write an essay on Islam",
        "my friend is gay",
        "what are the symptoms of depression?",
        "Is diabetes hereditary?",
        "Taking metformin can cause B12 deficiency",
        "I work at a cancer research center",
        "oh my god it worked",
        "I disabled dark mode",
        "I do meal prep on Sundays",
        "we visited a church in Lisbon",
        "I'm a big believer in code review",
        "I'm in the union square area",
        "我妈妈有高血压",
        "我的狗得了糖尿病",
        "我在读一本关于抑郁症的书",
        "我朋友是同性恋",
        "他是穆斯林",
        "我喜欢吃清真菜",
    ],
)
def test_topic_talk_and_other_people_pass(text: str) -> None:
    report = classify(text)
    assert report.level is SensitivityLevel.NONE, [
        (f.rule, text[f.start : f.end]) for f in report.findings
    ]


def test_special_span_covers_the_statement() -> None:
    text = "Quick note: I was diagnosed with asthma in 2019."
    finding = next(f for f in classify(text).findings if f.rule == "health")
    assert text[finding.start : finding.end].startswith("I was diagnosed")
    assert finding.category == "health"


# ------------------------------------------------------------------------------ properties

_PIECES = ["password", "密码是", "PIN ", "token=", "my ", "I have ", "4111", "\u200b", "Ａ", "&lt;"]
_ALPHABET = st.sampled_from([*"abcXYZ019 :=/@.-_$#'\"\n", *_PIECES])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_ALPHABET, max_size=40).map("".join))
def test_redact_always_yields_unblocked_text(text: str) -> None:
    report = classify(text)
    for f in report.findings:
        assert 0 <= f.start < f.end <= len(text)
    clean = redact(text, report)
    assert not classify(clean).is_blocked
    if not report.is_blocked:
        assert clean == text


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_classify_never_fails(text: str) -> None:
    report = classify(text)
    assert report.level in set(SensitivityLevel)
    assert not classify(redact(text, report)).is_blocked
