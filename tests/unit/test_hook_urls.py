"""Webhook URLs whose path is the secret, whatever the vendor (issue 29, blind13).

Slack, Discord, Feishu/Lark, DingTalk, WeCom, Teams, Zapier, IFTTT, Mattermost, Rocket.Chat,
Home Assistant and self-hosted hooks, in the seven languages' prose; the benign twins are the
docs' stand-ins and pages about hooks. First run on main: 6/15 caught, 1/15 benign flagged.
"""

from __future__ import annotations

import re

import pytest

from userlore.policy.sensitivity import classify, redact

HOOKS = [
    (
        "our slack alerts go to https://hooks.slack.com/services/T04A"
        "BCD12/B05XYZ987/q8Wm2LkT9vRz3NcP7yHs4Bda"
    ),
    (
        "discord webhook: https://discord.com/api/webhooks/1187654321"
        "098765432/kR9vX2mQ7tLz-Pw4Ny8Hc3Bf6Ds1Ga5Je0Uo_iKqWlM3nB7vC2"
        "xZ9"
    ),
    (
        "飞书群机器人地址 https://open.feishu.cn/open-apis/bot/v2/hook/7c1d9e"
        "2a-4b3f-4e8a-b6d0-2f9a1c3e5b7d 帮我看看"
    ),
    (
        "Lark bot: https://open.larksuite.com/open-apis/bot/v2/hook/0"
        "a8f3e6c-1b2d-4c9e-a7f5-3d6b9e1c4a20"
    ),
    (
        "钉钉机器人 https://oapi.dingtalk.com/robot/send?access_token=3f8a"
        "1c9e7b2d4f6a0c5e8b1d3f7a9c2e4b6d8f0a1c3e5b7d9f2a4c6e8b0d1f3a"
        " 怎么加签"
    ),
    (
        "企业微信群机器人：https://qyapi.weixin.qq.com/cgi-bin/webhook/send?ke"
        "y=693a91f6-7xxx-4bc4-97a0-0ec2sifa5aaa"
    ),
    (
        "el webhook de Teams es https://contoso.webhook.office.com/we"
        "bhookb2/9f1c2e3a-7b4d-4c8e-a1f0-5d2b7e9c3a61@72f988bf-86f1-4"
        "1af-91ab-2d7cd011db47/IncomingWebhook/4e7c9a1b3d5f4a2c8e0b6d"
        "1f3a5c7e9b/0b3d5f7a-9c1e-4a2b-8d6f-1e3c5a7b9d2f"
    ),
    "mein Zapier-Hook: https://hooks.zapier.com/hooks/catch/4815162/3xk9qz7/",
    "le webhook Mattermost : https://chat.monequipe.fr/hooks/x8n3k1p7qbf5tmz9c2w4yr6dha",
    (
        "o webhook do Google Chat é https://chat.googleapis.com/v1/sp"
        "aces/AAAAx7Kp2Qw/messages?key=AIzaSyDdI0hCZtE6vySjMm-WEfRq3C"
        "PzqKqqsHI&token=Vq9rT2mL7xZ4pN8cW1bY6hJ3kF5dS0gA"
    ),
    (
        "Slack の Incoming Webhook は https://hooks.slack.com/services/"
        "T0B1C2D3E/B9F8E7D6C/Zx7Vb3Nm9Qw2Er5Ty8Ui1Op4 です"
    ),
    "IFTTT: https://maker.ifttt.com/trigger/door_open/with/key/dK3x9Lm2Qp7Rt4Vw8Yz1Bc",
    (
        "the alert hook https://alerts.myhomelab.net/api/webhook/9d4f"
        "7b2e1a6c8e3f5b0d2a4c6e8f1b3d fires twice"
    ),
    (
        "Rocket.Chat hook: https://chat.acme.io/hooks/6Yq2bXk9PwZr4Tn"
        "7c/Hf3Jm8Lp2Vx5Qs9Kd1Rt6Wz0Ya4Nb7Ce3Gu"
    ),
    "Home Assistant webhook id is https://ha.local:8123/api/webhook/-Xk2p9Qz7Lm4Rv8Tn3Wc",
]

BENIGN = [
    (
        "how do I create a Slack incoming webhook? the docs say https"
        "://api.slack.com/messaging/webhooks"
    ),
    "the example is https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
    "Discord's format is https://discord.com/api/webhooks/{webhook.id}/{webhook.token}",
    "飞书文档里写的是 https://open.feishu.cn/open-apis/bot/v2/hook/xxxxxxxxxxxxxxxxx",
    "钉钉的格式：https://oapi.dingtalk.com/robot/send?access_token=XXXXXX",
    "GitHub webhook settings: https://github.com/acme/api/settings/hooks/428193057",
    "read https://docs.github.com/en/webhooks/using-webhooks/creating-webhooks first",
    "企业微信文档 https://developer.work.weixin.qq.com/document/path/91770 讲了群机器人",
    "the hook is https://hooks.slack.com/services/<TEAM>/<CHANNEL>/<TOKEN> in the README",
    (
        "Zapier docs: https://help.zapier.com/hc/en-us/articles/84962"
        "88690317-Trigger-Zaps-from-webhooks"
    ),
    (
        "Teams connector docs https://learn.microsoft.com/en-us/micro"
        "softteams/platform/webhooks-and-connectors/how-to/add-incomi"
        "ng-webhook"
    ),
    "el webhook apunta a https://hooks.slack.com/services/T***/B***/**** (lo tapé)",
    "Mattermost: https://docs.mattermost.com/developer/webhooks-incoming.html",
    "die Webhook-URL steht in der Doku unter https://example.com/hooks/your-webhook-id",
    "the PR is https://github.com/acme/web/pull/4821 and the hook fires on merge",
]


def _token(text: str) -> str:
    """The URL's longest run mixing letters and digits: a part of the secret."""
    url = next(w for w in text.split() if "://" in w)
    runs = re.findall(r"[A-Za-z0-9]+", url)
    return max((r for r in runs if not r.isalpha() and not r.isdigit()), key=len)


@pytest.mark.parametrize("text", HOOKS)
def test_hook_url_is_secret_and_its_token_redacted(text: str) -> None:
    assert classify(text).is_blocked
    assert _token(text) not in redact(text)


@pytest.mark.parametrize("text", BENIGN)
def test_docs_and_pages_about_hooks_stay_benign(text: str) -> None:
    assert not classify(text).is_blocked
