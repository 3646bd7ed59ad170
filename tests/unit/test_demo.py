"""The main job (`userlore demo`) tells the whole story on a real SQLite file."""

from __future__ import annotations

import io
from pathlib import Path

from userlore.cli import main
from userlore.demo.run import run_demo


def test_demo_walkthrough(tmp_path: Path) -> None:
    out = io.StringIO()
    lore = run_demo(tmp_path / "demo.db", out)
    text = out.getvalue()
    scope = "demo:maya"
    try:
        assert "REFUSED (secret)" in text
        assert "records containing the key: 0" in text
        assert "evidence texts containing the key: 0" in text
        assert "<user-context>" in text and "</user-context>" in text
        assert "sk-proj-Q3v9" not in text.split("== what was stored")[1]
        plans = lore.traces.list(scope, event_type="plan")
        assert len(plans) == 1 and plans[0]["payload"]["selected"]
        keys = {r.canonical_key for r in lore.records.list(scope)}
        assert {"identity/name", "style/format", "veto/jest"} <= keys
        values = {(r.value or "").lower() for r in lore.records.list(scope)}
        assert "vim" not in values  # "I don't use vim anymore" is not "uses vim"
        health = [r for r in lore.records.list(scope) if r.sensitivity.value == "special"]
        assert health and all(r.disclosure.value == "ask_before_reference" for r in health)
        selected = {s["id"] for s in plans[0]["payload"]["selected"]}
        rejected = {r["id"]: r["reason"] for r in plans[0]["payload"]["rejected"]}
        for h in health:
            assert h.id not in selected
            assert rejected.get(h.id) in (None, "consent_required")
    finally:
        lore.close()


def test_cli_demo_command(tmp_path: Path, capsys: object) -> None:
    assert main(["demo", "--db", str(tmp_path / "cli.db")]) == 0
