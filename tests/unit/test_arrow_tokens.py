"""A long mixed-case token after a token word and a vendor's name, set off by an arrow or a
colon, in the seven languages (issue 29, blind14: "LINE Notifyのトークン貼っておく → <43 chars>"
was stored).

First run on main (c1ed6f2): 25/30 caught (the five Japanese ones missed: トークン was no key
word for the entropy rule, only for a value straight after it), 0/16 benign flagged.
"""

from __future__ import annotations

import pytest

from userlore.policy.sensitivity import classify

T43 = "Xq7RtL2mZp9KvB3nW8yC1dF5gH0jS4aE6uI2oP7kMnQ"
T32 = "aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY"
Z32 = "Zr8TqW2mLp5XvN9cKb4HsJ7dFg1YwQe3"

TOKENS = [
    f"LINE Notifyのトークン置いとく → {T43} これで動く？",
    f"Discordボットのトークンはこれ → {T32}",
    f"SlackアプリのトークンをメモＡ：{Z32}",
    f"Notionの統合トークン⇒ {T32} で合ってる？",
    f"飞书机器人的令牌贴一下 → {T43}",
    f"钉钉的token在这：{Z32}，帮我看看",
    f"企业微信应用令牌 -> {T32}",
    f"Mailgun token, pasting it here -> {T43}",
    f"my Notion integration token => {T32}, why 401?",
    f"here's the Airtable token → {Z32}",
    f"el token de Telegram que me dieron → {T43}",
    f"token de Discord, te lo paso: {T32}",
    f"pego el token de Notion abajo ⇒ {Z32}",
    f"der Token von Mailchimp, hier reinkopiert → {T43}",
    f"Hier der Discord-Token -> {T32}",
    f"mein Todoist-Token: {Z32}",
    f"le token LINE que je colle ici → {T43}",
    f"voici le jeton Notion ⇒ {T32}",
    f"le token Mailjet, copié : {Z32}",
    f"o token do bot do Discord, colando aqui → {T43}",
    f"token da Notion -> {T32} tá certo?",
    f"meu token do Trello: {Z32}",
    f"LINE Notify token → {T32}",
    f"ChatworkのAPIトークン：{T43}",
    f"GitLabのトークン → {Z32} で clone できない",
    f"Backlogのトークン貼るね→{T32}",
    f"Azure DevOps的访问令牌 → {Z32}",
    f"Bitbucket app password → {T43}",
    f"Pushover user token => {T32}",
    f"Twilio auth token -> {Z32}",
]

BENIGN = [
    "LINE Notifyのトークンの取得方法 → 公式ドキュメントを見て",
    "トークンの形式 → 英数字43文字",
    "Discordボットのトークンはどこ → Developer Portal",
    "令牌的格式 → 43位字母数字",
    "token de Discord → ¿dónde lo genero?",
    "der Token → läuft nach 30 Tagen ab",
    "le jeton Notion → où le trouver ?",
    "o token do Trello → como gerar?",
    "Notion token → see https://developers.notion.com/docs/authorization",
    "token → YOUR_TOKEN_HERE",
    "トークン → xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "LINE Notifyのトークン → <your-token>",
    "commit → a3f9c12e7b4d0e5f6a8b9c1d2e3f4a5b6c7d8e9f",
    "tracking number → 1Z999AA10123456784",
    "order → ORD-2024-XK7Q9",
    "the SHA-256 → 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
]


@pytest.mark.parametrize("text", TOKENS)
def test_token_after_its_word_is_secret(text: str) -> None:
    assert classify(text).is_blocked


@pytest.mark.parametrize("text", BENIGN)
def test_benign_twin_is_not_flagged(text: str) -> None:
    assert not classify(text).is_blocked
