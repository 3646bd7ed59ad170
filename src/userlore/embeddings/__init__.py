"""Optional embeddings: which model turns text into vectors, and how to name it.

``Userlore.open(..., embeddings=...)`` and ``userContext.planner.embeddings`` accept a LangChain
``Embeddings`` instance, a ``"provider:model"`` string (through
``langchain.embeddings.init_embeddings``) or ``"local"`` (the bundled all-MiniLM-L6-v2, see
:mod:`userlore.embeddings.local`). Without embeddings every read is BM25 only, as before.
"""

from __future__ import annotations

from langchain_core.embeddings import Embeddings

from userlore.errors import ConfigError

__all__ = ["EmbeddingsSpec", "model_name", "resolve_embeddings"]

EmbeddingsSpec = Embeddings | str | None
"""What a caller may pass: an instance, ``"provider:model"``, ``"local"``, or nothing."""


def resolve_embeddings(spec: EmbeddingsSpec) -> Embeddings | None:
    """The ``Embeddings`` a spec names; ``None`` (or ``"none"``) means BM25 only.

    Raises:
        ConfigError: not an ``Embeddings``/string, a string without ``provider:``, an unknown
            provider, or the local extra missing.
    """
    if spec is None or isinstance(spec, Embeddings):
        return spec
    if not isinstance(spec, str):
        raise ConfigError(
            "embeddings must be a LangChain Embeddings, 'provider:model', 'local' or None, "
            f"not {type(spec).__name__}"
        )
    name = spec.strip()
    if name in ("", "none"):
        return None
    if name == "local":
        from userlore.embeddings.local import LocalMiniLM

        return LocalMiniLM()
    if ":" not in name:
        raise ConfigError(f"embeddings {spec!r} must be 'local' or 'provider:model'")
    try:
        from langchain.embeddings import init_embeddings
    except ImportError:
        raise ConfigError(
            "'provider:model' embeddings need langchain: pip install 'userlore[agents]'"
        ) from None
    try:
        return init_embeddings(name)
    except (ImportError, ValueError) as exc:
        raise ConfigError(f"cannot load embeddings {spec!r}: {exc}") from None


def model_name(embeddings: Embeddings) -> str:
    """A stable name for the model behind ``embeddings``, recorded with every vector.

    Vectors of two different models are not comparable; the name is what detects that.
    """
    explicit = getattr(embeddings, "model_name", None)
    if isinstance(explicit, str) and explicit:
        return explicit
    model = getattr(embeddings, "model", None)
    cls = type(embeddings)
    base = f"{cls.__module__}.{cls.__qualname__}"
    return f"{base}:{model}" if isinstance(model, str) and model else base
