"""Every failure of the real ``userlore`` command is one line on stderr and exit code 2 (issue 26).

One table of OS, decoding and usage errors across commands. Every row runs the command's
``main(argv)`` in this process (it is what the entry point calls; stdout, stderr and the exit
code are the same). The rows in ``END_TO_END`` also run the installed entry point in a
subprocess, one per kind of failure (usage, OS, decoding, config, a service's start), so the
way the interpreter exits is checked too without paying ~2 s of process start for every row.
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

import pytest

from userlore.cli import main

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
# One row per kind of failure through the real entry point: a usage error, an OS error, bytes
# that are not UTF-8, a config userlore refuses, and a service (``serve``) that cannot start.
END_TO_END = (
    "an unknown command",
    "import of a missing file",
    "import of non-UTF-8 bytes",
    "a non-UTF-8 config",
    "a missing tokens file",
)
_CLEARED = ("USERLORE_CONFIG", "USERLORE_TOKENS", "USERLORE_TOKENS_FILE", "USERLORE_MODE")


class Outcome(NamedTuple):
    returncode: int
    stdout: str
    stderr: str


def _argv(name: str, tmp: Path) -> list[str]:
    return [a.replace("{tmp}", str(tmp)) for a in CASES[name][0]]


def run(name: str, tmp: Path) -> Outcome:
    """The row through the installed entry point, in a process of its own."""
    env = dict(os.environ, HOME=str(tmp), USERLORE_DB=f"sqlite:///{tmp / 'cli.db'}")
    for variable in _CLEARED:
        env.pop(variable, None)
    done = subprocess.run(
        [sys.executable, "-m", "userlore.cli", *_argv(name, tmp)],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )
    return Outcome(done.returncode, done.stdout, done.stderr)


@pytest.fixture(scope="module")
def tmp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("cli-errors")
    (folder / "latin1.json").write_bytes(b'{"format": "caf\xe9"}')
    (folder / "broken.json").write_text('{"format": ', "utf-8")
    return folder


@pytest.fixture(scope="module")
def end_to_end(tmp: Path) -> dict[str, Outcome]:
    with ThreadPoolExecutor(max_workers=len(END_TO_END)) as pool:
        futures = {name: pool.submit(run, name, tmp) for name in END_TO_END}
        return {name: future.result() for name, future in futures.items()}


def _check(name: str, done: Outcome) -> None:
    lines = done.stderr.splitlines()
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert len(lines) == 1, done.stderr[-2000:]
    assert lines[0].startswith("userlore: error: "), lines
    assert CASES[name][1] in lines[0], lines
    assert done.stdout == ""


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_failure_is_one_line_and_exit_2(
    name: str, tmp: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("HOME", str(tmp))
    monkeypatch.setenv("USERLORE_DB", f"sqlite:///{tmp / 'cli.db'}")
    for variable in _CLEARED:
        monkeypatch.delenv(variable, raising=False)
    code = main(_argv(name, tmp))
    out, err = capsys.readouterr()
    _check(name, Outcome(code, out, err))


@pytest.mark.parametrize("name", END_TO_END)
def test_the_entry_point_fails_the_same_way(name: str, end_to_end: dict[str, Outcome]) -> None:
    _check(name, end_to_end[name])
