"""A Chinese or Japanese credential word with its value written on, no space between
("支付密码5581", "暗証番号四七二九"): found by the second fresh short set (``gate_short4``,
"银行卡密码三九二七" stored at first sight). First run on the class (the first table, written
before the fix): 4/14 redacted, 0/10 near-misses flagged; the second table was written after
it and run once: 8/8, 0/6. Also: redact's re-check read its own marker as a password
("密码 [REDACTED:[REDACTED:password_in_prose]]").
"""

from __future__ import annotations

import pytest

from userlore.policy.sensitivity import redact

GLUED = [
    ("支付密码5581", "5581"),
    ("门禁密码六二零四", "六二零四"),
    ("口令幺三五七", "幺三五七"),
    ("开机密码830927", "830927"),
    ("保险箱密码是7391", "7391"),
    ("银行卡取款密码四四零八", "四四零八"),
    ("wifi密码abc12345", "abc12345"),
    ("我的PIN码0915", "0915"),
    ("暗証番号四七二九", "四七二九"),
    ("パスワードneko2024", "neko2024"),
    ("ロッカーの暗証番号3316", "3316"),
    ("スマホのパスコード五五一二", "五五一二"),
    ("工资卡密码：2208", "2208"),
    ("門禁密碼9137", "9137"),
    # second table, after the fix
    ("电脑开机密码5521", "5521"),
    ("手机解锁密码一九八八零三", "一九八八零三"),
    ("支付宝密码778899", "778899"),
    ("暗証番号0081", "0081"),
    ("キャッシュカードの暗証番号二七三〇", "二七三〇"),
    ("密碼一二三四五六", "一二三四五六"),
    ("邮箱密码Qq123456", "Qq123456"),
    ("暗証コード7410", "7410"),
]

NEAR_MISSES = [
    "密码6位数字",
    "密码3次输错就锁了",
    "密码要8位以上",
    "忘记密码了怎么办",
    "暗証番号は4桁です",
    "パスワードを3回間違えた",
    "密码输入框在第2页",
    "验证码60秒后过期",
    "密码强度：中",
    "パスワード8文字以上",
    "密码2遍都不对",
    "暗証番号4けた",
    "口令3个字",
    "密码1分钟后重置",
    "パスワード2つ持ってる",
    "验证码5分钟内有效",
]


@pytest.mark.parametrize(("text", "value"), GLUED)
def test_a_value_written_on_to_its_credential_word_is_redacted(text: str, value: str) -> None:
    assert value not in redact(text)


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_a_count_after_a_credential_word_is_kept(text: str) -> None:
    assert redact(text) == text


@pytest.mark.parametrize("text", ["密码 3927", "银行卡密码 802731", "密码 三九二七"])
def test_a_redacted_value_is_marked_once(text: str) -> None:
    assert redact(text).count("[REDACTED:") == 1
