"""Keyed candidates in bulk (sources, synthesis, imports): one transaction, per-item refusals."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from userlore.errors import InvalidInputError, RecordNotFoundError, UserloreError
from userlore.models import CandidateInput, WriteAction, WriteOutcome
from userlore.policy.govern import Assessment
from userlore.store.concurrency import hold_write_lock
from userlore.store.governed import GovernedStore
from userlore.store.record_batch import FreshRecord
from userlore.store.revisions import Revision, held_rows
from userlore.store.schema import KnowledgeSourceItem
from userlore.store.views import record_view
from userlore.validation import validate_scope


@dataclass(frozen=True, slots=True)
class BatchItem:
    """One keyed candidate of a batch, with further evidence items to link (see
    :meth:`GovernedStore.govern_upsert`)."""

    candidate: CandidateInput
    evidence: tuple[str, ...] = ()
    evidence_relation: str = "stated_in"


@dataclass(frozen=True, slots=True)
class BatchOutcome:
    """What the batch did with one item: its outcome, or the typed error that refused it
    alone (nothing of that item was written)."""

    outcome: WriteOutcome | None
    error: UserloreError | None = None


def govern_upsert_batch(
    store: GovernedStore,
    scope: str,
    items: Sequence[BatchItem],
    *,
    session: Session | None = None,
) -> list[BatchOutcome]:
    """:meth:`GovernedStore.govern_upsert` for many keyed candidates, in a few statements.

    The policy runs per item (fields, mode, sources, the sensitivity floor, forgotten and
    deleted keys), so one refused or malformed item is refused alone and reported in its
    :class:`BatchOutcome`, while the others land. Keys nothing in ``scope`` ever held (the
    common case of a first import) are written in bulk by :meth:`RecordWriter.insert_fresh`;
    a key already held, or repeated in the batch, takes the per-item path inside a savepoint.
    All of it is one transaction (``session``'s, or its own): a storage error rolls the whole
    batch back. Outcomes are in the order of ``items``.
    """
    if session is None:
        with store.transaction(scope) as own:
            return govern_upsert_batch(store, scope, items, session=own)
    validate_scope(scope)
    results: list[BatchOutcome | None] = [None] * len(items)
    admitted: dict[int, Assessment] = {}
    for n, item in enumerate(items):
        try:
            if not item.candidate.canonical_key:
                raise InvalidInputError("govern_upsert needs a canonical_key")
            verdict = store.admit(session, scope, item.candidate)
        except UserloreError as exc:
            results[n] = BatchOutcome(None, exc)
            continue
        if isinstance(verdict, WriteOutcome):
            results[n] = BatchOutcome(verdict)
        else:
            admitted[n] = verdict
    if admitted:
        hold_write_lock(session, scope)  # which keys the scope holds is read below
    held = held_rows(
        session, scope, sorted({items[n].candidate.canonical_key or "" for n in admitted})
    )
    wanted = {i for n in admitted for i in (items[n].candidate.source_item_id, *items[n].evidence)}
    known: set[str] = set()
    for part in _parts(wanted - {None}):
        known.update(
            session.scalars(
                select(KnowledgeSourceItem.id).where(
                    KnowledgeSourceItem.scope == scope, KnowledgeSourceItem.id.in_(part)
                )
            )
        )
    fresh: dict[int, tuple[tuple[str, str], ...]] = {}
    revise: list[int] = []
    slow: list[int] = []
    seen: set[str] = set()
    for n in admitted:
        key = items[n].candidate.canonical_key or ""
        if key in seen or items[n].candidate.evidence_text:
            slow.append(n)  # a repeat of a key revises what the batch wrote; or evidence text
            seen.add(key)  # to store as an item first: the per-item path, after the batch
            continue
        seen.add(key)
        if key in held:
            revise.append(n)  # revised in place, in bulk below
            continue
        links = _links(items[n], known)
        if links is None:
            results[n] = BatchOutcome(
                None, RecordNotFoundError("an evidence item is not in this scope")
            )
            continue
        fresh[n] = links
    rows = store.insert_fresh(
        session,
        scope,
        [FreshRecord(items[n].candidate, admitted[n], links) for n, links in fresh.items()],
        store.clock(),
    )
    for n, row in zip(fresh, rows, strict=True):
        results[n] = BatchOutcome(WriteOutcome(WriteAction.CREATED, record_view(row)))
    revised = store.revise_held(
        session,
        scope,
        [
            Revision(
                items[n].candidate,
                admitted[n],
                held[items[n].candidate.canonical_key or ""],
                items[n].evidence,
                items[n].evidence_relation,
                missing=_links(items[n], known) is None,
            )
            for n in revise
        ],
    )
    for n, result in zip(revise, revised, strict=True):
        if isinstance(result, WriteOutcome):
            results[n] = BatchOutcome(result)
        elif result is not None:
            results[n] = BatchOutcome(None, result)
        else:
            slow.append(n)  # no live record of the key: govern_upsert decides (a new one)
    for n in sorted(slow):
        item = items[n]
        try:
            with session.begin_nested():
                results[n] = BatchOutcome(
                    store.govern_upsert(
                        session,
                        scope,
                        item.candidate,
                        evidence=item.evidence,
                        evidence_relation=item.evidence_relation,
                    )
                )
        except UserloreError as exc:
            results[n] = BatchOutcome(None, exc)
    return [r for r in results if r is not None]


def _parts(values: set[Any], size: int = 1_000) -> list[list[Any]]:
    """``values`` in lists of at most ``size``: an ``IN`` list stays under SQLite's bound
    parameter limit however large a caller's batch is."""
    ordered = sorted(values)
    return [ordered[i : i + size] for i in range(0, len(ordered), size)]


def _links(item: BatchItem, known: set[str]) -> tuple[tuple[str, str], ...] | None:
    """The (item id, relation) links of a fresh record; ``None`` if one is not in the scope."""
    own = item.candidate.source_item_id
    links = [(own, "stated_in")] if own is not None else []
    links += [(i, item.evidence_relation) for i in sorted(set(item.evidence) - {own})]
    if any(i not in known for i, _ in links):
        return None
    return tuple(links)
