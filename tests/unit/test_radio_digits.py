"""Codes said in radio and aviation digit forms (issue 29): "niner", "fife", "tree", "fower",
"wun", "ait", ICAO's "nadazero … novenine", "oh", "double"/"triple" in English; "zwo" in
German, "meia" in Brazilian Portuguese; 幺/两/拐/勾/洞 in Chinese, ひと/ふた/まる in Japanese.
A run of four digits or more with at least one such form, after a code or lock word, is the
code; a radio form alone or in a short run ("one tree hill", "the niners") is not.

First run on main (bd98132): see docs/benchmarks.md (blindfix15a).
"""

from __future__ import annotations

import pytest

from userlore.policy.sensitivity import classify

CODES = [
    "the lockbox by the back door, my landlord set it, it's four-one-one-niner",
    "gate code is tree-fife-niner-two, then push hard",
    "my PIN is fower-tree-niner-wun",
    "the garage keypad: wun, too, tree, fower",
    "alarm code niner-ait-fife-zero",
    "the safe is tree tree fife niner, don't tell anyone",
    "the door code is one oh oh niner",
    "the padlock is double niner tree fife",
    "my bank PIN is triple fife wun",
    "lockbox: nadazero unaone bissotwo terrathree",
    "the keypad code is fife-six-seven-niner, it changed last week",
    "the key safe at the cabin is niner-niner-four-one",
    "the alarm is set to fife fower tree two",
    "mi PIN es cuatro-uno-uno-niner, como en la radio",
    "der Türcode ist vier-zwo-zwo-eins",
    "die PIN ist zwo zwo acht neun",
    "le code de la porte c'est quatre-un-un-niner",
    "a senha do cadeado é meia-meia-dois-um",
    "o código do portão é um meia nove quatro",
    "门禁密码是幺两拐勾",
    "保险柜密码洞幺两拐，别告诉别人",
    "密码是勾勾洞幺",
    "银行卡密码是拐拐幺洞",
    "暗証番号はまるひとふたさん",
    "金庫の番号はふた・まる・ひと・きゅう",
    "ロッカーの番号はひとふたひとふた",
    "the lockbox on the fence is niner-tree-tree-one, then pull",
    "my voicemail PIN is fife-fife-tree-wun",
    "the bike lock is ait-ait-tree-one",
    "my code's zero-niner-fife-one",
]

BENIGN = [
    "we hiked up one tree hill, then had lunch",
    "the niners won again last night",
    "go niners, forty-niners all the way",
    "there is a tree, five metres from the gate",
    "three trees and four bushes in the garden",
    "the fife and drum band played at the gate",
    "oh one more thing, the gate is blue",
    "double check the lock before you leave",
    "a triple espresso and a double latte, please",
    "the pilot said flight level tree-fife-zero on the radio",
    "the tower gave us runway two-seven, wind tree-four-zero",
    "niner is how pilots say nine",
    "my cat's name is Fife",
    "ICAO spells nine as niner and five as fife",
    "zwo ist die Aussprache von zwei am Telefon",
    "meia dúzia de ovos e um litro de leite",
    "是一个山洞，里面有两只拐杖",
    "这个洞有两米深",
    "ひとつ、ふたつ、みっつ数えてみて",
    "まるで夢みたいだった",
    "the padlock is a Master Lock number 3, double shackle",
    "in radio talk, say tree for three and fower for four",
    "lock the door at niner o'clock, over",
    "my grandma's house is one oh one tree lane",
]


@pytest.mark.parametrize("text", CODES)
def test_radio_digit_code_is_secret(text: str) -> None:
    assert classify(text).is_blocked


@pytest.mark.parametrize("text", BENIGN)
def test_radio_word_without_code_is_not_flagged(text: str) -> None:
    assert not classify(text).is_blocked
