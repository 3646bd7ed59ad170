"""The ``userlore`` command: records, review, consent, lifecycle, traces, sources and services.

Built on typer (click) with rich output. Every listing command takes ``--json``; errors are one
line on stderr with exit code 2, never a traceback; output piped into ``head`` ends quietly.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

import typer

from userlore import __version__
from userlore.cli import lifecycle, records, services, sources, traces
from userlore.cli.app import app
from userlore.errors import UserloreError

__all__ = ["app", "main"]

_ = (lifecycle, records, services, sources, traces)  # their commands register on ``app``

EXIT_ERROR = 2


def _silence_stdout() -> None:
    """After a closed pipe, point stdout at /dev/null so the interpreter's flush stays quiet."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is not a real file (a test runner's capture)
        pass
    finally:
        os.close(devnull)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``userlore`` command; returns the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        result = app(args=args, prog_name="userlore", standalone_mode=False)
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:
        print("userlore: aborted", file=sys.stderr)
        return 1
    except typer.TyperException as exc:  # usage errors: bad option, missing argument
        show = getattr(exc, "show", None)
        if callable(show):
            show()
        else:
            print(f"userlore: error: {exc}", file=sys.stderr)
        return int(getattr(exc, "exit_code", EXIT_ERROR))
    except UserloreError as exc:
        print(f"userlore: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:
        _silence_stdout()
        return 0
    return result if isinstance(result, int) else 0


def _version(value: bool) -> None:
    if value:
        typer.echo(f"userlore {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Governed user understanding for LangChain and LangGraph agents."""
