"""``userlore sources sync|list|runs`` and ``userlore worker``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from userlore import Userlore
from userlore.cli import main
from userlore.sources import ConnectedKnowledgePipeline
from userlore.store.schema import KnowledgeSourceItem


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "notes"
    (root / "work").mkdir(parents=True)
    (root / "work" / "deploy.md").write_text("# Deploy\nWe deploy on Tuesdays.\n")
    (root / "home.md").write_text("---\ntitle: Garden\n---\nPlant tomatoes in April.\n")
    return root


def test_sources_sync_prints_progress_and_summary(
    vault: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = f"sqlite:///{tmp_path / 'cli.db'}"
    code = main(
        [
            "sources",
            "sync",
            str(vault),
            "--kind",
            "markdown",
            "--scope",
            "me",
            "--db",
            db,
            "--id",
            "notes",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0
    assert "Sync summary" in out and "notes" in out and "succeeded" in out
    assert "facts created" in out
    assert "2/2" in err  # the progress bar reached the end
    with Userlore.open(db) as lore:
        facts = lore.records.list("me", kind="workspace_fact")
        assert sorted(f.content.split("\n")[0] for f in facts) == ["Deploy", "Garden"]
        [run] = lore.sources.sync_runs("me")
        assert run.counts["added"] == 2

    assert main(["sources", "list", "--scope", "me", "--db", db]) == 0
    listing = capsys.readouterr().out
    assert "notes" in listing and "markdown" in listing and "succeeded" in listing
    assert main(["sources", "runs", "--scope", "me", "--db", db]) == 0
    assert "added=2" in capsys.readouterr().out


def test_sync_without_synthesis_then_worker_once(
    vault: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = f"sqlite:///{tmp_path / 'w.db'}"
    config = tmp_path / "config.json"
    config.write_text(
        json.dumps(
            {
                "userContext": {
                    "memory": {"mode": "auto", "sources": ["session", "curated", "connected"]}
                }
            }
        )
    )
    assert (
        main(
            [
                "sources",
                "sync",
                str(vault),
                "--kind",
                "markdown",
                "--scope",
                "me",
                "--db",
                db,
                "--no-synthesis",
            ]
        )
        == 0
    )
    capsys.readouterr()
    with Userlore.open(db) as lore:
        assert lore.records.list("me") == []
        assert lore.sources.sources("me")[0].pending == 2
    assert main(["worker", "--once", "--db", db, "--config", str(config)]) == 0
    assert "created=2" in capsys.readouterr().out
    with Userlore.open(db) as lore:
        assert len(lore.records.list("me", kind="workspace_fact")) == 2


CONNECTED_ON = {
    "userContext": {"memory": {"mode": "auto", "sources": ["session", "curated", "connected"]}}
}

# (configuration, items left pending by a sync, whether the worker warns). The warning names
# what waits; a default configuration with nothing waiting stays quiet on every run.
WORKER_SIGNALS = {
    "default config, nothing waits": (None, False, False),
    "default config, items wait": (None, True, True),
    "connected sources on, items wait": (CONNECTED_ON, True, False),
    "connected sources on, nothing waits": (CONNECTED_ON, False, False),
}


@pytest.mark.parametrize("case", list(WORKER_SIGNALS))
def test_worker_warns_about_disabled_sources_only_when_items_wait(
    case: str,
    vault: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    config, pending, warns = WORKER_SIGNALS[case]
    db = f"sqlite:///{tmp_path / 'd.db'}"
    env = dict(os.environ, HOME=str(tmp_path))
    for name in ("USERLORE_CONFIG", "USERLORE_DB", "USERLORE_MODE"):
        env.pop(name, None)
        monkeypatch.delenv(name, raising=False)
    if pending:  # the setup runs in this process (the sync's own tests are above)
        sync = ["sources", "sync", str(vault), "--kind", "markdown", "--scope", "me"]
        assert main([*sync, "--no-synthesis", "--db", db]) == 0
        capsys.readouterr()
    args = ["worker", "--once", "--json", "--db", db]
    if config is not None:
        path = tmp_path / "config.json"
        path.write_text(json.dumps(config))
        args += ["--config", str(path)]
    if warns:  # the real command once: its warning on stderr, its JSON alone on stdout
        ran = subprocess.run(
            [sys.executable, "-m", "userlore.cli", *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=600,
        )
    else:  # the same ``main`` in this process: the same streams, without a process start
        code = main(args)
        out, err = capsys.readouterr()
        ran = subprocess.CompletedProcess(args, code, out, err)
    assert ran.returncode == 0, ran.stderr
    assert ("disabled" in ran.stderr) is warns, ran.stderr
    if warns:
        assert "2 connected-source item(s) wait" in ran.stderr
    created = json.loads(ran.stdout)["synthesis"]["created"]
    assert created == (2 if pending and config is not None else 0)


def test_sources_sync_bad_kind_or_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = f"sqlite:///{tmp_path / 'e.db'}"
    code = main(
        [
            "sources",
            "sync",
            str(tmp_path / "missing.mbox"),
            "--kind",
            "mbox",
            "--scope",
            "me",
            "--db",
            db,
        ]
    )
    assert code == 2 and "not found" in capsys.readouterr().err
    assert main(["sources", "sync", str(tmp_path), "--kind", "gdrive", "--scope", "me"]) == 2
    assert "gdrive" in capsys.readouterr().err


def test_sources_items_and_list_show_refused_items(
    vault: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # one table row per line
    db = f"sqlite:///{tmp_path / 'r.db'}"
    sync = ["sources", "sync", str(vault), "--kind", "markdown", "--scope", "me", "--db", db]
    assert main([*sync, "--id", "notes"]) == 0
    out = capsys.readouterr().out
    assert "refused" in out and "still pending" in out  # the summary has both rows
    with Userlore.open(db) as lore, lore.store.transaction() as session:
        row = session.scalars(
            select(KnowledgeSourceItem).where(KnowledgeSourceItem.external_id == "home.md")
        ).one()
        row.synthesis_state, row.last_error = "refused", "refused:regulated"
    assert main(["sources", "items", "--scope", "me", "--db", db, "--state", "refused"]) == 0
    listing = capsys.readouterr().out
    assert "home.md" in listing and "refused:regulated" in listing
    assert "deploy.md" not in listing
    assert main(["sources", "list", "--scope", "me", "--db", db]) == 0
    table = capsys.readouterr().out
    assert "refused" in table
    [row_line] = [line for line in table.splitlines() if "notes" in line]
    assert [cell.strip() for cell in row_line.split("│")][4:7] == ["2", "0", "1"]


def test_worker_lease_seconds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = f"sqlite:///{tmp_path / 'l.db'}"
    assert main(["worker", "--once", "--db", db, "--lease-seconds", "0"]) == 2
    assert "positive" in capsys.readouterr().err
    assert main(["worker", "--once", "--db", db, "--lease-seconds", "nan"]) == 2
    assert "positive" in capsys.readouterr().err
    seen: list[float] = []
    original = ConnectedKnowledgePipeline.__init__

    def spy(self: ConnectedKnowledgePipeline, *args: Any, **kw: Any) -> None:
        seen.append(kw["lease_seconds"])
        original(self, *args, **kw)

    monkeypatch.setattr(ConnectedKnowledgePipeline, "__init__", spy)
    assert main(["worker", "--once", "--db", db, "--lease-seconds", "42.5"]) == 0
    assert seen == [42.5]
