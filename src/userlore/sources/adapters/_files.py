"""Small helpers shared by the file-based adapters: fingerprints and JSON cursors."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from userlore.errors import InvalidInputError

__all__ = ["existing_path", "fingerprint", "load_cursor", "tree_fingerprint"]


def existing_path(path: str | os.PathLike[str], *, what: str) -> Path:
    """The absolute path of an existing file or folder.

    Raises:
        InvalidInputError: nothing exists at ``path``.
    """
    resolved = Path(path).expanduser().resolve()
    if not resolved.exists():
        raise InvalidInputError(f"{what} not found: {resolved}")
    return resolved


def fingerprint(path: Path) -> str:
    """Size and modification time of one file: cheap evidence that it did not change."""
    st = path.stat()
    return f"{st.st_size}:{st.st_mtime_ns}"


def tree_fingerprint(root: Path, files: Iterable[Path]) -> str:
    """One digest over the relative names, sizes and modification times of ``files``."""
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(f"{path.relative_to(root).as_posix()}\0{fingerprint(path)}\n".encode())
    return digest.hexdigest()


def load_cursor(cursor: str | None, version: int = 1) -> dict[str, Any] | None:
    """Decode a JSON cursor written by the same adapter version; ``None`` starts over."""
    if not cursor:
        return None
    try:
        data = json.loads(cursor)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("v") != version:
        return None
    return data
