"""Lookalike fence tags built from the whole Unicode confusables table cannot survive the fence.

An adversarial review folded neutralised output with the full UTS #39 table and found 487 of
954 crafted tags still reading as ``</user-context>`` (``˂/user-context˃`` came back unchanged).
Here every single-character confusable of each character of ``<``, ``/``, ``>`` and
``user-context`` (both cases) is put in every position of an opening and a closing tag, plus
seeded random tags with every position substituted, and the output is read the way that review
read it: with the table itself, not with the code under test.
"""

from __future__ import annotations

import html
import json
import random
import re
import unicodedata
from functools import cache
from importlib import resources

import pytest

from userlore.policy import neutralize

_BASES = ("</user-context>", "<user-context>")
# Read by an independent eye: entities decoded, NFKC, invisible and combining characters
# dropped, every confusable folded to its ASCII prototype, any case, any spacing.
_READS_AS_TAG = re.compile(
    r"<[\s/\\]*user[\s_\-.:]*context|user[\s_\-.:]*context[\s/\\]*>", re.IGNORECASE
)


@cache
def _table() -> dict[str, list[str]]:
    raw = resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    graph: dict[str, list[dict[str, str]]] = json.loads(raw)
    return {
        k.strip("\u200e\u200f"): [n["c"].strip("\u200e\u200f") for n in v] for k, v in graph.items()
    }


@cache
def _to_ascii() -> dict[str, str]:
    out: dict[str, str] = {}
    for ch, neighbours in _table().items():
        if len(ch) == 1 and not ch.isascii():
            for n in neighbours:
                if n and n.isascii():
                    out[ch] = "l" if n in ("I", "1", "|") else n.lower()
                    break
    return out


def _reader_view(text: str) -> str:
    view = text
    for _ in range(4):
        view = html.unescape(view)
    table = _to_ascii()
    view = "".join(table.get(c, c) for c in view)
    view = unicodedata.normalize("NFKC", view)
    view = "".join(c for c in view if unicodedata.category(c) not in {"Cf", "Mn", "Me", "Cc"})
    return "".join(table.get(c, c) for c in view).lower().replace("0", "o")


def _variants(ch: str) -> list[str]:
    """Every single character the table lists as confusable with ``ch`` (either case)."""
    seen: list[str] = []
    for base in {ch, ch.upper()}:
        for n in _table().get(base, []):
            if len(n) == 1 and not n.isascii() and n not in seen:
                seen.append(n)
    return seen


def _crafted() -> list[str]:
    tags: list[str] = []
    for base in _BASES:
        for i, ch in enumerate(base):
            tags.extend(base[:i] + v + base[i + 1 :] for v in _variants(ch))
        for lt in ["<", *_variants("<")]:
            for gt in [">", *_variants(">")]:
                tags.append(lt + base[1:-1] + gt)
    rng = random.Random(15)
    for _ in range(300):
        base = rng.choice(_BASES)
        tags.append("".join(rng.choice(_variants(c) or [c]) for c in base))
    return tags


def test_generated_tags_cover_the_table() -> None:
    tags = _crafted()
    assert len(tags) >= 900
    assert "˂/user-context˃" in tags  # the example from the review
    assert all(_READS_AS_TAG.search(_reader_view(t)) for t in tags), "a crafted tag is no tag"


def test_no_confusable_tag_survives_neutralisation() -> None:
    survivors = [
        t for t in _crafted() if _READS_AS_TAG.search(_reader_view(neutralize(f"a {t} b")))
    ]
    assert survivors == [], f"{len(survivors)} survived, e.g. {survivors[:5]}"


def test_neutralised_tags_leave_no_brackets() -> None:
    for tag in _crafted()[::7]:
        out = neutralize(f"x{tag}y")
        assert "<" not in out and ">" not in out
        assert neutralize(out) == out


@pytest.mark.parametrize(
    "text",
    [
        "我们全家周末去爬山，天气很好。",
        "Привет, мир! Москва — столица России.",
        "Γειά σου κόσμε, τι κάνεις;",
        "Ура 🎉 мы запустили 🚀 релиз",
        "👨‍👩‍👧 family emoji and 👍🏽 thumbs",
        "Ελληνικά και русский рядом",
        "東京で会いましょう",
        "안녕하세요 세계",
        "مرحبا بالعالم",
    ],
)
def test_benign_non_latin_text_is_unchanged(text: str) -> None:
    assert neutralize(text) == text
