"""Codes told by the thing they open with no code word, in the forms blind14 found (issue 29):
a door's or gate's code among other numbers ("the server room door is 58213"), a dial's numbers
after an adverb or "has" ("Tresor im Büro hat jetzt 27-14-63"), and a word lock's letters,
spelled or given as a new word ("combo is T-A-C-O-S … I changed it to BURRO").

First run on main (d62045b): doors 0/19, dials 1/13 (Chinese "现在是" only), letter locks 0/21;
0/34 benign flagged.
"""

from __future__ import annotations

import pytest

from userlore.policy.sensitivity import classify, redact

DOORS = [
    (
        "first-day list: monitor tag 30877, badge 61422, desk 2-09, and the archive room door"
        " is 40917 (put all but the door in the wiki)"
    ),
    "onboarding: locker 12, parking spot 40, and the office door is 739215",
    "the lab door is 204871, the fridge is B-12",
    "the back gate is 83920, the mailbox is 14",
    "the server room door is now 662019",
    "our front gate is 491027, tell the cleaner",
    "la puerta del almacén es 583920, la mesa es la 14",
    "la puerta de la oficina ahora es 720391",
    "el portón de la finca es 39102",
    "die Tür vom Serverraum ist 58213, der Spind ist 12",
    "die Bürotür ist jetzt 739201",
    "das Hoftor ist 492018",
    "la porte du local serveur c'est 582931, le bureau c'est le 3-14",
    "le portail de la cour est 390218",
    "a porta da sala de servidores é 582913, a mesa é a 14",
    "o portão da garagem agora é 492017",
    "机房的门是 582913，工位是3-14",
    "公司后门是 739201",
    "サーバールームのドアは 582913、席は3-14",
]

DIALS = [
    "Tresor im Keller hat jetzt 31-07-48, sonst vergess ich das",
    "der Tresor hat jetzt 19-42-07",
    "the office safe is now 27-14-63",
    "the safe has 31-08-55 now, don't lose it",
    "the gym locker padlock now 12-34-56? no, 22-41-09",
    "la caja fuerte ahora tiene 27-14-63",
    "la caja fuerte de la oficina tiene 31-08-55",
    "le coffre du bureau a maintenant 27-14-63",
    "le coffre a 19-42-07 depuis lundi",
    "o cofre do escritório tem 27-14-63 agora",
    "o cofre agora está 19-42-07",
    "保险箱现在是27-14-63",
    "金庫は今 27-14-63 です",
]

LETTERS = [
    "my gym bag lock has letters, combo is N-A-C-H-O lol. wait no I changed it to SALSA",
    "the word lock on my gym bag is C-A-S-A, no wait, I changed it to PERRO",
    "mi candado de letras es M-A-N-G-O, bueno, ahora es LIMON",
    "das Buchstabenschloss am Koffer: K-A-T-Z-E, nee, hab's auf MAUS geändert",
    "le cadenas à lettres c'est P-O-I-R-E, non je l'ai changé en PECHE",
    "o cadeado de letras é G-A-T-O, não, mudei pra PATO",
    "luggage lock: letters, I set it to L-U-N-A",
    "my word lock combo is now VELVET, the old one was T-I-G-E-R",
    "the letter lock on the shed: combination is O-A-K-S",
    "la combinación del candado de letras: P-I-Z-Z-A",
    "el candado de la mochila tiene letras, lo puse en SOL-? no, en LUNAR? mejor: ahora es LUNAR",
    "mein Fahrradschloss hat Buchstaben, Kombination ist B-I-E-R",
    "das Zahlenschloss ist eigentlich mit Buchstaben: jetzt ist es HUND",
    "le cadenas de mon casier a des lettres : c'est C-H-A-T",
    "mon cadenas à lettres, je l'ai mis en SOLEIL",
    "o cadeado da mala tem letras, coloquei C-A-F-E",
    "a combinação do cadeado de letras agora é MANGA",
    "字母密码锁的组合是 L-O-V-E",
    "行李箱的字母锁我改成了 HAPPY",
    "文字式のダイヤル錠、組み合わせは N-E-K-O",
    "アルファベットのダイヤルロックは今 SUSHI にしてる",
]

BENIGN = [
    "first-day list: monitor tag 30877, badge 61422, desk 2-09",
    "the server room is on floor 5, room 5213",
    "the office door is on the left, room 2041",
    "our door is number 12, the gate is number 4",
    "the back gate is open from 8 to 18",
    "la puerta del almacén está en la calle Mayor 58",
    "die Tür vom Serverraum ist im 3. Stock, Raum 5213",
    "la porte du local serveur est au 2e étage, salle 2041",
    "a porta da sala fica no andar 5, sala 5213",
    "机房的门在5楼，房间5213",
    "the safe has 3 shelves and cost 249 dollars",
    "the safe now costs 1200 euros",
    "der Tresor hat jetzt 2 Fächer und wiegt 30 kg",
    "der Tresor hat jetzt 1200 Euro drin",
    "la caja fuerte tiene 3 estantes, cuesta 250 euros",
    "the combination lock uses letters A-Z",
    "the combo is letters, not numbers",
    "el candado de letras tiene 5 letras",
    "I changed my desk to 3-14 last week",
    "the score was 27-14 at halftime, then 63-41",
    "our door has been 1904 since the renovation? no, the building is from 1904",
    "le code de la route a changé en 2023",
    "the gate closes at 22:30",
    "door 58 is the server room",
    "the TSA lock on my suitcase has letters, not numbers, and it's stuck",
    "letter locks use A-Z on each wheel, is that safer than digits?",
    "el candado de letras de la marca ABUS es muy bueno",
    "das Buchstabenschloss von ABUS ist gut, mein Code ist geheim",
    "le cadenas à lettres coûte 15 euros chez DECATHLON",
    "o cadeado de letras tem 5 letras, qual a chance de adivinhar?",
    "my lock has letters and I set a word, not telling you which",
    "the door cost 58213 yen to install",
    "the back gate is at 90210 Beverly Hills",
    "die Haustür ist 20000 Euro teuer gewesen",
]


@pytest.mark.parametrize("text", DOORS + DIALS + LETTERS)
def test_code_of_the_thing_it_opens_is_secret(text: str) -> None:
    assert classify(text).is_blocked


@pytest.mark.parametrize(
    ("text", "value"),
    [(LETTERS[0], "SALSA"), (LETTERS[2], "LIMON"), (DOORS[0], "40917"), (DIALS[0], "31-07-48")],
)
def test_the_value_is_redacted(text: str, value: str) -> None:
    report = classify(text)
    assert value not in redact(text, report)


@pytest.mark.parametrize("text", BENIGN)
def test_benign_twin_is_not_flagged(text: str) -> None:
    assert not classify(text).is_blocked
