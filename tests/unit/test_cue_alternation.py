"""The cue alternation and its prefiltered scan (issue 29/30, floorcost7).

:class:`~userlore.policy.cue_data.CueAlternation` scans with only the terms whose literal is in
the text; it must find exactly what the whole alternation finds, on every cue vocabulary and
on every class text. :func:`~userlore.policy.cue_data.alternation` with ``escape`` off replaced
``said_values``' own helper: the patterns it builds for that file's lists must match alike.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]

from userlore.policy.cue_data import CueAlternation, alternation, flat

_DATA = Path(__file__).resolve().parents[1] / "data"


def _class_texts() -> list[str]:
    out: list[str] = []
    for path in sorted(_DATA.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").split("\n"):
            case = json.loads(line) if line.strip() else None
            if isinstance(case, dict) and isinstance(case.get("text"), str):
                out.append(case["text"])
    return out


def _yaml(name: str) -> dict[str, Any]:
    raw = resources.files("userlore.policy.data").joinpath(name).read_text("utf-8")
    data: dict[str, Any] = yaml.safe_load(raw)
    return data


def _vocabularies() -> dict[str, list[str]]:
    cues = _yaml("quote_cues.yaml")
    out = {k: flat(v) for k, v in cues.items() if isinstance(v, dict)}
    said = _yaml("said_values.yaml")
    out["said_values.cues"] = [str(c) for c in said["pieces"]["cues"]]
    out["said_values.id_cues"] = [str(c) for c in said["id_cues"]]
    out["said_values.units"] = [str(u) for u in said["money"]["units"]]
    out["said_values.context"] = [str(c) for c in said["money"]["context"]]
    lock = _yaml("lock_cues.yaml")  # lock_codes' and dial_combos' scans (bulkput8)
    for name in ("objects", "devices", "turns", "combination", "opening"):
        out[f"lock_cues.{name}"] = flat(lock[name])
    out["lock_cues.things"] = flat(lock["objects"]) + flat(lock["devices"])
    return out


TEXTS = _class_texts()
VOCABULARIES = _vocabularies()


def _probes(terms: list[str]) -> list[str]:
    """Each term where it matches and where it must not (inside a word, glued to another)."""
    out = []
    for term in terms[:400]:
        core = term.strip("*")
        out += [f"my {core} is x1", f"x{core}y", f"{core}{core}", f"({core}:", f"{core[:-1]} a"]
        out += [f"store:{core}#k1234", f"store:notes#{core}7"]  # store keys (bulkput8)
    return out


@pytest.mark.parametrize("name", sorted(VOCABULARIES))
def test_prefiltered_scan_finds_what_the_alternation_finds(name: str) -> None:
    terms = VOCABULARIES[name]
    scan = CueAlternation(terms)
    whole = re.compile(alternation(terms))
    assert scan.pattern.pattern == whole.pattern
    cores = [t.strip("*") for t in terms]
    folded = [t.casefold() for t in TEXTS]
    # The texts holding a term's literal (where the scan and the alternation both work) and a
    # sample of the others (where the scan skips): every one of the latter is checked too.
    texts = [t for i, t in enumerate(folded) if i % 25 == 0 or any(c in t for c in cores)]
    texts = texts[:: max(1, len(texts) // 800)] + _probes(terms)  # at most ~800 class texts
    found = 0
    for text in texts:
        expected = [m.span() for m in whole.finditer(text)]
        assert [m.span() for m in scan.finditer(text)] == expected, (name, text)
        mid = len(text) // 3
        window = [m.span() for m in whole.finditer(text, mid, 2 * mid + 1)]
        assert [m.span() for m in scan.finditer(text, mid, 2 * mid + 1)] == window, (name, text)
        first, scanned = whole.search(text), scan.search(text)
        assert (scanned and scanned.span()) == (first and first.span()), (name, text)
        found += bool(expected)
    assert found >= min(20, len(terms))  # the scans did find cues: the test compares matches


def test_scan_without_any_literal_finds_nothing() -> None:
    scan = CueAlternation(["password", "*code", "密码"])
    assert list(scan.finditer("nothing here at all")) == []
    assert scan.search("nothing here") is None
    assert [m.group(0) for m in scan.finditer("zugangscode und 密码 password")] == [
        "code",
        "密码",
        "password",
    ]


def _said_values_alternation(terms: list[str], *, escape: bool) -> str:
    """``said_values._alternation`` as it was before floorcost7 folded it into cue_data's."""
    cjk = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")
    parts = []
    for term in sorted(terms, key=len, reverse=True):
        body = re.escape(term) if escape else term
        if cjk.search(term):
            parts.append(f"(?:{body})")
        else:
            parts.append(rf"(?<![^\W_])(?:{body})(?![^\W_])")
    return "|".join(parts) or r"(?!x)x"


def test_said_values_lists_match_as_with_their_former_helper() -> None:
    said = _yaml("said_values.yaml")
    start = [str(t) for terms in said["pieces"]["start"].values() for t in terms]
    nxt = [str(t) for terms in said["pieces"]["next"].values() for t in terms]
    lists: list[tuple[list[str], bool]] = [(start, False), (nxt, False), (start + nxt, False)]
    lists += [(terms, True) for name, terms in VOCABULARIES.items() if name.startswith("said")]
    texts = [t.lower() for t in TEXTS[::5]] + _probes(start + nxt)
    found = 0
    for terms, escape in lists:
        old = re.compile(_said_values_alternation(terms, escape=escape))
        new = re.compile(alternation(terms, escape=escape))
        for text in texts:
            spans = [m.span() for m in old.finditer(text)]
            assert [m.span() for m in new.finditer(text)] == spans, (terms[:3], text)
            found += bool(spans)
    assert found > 100
