"""Conservative detection of explicit corrections, English and Chinese."""

from __future__ import annotations

import pytest

from userlore.feedback.corrections import TOPICS, detect_correction


@pytest.mark.parametrize(
    ("text", "form", "topic"),
    [
        ("你记错了我的偏好，我更喜欢详细解释", "concrete", "preference"),
        ("你记错了我的偏好", "denial", "preference"),
        ("你记错了，我更喜欢详细解释", "concrete", None),
        ("那不是我的时区", "denial", "timezone"),
        ("你搞错了我的名字，我叫李雷", "concrete", "name"),
        ("我的偏好变了，我现在喜欢简短的回答", "concrete", "preference"),
        ("我从没说过这个，关于我的", "denial", None),
        ("I never said that about me", "denial", None),
        ("that's not my timezone any more, I'm in Berlin now", "concrete", "timezone"),
        ("That is not my name.", "denial", "name"),
        ("You've got my name wrong, my name is Sam", "concrete", "name"),
        ("That's not true about me.", "denial", None),
        ("you misremembered my timezone", "denial", "timezone"),
        ("What you remember about me is outdated", "denial", None),
    ],
)
def test_corrections_are_detected(text: str, form: str, topic: str | None) -> None:
    found = detect_correction(text)
    assert found is not None
    assert (found.form, found.topic) == (form, topic)
    assert (found.form == "concrete") == bool(found.statements)


@pytest.mark.parametrize(
    "text",
    [
        "the command failed",
        "this code doesn't compile",
        "that's wrong",
        "you got it wrong",
        "No, that's not what I asked for",
        "that's not my problem",
        "that's not my company's API",
        "I never said the tests pass",
        "I never said that.",  # a bare denial with nothing tying it to the user
        "Remember that I like tea?",
        "这个命令失败了",
        "代码编译不过",
        "不对，重新写",
        "你搞错了，这个函数应该返回列表",
        "你记错了，这个API是v2的",
        "这不是我的工作",
        "记得提交代码",
        "",
        "   ",
    ],
)
def test_task_feedback_and_everything_else_is_not_a_correction(text: str) -> None:
    assert detect_correction(text) is None


def test_concrete_statements_come_from_the_explicit_extractor() -> None:
    found = detect_correction("你记错了我的偏好，我更喜欢详细解释")
    assert found is not None
    [st] = found.statements
    assert (st.canonical_key, st.value, st.content) == (
        "style/verbosity",
        "detailed",
        "我更喜欢详细解释",
    )


def test_a_place_after_a_timezone_correction_resolves_to_its_zone() -> None:
    found = detect_correction("that's not my timezone any more, I'm in Berlin now")
    assert found is not None
    [st] = found.statements
    assert (st.canonical_key, st.value) == ("identity/timezone", "Europe/Berlin")
    assert st.content == "I'm in Berlin now"
    zh = detect_correction("你记错了我的时区，我现在在柏林")
    assert zh is not None
    assert [(s.canonical_key, s.value) for s in zh.statements] == [("identity/location", "柏林")]


def test_topics_cover_their_records() -> None:
    assert TOPICS["timezone"].covers("identity/location", "identity")
    assert TOPICS["preference"].covers("style/verbosity", "style")
    assert TOPICS["language"].covers("tooling/lang", "tooling")
    assert not TOPICS["name"].covers("identity/timezone", "identity")
    assert not TOPICS["goal"].covers(None, "preference")
