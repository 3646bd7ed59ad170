"""A secret after a parameter name that ends in it ("corpsecret", "appsecret",
"channelsecret") in the seven languages' prose (issue 29, blind13), and words the cue only
begins ("secretary", "secretariat").

First run on main: 7/12 caught (the lower-case glued names were read as inside a word), 1/10
benign flagged ("SecretariatMeeting2024" after "secretary").
"""

from __future__ import annotations

import pytest

from userlore.policy.sensitivity import classify, redact

GLUED = [
    "企业微信的 corpsecret 是 Rt5kW9pZ2mQ7xL4vB8nC3hJ6dF1gS0aYeUoIiPq，老是报错",
    "微信小程序 appsecret：Hk3vN8qL2xW7pR4tZ9mB6cJ1dF5gY0sA",
    "钉钉的 AppSecret 是 Lp9xT3vK7qW2mR8nZ4bC6hJ1dF5gS0aYeUoIiQwErTy",
    "阿里云 AccessKeySecret 写在这：Vb7nM2kQ9xL4pW8rT3zC6hJ1dF5gS0a",
    "the corpsecret for our WeCom app is Qw8eR3tY7uI2oP6aS1dF5gH9jK4lZ0xC",
    "my clientsecret: Zx4cV8bN2mQ7wE3rT9yU6iO1pA5sD0fG",
    "set appSecret to Mn6bV2cX8zL4kJ9hG3fD7sA1pO5iU0yT and restart",
    "el appsecret de la app de Feishu es Pk8jH3gF7dS2aL6kJ9hG4fD1sA5pO0iU",
    "mein AppSecret lautet Ty5rE9wQ3zX7cV2bN6mL1kJ4hG8fD0sA",
    "mon clientSecret : Gh2jK7lZ4xC9vB3nM8qW1eR6tY5uI0oP",
    "o appsecret do app do Lark é Df9gH4jK2lZ7xC3vB8nM1qW6eR5tY0uI",
    "LINE の channelsecret は Jk4lZ8xC2vB7nM3qW9eR1tY6uI5oP0aS です",
]

BENIGN = [
    "corpsecret 在哪里看？管理后台找不到",
    "appsecret 是32位的吗",
    "the clientsecret field is required in the config",
    "AppSecret und AppKey sind beide im Dashboard",
    "el appsecret no puede ser vacío, ¿qué pongo?",
    "corpsecret 是什么意思，和 agentid 有什么区别",
    "the docs write appsecret=YOUR_APP_SECRET, fine",
    "the secretary sent the agenda: SecretariatMeeting2024 notes",
    "clientSecret: <your-client-secret>",
    "我们的 secretariat 在 3 楼",
]


@pytest.mark.parametrize("text", GLUED)
def test_secret_after_a_glued_name_is_redacted(text: str) -> None:
    value = max(text.split(), key=lambda w: sum(c.isdigit() for c in w))
    assert classify(text).is_blocked
    assert value.strip("，：").split("，")[0].split("：")[-1] not in redact(text)


@pytest.mark.parametrize("text", BENIGN)
def test_names_asked_about_and_words_stay_benign(text: str) -> None:
    assert not classify(text).is_blocked
