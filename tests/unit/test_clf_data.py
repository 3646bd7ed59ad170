"""The learned second opinion's data (issue 29 item 4b, measured and not kept): the committed
training files are what the seeded generator makes, they hold only the seven covered
languages, and no evaluation text (or a held-out language) leaked into them. The figures in
``docs/benchmarks.md`` rest on this separation."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

from userlore.policy.language import COVERED_LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("clf_data", ROOT / "benchmarks" / "clf_data.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _load(name: str) -> list[dict[str, Any]]:
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def test_training_files_are_what_the_generator_makes() -> None:
    gen = _generator()
    assert _load("clf_train.jsonl") == gen.generate(with_round_2=False)
    assert _load("clf_train_r2.jsonl") == gen.generate()


def test_training_holds_covered_languages_only_and_no_evaluation_text() -> None:
    train = _load("clf_train_r2.jsonl")
    assert {row["lang"] for row in train} <= COVERED_LANGUAGES
    assert {row["label"] for row in train} == {0, 1}
    texts = {row["text"].casefold() for row in train}
    for name in ("clf_eval.jsonl", "clf_eval2.jsonl", "clf_eval3.jsonl"):
        cases = _load(name)
        assert len(cases) >= 80
        held_out = {c["lang"] for c in cases if c["group"] == "held_out"}
        assert len(held_out) >= 2 and not held_out & COVERED_LANGUAGES
        assert not [c["id"] for c in cases if c["text"].casefold() in texts]
