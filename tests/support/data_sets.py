"""The JSONL sets under ``tests/data``: one reader for every class test that scores them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[1] / "data"


def rows(*names: str) -> list[dict[str, Any]]:
    """Every non-blank line of the named sets (paths under ``tests/data``), parsed, in order."""
    out: list[dict[str, Any]] = []
    for name in names:
        lines = (DATA / name).read_text(encoding="utf-8").splitlines()
        out.extend(json.loads(line) for line in lines if line.strip())
    return out
