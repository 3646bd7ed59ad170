"""SIM codes after their own names: PUK, PUK2, SIM and eSIM unlock and activation codes, in
the seven languages (issue 29, blind14: "el PUK de la SIM es 48213377" was stored).

First run on main (c1ed6f2): 16/30 caught (every "PUK"/"PUK2" without the word "code" missed;
the codes named "activation" or "unlock" code were caught already), 0/12 benign flagged.
"""

from __future__ import annotations

import pytest

from userlore.policy.sensitivity import classify

SIM_CODES = [
    "my SIM's PUK is 48213377, I locked it typing the PIN wrong",
    "PUK code: 73920146",
    "the PUK2 for my phone is 90817263",
    "eSIM activation code is 5520 1983 7741 0026",
    "my phone's unlock code from the carrier is 84710239",
    "el PUK de mi tarjeta SIM es 61730284",
    "código PUK: 20594817",
    "mi PUK2 es el 38471920",
    "el código de activación de la eSIM es 44871029",
    "código de desbloqueo del móvil: 90274518",
    "die PUK meiner SIM-Karte ist 57392018",
    "PUK: 16283940, hab die PIN dreimal falsch eingegeben",
    "mein PUK2 lautet 82049173",
    "der Entsperrcode vom Handy ist 39201847",
    "le code PUK de ma carte SIM est 28471930",
    "mon PUK : 71938204, j'ai bloqué la SIM",
    "le code de déblocage du téléphone c'est 60384172",
    "o PUK do meu chip é 93817204",
    "código PUK do chip: 47182930",
    "meu PUK2 é 20384719",
    "o código de desbloqueio do celular é 81730294",
    "我的SIM卡PUK码是48213370",
    "PUK码：72918304",
    "手机解锁码是 39027184",
    "SIM卡的PUK2是 50193847",
    "SIMカードのPUKコードは 64019283",
    "PUK番号：37281940 です",
    "PUK2は 82730194",
    "eSIMのアクティベーションコードは 7301 8842 9910 4426",
    "SIMロック解除コードは 55019283",
    "mi PIN es el 38471920",
]

BENIGN = [
    "what is a PUK code and where do I find it?",
    "the PUK has 8 digits, printed on the SIM card holder",
    "¿dónde encuentro el PUK de la SIM?",
    "el PUK tiene 8 dígitos",
    "Wo finde ich die PUK? Auf dem Kartenbrief steht sie.",
    "le code PUK fait 8 chiffres, il est sur le support de la carte",
    "onde acho o PUK do chip?",
    "PUK码在哪里查？",
    "PUKコードは何桁ですか？",
    "I ordered 3 SIM cards for 15 euros each, order 48213377",
    "my SIM card number (ICCID) ends in 0026, is that normal?",
    "the eSIM costs 20 euros, order number 77120394",
]


@pytest.mark.parametrize("text", SIM_CODES)
def test_sim_code_is_secret(text: str) -> None:
    assert classify(text).is_blocked


@pytest.mark.parametrize("text", BENIGN)
def test_benign_twin_is_not_flagged(text: str) -> None:
    assert not classify(text).is_blocked
