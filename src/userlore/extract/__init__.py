"""Deterministic producers on the write path: explicit statements in a user turn."""

from __future__ import annotations

from userlore.extract.explicit import Statement, extract_statements

__all__ = ["Statement", "extract_statements"]
