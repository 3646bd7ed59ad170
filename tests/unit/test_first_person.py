"""``data/first_person.yaml``: one list of the speaker's words, two uses (tidy20)."""

from __future__ import annotations

import pytest

from userlore.policy.first_person import first_person


@pytest.mark.parametrize("text", ["write me a story", "écris-moi une histoire", "erzähl mir"])
def test_the_addressee_of_a_request_is_the_speaker_but_owns_nothing(text: str) -> None:
    words = first_person()
    assert words.speaker.search(text) is not None
    assert words.owner.search(text) is None


@pytest.mark.parametrize("text", ["my pin", "mi PIN", "meine Karte", "我的密码", "私の暗証番号"])
def test_an_owner_word_is_both(text: str) -> None:
    words = first_person()
    assert words.speaker.search(text) is not None
    assert words.owner.search(text) is not None


def test_a_word_inside_another_is_none() -> None:
    words = first_person()
    assert words.speaker.search("mystery, imagine, welcome") is None
    assert words.owner.search("mystery, imagine, welcome") is None
