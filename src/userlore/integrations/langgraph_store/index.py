"""LangGraph's ``IndexConfig`` on :class:`UserloreStore`: which text of a value is embedded.

``UserloreStore(lore, index={"dims": 384, "embed": ..., "fields": ["text"]})`` turns on stored
vectors for the store's database when the ``Userlore`` has none (the same vectors the planner's
hybrid ranking reads), and embeds the named fields of each value instead of its content. A put
may override per item, as LangGraph's stores do: ``index=False`` stores no vector (the item stays
findable by its words), ``index=["path", ...]`` embeds those fields. Field text is redacted by
the same floor as everything else before it reaches the model.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from langchain_core.embeddings import Embeddings
from langgraph.store.base import IndexConfig
from langgraph.store.base.embed import ensure_embeddings, get_text_at_path, tokenize_path
from sqlalchemy.orm import Session

from userlore.embeddings import resolve_embeddings
from userlore.errors import ConfigError, EmbeddingMismatchError
from userlore.policy.sensitivity import redact
from userlore.store.vectors import VectorIndex

if TYPE_CHECKING:
    from userlore.facade import Userlore

__all__ = ["IndexedPut", "StoreIndex", "attach_index", "index_embeddings", "index_puts"]

WHOLE = "$"
"""LangGraph's path for the whole value: here, the record's content (what the write path embeds)."""


@dataclass(frozen=True, slots=True)
class StoreIndex:
    """The store's index settings: the declared dimensions and the default fields."""

    dims: int
    fields: tuple[str, ...]

    def wanted(self, override: Literal[False] | list[str] | None) -> tuple[str, ...] | None:
        """The fields to embed for one put; ``None``: no vector at all."""
        if override is False:
            return None
        return tuple(override) if override else self.fields


def attach_index(lore: Userlore, index: IndexConfig | Mapping[str, Any]) -> StoreIndex:
    """Validate ``index`` and give ``lore`` stored vectors from its ``embed`` if it has none.

    Raises:
        ConfigError: not a mapping, no ``embed``, bad ``dims`` or ``fields``.
        EmbeddingMismatchError: the database holds vectors of another model.
    """
    if not isinstance(index, Mapping) or index.get("embed") is None:
        raise ConfigError("index must be a mapping with 'embed' (and 'dims', 'fields')")
    dims = index.get("dims")
    if not isinstance(dims, int) or isinstance(dims, bool) or dims <= 0:
        raise ConfigError(f"index['dims'] must be a positive int, got {dims!r}")
    # SqliteStore's SqliteIndexConfig names the same list ``text_fields`` (and takes one str).
    fields = index.get("fields") or index.get("text_fields") or [WHOLE]
    if isinstance(fields, str) and "fields" not in index:
        fields = [fields]
    if (
        isinstance(fields, str)
        or not isinstance(fields, Sequence)
        or not all(isinstance(f, str) and f for f in fields)
    ):
        raise ConfigError("index['fields'] must be a list of field paths")
    embeddings = index_embeddings(index["embed"])
    store = lore.memory.store
    if store.vectors is None:
        vectors = VectorIndex(embeddings)
        vectors.attach(store.engine)
        store.vectors = vectors
        # As ``Userlore.open`` does for its own embeddings: a large scope's matrix loads in
        # the background, so the first search after opening waits for that load at most.
        store.on_close(vectors.warm(store.engine))
    if store.vectors.dims is not None and store.vectors.dims != dims:
        raise EmbeddingMismatchError(
            f"index['dims'] is {dims} but this database's vectors have {store.vectors.dims}"
        )
    return StoreIndex(dims, tuple(fields))


def index_embeddings(embed: object) -> Embeddings:
    """The ``Embeddings`` an ``index["embed"]`` names, by the resolver ``Userlore.open`` uses.

    An ``Embeddings``, ``"provider:model"`` or ``"local"`` goes through
    :func:`~userlore.embeddings.resolve_embeddings`; a function (LangGraph also takes one) is
    wrapped by LangGraph's ``ensure_embeddings``.

    Raises:
        ConfigError: anything else, an unknown provider, ``"none"``, or the local extra missing.
    """
    if isinstance(embed, (str, Embeddings)):
        resolved = resolve_embeddings(embed)
        if resolved is None:
            raise ConfigError("index['embed'] must name embeddings, not 'none'")
        return resolved
    if callable(embed):
        try:
            return ensure_embeddings(embed)
        except ValueError as exc:  # pragma: no cover - callables are always accepted today
            raise ConfigError(f"cannot use index['embed']: {exc}") from None
    raise ConfigError(
        "index['embed'] must be a LangChain Embeddings, 'provider:model', 'local' or a "
        f"function, not {type(embed).__name__}"
    )


@dataclass(frozen=True, slots=True)
class IndexedPut:
    """One put's record and what its ``index`` argument asks to embed.

    ``clean`` is the put's content, which the floor has passed with nothing blocking in it: a
    field whose text is the content needs no second redaction.
    """

    record_id: str
    version: int
    value: Mapping[str, Any]
    override: Literal[False] | list[str] | None
    clean: str = ""


def index_puts(
    lore: Userlore, config: StoreIndex, session: Session, scope: str, puts: Sequence[IndexedPut]
) -> None:
    """Queue the vectors a chunk of puts asks for: one per indexed text, as LangGraph's stores.

    The first text of a put is its record's vector (replacing what the write path queued for
    the content, so nothing is embedded twice), the others field vectors ``<record_id>#<n>``
    the store's search scores the record by too (its best text); a put with nothing to index
    has no vector. Everything is embedded with the rest of the transaction, in one model call.
    """
    vectors = lore.memory.store.vectors
    if vectors is None or not puts:
        return
    now = lore.memory.store.clock()
    keep: set[str] = set()
    paths: dict[str, str | list[str]] = {}  # each field's path tokenised once a chunk
    for put in puts:
        fields = config.wanted(put.override)
        if fields == (WHOLE,):
            texts = [put.clean.strip()]  # the record's content, as the write path embeds it
        else:
            value = put.value if type(put.value) is dict else dict(put.value)
            found = [
                text
                for field in fields or ()
                for text in get_text_at_path(value, _path(paths, field))
                if isinstance(text, str) and text.strip()
            ]
            texts = [text if text == put.clean else redact(text) for text in found]
        if not texts:
            vectors.unstage(session, "record", scope, put.record_id)
            vectors.drop(session, "record", scope, put.record_id)
            continue
        vectors.stage(session, "record", scope, put.record_id, texts[0], now, version=put.version)
        for n, text in enumerate(texts[1:], 1):
            field_id = f"{put.record_id}#{n}"
            keep.add(field_id)
            vectors.stage(session, "field", scope, field_id, text, now)
    vectors.drop_fields(session, scope, sorted({p.record_id for p in puts}), keep)


def _path(known: dict[str, str | list[str]], field: str) -> str | list[str]:
    """``field`` as ``get_text_at_path`` reads it: tokenised (once), or as given where the
    string itself means something (the whole value, ``"$"`` or empty)."""
    path = known.get(field)
    if path is None:
        path = known[field] = field if not field or field == WHOLE else tokenize_path(field)
    return path
