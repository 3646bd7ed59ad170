"""A passphrase of plain words joined by hyphens, dots or underscores, told right after the
password word with no "is" between (issue 29): "Mein ELSTER-Zertifikat hat das Passwort
Amsel-Drossel-Fink-Star, ist das sicher genug?" reached a plan. Three words or more, any case,
in the seven languages; benign: a password word before a compound that is no value (a
manager's name, a hyphenated noun of two parts), a question about passphrases.

First run on main (bd98132): see docs/benchmarks.md (blindfix15a).
"""

from __future__ import annotations

import pytest

from userlore.policy.sensitivity import classify, redact

PASSPHRASES = [
    (
        "Mein ELSTER-Zertifikat hat das Passwort Amsel-Drossel-Fink-Star, ist das sicher genug?",
        "Amsel-Drossel-Fink-Star",
    ),
    ("Das WLAN hat das Passwort Tanne-Fichte-Birke-Eiche", "Tanne-Fichte-Birke-Eiche"),
    ("mein Keepass hat jetzt das Kennwort Mond.Stern.Sonne.Wolke", "Mond.Stern.Sonne.Wolke"),
    ("der Router hat das Passwort rot-gelb-blau-grün, reicht das?", "rot-gelb-blau-grün"),
    ("my laptop has the password Maple-Cedar-Birch-Pine, good enough?", "Maple-Cedar-Birch-Pine"),
    ("the wifi has the password correct-horse-battery-staple", "correct-horse-battery-staple"),
    pytest.param(
        *("I gave the NAS the password otter.river.stone.moss", "otter.river.stone.moss"),
        marks=pytest.mark.xfail(strict=True, reason="lower-case dotted words read as code"),
    ),
    ("use the password Lemon_Grape_Melon_Kiwi for the guest account", "Lemon_Grape_Melon_Kiwi"),
    ("set the passphrase tiger-lily-ocean-drum on the vault", "tiger-lily-ocean-drum"),
    ("mi router tiene la contraseña Perro-Gato-Loro-Pez, ¿es segura?", "Perro-Gato-Loro-Pez"),
    ("le puse la contraseña sol-luna-mar-rio al portátil", "sol-luna-mar-rio"),
    ("el wifi tiene la clave Mango.Piña.Coco.Lima", "Mango.Piña.Coco.Lima"),
    (
        "mon coffre a le mot de passe Chat-Chien-Loup-Ours, c'est assez sûr ?",
        "Chat-Chien-Loup-Ours",
    ),
    ("j'ai mis le mot de passe pomme-poire-prune-figue sur le PC", "pomme-poire-prune-figue"),
    ("la box a le mot de passe Rouge.Vert.Bleu.Noir", "Rouge.Vert.Bleu.Noir"),
    ("o notebook tem a senha Gato-Pato-Rato-Sapo, é segura?", "Gato-Pato-Rato-Sapo"),
    ("coloquei a senha manga-caju-uva-pera no roteador", "manga-caju-uva-pera"),
    ("o wi-fi tem a senha Lua_Sol_Mar_Rio", "Lua_Sol_Mar_Rio"),
    ("我的电脑密码 Maple-Cedar-Birch-Pine 够安全吗", "Maple-Cedar-Birch-Pine"),
    ("路由器设了密码 tiger-lily-ocean-drum", "tiger-lily-ocean-drum"),
    ("パソコンにパスワード Sakura-Fuji-Umi-Yama を設定した", "Sakura-Fuji-Umi-Yama"),
    pytest.param(
        *("Wi-Fiのパスワード neko.inu.tori.sakana にした", "neko.inu.tori.sakana"),
        marks=pytest.mark.xfail(strict=True, reason="lower-case dotted words read as code"),
    ),
    ("Tresor-App: Passwort Buche-Linde-Ahorn", "Buche-Linde-Ahorn"),
    ("password Falcon-Harbor-Velvet for the old account", "Falcon-Harbor-Velvet"),
    ("the backup drive has the password Window-Garden-Pencil-Cloud", "Window-Garden-Pencil-Cloud"),
    ("la tablet tiene la contraseña Rojo-Verde-Azul", "Rojo-Verde-Azul"),
    ("le NAS a le mot de passe Tigre-Lion-Ours", "Tigre-Lion-Ours"),
    ("o cofre tem a senha Azul-Verde-Roxo", "Azul-Verde-Roxo"),
    ("Das Konto hat das Passwort Haus_Baum_Wald_Feld", "Haus_Baum_Wald_Feld"),
    ("my phone has the passcode river-stone-maple", "river-stone-maple"),
]

BENIGN = [
    "I use the password manager Bitwarden, not KeePass",
    "the password reset-link-page is broken",
    "das Passwort-Manager-Programm ist gut",
    "Das Passwort Zurücksetzen klappt nicht",
    "is a passphrase like correct-horse-battery-staple really safe?",
    "XKCD's correct-horse-battery-staple is a famous example passphrase",
    "la contraseña de ejemplo perro-gato-loro en la documentación",
    "what makes a good passphrase, three or four random words?",
    "mein Passwort hat drei Wörter mit Bindestrichen, mehr sage ich nicht",
    "le mot de passe doit contenir trois mots séparés par des tirets",
    "a senha precisa de três palavras com hífens",
    "密码最好用三个单词加连字符",
    "パスワードは単語をハイフンでつなぐといい",
    "the password field is next to the sign-in-with-Google button",
    "Passwort-Richtlinie: mindestens zwölf Zeichen",
]


@pytest.mark.parametrize(("text", "value"), PASSPHRASES)
def test_passphrase_of_words_is_redacted(text: str, value: str) -> None:
    assert value not in redact(text, classify(text))


@pytest.mark.parametrize("text", BENIGN)
def test_talk_of_passphrases_is_not_flagged(text: str) -> None:
    assert not classify(text).is_blocked
