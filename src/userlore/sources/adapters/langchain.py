"""A bridge that turns any LangChain ``BaseLoader`` into a connected source.

Every pull loads the documents lazily and is a complete snapshot: a document the loader no longer
returns is reported deleted. The external id comes from a metadata key (``source`` by default,
with ``#<n>`` appended when one source yields several documents, e.g. pages) or, without one,
from a digest of the content. Only scalar metadata is kept, bounded by the ingestion.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from datetime import UTC, date, datetime

from langchain_core.document_loaders import BaseLoader

from userlore.errors import InvalidInputError
from userlore.models import Pipeline
from userlore.sources.base import MetaValue, PullResult, SourceItem

__all__ = ["LangChainLoaderAdapter"]

_DATE_KEYS = ("date", "created", "created_at", "modified", "updated_at", "last_modified")
_TITLE_KEYS = ("title", "subject", "name")


def _when(value: object) -> datetime | None:
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day, tzinfo=UTC)
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        try:
            return datetime.fromtimestamp(float(value), tz=UTC)
        except (OverflowError, OSError, ValueError):
            return None
    if isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            return None
        return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
    return None


class LangChainLoaderAdapter:
    """Documents of a LangChain ``BaseLoader`` as source items.

    Args:
        loader: Any document loader.
        source_instance_id: Stable id of this source (required: a loader has no natural one).
        id_key: Metadata key holding a stable document id.
        label: Name shown in daily notes; defaults to the loader's class name.
        kind: Source kind recorded for this instance.
        pipeline: Where items are routed (connected knowledge by default).
    """

    def __init__(
        self,
        loader: BaseLoader,
        *,
        source_instance_id: str,
        id_key: str = "source",
        label: str | None = None,
        kind: str = "langchain",
        pipeline: Pipeline = Pipeline.CONNECTED_KNOWLEDGE,
        date_keys: Sequence[str] = _DATE_KEYS,
    ) -> None:
        if not isinstance(loader, BaseLoader):
            raise InvalidInputError("loader must be a langchain_core BaseLoader")
        self.loader = loader
        self.source_instance_id = source_instance_id
        self.id_key = id_key
        self.label = label or type(loader).__name__
        self.kind = kind
        self.pipeline = pipeline
        self.date_keys = tuple(date_keys)

    def pull(self, cursor: str | None) -> PullResult:
        result = PullResult(items=(), complete=True)
        result.items = self._documents(result)
        return result

    def _documents(self, result: PullResult) -> Iterator[SourceItem]:
        counts: dict[str, int] = {}
        for doc in self.loader.lazy_load():
            text = doc.page_content if isinstance(doc.page_content, str) else ""
            if not text.strip():
                result.skipped += 1
                continue
            metadata = doc.metadata or {}
            base = metadata.get(self.id_key) if self.id_key else None
            if base is None or str(base).strip() == "":
                base = doc.id or "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()
            base = str(base)
            n = counts.get(base, 0)
            counts[base] = n + 1
            external_id = base if n == 0 else f"{base}#{n}"
            title = next(
                (str(metadata[k]) for k in _TITLE_KEYS if isinstance(metadata.get(k), str)),
                None,
            )
            occurred = next(
                (w for w in (_when(metadata.get(k)) for k in self.date_keys) if w is not None),
                None,
            )
            meta: dict[str, MetaValue] = {
                k: v
                for k, v in metadata.items()
                if isinstance(k, str) and (v is None or isinstance(v, str | int | float | bool))
            }
            yield SourceItem(
                external_id=external_id,
                text=text,
                title=title,
                occurred_at=occurred,
                meta=meta,
                pipeline=self.pipeline,
            )
