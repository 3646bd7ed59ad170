"""Values in languages no rule reads leave stored evidence by shape (issue 29 item 2): the
language identifier's verdict decides, not the script, so Turkish typed without ş/ğ,
Indonesian and Swahili count as uncovered like Russian or Korean. No vocabulary of these
languages exists in the rules; magnitude words come from CLDR for whatever language the
identifier names."""

from __future__ import annotations

import pytest

from userlore.policy.sensitivity import classify, redact

REDACTED = [
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
def test_uncovered_values_leave_the_stored_text(lang: str, text: str, value: str) -> None:
    out = redact(text)
    assert value not in out, (lang, out)


@pytest.mark.parametrize("text", KEPT)
def test_uncovered_near_misses_are_kept(text: str) -> None:
    assert not classify(text).is_blocked, classify(text)
