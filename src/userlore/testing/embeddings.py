"""A deterministic embedder for tests: hashed bag of word stems, no model, no network.

Texts sharing words (after lower-casing and a crude suffix strip) get a high cosine similarity,
texts sharing none get about 0, and an optional synonym table lets a test state which words a
real model would treat as related ("salad" and "greens") without loading one.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Mapping

import numpy as np
from langchain_core.embeddings import Embeddings

__all__ = ["HashingEmbeddings"]

_WORD = re.compile(r"\w+", re.UNICODE)
_SUFFIXES = ("ing", "es", "ed", "s")
_WORDS_REMEMBERED = 100_000


def _stem(word: str) -> str:
    for suffix in _SUFFIXES:
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


@functools.lru_cache(maxsize=65536)
def _bucket(stem: str, dims: int) -> int:
    """The coordinate a stem counts in (a hash, so remembered: texts repeat words)."""
    digest = hashlib.blake2b(stem.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest[:4], "little") % dims


class HashingEmbeddings(Embeddings):
    """Unit vectors of hashed word stems; ``synonyms`` maps a word to the stem it counts as.

    Args:
        dims: Vector size.
        synonyms: Word → word it should be treated as (both sides are stemmed).
        name: The model name recorded with the vectors (change it to simulate a model change).
    """

    def __init__(
        self, dims: int = 256, synonyms: Mapping[str, str] | None = None, name: str = "fake:hash"
    ) -> None:
        self.dims = dims
        self.model_name = name
        self._synonyms = {_stem(k.lower()): _stem(v.lower()) for k, v in (synonyms or {}).items()}
        self._buckets: dict[str, int] = {}  # word -> its stem's coordinate
        self.calls: list[int] = []
        """The batch size of every ``embed_documents`` call (tests check batching)."""

    def _vector(self, text: str) -> list[float]:
        buckets = self._buckets
        at: list[int] = []
        for word in _WORD.findall(text.lower()):
            bucket = buckets.get(word)
            if bucket is None:
                stem = _stem(word)
                bucket = _bucket(self._synonyms.get(stem, stem), self.dims)
                if len(buckets) < _WORDS_REMEMBERED:
                    buckets[word] = bucket
            at.append(bucket)
        # Counts of whole numbers: the same float64 values as adding 1.0 word by word.
        vec = np.bincount(np.asarray(at, dtype=np.intp), minlength=self.dims).astype(np.float64)
        norm = float(np.linalg.norm(vec))
        if norm == 0.0:
            vec[0] = 1.0
            norm = 1.0
        out: list[float] = (vec / norm).tolist()  # Python floats, as float(x) of each
        return out

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """One vector per text, in one call (recorded in :attr:`calls`)."""
        self.calls.append(len(texts))
        return [self._vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        """The vector of one query (same function as documents)."""
        return self._vector(text)
