"""A detector's cue words, read by section from its data file: a cheap gate and a pattern.

The late value classes (``backup_codes``, ``short_codes``, ``credential_words``,
``bank_accounts``, ``second_amounts``' negotiations) each keep their words in one YAML file per
class, one list per language a section; this is their one reader.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass

from userlore.policy.cue_data import alternation, flat
from userlore.policy.data_files import data_yaml
from userlore.policy.literal_gate import LiteralGate

__all__ = ["Section", "gate_words", "sections", "starting"]


@dataclass(frozen=True, slots=True)
class Section:
    """One section's words: a cheap gate and the pattern that finds them."""

    gate: LiteralGate
    pattern: re.Pattern[str]

    def find(self, lowered: str) -> list[re.Match[str]]:
        """Where the section's words occur in ``lowered``; nothing without a gate hit."""
        return list(self.pattern.finditer(lowered)) if self.gate.search(lowered) else []


@functools.cache
def sections(filename: str, names: tuple[str, ...]) -> dict[str, Section]:
    """The ``names`` sections of ``policy/data/<filename>``, loaded once on first use."""
    raw = data_yaml(filename)
    out = {}
    for name in names:
        terms = flat(raw[name])
        gate = LiteralGate(t.strip("*") for t in terms)
        out[name] = Section(gate, re.compile(alternation(terms)))
    return out


def gate_words(filename: str, names: tuple[str, ...]) -> list[str]:
    """The literal words of the ``names`` sections, for a gate shared by several detectors."""
    raw = data_yaml(filename)
    return [t.strip("*") for name in names for t in flat(raw[name])]


def starting(pattern: re.Pattern[str], t: str, lo: int, reach: int) -> Iterator[re.Match[str]]:
    """Matches of ``pattern`` that start within ``reach`` characters of ``lo``; a match may run
    past that end (an end position would cut a value short, and redact only part of it)."""
    for m in pattern.finditer(t, lo):
        if m.start() >= lo + reach:
            return
        yield m
