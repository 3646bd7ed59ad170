"""The ``userlore`` command: records, review, consent, lifecycle, traces, sources and services.

Built on typer (click) with rich output. Every listing command takes ``--json``; errors are one
line on stderr with exit code 2, never a traceback; output piped into ``head`` ends quietly.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence

import typer

# typer vendors click (``typer._click``): its exceptions, not the ``click`` package's, are raised.
from typer._click import exceptions as click_exceptions

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


def _fail(message: str) -> int:
    """The one-line error every failure prints (docs/cli.md), and its exit code."""
    print(f"userlore: error: {' '.join(message.split())}", file=sys.stderr)
    return EXIT_ERROR


def _os_error(exc: OSError) -> str:
    """``<file>: <reason>``, the way the shell says it, without the errno number."""
    reason = exc.strerror or str(exc)
    return f"{exc.filename}: {reason}" if exc.filename is not None else reason


def _usage_error(exc: click_exceptions.ClickException) -> str:
    ctx = getattr(exc, "ctx", None)
    command = ctx.command_path if ctx is not None else "userlore"
    return f"{exc.format_message().rstrip('.')} (see '{command} --help')"


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``userlore`` command; returns the exit code.

    Every failure is one line on stderr and exit code 2: usage errors, userlore errors, and any
    OS or decoding error (a missing file, a folder, a missing output folder, bytes that are not
    UTF-8 or JSON); a closed output pipe ends quietly.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        result = app(args=args, prog_name="userlore", standalone_mode=False)
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:
        print("userlore: aborted", file=sys.stderr)
        return 1
    except click_exceptions.NoArgsIsHelpError as exc:  # bare ``userlore`` / group: the help
        exc.show()
        return EXIT_ERROR
    except click_exceptions.ClickException as exc:  # usage errors: bad option, missing argument
        return _fail(_usage_error(exc))
    except UserloreError as exc:
        return _fail(str(exc))
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except OSError as exc:
        return _fail(_os_error(exc))
    except UnicodeDecodeError as exc:
        return _fail(f"not valid {exc.encoding} text: {exc.reason} at byte {exc.start}")
    except json.JSONDecodeError as exc:
        return _fail(f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})")
    return result if isinstance(result, int) else 0


def _version(value: bool) -> None:
    if value:
        from userlore import __version__  # read from the package metadata only when asked

        typer.echo(f"userlore {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Governed user understanding for LangChain and LangGraph agents."""
