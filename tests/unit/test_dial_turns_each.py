"""Every number of a dial's turns is the combination's (issue 29): "左转三圈到二十七，右转到八，再左
转到四十一" redacted 27 and 41 and left "八", a single numeral after its turn. The class: each
number after a turn word, in digits or words, one numeral or several, whatever the turn words
(左转/右转/顺时针, 右へ/左に, left/right, links/rechts, gauche/droite, izquierda/derecha,
esquerda/direita). Benign: directions to a street, a floor, an exit.

First run on main (bd98132): see docs/benchmarks.md (blindfix15a).
"""

from __future__ import annotations

import pytest

from userlore.policy.sensitivity import classify, redact

# (text, every number said in it, as written)
DIALS = [
    ("保险柜密码：左转三圈到二十七，右转到八，再左转到四十一", ["二十七", "八", "四十一"]),
    ("保险箱是左转到五，右转到十二，左转到三", ["五", "十二", "三"]),
    ("柜子的密码锁：顺时针到九，逆时针到三十，顺时针到六", ["九", "三十", "六"]),
    ("密码锁先右转到七，再左转到二十，最后右转到四", ["七", "二十", "四"]),
    ("保险柜：向左到十五，向右到二，向左到三十三", ["十五", "二", "三十三"]),
    ("金庫は右に四回まわして二十五、左に八、右に六十", ["二十五", "八", "六十"]),
    ("金庫のダイヤル、右へ七、左へ三十二、右へ五", ["七", "三十二", "五"]),
    ("金庫は右に3回回して25、左に8、右に60", ["25", "8", "60"]),
    ("the safe: left three times to 27, right to 8, left to 41", ["27", "8", "41"]),
    (
        "the safe is right to eight, left to twenty-seven, right to four",
        ["eight", "twenty-seven", "four"],
    ),
    ("gym locker dial: right 5, left 32, right 9", ["5", "32", "9"]),
    ("the old safe goes clockwise to 7, counterclockwise to 19, clockwise to 3", ["7", "19", "3"]),
    ("der Tresor: dreimal links auf 27, rechts auf 8, links auf 41", ["27", "8", "41"]),
    ("Tresor: rechts auf acht, links auf siebzehn, rechts auf drei", ["acht", "siebzehn", "drei"]),
    ("le coffre : à gauche jusqu'à 27, à droite jusqu'à 8, à gauche jusqu'à 41", ["27", "8", "41"]),
    ("le coffre-fort : droite huit, gauche vingt, droite quatre", ["huit", "vingt", "quatre"]),
    ("la caja fuerte: izquierda hasta 27, derecha hasta 8, izquierda hasta 41", ["27", "8", "41"]),
    (
        "la caja fuerte es derecha ocho, izquierda veinte, derecha cinco",
        ["ocho", "veinte", "cinco"],
    ),
    ("o cofre: esquerda até 27, direita até 8, esquerda até 41", ["27", "8", "41"]),
    ("o cofre é direita oito, esquerda vinte, direita três", ["oito", "vinte", "três"]),
    ("家里保险柜：左转到六，右转到九，左转到二", ["六", "九", "二"]),
    ("保险箱密码左转两圈到十，右转到一，左转到五十", ["十", "一", "五十"]),
    ("ロッカーのダイヤルは右に九、左に一、右に四", ["九", "一", "四"]),
    ("the lockbox: left to 3, right to 9, left to 1", ["3", "9", "1"]),
    ("der Spind: links 4, rechts 9, links 2", ["4", "9", "2"]),
    ("mi candado: derecha 3, izquierda 8, derecha 1", ["3", "8", "1"]),
    ("le cadenas : gauche 6, droite 2, gauche 7", ["6", "2", "7"]),
    ("o cadeado: direita 5, esquerda 9, direita 2", ["5", "9", "2"]),
    ("保险柜：右转到9，左转到三十，右转到五", ["9", "三十", "五"]),
    ("金庫：左へ十、右へ二、左へ九十", ["十", "二", "九十"]),
]

BENIGN = [
    "到了路口左转到八号楼，右转就是食堂",
    "左转三个路口到八一路，再右转",
    "出地铁左转到第三个门",
    "电梯右转到八楼，再左转",
    "左转到二环，右转到三里屯",
    "駅を出て右に二分、左に五十メートル",
    "右に曲がって三つ目の信号を左へ",
    "turn left to 5th avenue, then right to 8th street",
    "left at exit 27, right at exit 8",
    "links abbiegen bis zur 3. Ampel, dann rechts in die 8. Straße",
    "à gauche au 2e feu, à droite au 8e étage",
    "a la izquierda en la calle 8, a la derecha la 41",
    "à esquerda na rua 8, à direita no número 41",
    "我左转右转找了半天，保险柜在三楼",
    "the safe is on the left, room 8, the right one is 41",  # blindfix22a: read whole
    "保险柜在左边，右边是八号柜",
    "左转到底，右转八百米就是保险公司",
    "金庫は右の棚、左に八つの箱がある",
]


@pytest.mark.parametrize(("text", "numbers"), DIALS)
def test_every_dial_number_is_redacted(text: str, numbers: list[str]) -> None:
    shown = redact(text, classify(text))
    assert [n for n in numbers if n in shown.replace("REDACTED", "")] == []


@pytest.mark.parametrize("text", BENIGN)
def test_directions_are_not_flagged(text: str) -> None:
    assert not classify(text).is_blocked
