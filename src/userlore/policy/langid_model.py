"""py3langid's packaged model, read from a cache of its decompressed arrays.

py3langid ships its naive-Bayes model as an LZMA-compressed ``.npz`` and decompresses it each
time a process loads it (~0.65 s of CPU, about half of a new process's first turn; every CLI
command, worker, recipe and test subprocess is a new process). The first load writes the
decompressed arrays as ``.npy`` files to a cache directory; later loads map them (the big
feature table is memory-mapped, so processes share its pages) and build the same
``LanguageIdentifier`` from the same arrays: no answer depends on whether the cache was used.

The cache is keyed by py3langid's version and the model file's SHA-256, written to a temporary
directory and renamed into place (concurrent processes never see half a cache), and never
inside the package or a repository: ``$USERLORE_LANGID_CACHE`` when set, else
``$XDG_CACHE_HOME/userlore/py3langid``, else ``~/.cache/userlore/py3langid``.
``USERLORE_LANGID_CACHE=off`` (or ``0``, or empty) reads the packaged file every time, and so
does a cache directory that cannot be written.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import logging
import os
import shutil
import tempfile
from array import array
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    import numpy as np

__all__ = ["cache_root", "load_identifier"]

_LOG = logging.getLogger(__name__)

ENV: Final = "USERLORE_LANGID_CACHE"
_OFF: Final = frozenset({"", "0", "off", "false", "no"})
_ARRAYS: Final = ("ptc", "pc", "classes", "nextmove", "row", "output")
_TYPECODES: Final = {2: "H", 4: "I", 8: "L"}


def cache_root() -> Path | None:
    """Where the decompressed model is cached, or ``None`` when the cache is switched off."""
    configured = os.environ.get(ENV)
    if configured is not None:
        return None if configured.strip().lower() in _OFF else Path(configured).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "userlore" / "py3langid"


def _model_file() -> Path:
    from py3langid.langid import MODEL_DIR, MODEL_FILE  # type: ignore[import-untyped]

    return Path(str(MODEL_DIR)) / str(MODEL_FILE)


def _key(model: Path) -> str:
    with model.open("rb") as f:
        digest = hashlib.file_digest(f, "sha256").hexdigest()
    return f"{importlib.metadata.version('py3langid')}-{digest[:32]}"


def _stdlib_array(values: np.ndarray[Any, Any]) -> array[int]:
    """What py3langid's loader hands its DFA walk: a stdlib array (fast scalar indexing)."""
    out = array(_TYPECODES[values.dtype.itemsize])
    out.frombytes(values.data.cast("B"))  # an .npy file's array is C-contiguous
    return out


def _write(model: Path, target: Path) -> None:
    """Decompresses ``model`` with py3langid's own loader and writes its arrays to ``target``."""
    import numpy as np
    from py3langid.modelio import load_model  # type: ignore[import-untyped]

    ptc, pc, classes, nextmove, row, output = load_model(model)
    arrays = {
        "ptc": np.asarray(ptc),
        "pc": np.asarray(pc),
        "classes": np.asarray(classes),
        "nextmove": np.frombuffer(nextmove, dtype=f"u{nextmove.itemsize}"),
        "row": np.frombuffer(row, dtype=f"u{row.itemsize}"),
        "output": np.asarray(output, dtype=np.int32),
    }
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        for name, values in arrays.items():
            np.save(staging / f"{name}.npy", values, allow_pickle=False)
        try:
            staging.rename(target)
        except OSError:
            if not (target / "output.npy").exists():  # not another process's finished cache
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _read(target: Path, norm_probs: bool) -> Any:
    import numpy as np
    from py3langid.langid import LanguageIdentifier

    def load(name: str, mmap: bool = False) -> np.ndarray[Any, Any]:
        values: np.ndarray[Any, Any]
        values = np.load(
            target / f"{name}.npy", mmap_mode="r" if mmap else None, allow_pickle=False
        )
        return values

    return LanguageIdentifier(
        np.asarray(load("ptc", mmap=True)),
        load("pc"),
        load("classes").tolist(),
        _stdlib_array(load("nextmove", mmap=True)),
        load("output").tolist(),
        norm_probs=norm_probs,
        tk_row=_stdlib_array(load("row")),
    )


def load_identifier(norm_probs: bool = True) -> Any:
    """py3langid's ``LanguageIdentifier`` over its packaged model, as
    ``LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=...)`` builds it, through the
    cache when it is on (a cache that cannot be read or written falls back to the file)."""
    from py3langid.langid import LanguageIdentifier

    model = _model_file()
    root = cache_root()
    if root is not None:
        try:
            target = root / _key(model)
            if not (target / "output.npy").exists():  # written last by np.save, renamed whole
                _write(model, target)
            return _read(target, norm_probs)
        except (OSError, ValueError) as exc:
            _LOG.debug("py3langid model cache unusable at %s (%s): reading the package", root, exc)
    return LanguageIdentifier.from_model_file(model, norm_probs=norm_probs)
