"""A code said one digit at a time after its credential or lock word, year-shaped or not, in
number words or as CJK numerals set off by list marks (issue 29, blind13).

First run on main: 7/20 caught (the year-shaped ones said in words and every CJK run with list
marks missed), 0/16 benign flagged. The twentieth, "PIN: ２・０・１・９", is not here: the
public-material mask reads "2.0.1.9" after "PIN" as a version (``public_refs``) and blanks it
before any rule reads the text.
"""

from __future__ import annotations

import pytest

from userlore.policy.sensitivity import classify

SAID = [
    "the code for the hotel safe, I set it to: one, nine, eight, four. write it down",
    "my bike lock combo is two, zero, one, nine",
    "the alarm code: one nine nine nine, don't forget",
    "la clave de la caja fuerte es uno, nueve, nueve, cero",
    "el código del candado: dos, cero, dos, tres",
    "der Code vom Tresor im Hotel: eins, neun, acht, sieben",
    "mein Fahrradschloss geht mit zwei, null, zwei, vier auf",
    "le code du coffre de l'hôtel : un, neuf, neuf, deux",
    "le digicode c'est deux, zéro, un, huit",
    "a senha do cofre do hotel ficou: um, nove, oito, sete",
    "o código do cadeado é dois, zero, dois, cinco",
    "酒店保险箱的密码我设成了：一、九、八、四",
    "门禁密码是二〇二三，别忘了",
    "キャッシュカードの暗証番号：一・九・八・五",
    "スマホのパスコードは二・〇・二・四です",
    "暗証番号は七、四、〇、九",
    "金庫の番号、メモ：三・一・四・一",
    "my PIN, so I remember: two, zero, one, one",
    "mi PIN es: uno, nueve, siete, cero",
]

BENIGN = [
    "I was born in nineteen eighty four, how old am I?",
    "the safe was built in 1984 by a Swiss firm",
    "la caja fuerte del hotel cuesta 1990 pesos la noche",
    "暗証番号は4桁です",
    "手順は一・二・三の順番で",
    "我们一、二、三楼都住满了",
    "le coffre date de 1985",
    "o cadeado custa dois mil e vinte reais? não, vinte",
    "the PIN has four digits: pick one you remember",
    "count with me: one, two, three, four!",
    "we leave at seven, eight at the latest, nine if it rains",
    "el vuelo sale a las nueve, llegamos a las dos",
    "Die Reihenfolge: eins, zwei, drei, vier, dann von vorn",
    "la recette : un, deux, trois œufs et quatre cuillères",
    "o jogo acabou dois, zero, um? não lembro",
    "我家在三、四、五楼之间搬来搬去",
]


@pytest.mark.parametrize("text", SAID)
def test_code_said_digit_by_digit_is_secret(text: str) -> None:
    assert classify(text).is_blocked


@pytest.mark.parametrize("text", BENIGN)
def test_years_counts_and_lists_stay_benign(text: str) -> None:
    assert not classify(text).is_blocked
