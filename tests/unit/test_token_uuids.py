"""A token shaped as a UUID right after its token, key or secret word (issue 29): "アクセストー
クンが 8f2c1a9e-5b7d-4c3e-a1f0-6d9b2e8c7a41 で…" stored the UUID beside a redacted secret. Many
vendors issue UUID-shaped access tokens and API keys (Heroku, Postman, a bearer token), so a
UUID after a credential word is the credential; a UUID after an id word (request, trace,
order, correlation id) or in a docs example is not.

First run on main (bd98132): see docs/benchmarks.md (blindfix15a).
"""

from __future__ import annotations

import pytest

from userlore.policy.sensitivity import classify, redact

U1 = "8f2c1a9e-5b7d-4c3e-a1f0-6d9b2e8c7a41"
U2 = "3b9d7e21-0c4a-4f6e-9b1d-5a8c2e7f0d93"
U3 = "c41e0b7a-92d3-4a58-b6f1-0e7d3c9a2b58"

TOKENS = [
    (f"さくらのクラウドのアクセストークンが {U1} です", U1),
    (f"APIキーは {U2} なので設定しておいて", U2),
    (f"シークレットは {U3} です", U3),
    (f"my Heroku API key is {U1}, put it in the CI", U1),
    (f"the access token: {U2}", U2),
    (f"bearer token {U3} expires Friday", U3),
    (f"Postman API key {U1} for the team workspace", U1),
    (f"here's the client secret {U2} for the staging app", U2),
    (f"mi token de acceso es {U3}, no lo compartas", U3),
    (f"la clave de la API: {U1}", U1),
    (f"el secreto del cliente es {U2}", U2),
    (f"mein API-Schlüssel ist {U3}", U3),
    (f"das Zugriffstoken lautet {U1}", U1),
    (f"Client-Secret: {U2}", U2),
    (f"mon jeton d'accès est {U3}", U3),
    (f"la clé API c'est {U1}, garde-la", U1),
    (f"le secret client : {U2}", U2),
    (f"meu token de acesso é {U3}", U3),
    (f"a chave da API é {U1}", U1),
    (f"o client secret é {U2}, guarda aí", U2),
    (f"访问令牌是 {U3}，别外传", U3),
    (f"API密钥：{U1}", U1),
    (f"我的 token 是 {U2}", U2),
    (f"应用的 secret 是 {U3}", U3),
    (f"トークン：{U1}", U1),
    (f"my personal access token {U2} stopped working", U2),
    (f"API key for the weather service is {U3}", U3),
    (f"x-api-key {U1} in the header works", U1),
    (f"Zugangsschlüssel {U2}, bitte nicht weitergeben", U2),
    (f"chave de API {U3} do painel", U3),
]

BENIGN = [
    f"request id {U1} failed with a 502",
    f"trace id {U2}, can you check the logs?",
    f"my order id is {U3} and it still hasn't shipped",
    f"correlation id {U1} in the error page",
    f"the ticket {U2} was closed",
    f"session {U3} timed out after an hour",
    f"la solicitud {U1} falló",
    f"ID de pedido {U2}, ¿dónde está?",
    f"Anfrage-ID {U3} schlug fehl",
    f"Bestellnummer {U1} ist noch offen",
    f"l'identifiant de requête {U2} a échoué",
    f"o ID do pedido é {U3}",
    f"请求ID {U1} 报错了",
    f"订单号 {U2} 还没发货",
    f"リクエストID {U3} でエラー",
    pytest.param(
        "the docs show the API key as 00000000-0000-0000-0000-000000000000",
        marks=pytest.mark.xfail(
            strict=True, reason="cued_credential reads the zero UUID (as on main)"
        ),
    ),
    "an API key looks like xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx",
    f"the token endpoint returned request id {U1}",
    f"which UUID version is {U2}?",
    f"the device id is {U3}",
]


@pytest.mark.parametrize(("text", "value"), TOKENS)
def test_uuid_after_token_word_is_redacted(text: str, value: str) -> None:
    assert value not in redact(text, classify(text))


@pytest.mark.parametrize("text", BENIGN)
def test_uuid_as_an_id_is_not_flagged(text: str) -> None:
    assert not classify(text).is_blocked
