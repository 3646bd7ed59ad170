"""A store value that only wraps its content is judged by the content alone (issue 30).

A put ``{"text": X}`` was classified twice, as ``X`` and as its JSON. Where the JSON is X under
one wrapper key with nothing escaped and X holds no digit (:func:`value_is_content`), the floor
now reads X once. These tests check that the one pass gives the two passes' verdict on every
text of the test data sets (the gate sets and the floor's class files) and on the fresh class
file written for this change (``floor_one_pass.jsonl``: digit-free values whose verdict comes
from wording, in the seven covered languages and uncovered ones), under every wrapper key.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from userlore.models import CandidateInput, Explicitness, MemoryType, Producer
from userlore.policy.govern import (
    WRAPPER_KEYS,
    BatchFloor,
    _assess_text,
    assess,
    value_is_content,
)
from userlore.policy.sensitivity import classify

_DATA = Path(__file__).resolve().parents[1] / "data"


def _texts(path: Path) -> list[str]:
    out: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        case = json.loads(line)
        if not isinstance(case, dict):
            continue
        if isinstance(case.get("text"), str) and case["text"]:
            out.append(case["text"])
        out.extend(v for v in case.get("values") or [] if isinstance(v, str) and v)
    return out


FRESH = _texts(_DATA / "floor_one_pass.jsonl")
DATA = list(dict.fromkeys(t for p in sorted(_DATA.glob("*.jsonl")) for t in _texts(p)))


def _wrapped(key: str, text: str) -> str:
    return json.dumps({key: text}, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _two_passes_agree(
    texts: list[str], every_key: bool = True
) -> tuple[int, int, list[tuple[str, str]]]:
    """(forms judged by one pass, of them with a verdict, those whose verdict differs).

    ``every_key`` wraps each text under every wrapper key; else under one, in turn (the data
    sets: every key still meets a third of them, at a third of the floor's calls).
    """
    one = with_verdict = 0
    differ: list[tuple[str, str]] = []
    for i, text in enumerate(texts):
        alone = None
        chosen = WRAPPER_KEYS if every_key else (WRAPPER_KEYS[i % len(WRAPPER_KEYS)],)
        for key in chosen:
            value = _wrapped(key, text)
            if not value_is_content(value, text):
                continue
            one += 1
            both = _assess_text((text, value), None, classify)
            if alone is None:
                alone = _assess_text((text,), None, classify)
            with_verdict += both.refused is not None or both.category is not None
            if alone != both:
                differ.append((key, text))
    return one, with_verdict, differ


def test_fresh_class_one_pass_equals_two() -> None:
    one, with_verdict, differ = _two_passes_agree(FRESH)
    assert differ == []
    assert one > 350 and with_verdict > 200  # the class is judged by one pass, verdicts and all


# Texts whose two passes differ, found by a later data set, each with its reason (a strict
# xfail below keeps it news when it passes).
KNOWN_DIFFER = {
    # blindfix16d_restated2's value: wrapped in JSON the segment reads as an uncovered language
    # and the four number words as a value (regulated); alone it reads as Portuguese, no rule.
    # The language identifier on a short text, not the one-pass rule (issue 30).
    "quatro nove zero sete",
    # The same on main under the keys "text" and "memory" (four number words with commas, a
    # blind20 value and told_code's): found when blindfix20a's and blindfix20b's sets moved
    # each text's key in turn. The identifier on a short text, as above.
    "quatre, deux, deux, huit",
    "oito, quatro, um, seis",
}


def test_data_sets_one_pass_equals_two() -> None:
    one, with_verdict, differ = _two_passes_agree(DATA, every_key=False)
    assert [d for d in differ if d[1] not in KNOWN_DIFFER] == []
    assert one > 3000 and with_verdict > 500


@pytest.mark.xfail(strict=True, reason="a known difference (KNOWN_DIFFER): passing is news")
@pytest.mark.parametrize("text", sorted(KNOWN_DIFFER))
def test_known_difference(text: str) -> None:
    assert _two_passes_agree([text])[2] == []


@pytest.mark.parametrize(
    ("value", "content", "expected"),
    [
        ('{"text":"Prefers tea."}', "Prefers tea.", True),
        ('{"content":"Prefers tea."}', "Prefers tea.", True),
        ('{"memory":"Prefers tea."}', "Prefers tea.", True),
        ('{"note":"Prefers tea."}', "Prefers tea.", False),  # not a wrapper key
        ('{"password":"Zebra!Cross"}', "Zebra!Cross", False),  # the key says what the text is
        ('{"kind":"x","text":"Prefers tea."}', "Prefers tea.", False),  # a second field
        ('{"text":"Prefers tea at 4."}', "Prefers tea at 4.", False),  # a digit
        ('{"text":"Prefers tea at ٤."}', "Prefers tea at ٤.", False),  # any script's digit
        ('{"memory":"catorce mil pesos"}', "catorce mil pesos", False),  # a magnitude word
        ('{"text":"a\\nb"}', "a\nb", False),  # escaped: the JSON is not the content
        ('{"text":"say \\"hi\\""}', 'say "hi"', False),
        ('{"text":""}', "", False),
        (None, "Prefers tea.", False),
        ('"}', "", False),
    ],
)
def test_value_is_content(value: str | None, content: str, expected: bool) -> None:
    assert value_is_content(value, content) is expected


def _put(content: str, value: str) -> CandidateInput:
    """A store put's candidate: key ``k1`` under ``notes``, ``content`` and its JSON ``value``."""
    return CandidateInput(
        kind="note",
        content=content,
        canonical_key="store:notes#k1",
        value=value,
        memory_type=MemoryType.SEMANTIC,
        path="notes",
        explicitness=Explicitness.EXPLICIT,
        confidence=0.9,
        producer=Producer.TOOL,
    )


def test_other_values_are_still_judged_whole() -> None:
    """A value whose key names what the text is (``password``) is refused through its JSON,
    as before: the one pass is only for wrappers."""
    candidate = _put('{"password":"Zebra!Cross"}', '{"password":"Zebra!Cross"}')
    assert assess(candidate).refused == "secret"
    assert BatchFloor().assess(candidate).refused == "secret"


def test_one_pass_reads_the_content_once() -> None:
    """The batch floor classifies a wrapped put's content and its key, not its JSON."""
    floor = BatchFloor()
    candidate = _put("Prefers short answers.", '{"text":"Prefers short answers."}')
    floor.assess(candidate)
    assert ('{"text":"Prefers short answers."}', True) not in floor._memo
    assert ("Prefers short answers.", True) in floor._memo
