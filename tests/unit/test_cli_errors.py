"""Every failure of the real ``userlore`` command is one line on stderr and exit code 2 (issue 26).

One table of OS, decoding and usage errors across commands; each row runs the installed entry
point in a subprocess (all rows at once: the interpreter start dominates).
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

CASES: dict[str, tuple[list[str], str]] = {
    # name: (arguments, what the one line must say); {tmp} is a fresh folder
    "import of a missing file": (["import", "{tmp}/nope.json", "--scope", "a"], "nope.json"),
    "import of a folder": (["import", "{tmp}", "--scope", "a"], "Is a directory"),
    "import of non-UTF-8 bytes": (["import", "{tmp}/latin1.json", "--scope", "a"], "import data"),
    "a non-UTF-8 config": (
        ["records", "--scope", "a", "--config", "{tmp}/latin1.json"],
        "cannot read config file",
    ),
    "import of broken JSON": (["import", "{tmp}/broken.json", "--scope", "a"], "not valid JSON"),
    "export into a missing folder": (
        ["export", "--scope", "a", "-o", "{tmp}/missing/out.json"],
        "No such file or directory",
    ),
    "a missing config file": (["records", "--scope", "a", "--config", "{tmp}/c.json"], "c.json"),
    "a config folder": (["records", "--scope", "a", "--config", "{tmp}"], "Is a directory"),
    "a database in a missing folder": (
        ["records", "--scope", "a", "--db", "sqlite:///{tmp}/no/such/dir/x.db"],
        "x.db",
    ),
    "a missing tokens file": (["serve", "--tokens", "{tmp}/t.json"], "t.json"),
    "a mailbox that does not exist": (
        ["sources", "sync", "{tmp}/box.mbox", "--kind", "mbox", "--scope", "a"],
        "box.mbox",
    ),
    "an unknown option": (["records", "--scope", "a", "--bogus"], "No such option: --bogus"),
    "a missing option": (["records"], "Missing option '--scope'"),
    "an unknown command": (["bogus"], "No such command 'bogus'"),
    "a bad choice": (["records", "--scope", "a", "--state", "nope"], "nope"),
}


def run(args: list[str], tmp: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, HOME=str(tmp), USERLORE_DB=f"sqlite:///{tmp / 'cli.db'}")
    for name in ("USERLORE_CONFIG", "USERLORE_TOKENS", "USERLORE_TOKENS_FILE", "USERLORE_MODE"):
        env.pop(name, None)
    argv = [a.replace("{tmp}", str(tmp)) for a in args]
    return subprocess.run(
        [sys.executable, "-m", "userlore.cli", *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )


@pytest.fixture(scope="module")
def outcomes(
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[str, subprocess.CompletedProcess[str]]:
    tmp = tmp_path_factory.mktemp("cli-errors")
    (tmp / "latin1.json").write_bytes(b'{"format": "caf\xe9"}')
    (tmp / "broken.json").write_text('{"format": ', "utf-8")
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {name: pool.submit(run, args, tmp) for name, (args, _) in CASES.items()}
        return {name: future.result() for name, future in futures.items()}


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_failure_is_one_line_and_exit_2(
    outcomes: dict[str, subprocess.CompletedProcess[str]], name: str
) -> None:
    done = outcomes[name]
    lines = done.stderr.splitlines()
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert len(lines) == 1, done.stderr[-2000:]
    assert lines[0].startswith("userlore: error: "), lines
    assert CASES[name][1] in lines[0], lines
    assert done.stdout == ""
