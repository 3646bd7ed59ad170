"""The uncovered-language floor's digit shortcut: a text without a digit is never identified.

Every value ``uncovered_values`` reads (a credential-shaped token, a number run, an amount)
holds a digit, so a digit-free text returns before any language identification; a text with
one still gets its segments identified and its value found.
"""

from __future__ import annotations

import pytest

from userlore.policy.detectors import uncovered


def test_a_digit_free_text_is_not_identified(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(text: str) -> list[object]:
        raise AssertionError(f"identified a digit-free text: {text!r}")

    monkeypatch.setattr(uncovered, "segments", refuse)  # values5: all segments are read
    assert list(uncovered.uncovered_values("Minu salasõna on kollane kass aknal.")) == []


def test_a_value_in_an_uncovered_language_is_still_found() -> None:
    # Estonian (not one of the seven): "my bank PIN is 4821, remember it".
    hits = list(uncovered.uncovered_values("Minu panga PIN-kood on 48219377, pea meeles."))
    assert [h[1] for h in hits] == ["value_uncovered_language"]
