"""Every cookbook recipe and every README snippet runs, offline, as part of the suite."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RECIPES = sorted((ROOT / "cookbook").glob("[0-9][0-9]_*.py"))
# What some recipes must show (the others only need to print something).
EXPECTED: dict[str, tuple[str, ...]] = {
    "01_quickstart.py": ("refused: secret", "<user-context>"),
    "02_create_agent_memory.py": (
        "candidate: style/format",
        "<user-context>",
        "contains the context block: False",
    ),
    "03_review_inbox.py": (
        "'allowed_decisions': ['approve', 'edit', 'reject']",
        "after restart, waiting at: ('ask',)",
        "refused: invalid review decision",
        "edit -> active",
        "reject -> rejected",
    ),
    "04_retriever_in_a_chain.py": (
        "secret write: refused secret",
        "evidence=['src_",
        "answer: Billing deploys",
    ),
    "06_versioned_team_memory.py": (
        "1 created",
        "diff: -Orion +Polaris",
        "superseded by claude-desktop",
        "state=deleted restorable=True",
        "recall count=0",
        "status=purged residual_rows=0",
    ),
}

# What a recipe must never show (the quickstart's refused token).
ABSENT: dict[str, tuple[str, ...]] = {"01_quickstart.py": ("ghp_",)}


def _env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        HOME=str(tmp_path),
        XDG_DATA_HOME=str(tmp_path / "data"),
        OPENAI_API_KEY="sk-fake-key-for-offline-tests",
        USERLORE_OFFLINE="1",
    )
    return env


@pytest.mark.parametrize("recipe", RECIPES, ids=[r.name for r in RECIPES])
def test_recipe_runs(recipe: Path, tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(recipe)],
        cwd=tmp_path,
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip(), "a recipe should show what it did"
    for expected in EXPECTED.get(recipe.name, ()):
        assert expected in proc.stdout, f"{recipe.name} should print {expected!r}"
    for absent in ABSENT.get(recipe.name, ()):
        assert absent not in proc.stdout, f"{recipe.name} should never print {absent!r}"


def _python_blocks(markdown: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", markdown, flags=re.DOTALL)


@pytest.mark.parametrize(
    "doc",
    [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))],
    ids=lambda p: p.name,
)
def test_markdown_python_snippets_run(
    doc: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocks = _python_blocks(doc.read_text(encoding="utf-8"))
    if not blocks:
        pytest.skip(f"{doc.name} has no python snippets")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    for block in blocks:
        exec(compile(block, str(doc), "exec"), {"__name__": "__snippet__"})
