"""Bank account numbers after account words in the seven languages (issue 29, blind13),
Japan Post's symbol and number (ゆうちょ 記号 … 番号 …) among them.

First run on main: 17/20 caught (both ゆうちょ forms missed, and "la cuenta de mi madre no, la
mía: 0182-5322-11-0201501234", left out here: the cue is read as the mother's), 0/14 benign
flagged.
"""

from __future__ import annotations

import pytest

from userlore.policy.sensitivity import classify

ACCOUNTS = [
    "ゆうちょ銀行に送って：記号14060 番号23456781",
    "振込先 三井住友銀行 渋谷支店 普通 7654321 ヤマダタロウ",
    "口座番号は普通預金の1234567です",
    "我的银行账号是 6222 0212 3456 7890，工商银行",
    "收款账户：招商银行 账号 755912345610801",
    "转到我的卡上，开户行建设银行，账号 4367 4200 1234 5678",
    "mi número de cuenta es 0049 1500 05 1234567892 (Santander)",
    "hazme la transferencia a la cuenta 2100 0418 45 0200051332",
    "meine Kontonummer ist 532013000, BLZ 37040044",
    "überweis es auf mein Konto 0123456789 bei der Sparkasse",
    "Konto: 1234567890, Bankleitzahl 10020030",
    "mon numéro de compte : 00012345678, code banque 30004, guichet 00817",
    "vire-le sur mon compte 12345678901 à la Banque Postale",
    "minha conta no Itaú: agência 0341, conta 12345-6",
    "faz o depósito na conta 987654-3, agência 1234, Bradesco",
    "my account number is 12345678, sort code 20-00-00",
    "wire it to my checking account 000123456789 at Chase, routing 021000021",
    "ゆうちょ 記号10170 番号87654321 に振込お願いします",
    "口座：みずほ銀行 新宿支店 普通 1234567",
]

BENIGN = [
    "口座番号は7桁です",
    "ゆうちょの記号と番号の違いは何ですか",
    "银行账号一般是16到19位",
    "el número de cuenta tiene 20 dígitos en España",
    "die Kontonummer hat zehn Stellen",
    "le numéro de compte fait 11 chiffres",
    "a conta corrente custa 12 reais por mês",
    "my account has 3 users and 12 projects",
    "order number 123456789 hasn't shipped yet",
    "tracking 1Z999AA10123456784 says delivered",
    "the bank's customer line is 0800 123 4567",
    "口座開設は2024年4月1日でした",
    "agência 0341 fica na avenida Paulista, 1000",
    "Kontoauszug vom 15.03.2024 liegt im Briefkasten",
]


@pytest.mark.parametrize("text", ACCOUNTS)
def test_account_after_its_word_is_regulated(text: str) -> None:
    assert classify(text).is_blocked


@pytest.mark.parametrize("text", BENIGN)
def test_counts_prices_and_other_numbers_stay_benign(text: str) -> None:
    assert not classify(text).is_blocked
