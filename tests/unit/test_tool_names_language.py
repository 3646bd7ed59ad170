"""Short covered turns made mostly of tools' names stay read as covered.

The full ranking of ``policy.near_relatives`` read "I always use pnpm for installs" as Nigerian
Pidgin (a relative ``relatives.yaml`` reads by its own words) and withheld it as an unread
language. Sixteen such turns in five covered languages: 5 read as uncovered on the merged tree,
3 after the fix (the same 3 as before near_relatives, named below as a known benign cost).
"""

from __future__ import annotations

import pytest

from userlore.policy.language import uncovered_segments

COVERED = [
    "I always use pnpm for installs",
    "we deploy with k8s and helm charts",
    "I use neovim with lazyvim",
    "Use ruff and mypy on every commit",
    "I run tmux with zsh and starship",
    "Always use pytest fixtures, no unittest",
    "I like tailwind more than bootstrap",
    "bun is faster than npm for me",
    "Siempre uso pnpm para instalar",
    "Ich nutze immer pnpm und vite",
    "J'utilise toujours pnpm avec vite",
    "deploy via terraform and ansible please",
    "I moved from yarn to pnpm last week",
    "my stack is fastapi plus sqlalchemy",  # read without the listed names (blindfix23a)
]
# Read as fy, da and it before near_relatives too: withheld, one snippet each.
KNOWN_UNCOVERED = [
    "prefer uv over pip for venvs",
    "Eu uso sempre pnpm e vite",
]


@pytest.mark.parametrize("text", COVERED)
def test_tool_names_do_not_make_a_turn_uncovered(text: str) -> None:
    assert uncovered_segments(text) == []


def test_known_uncovered_stay_named() -> None:
    """When the identifier reads these as covered, move them to ``COVERED``."""
    assert [t for t in KNOWN_UNCOVERED if not uncovered_segments(t)] == []
