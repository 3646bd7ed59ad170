"""The adapter protocol every connected source implements, and the items it hands over.

An adapter turns whatever a source holds (a mailbox, an export, a folder of notes) into
:class:`SourceItem`\\ s: plain extracted text with a stable external id. It never hands over the
raw payload, and it never writes anything: the ingestion service decides what changed, stores
items bounded and redacted, and records the run.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol, runtime_checkable

from userlore.models import Pipeline

__all__ = [
    "ItemListSource",
    "KnowledgeSourceAdapter",
    "MetaValue",
    "PullResult",
    "SourceItem",
]

MetaValue = str | int | float | bool | None


@dataclass(frozen=True, slots=True)
class SourceItem:
    """One upstream object as extracted text.

    Attributes:
        external_id: Stable id of the object in its source (a path, a Message-ID, a Slack ts).
        text: Extracted plain text; the ingestion bounds and redacts it.
        title: Short label (a subject, a note title, a channel).
        occurred_at: When the object was written upstream; ``None`` means "when ingested".
        meta: A few scalar attributes worth keeping (bounded and redacted on ingestion).
        pipeline: Which pipeline synthesizes the item: connected knowledge (workspace facts and
            daily notes) or user understanding (explicit statements, as if the user said them).
    """

    external_id: str
    text: str
    title: str | None = None
    occurred_at: datetime | None = None
    meta: Mapping[str, MetaValue] = field(default_factory=dict)
    pipeline: Pipeline = Pipeline.CONNECTED_KNOWLEDGE


@dataclass(slots=True)
class PullResult:
    """What one :meth:`KnowledgeSourceAdapter.pull` returns.

    ``items`` may be a lazy iterator. Adapters may fill ``cursor``, ``deleted``, ``unreadable``,
    ``warnings`` and ``skipped`` while it is iterated; the ingestion reads them only after the
    iterator is exhausted.

    Attributes:
        items: The items to consider.
        complete: ``True`` when ``items`` is the source's whole current content, so a stored item
            that is not among them was deleted upstream. ``False`` for a delta.
        cursor: Opaque state to hand to the next pull; persisted only when the run succeeds.
        deleted: External ids deleted upstream (for delta pulls).
        unreadable: External ids that still exist but could not be read this time; they are
            neither changed nor deleted.
        warnings: Short, human-readable problems (no item text).
        skipped: Upstream objects the adapter deliberately left out (joins, empty messages...).
        total: Expected number of items, for progress bars, when known.
    """

    items: Iterable[SourceItem]
    complete: bool = True
    cursor: str | None = None
    deleted: list[str] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    skipped: int = 0
    total: int | None = None


@runtime_checkable
class KnowledgeSourceAdapter(Protocol):
    """A connected source: pulls items incrementally from a cursor.

    Attributes:
        source_instance_id: Stable id of this source instance (``mbox:/home/me/mail.mbox``);
            items are unique by (instance, external id).
        kind: Short kind name (``mbox``, ``slack``, ``markdown``, ``locomo``, ``langchain``).
        label: Human-readable name used in daily notes and listings.
    """

    @property
    def source_instance_id(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def label(self) -> str: ...

    def pull(self, cursor: str | None) -> PullResult:
        """Return the items changed since ``cursor`` (everything when ``cursor`` is ``None``)."""
        ...


class ItemListSource:
    """A source over items already in memory; every pull is a complete snapshot.

    Useful for tests, benchmarks and applications that fetch items themselves.
    """

    kind = "memory"

    def __init__(
        self, source_instance_id: str, items: Sequence[SourceItem], *, label: str | None = None
    ) -> None:
        self.source_instance_id = source_instance_id
        self.items = list(items)
        self.label = label or source_instance_id

    def pull(self, cursor: str | None) -> PullResult:
        return PullResult(items=iter(self.items), complete=True, total=len(self.items))

    def __iter__(self) -> Iterator[SourceItem]:
        return iter(self.items)
