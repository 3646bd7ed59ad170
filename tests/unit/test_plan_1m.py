"""``benchmarks/plan_1m.py`` at a tiny size, so the 1M-record plan benchmark cannot rot: a fill
through the batched governed write that resumes where it stopped without writing a key twice,
and a measure step that reports plan figures and per-table sizes."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from sqlalchemy import create_engine, func, select

from userlore.store.schema import MemoryRecord

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    return importlib.import_module("plan_1m")


def _keys(database: Path) -> tuple[int, int]:
    engine = create_engine(f"sqlite:///{database}")
    with engine.connect() as conn:
        total = conn.scalar(select(func.count()).select_from(MemoryRecord))
        distinct = conn.scalar(select(func.count(func.distinct(MemoryRecord.canonical_key))))
    engine.dispose()
    return int(total or 0), int(distinct or 0)


def test_fill_resumes_without_writing_a_key_twice(bench: ModuleType, tmp_path: Path) -> None:
    database = tmp_path / "plan.db"
    bench.fill(database, 150, 100)
    assert _keys(database) == (156, 156)  # 150 notes and the 6 profile facts
    bench.fill(database, 260, 100)  # resumes at the chunk in progress (100-199), then 200-259
    assert _keys(database) == (266, 266)


def test_measure_reports_plans_and_sizes(bench: ModuleType, tmp_path: Path) -> None:
    database = tmp_path / "plan.db"
    bench.fill(database, 120, 60)
    out = bench.measure(database, 4, 0, skip_ann=False, poll=0.1)
    assert out["records"] == 126
    plans = out["exact_while_building"]
    assert plans["plans"] == 2 and plans["cpu_p50_ms"] > 0 and plans["p50_ms"] <= plans["p95_ms"]
    assert "ann" not in out  # below the threshold no index is built, nothing waits for one
    assert out["sizes_mb"]["memory_record_vectors"] > 0


def test_word_vectors_are_unit_deterministic_and_share_words(bench: ModuleType) -> None:
    model = bench.WordVectors()
    a, b, c = (
        np.array(v)
        for v in model.embed_documents(
            ["kalo miren torvel sapen", "kalo miren torvel dorli", "quazen brofin galhem julnix"]
        )
    )
    assert np.allclose([np.linalg.norm(a), np.linalg.norm(c)], 1.0, atol=1e-5)
    assert np.allclose(a, model.embed_query("kalo miren torvel sapen"))
    assert a @ b > 0.15 > abs(a @ c)  # three shared words of four; none shared
