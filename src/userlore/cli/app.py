"""The root typer application every command module registers on."""

from __future__ import annotations

import typer

__all__ = ["app"]

app = typer.Typer(
    name="userlore",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
