"""A setting's value that says, in words of a covered language, what goes there ("你的密钥",
"tu_clave_api", "votre_clé_api", "あなたのAPIキー"): a docs' stand-in, neither a secret for the
floor nor a value for the gate (issue 29, blind13). Real values beside the same keys, and a
value that starts with an owner word but names nothing that goes there, stay secret.

First run on main: 12/14 stand-ins flagged by the floor and withheld by the gate; 9/9 values
caught. Final: 0/14; 10/10.
"""

from __future__ import annotations

import pytest

from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import classify

STAND_INS = [
    '配置文件里写 app_secret: "你的应用密钥" 就行，上线前再换',
    "在 .env 里填 API_KEY=您的API密钥，别提交到 git",
    '文档里写的是 token = "你的token"，我照抄了',
    '設定ファイルは api_key: "あなたのAPIキー" のままでいいです',
    ".env に PASSWORD=あなたのパスワード と書いてある",
    'en el README pone api_key: "tu_clave_api", ¿la cambio luego?',
    "el ejemplo dice password=tu-contraseña, nada más",
    "im Beispiel steht API_KEY=dein_api_schluessel",
    'die Vorlage hat password: "ihr-passwort" drin',
    'dans la doc : api_key = "votre_clé_api", à remplacer',
    "le template met PASSWORD=ton_mot_de_passe",
    'no exemplo está api_key: "sua_chave_api"',
    "o template tem SENHA=sua-senha-aqui",
    'the docs have client_secret: "your-client-secret-goes-here"',
]

VALUES = [
    '配置文件里写 app_secret: "Kx9vT2qL7mW4pR8n" 就行',
    ".env 里 API_KEY=Tz5kW9pZ2mQ7xL4vB8nC",
    '設定ファイルの api_key: "Hq7pL2vN9cR4tY8w" です',
    'en el README pone api_key: "Vb7nM2kQ9xL4pW8r"',
    "im Beispiel steht API_KEY=Ty5rE9wQ3zX7cV2b, das ist mein echter",
    'dans la doc : api_key = "Gh2jK7lZ4xC9vB3n"',
    "o template tem SENHA=Df9gH4jK2lZ7xC3v",
    "my .env says PASSWORD=tuMadre2019!",
    'the config has password: "suSenha#2024"',
    "password=tu_perro_firulais",
]


@pytest.mark.parametrize("text", STAND_INS)
def test_stand_in_in_words_is_neither_secret_nor_withheld(text: str) -> None:
    assert not classify(text).is_blocked
    assert quote_verdict(text).quotable


@pytest.mark.parametrize("text", VALUES)
def test_real_value_beside_the_same_key_is_secret(text: str) -> None:
    assert classify(text).is_blocked
