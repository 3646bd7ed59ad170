"""The fence by attack class (issue 29, item 5), read back by an independent reader.

``tests/data/fence/attacks1.jsonl`` (98 payloads, 8 classes) was written before the fix: 38 of
them still read as a tag after ``neutralize`` on main. ``attacks2.jsonl`` (61) was written after
that fix and escaped 4 times at first sight (lowercase and soft-broken quoted-printable, ⟦INST⟧,
【INST】). Benign texts (flags, accents, circled letters, URLs, escapes in code) must come back
exactly as written, angle brackets aside.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.fence_reader import reads_as_tag
from userlore.policy.fence import neutralize

DATA = Path(__file__).resolve().parents[1] / "data" / "fence"


def _rows(name: str) -> list[dict[str, str]]:
    with (DATA / name).open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


ATTACKS = [(n, r) for n in ("attacks1.jsonl", "attacks2.jsonl") for r in _rows(n)]
BENIGN = [r["text"] for n in ("benign1.jsonl", "benign2.jsonl") for r in _rows(n)]


@pytest.mark.parametrize(
    ("name", "row"), ATTACKS, ids=[f"{n[:8]}-{r['class']}-{i}" for i, (n, r) in enumerate(ATTACKS)]
)
def test_no_attack_reads_as_a_tag_after_neutralize(name: str, row: dict[str, str]) -> None:
    assert reads_as_tag(row["text"]), "the reader must see the raw payload, or this proves nothing"
    out = neutralize(row["text"])
    assert not reads_as_tag(out), (name, row["text"], out)
    assert neutralize(out) == out


@pytest.mark.parametrize("text", BENIGN)
def test_benign_text_comes_back_as_written(text: str) -> None:
    assert neutralize(text) == text.replace("<", "‹").replace(">", "›")


@pytest.mark.parametrize("sep", ["\u2028", "\u2029"])
def test_line_and_paragraph_separators_become_spaces(sep: str) -> None:
    assert neutralize(f"first{sep}second") == "first second"
