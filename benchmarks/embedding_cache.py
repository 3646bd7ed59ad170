"""A disk cache of embedding vectors for benchmark runs (one model, keyed by the exact text).

The bundled MiniLM is deterministic, so a vector computed once for a text is the vector every
later run would compute: caching it changes no figure, only the hours a rerun of LoCoMo or
PrefEval spends in numpy. Texts are keyed by their SHA-256; the model's name is part of the key,
so two models never share vectors. Nothing but vectors is stored (no text), under ``.cache/``
(ignored by git).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sqlite3
import threading
from pathlib import Path

# One BLAS thread: on a small shared machine OpenBLAS's own threads fight the other processes
# for the cores and the forward pass runs 10-15x slower (measured under load). Set before numpy
# loads; an explicit setting in the environment wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
from langchain_core.embeddings import Embeddings

from userlore.embeddings import model_name

__all__ = ["DEFAULT_CACHE", "CachedEmbeddings", "add_embedding_arguments", "bench_embeddings"]

DEFAULT_CACHE = Path(".cache/bench-embeddings.sqlite")


class CachedEmbeddings(Embeddings):
    """Wraps an ``Embeddings``: texts seen in any earlier run are read back, not recomputed."""

    def __init__(self, inner: Embeddings, path: Path = DEFAULT_CACHE) -> None:
        self.inner = inner
        self.model_name = model_name(inner)  # the vectors are the inner model's
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), timeout=120, check_same_thread=False)
        self._db.execute("CREATE TABLE IF NOT EXISTS v (k BLOB PRIMARY KEY, vec BLOB NOT NULL)")
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def _key(self, text: str) -> bytes:
        return hashlib.sha256(f"{self.model_name}\0{text}".encode()).digest()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Cached vectors where known; the rest in one call to the inner model, then stored."""
        keys = [self._key(t) for t in texts]
        out: dict[int, list[float]] = {}
        with self._lock:
            for i, key in enumerate(keys):
                row = self._db.execute("SELECT vec FROM v WHERE k = ?", (key,)).fetchone()
                if row is not None:
                    out[i] = np.frombuffer(row[0], dtype=np.float32).tolist()
        todo = [i for i in range(len(texts)) if i not in out]
        self.hits += len(out)
        self.misses += len(todo)
        if todo:
            fresh = self.inner.embed_documents([texts[i] for i in todo])
            with self._lock:
                self._db.executemany(
                    "INSERT OR REPLACE INTO v (k, vec) VALUES (?, ?)",
                    [
                        (keys[i], np.asarray(vec, dtype=np.float32).tobytes())
                        for i, vec in zip(todo, fresh, strict=True)
                    ],
                )
                self._db.commit()
            out.update(zip(todo, fresh, strict=True))
        return [out[i] for i in range(len(texts))]

    def embed_query(self, text: str) -> list[float]:
        """The model is symmetric (query vector = document vector), so queries share the cache."""
        return self.embed_documents([text])[0]


def add_embedding_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``--embeddings`` and ``--embedding-cache`` options every quality benchmark takes."""
    parser.add_argument(
        "--embeddings",
        choices=["local", "none"],
        default="none",
        help="local: hybrid plans over the bundled MiniLM (userlore[local]), with dense rows",
    )
    parser.add_argument(
        "--embedding-cache",
        default=str(DEFAULT_CACHE),
        help="vectors of texts seen in earlier runs (the model is deterministic); '' for none",
    )


def bench_embeddings(kind: str, cache: str | Path | None = DEFAULT_CACHE) -> Embeddings | None:
    """The model a run plans with: ``None`` for ``"none"``, else the bundled MiniLM (loaded
    once, shared by every scope and level), behind the disk cache unless ``cache`` is empty."""
    if kind == "none":
        return None
    if kind != "local":
        raise ValueError(f"unknown embeddings {kind!r}: expected 'local' or 'none'")
    from userlore.embeddings.local import LocalMiniLM

    model: Embeddings = LocalMiniLM()
    return CachedEmbeddings(model, Path(cache)) if cache else model
