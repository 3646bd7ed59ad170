"""The floor's warm start: every lazily built table loaded before a turn needs it."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading

import pytest
from typer.testing import CliRunner

from userlore.cli import app
from userlore.policy import warm as warm_module


def test_warm_fills_every_table_a_text_would_load() -> None:
    # A fresh interpreter: this session has loaded most tables already.
    script = textwrap.dedent(
        """
        from userlore.policy.warm import _loaders, warm
        from userlore.policy.sensitivity import classify
        from userlore.policy.quote_gate import quote_verdict

        loaders = [loader for loader, parameters in _loaders() if not parameters]
        cold = [l.__qualname__ for l in loaders if l.cache_info().currsize == 0]
        warm()
        still_cold = [l.__qualname__ for l in loaders if l.cache_info().currsize == 0]
        before = {l: l.cache_info().misses for l in loaders}
        for text in ("user_1", "a%b", "Mi PIN es 4821", "ПИН-кода 4821", "我的工资三万八"):
            classify(text)
            quote_verdict(text)
        loaded_late = [l.__qualname__ for l in loaders if l.cache_info().misses != before[l]]
        print(len(loaders), len(cold), still_cold, loaded_late)
        """
    )
    done = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", script],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    count, cold, still_cold, loaded_late = done.stdout.strip().split(" ", 3)
    assert int(count) > 50 and int(cold) > 50  # the tables are lazy: nothing loads at import
    assert still_cold.startswith("[]") and loaded_late == "[]", done.stdout


def test_serve_warms_in_the_background_unless_told_not_to(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    started: list[threading.Thread] = []
    monkeypatch.setattr(warm_module, "warm", lambda: None)
    real_start = warm_module.start_warming

    def recording_start() -> threading.Thread:
        thread = real_start()
        started.append(thread)
        return thread

    monkeypatch.setattr(warm_module, "start_warming", recording_start)
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: None)
    db = f"sqlite:///{tmp_path}/warm.db"
    runner = CliRunner()
    assert runner.invoke(app, ["serve", "--db", db, "--warm"]).exit_code == 0
    assert len(started) == 1 and started[0].daemon
    started[0].join(timeout=10)
    assert runner.invoke(app, ["serve", "--db", db, "--no-warm"]).exit_code == 0
    assert len(started) == 1
