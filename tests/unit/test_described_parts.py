"""A password told as a base word and a part described after it, in the seven languages (issue
29, blind14: "Kaffeetasse mit drei Ausrufezeichen am Ende", "Jabuticaba... ops, tem um @2023 no
final"): the base word and every described part must go.

First run on main (d62045b): 10/30 wholly redacted (the described part stayed in 17, the base
word in three: an account name with a dot, "gov.br", "impots.gouv", or after "fürs"), 1/16
benign flagged ("mi contraseña es segura, …": "segura" read as the password).
"""

from __future__ import annotations

import pytest

from userlore.policy.sensitivity import classify, redact

DESCRIBED = [
    (
        "my password for the tax portal is Teacup with three exclamation marks at the end",
        ("Teacup", "three exclamation marks"),
    ),
    ("my Netflix password is Pinecone, plus 2024 at the end", ("Pinecone", "2024")),
    (
        "the wifi password is Lighthouse and then two dollar signs",
        ("Lighthouse", "two dollar signs"),
    ),
    ("my bank password is Walrus... oh wait, there's a #99 at the end", ("Walrus", "#99")),
    (
        "Mein Passwort für Elster ist Teekanne mit zwei Ausrufezeichen am Ende",
        ("Teekanne", "zwei Ausrufezeichen"),
    ),
    ("mein Passwort fürs Banking ist Sonnenblume, hinten dran noch 1987", ("Sonnenblume", "1987")),
    (
        "das WLAN-Passwort ist Leuchtturm und am Ende ein Dollarzeichen",
        ("Leuchtturm", "ein Dollarzeichen"),
    ),
    (
        "Passwort für die Krankenkasse: Gießkanne, dahinter 2x Sternchen",
        ("Gießkanne", "2x Sternchen"),
    ),
    (
        "mi contraseña del banco es Mandarina con dos signos de exclamación al final",
        ("Mandarina", "dos signos de exclamación"),
    ),
    ("la contraseña de la AFIP es Tortuga... ah no, tiene un #2022 al final", ("Tortuga", "#2022")),
    ("mi clave del correo es Aguacate, y al final 1990", ("Aguacate", "1990")),
    ("la contraseña del wifi es Faro más tres asteriscos al final", ("Faro", "tres asteriscos")),
    (
        "mon mot de passe impots.gouv c'est Tartine avec trois points d'exclamation à la fin",
        ("Tartine", "trois points d'exclamation"),
    ),
    ("mon mot de passe Ameli est Baguette, et 2021 à la fin", ("Baguette", "2021")),
    ("le mot de passe du wifi c'est Phare suivi de deux dièses", ("Phare", "deux dièses")),
    (
        "mot de passe de la banque : Croissant... ah non, il y a un @77 à la fin",
        ("Croissant", "@77"),
    ),
    (
        "minha senha do gov.br é Pitanga... ops, esqueci, tem um @2021 no final",
        ("Pitanga", "@2021"),
    ),
    (
        "a senha do banco é Goiabada com dois pontos de exclamação no final",
        ("Goiabada", "dois pontos de exclamação"),
    ),
    ("minha senha do Nubank é Caju e no final 1985", ("Caju", "1985")),
    ("a senha do wifi é Farol mais três asteriscos no final", ("Farol", "três asteriscos")),
    ("我的邮箱密码是 Panda，后面加三个感叹号", ("Panda", "三个感叹号")),
    ("支付宝登录密码是 Bamboo，最后还有 2023", ("Bamboo", "2023")),
    ("微信密码是 Lotus 后面再加一个 @", ("Lotus", "一个 @")),
    ("銀行のパスワードは Sakura で、最後に！を三つ", ("Sakura", "！を三つ")),
    ("マイナポータルのパスワードは Tanuki、末尾に2022をつける", ("Tanuki", "2022")),
    ("Amazonのパスワードは Momiji の後ろに ## が付く", ("Momiji", "##")),
    ("password for my Apple ID is Meadow, then 88 at the end", ("Meadow", "88")),
    ("my PayPal password is Otter with an underscore and 42 at the end", ("Otter", "42")),
    ("my password for gov.uk is Kettle, plus 1975 on the end", ("Kettle", "1975")),
    ("my password for amazon.de is Biscuit, with 77 at the end", ("Biscuit", "77")),
]

BENIGN = [
    "passwords must end with three exclamation marks? that seems weird",
    "the password needs two numbers at the end and a capital letter",
    "Passwörter müssen am Ende ein Sonderzeichen haben",
    "Das Passwort muss mindestens zwei Ziffern enthalten",
    "la contraseña debe tener un número al final",
    "le mot de passe doit avoir un caractère spécial à la fin",
    "a senha precisa ter um número no final",
    "密码最后要加一个特殊字符吗？",
    "パスワードの最後に記号を付けるべき？",
    "I added three exclamation marks at the end of my message",
    "my password manager adds 2024 at the end of every export file name",
    "the password field has an eye icon at the end",
    "the movie ends with two explosions at the end",
    "Ich habe am Ende drei Ausrufezeichen gesetzt, zu viel?",
    "the password reset email had a link at the end",
    "mi contraseña es segura, tiene números al final",
]


@pytest.mark.parametrize(("text", "values"), DESCRIBED)
def test_base_word_and_described_parts_go(text: str, values: tuple[str, ...]) -> None:
    redacted = redact(text, classify(text))
    assert [v for v in values if v in redacted] == []


@pytest.mark.parametrize("text", BENIGN)
def test_talk_about_passwords_is_not_flagged(text: str) -> None:
    assert not classify(text).is_blocked
