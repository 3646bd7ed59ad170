"""Hex and high-entropy keys after a credential cue, in the seven languages (issue 29).

Two classes: a redaction covers the whole value (no tail left behind), and a key or token
after a credential cue is found whatever the language or separator; benign twins (digests,
commit hashes, request ids, public keys, placeholders) stay benign.
"""

from __future__ import annotations

import pytest

from userlore.policy.sensitivity import classify, redact

K64 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
K32 = "3c7e1f0a9b2d4e6f8a1c3e5b7d9f0a2c"
K24 = "a81f3c9e27d04b6f5e1c8d93"
K20 = "5d2e9b7c1f0a4e8d3b6c"
B64 = "Qm9vZ3lLZXk3UzJ4V1pUNHEwYTk="
MIX = "pX7rT2qLw9ZkN4vB8sJc3mY6"

SENSITIVE = [
    f"my API key is {K64}",
    f"here's my secret: {K64}",
    f"OPENAI_API_KEY={K64}",
    f"my token is {K32}",
    f"the access token: {K24}",
    f"client secret = {K32}",
    f"webhook secret is {K20}",
    f"signing key: {K64}",
    f"my access key {K24}",
    f"api token => {B64}",
    f"the api key is {MIX}",
    f"API-Schlüssel: {K64}",
    f"Mein API-Schlüssel ist {K32}",
    f"Zugangstoken: {K24}",
    f"Das Token lautet {K32}",
    f"Geheimer Schlüssel = {K20}",
    f"mein Token ist {MIX}",
    f"clé secrète d'API : {K64}",
    f"ma clé d'API est {K32}",
    f"mon jeton : {K24}",
    f"le jeton d'accès est {K20}",
    f"clé API={MIX}",
    f"clave de API: {K64}",
    f"mi clave de API es {K32}",
    f"el token de acceso: {K24}",
    f"clave secreta = {K20}",
    f"mi token es {B64}",
    f"chave de API: {K64}",
    f"minha chave de API é {K32}",
    f"o token de acesso: {K24}",
    f"chave secreta = {K20}",
    f"meu token é {MIX}",
    f"我的API密钥是{K64}",
    f"令牌：{K32}",
    f"访问令牌是 {K24}",
    f"密钥={K20}",
    f"秘钥: {MIX}",
    f"APIキーは{K64}です",
    f"アクセストークン：{K32}",
    f"シークレットは {K24}",
    f"トークン: {K20}",
    f"APIキー = {MIX}",
]

BENIGN = [
    f"sha256: {K64}",
    f"the commit {K64[:40]} fixed it",
    f"git commit {K64[:40]}",
    f"checksum: {K64}",
    f"the file hash is {K64}",
    f"Prüfsumme: {K64}",
    f"empreinte SHA-256 : {K64}",
    f"哈希值：{K64}",
    f"ハッシュ: {K64}",
    "order id 123e4567-e89b-12d3-a456-426614174000",
    "request id: 123e4567-e89b-12d3-a456-426614174000",
    "Bestellnummer 123e4567-e89b-12d3-a456-426614174000",
    "my public key is ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9",
    "API key: <your-api-key>",
    "api key: xxxxxxxxxxxxxxxxxxxxxxxx",
    "Token: YOUR_TOKEN_HERE",
    "clé d'API : <votre-clé>",
    "APIキー: xxxxxxxxxxxxxxxx",
    "API-Schlüssel: <dein-schlüssel>",
    "my API key is stored in the vault",
    "the token expires in 3600 seconds",
    "mi clave de API es secreta",
    "令牌已过期",
    "トークンの有効期限は1時間です",
    f"see commit {K64[:7]} for the token rotation",
    "chave de API: ${API_KEY}",
    "the color is #a81f3c and the key is blue",
]


def _blocked(text: str) -> bool:
    return classify(text).is_blocked


@pytest.mark.parametrize("text", SENSITIVE)
def test_key_after_cue_is_found_and_wholly_redacted(text: str) -> None:
    assert _blocked(text), text
    out = redact(text)
    for value in (K64, K32, K24, K20, B64, MIX):
        if value in text:
            # no piece of the value (not even a tail) survives redaction
            assert value[-5:] not in out and value[:5] not in out, out


@pytest.mark.parametrize("text", BENIGN)
def test_benign_twin_stays_benign(text: str) -> None:
    assert not _blocked(text), [(f.rule, text[f.start : f.end]) for f in classify(text).findings]
