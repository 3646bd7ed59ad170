"""The typed result of explicit extraction: one statement the user made, with its receipt."""

from __future__ import annotations

from dataclasses import dataclass

from userlore.models import MemoryType

__all__ = ["Statement"]


@dataclass(frozen=True, slots=True)
class Statement:
    """One explicit statement found in a user turn; the governed write turns it into a candidate.

    Attributes:
        kind: ``instruction``, ``preference``, ``style``, ``identity``, ``tooling``, ``veto``,
            ``goal``, ``channel`` or ``note`` (a special-category fact).
        canonical_key: Dedupe key such as ``style/verbosity`` or ``veto/jest``.
        value: Canonical value (``terse``, ``pnpm``, ``banned``, ``like``...).
        content: The user's own clause, trimmed but never paraphrased: it is the receipt.
        memory_type: Seed 003 memory type (see the module docstring for the mapping).
        confidence: How sure the extractor is that the user said it (hedges lower it).
        importance: How much the statement should weigh in context ranking.
        durability: ``durable``, ``session`` (this conversation only) or ``temporary``.
        span: ``(start, end)`` of ``content`` in the input text.
    """

    kind: str
    canonical_key: str
    value: str | None
    content: str
    memory_type: MemoryType
    confidence: float
    importance: float
    durability: str
    span: tuple[int, int]
