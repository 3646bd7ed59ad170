"""The operator CLI (typer/rich): every command through typer's runner or ``main``, ``--json``
output a script can parse, and a real subprocess piped into a reader that stops early."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from userlore.cli import app, main
from userlore.facade import Userlore
from userlore.models import CandidateInput

SCOPE = "ops-user"


@pytest.fixture
def db(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'ops.db'}"
    with Userlore.open(url, config={"memory": {"mode": "confirmWrite"}}) as lore:
        for n, text in enumerate(
            ["Answer in bullet points.", "I deploy with Terraform.", "Use metric units."]
        ):
            lore.write(
                SCOPE,
                CandidateInput(kind="instruction", content=text, canonical_key=f"ops/k{n}"),
            )
    return url


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> object:
    assert main([*args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_review_cycle_with_json(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    rows = run_json(capsys, "records", "--scope", SCOPE, "--db", db)
    assert isinstance(rows, list) and len(rows) == 3
    assert {r["state"] for r in rows} == {"candidate"}
    first, second, third = (r["id"] for r in rows)

    assert run_json(capsys, "approve", first, "--scope", SCOPE, "--db", db)["state"] == "active"
    assert run_json(capsys, "reject", second, "--scope", SCOPE, "--db", db)["state"] == "rejected"
    assert run_json(capsys, "forget", first, "--scope", SCOPE, "--db", db)["state"] == "deleted"
    assert run_json(capsys, "restore", first, "--scope", SCOPE, "--db", db)["state"] == "active"
    active = run_json(capsys, "records", "--scope", SCOPE, "--db", db, "--state", "active")
    assert [r["id"] for r in active] == [first]
    assert third not in {r["id"] for r in active}


def test_unknown_record_is_one_line_error(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["approve", "rec_missing", "--scope", SCOPE, "--db", db]) == 2
    err = capsys.readouterr().err
    assert err.startswith("userlore: error:") and "Traceback" not in err


def test_consent_grant_list_revoke(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    granted = run_json(capsys, "consent", "grant", "health", "--scope", SCOPE, "--db", db)
    assert granted == {"scope": SCOPE, "category": "health", "granted": True}
    periods = run_json(capsys, "consent", "list", "--scope", SCOPE, "--db", db)
    assert [(p["category"], p["revoked_at"]) for p in periods] == [("health", None)]
    assert main(["consent", "revoke", "health", "--scope", SCOPE, "--db", db]) == 0
    assert capsys.readouterr().out == f"revoked health for {SCOPE}\n"
    periods = run_json(capsys, "consent", "list", "--scope", SCOPE, "--db", db)
    assert periods[0]["revoked_at"] is not None
    assert main(["consent", "grant", "healthh", "--scope", SCOPE, "--db", db]) == 2
    assert "healthh" in capsys.readouterr().err


def test_export_purge_import_round_trip(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dump = tmp_path / "scope.json"
    assert main(["export", "--scope", SCOPE, "--db", db, "-o", str(dump)]) == 0
    assert json.loads(dump.read_text())["scope"] == SCOPE
    receipt = run_json(capsys, "purge", "--scope", SCOPE, "--db", db, "--yes")
    assert sum(receipt["residual"].values()) == 0 and sum(receipt["deleted"].values()) > 0
    assert run_json(capsys, "records", "--scope", SCOPE, "--db", db) == []
    imported = run_json(capsys, "import", str(dump), "--scope", SCOPE, "--db", db)
    assert imported["imported"]["records"] == 3
    assert len(run_json(capsys, "records", "--scope", SCOPE, "--db", db)) == 3


def test_purge_asks_before_deleting(db: str) -> None:
    result = CliRunner().invoke(app, ["purge", "--scope", SCOPE, "--db", db], input="n\n")
    assert result.exit_code != 0
    with Userlore.open(db) as lore:
        assert len(lore.records.list(SCOPE)) == 3


def test_plan_then_trace_show_and_stats(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    rows = run_json(capsys, "records", "--scope", SCOPE, "--db", db)
    terraform = next(r["id"] for r in rows if "Terraform" in r["content"])
    assert main(["approve", terraform, "--scope", SCOPE, "--db", db]) == 0
    capsys.readouterr()
    plan = run_json(capsys, "plan", "how do I deploy with terraform?", "--scope", SCOPE, "--db", db)
    assert "Terraform" in plan["text"]
    shown = run_json(capsys, "trace", "show", plan["trace_id"], "--scope", SCOPE, "--db", db)
    assert shown["id"] == plan["trace_id"] and shown["event_type"] == "plan"
    assert terraform in json.dumps(shown["payload"])
    listed = run_json(capsys, "trace", "list", "--scope", SCOPE, "--db", db, "--type", "plan")
    assert plan["trace_id"] in [e["id"] for e in listed]
    # Another scope does not find the trace: the same not-found error as a made-up id.
    assert main(["trace", "show", plan["trace_id"], "--scope", "someone-else", "--db", db]) == 2
    stats = run_json(capsys, "stats", "--scope", SCOPE, "--db", db)
    assert isinstance(stats, dict) and stats


def test_help_has_no_raw_markup() -> None:
    runner = CliRunner()
    commands = [
        [], ["records"], ["approve"], ["reject"], ["forget"], ["restore"], ["purge"], ["export"],
        ["import"], ["consent"], ["consent", "grant"], ["trace"], ["trace", "show"], ["stats"],
        ["sources"], ["sources", "sync"], ["worker"], ["serve"], ["mcp"], ["plan"], ["demo"],
    ]  # fmt: skip
    for command in commands:
        result = runner.invoke(app, [*command, "--help"])
        assert result.exit_code == 0, (command, result.output)
        assert "Usage:" in result.output
        for markup in ("[bold", "[/", "[yellow", "[dim"):
            assert markup not in result.output, (command, markup)


def test_piped_into_a_reader_that_stops_early_ends_quietly(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'many.db'}"
    with Userlore.open(url, config={"memory": {"mode": "confirmWrite"}}) as lore:
        for n in range(300):
            lore.write(
                SCOPE,
                CandidateInput(
                    kind="workspace_fact",
                    content=f"Service number {n} runs on the blue cluster with a long note " * 3,
                    canonical_key=f"svc/{n}",
                ),
            )
    proc = subprocess.Popen(
        [sys.executable, "-m", "userlore.cli", "records", "--scope", SCOPE, "--db", url, "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline().strip() == b"["  # like `| head -1`
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0
    assert "Traceback" not in err and "BrokenPipe" not in err, err
