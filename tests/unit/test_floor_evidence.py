"""The floor redacts from stored evidence what the gate withholds from plans (issue 29, the
stored-evidence remainder): values after a credential word, and the user's own money in the
seven languages' formats, with an implied subject; and values in languages no rule reads, by
shape (issue 29 item 2). For those the language identifier's verdict decides, not the script,
so Turkish typed without ş/ğ, Indonesian and Swahili count as uncovered like Russian or Korean;
no vocabulary of these languages exists in the rules, and magnitude words come from CLDR for
whatever language the identifier names. Each row is a class member; benign rows are the
near-misses the same words sit in. One table for both (they were two files with the same
tests)."""

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
    # languages no rule reads: by shape
    # a four-digit run before 1900 is no year of a conversation (one year rule for every
    # detector, ``detectors.common.is_year``; the uncovered-language rule used to skip 18xx)
    ("id", "Kode pintu saya 1875, jangan bilang siapa-siapa.", "1875"),
    ("id", "kata sandi email saya Melati_2291", "Melati_2291"),
    ("id", "pin kartu ATM saya adalah 5820", "5820"),
    ("id", "gaji saya sebulan 7.500.000 rupiah", "7.500.000"),
    ("sw", "nambari yangu ya siri ni 6612", "6612"),
    ("sw", "nenosiri langu ni simba2023", "simba2023"),
    ("tr", "kapi sifresi 7305, kimseye soyleme", "7305"),
    ("tr", "hesap numaram 12345678 bankada", "12345678"),
    ("ru", "зарплата у меня 120 тыс в месяц", "120 тыс"),
    ("ko", "비상금 500만 원 숨겨뒀어", "500만"),
    ("hi", "मेरा पिन ७७३१ है", "७७३१"),
    ("ar", "رقم حسابي 40018822", "40018822"),
    ("vi", "mật khẩu wifi nhà tôi là hoaSen99", "hoaSen99"),
    ("tr", "Maaşım 52.500 TL", "52.500"),
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
    # languages no rule reads
    "Встреча в 15:30, приходи",
    "Toplanti yarin saat 10:00",
    "saya lahir tahun 1994",
    "tulikutana mwaka 2019 mjini",
    "Boeing 737 dan A320neo di bandara",
    "회의는 3시에 있어요",
    "У меня 3 кошки",
    # an address block among names: house numbers and postcodes are personal, not codes
    "Jonna Virtanen\nKoivukatu 12 B 7\n33100 Tampere\nSuomi",
    "Piotr Nowak, ul. Długa 45, 80827 Gdańsk",
    # identifiers and names joined by hyphens
    "2026-03-09-pipeline",
    "sesja eu-west-1 gotowa",
    # two digits, a dot, two digits: a time, a day and month, a version, a price (lead's round:
    # first run 7 of 12 such turns flagged, "Work laptop: ThinkPad X1, Ubuntu 22.04." read as
    # Basque among them)
    "Work laptop: ThinkPad X1, Ubuntu 22.04.",
    "Saya pakai Ubuntu 22.04 di kantor.",
    "Mkutano ni saa 09.15 kesho.",
    "Spotkanie o 16.45 w biurze.",
    "Server: Debian 12.04, nginx 1.25.",
    "Urodziny mam 24.06, pamiętaj!",
    "Il treno parte alle 07.40 da Milano.",
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
