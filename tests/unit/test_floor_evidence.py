"""The floor redacts from stored evidence what the gate withholds from plans (issue 29, the
stored-evidence remainder): values after a credential word, and the user's own money in the
seven languages' formats, with an implied subject. Each row is a class member; benign rows are
the near-misses the same words sit in."""

from __future__ import annotations

import pytest

from userlore.policy.sensitivity import classify, redact

REDACTED = [
    # value after a credential word (cue data shared with the gate)
    ("en", "garage opener code 7 1 9 3", "7 1 9 3"),
    ("en", "Alarm code? 90-41-77", "90-41-77"),
    ("zh", "单元门密码 5520", "5520"),
    ("es", "la clave del wifi es casa2024x", "casa2024x"),
    ("de", "Geheimzahl: 6610", "6610"),
    ("fr", "digicode 37C09 au portail", "37C09"),
    ("ja", "暗証番号 0917 を忘れないで", "0917"),
    ("pt", "senha do portão 7788", "7788"),
    ("pt", "número do cartão 4111 2222 3333 4445", "4111 2222 3333 4445"),
    ("ja", "口座番号 3344556 です", "3344556"),
    # the user's own money, implied subject, locale formats, bare amounts
    ("en", "checking balance $2,310.55 until Friday", "2,310.55"),
    ("en", "still owe 14k on the student loan", "14k"),
    ("zh", "房贷还剩 60 万", "60 万"),
    ("es", "Sueldo neto: 1.980 €", "1.980 €"),
    ("de", "Ersparnisse 12.300 Euro", "12.300 Euro"),
    ("fr", "salaire mensuel 2 780 €", "2 780 €"),
    ("ja", "年収 520万円", "520万円"),
    ("pt", "saldo da poupança R$ 8.450,90", "8.450,90"),
]

KEPT = [
    "The zip code is 10001.",
    "código postal 08001, Barcelona",
    "Le code promo NOEL2025 a expiré.",
    "I changed my password in 2021.",
    "The PIN must have 6 digits.",
    "code review at 14:30 tomorrow",
    "The tablet costs $329 online.",
    "Mein Bruder verdient 5.000 Euro.",
    "La cuenta del restaurante fueron 95 euros.",
    "Das Durchschnittsgehalt liegt bei 3.900 Euro.",
    "このテレビの価格は 8万円です",
    "the public key is ssh-ed25519 AAAAC3NzaC1lZDI1NTE5 me@host",
]


@pytest.mark.parametrize(("lang", "text", "value"), REDACTED)
def test_values_leave_the_stored_text(lang: str, text: str, value: str) -> None:
    out = redact(text)
    assert value not in out, (lang, out)
    assert "[REDACTED:" in out


@pytest.mark.parametrize("text", KEPT)
def test_near_misses_are_kept(text: str) -> None:
    assert not classify(text).is_blocked, classify(text)


# A password tool and its name (first run: 3 of 6 flagged, final 0 of 6); a password beside
# the tool's name is still taken.
PASSWORD_TOOLS = [
    "My password manager is 1Password, it works great.",
    "I switched my password manager to Bitwarden last week.",
    "I use KeePassXC as my password manager.",
    "The password generator in Firefox made it for me.",
    "Our password vault is 1Password Teams.",
    "Mein Passwort-Manager ist 1Password.",
]
PASSWORDS_BESIDE_TOOLS = [
    ("my password manager master password is Xk9#pq2L", "Xk9#pq2L"),
    ("1Password master password: Lk8$vv21pq", "Lk8$vv21pq"),
]


@pytest.mark.parametrize("text", PASSWORD_TOOLS)
def test_a_password_tools_name_is_not_a_password(text: str) -> None:
    assert not classify(text).is_blocked, classify(text)


@pytest.mark.parametrize(("text", "value"), PASSWORDS_BESIDE_TOOLS)
def test_a_password_beside_a_tools_name_is_taken(text: str, value: str) -> None:
    assert value not in redact(text)
