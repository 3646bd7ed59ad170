# Over 400 lines: the About You page's endpoints with their request and response bodies, one router.
"""JSON endpoints the "About You" page needs beyond the gateway's own (``app.py``).

Consent (list with times and what each grant makes visible, grant, revoke), pin and unpin, the
source cards (indexed items, latest run) with "sync now", one source item (the target of an
evidence link) and ``whoami``. Every endpoint uses the gateway's bearer dependency, so each is
confined to the token's scope exactly like the rest of the API; mutations from a browser also
need the CSRF proof checked by :mod:`userlore.server.web_page`.

"Sync now" only syncs sources the operator connected to this server (:func:`connect_source`, or
``USERLORE_SOURCES_FILE`` for ``userlore serve``): a request can name a source, never a path, so
the page cannot make the server read an arbitrary folder.
"""

from __future__ import annotations

import dataclasses
import json
import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi import Path as PathParam
from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from userlore.errors import (
    ConfigError,
    InvalidInputError,
    InvalidTransitionError,
    RecordNotFoundError,
    SourceSyncError,
)
from userlore.models import ConsentCategory, RecordState, UserState, consent_category
from userlore.policy.sensitivity import SPECIAL_CATEGORIES
from userlore.server.auth import Grant
from userlore.server.errors import ERROR_RESPONSES
from userlore.server.routes import RecordId
from userlore.server.schemas import MemoryOut, SourceItemOut
from userlore.store.governed import validate_scope

if TYPE_CHECKING:
    from userlore.facade import Userlore
    from userlore.sources.base import KnowledgeSourceAdapter
    from userlore.sources.views import SourceStateView, SyncRunView

__all__ = [
    "CSRF_COOKIE",
    "CSRF_HEADER",
    "AboutYouState",
    "ConnectedSources",
    "connect_source",
    "load_source_specs",
    "router",
]

# The double-submit CSRF pair the page sends back (set by ``web_page``, read by ``whoami``).
CSRF_COOKIE = "userlore_csrf"
CSRF_HEADER = "X-Userlore-CSRF"
MAX_CONSENT_RECORDS = 200


# -- connected sources the server may sync -------------------------------------------------------


@dataclass(slots=True)
class _Connected:
    scope: str
    adapter: KnowledgeSourceAdapter
    lock: threading.Lock = field(default_factory=threading.Lock)


class ConnectedSources:
    """Sources this server may sync on request, by (scope, source instance id)."""

    def __init__(self) -> None:
        self._by_key: dict[tuple[str, str], _Connected] = {}
        self._guard = threading.Lock()

    def connect(self, scope: str, adapter: KnowledgeSourceAdapter) -> str:
        """Offer ``adapter`` as a "sync now" source of ``scope``; returns its instance id."""
        validate_scope(scope)
        instance = adapter.source_instance_id
        with self._guard:
            for other_scope, other in self._by_key:
                if other == instance and other_scope != scope:
                    raise ConfigError(f"source {instance!r} is already connected to another scope")
            self._by_key[(scope, instance)] = _Connected(scope, adapter)
        return instance

    def get(self, scope: str, source_instance_id: str) -> _Connected | None:
        return self._by_key.get((scope, source_instance_id))

    def of_scope(self, scope: str) -> dict[str, KnowledgeSourceAdapter]:
        return {sid: c.adapter for (s, sid), c in self._by_key.items() if s == scope}


def load_source_specs(source: Mapping[str, Any] | str | Path) -> list[tuple[str, Any]]:
    """``(scope, adapter)`` pairs from ``{"sources": [{"scope", "kind", "path", "id"?}]}``.

    ``kind`` is one of the offline adapter kinds (``markdown``, ``mbox``, ``slack``, ``locomo``).

    Raises:
        ConfigError: unreadable or malformed file, or an adapter that cannot open its path.
    """
    from userlore.sources.adapters import adapters_for_path

    if isinstance(source, str | Path):
        try:
            source = json.loads(Path(source).read_text(encoding="utf-8"))
        except OSError as exc:
            raise ConfigError(f"cannot read sources file {source}: {exc.strerror}") from None
        except json.JSONDecodeError as exc:
            raise ConfigError(f"sources file {source} is not valid JSON: {exc}") from None
    entries = source.get("sources") if isinstance(source, Mapping) else None
    if not isinstance(entries, list):
        raise ConfigError('sources must be {"sources": [{"scope", "kind", "path"}]}')
    pairs: list[tuple[str, Any]] = []
    for n, entry in enumerate(entries):
        if not isinstance(entry, Mapping) or not {"scope", "kind", "path"} <= set(entry):
            raise ConfigError(f"sources[{n}] needs 'scope', 'kind' and 'path'")
        try:
            scope = validate_scope(entry["scope"])
            adapters = adapters_for_path(
                entry["path"], str(entry["kind"]), source_instance_id=entry.get("id")
            )
        except InvalidInputError as exc:
            raise ConfigError(f"sources[{n}]: {exc}") from None
        pairs.extend((scope, adapter) for adapter in adapters)
    return pairs


@dataclass(slots=True)
class AboutYouState:
    """What the page's endpoints need, kept on ``app.state.about_you``."""

    lore: Userlore
    sources: ConnectedSources = field(default_factory=ConnectedSources)


def connect_source(app: FastAPI, scope: str, adapter: KnowledgeSourceAdapter) -> str:
    """Let the page's "sync now" sync ``adapter`` into ``scope``; returns its instance id.

    Raises:
        ConfigError: the app was not built by :func:`userlore.server.create_app`, or the source
            is already connected to another scope.
    """
    state = getattr(app.state, "about_you", None)
    if not isinstance(state, AboutYouState):
        raise ConfigError("connect_source needs an app made by userlore.server.create_app")
    return state.sources.connect(scope, adapter)


def sources_from_environment() -> list[tuple[str, Any]]:
    """Connected sources named by ``USERLORE_SOURCES_FILE`` (none when unset)."""
    path = os.environ.get("USERLORE_SOURCES_FILE")
    return load_source_specs(Path(path)) if path else []


def _state(request: Request) -> AboutYouState:
    state: AboutYouState = request.app.state.about_you
    return state


State = Annotated[AboutYouState, Depends(_state)]
# Documented as the known categories (any letter case is accepted, and an unknown one is a 422).
Category = Annotated[
    str,
    PathParam(
        description="A special category (case-insensitive).",
        json_schema_extra={"enum": sorted(c.value for c in ConsentCategory)},
    ),
]


# -- bodies --------------------------------------------------------------------------------------


class WhoAmIOut(BaseModel):
    scope: str
    agent_id: str | None
    client: str | None
    csrf_header: str = Field(description="Header a browser mutation must carry.")
    csrf_cookie: str = Field(description="Cookie whose value that header must repeat.")


class ConsentPeriodOut(BaseModel):
    granted_at: datetime
    revoked_at: datetime | None


class ConsentRecordOut(BaseModel):
    id: str
    kind: str
    state: str
    version: int
    content: str
    enters_context: bool = Field(
        description="Whether the record enters context while this category is granted."
    )


class ConsentCategoryOut(BaseModel):
    category: str
    granted: bool
    granted_at: datetime | None = Field(description="Start of the current (or last) grant.")
    revoked_at: datetime | None = Field(description="End of the last grant, if revoked.")
    history: list[ConsentPeriodOut]
    records: list[ConsentRecordOut] = Field(description="What a grant makes visible.")
    visible: int = Field(description="Records that enter context while granted.")


class ConsentsOut(BaseModel):
    granted: list[str]
    categories: list[ConsentCategoryOut]


class SyncRunCardOut(BaseModel):
    id: str
    status: str
    counts: dict[str, int]
    warnings: list[str]
    error: str | None
    started_at: datetime
    finished_at: datetime | None
    duration_ms: float | None


class SourceCardOut(BaseModel):
    source_instance_id: str
    kind: str
    label: str
    items: int = Field(description="Indexed (not deleted) items.")
    pending: int = Field(description="Items waiting for synthesis.")
    refused: int = Field(default=0, description="Items whose record the sensitivity floor refused.")
    updated_at: datetime | None
    syncable: bool = Field(description="Connected to this server, so 'sync now' works.")
    latest_run: SyncRunCardOut | None


class SourcesOut(BaseModel):
    sources: list[SourceCardOut]


class SyncNowIn(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="forbid", frozen=True
    )
    source_instance_id: str = Field(min_length=1, max_length=300)


class SyncNowOut(BaseModel):
    status: str
    run_id: str | None
    counts: dict[str, int]
    warnings: list[str]
    error: str | None
    synthesis: dict[str, int] | None
    source: SourceCardOut


# -- helpers -------------------------------------------------------------------------------------


def _run_card(run: SyncRunView | None) -> SyncRunCardOut | None:
    if run is None:
        return None
    return SyncRunCardOut(
        id=run.id,
        status=run.status,
        counts=dict(run.counts),
        warnings=list(run.warnings),
        error=run.error,
        started_at=run.started_at,
        finished_at=run.finished_at,
        duration_ms=run.duration_ms,
    )


def _cards(state: AboutYouState, scope: str) -> list[SourceCardOut]:
    connected = state.sources.of_scope(scope)
    views: list[SourceStateView] = state.lore.sources.sources(scope)
    cards = [
        SourceCardOut(
            source_instance_id=v.source_instance_id,
            kind=v.kind,
            label=v.label,
            items=v.items,
            pending=v.pending,
            refused=v.refused,
            updated_at=v.updated_at,
            syncable=v.source_instance_id in connected,
            latest_run=_run_card(v.latest_run),
        )
        for v in views
    ]
    known = {c.source_instance_id for c in cards}
    for sid, adapter in sorted(connected.items()):
        if sid not in known:  # connected, never synced successfully (a failed run has no state)
            runs = state.lore.sources.sync_runs(scope, source_instance_id=sid, limit=1)
            cards.append(
                SourceCardOut(
                    source_instance_id=sid,
                    kind=str(getattr(adapter, "kind", "source")),
                    label=str(getattr(adapter, "label", "") or sid),
                    items=0,
                    pending=0,
                    updated_at=None,
                    syncable=True,
                    latest_run=_run_card(runs[0] if runs else None),
                )
            )
    return cards


def _consents(lore: Userlore, scope: str) -> ConsentsOut:
    grants = lore.consent.history(scope)
    records = lore.consent.records(scope, limit=MAX_CONSENT_RECORDS)
    categories = sorted(
        SPECIAL_CATEGORIES
        | {g.category for g in grants}
        | {str(r.sensitivity_category) for r in records}
    )
    out: list[ConsentCategoryOut] = []
    for category in categories:
        periods = [g for g in grants if g.category == category]
        open_ = [g for g in periods if g.revoked_at is None]
        last = open_[-1] if open_ else (periods[-1] if periods else None)
        mine = [
            ConsentRecordOut(
                id=r.id,
                kind=r.kind,
                state=r.state,
                version=r.version,
                content=r.content,
                enters_context=(
                    r.state is RecordState.ACTIVE and r.user_state is not UserState.FORGOTTEN
                ),
            )
            for r in records
            if r.sensitivity_category == category
        ]
        out.append(
            ConsentCategoryOut(
                category=category,
                granted=bool(open_),
                granted_at=last.granted_at if last is not None else None,
                revoked_at=last.revoked_at if last is not None else None,
                history=[
                    ConsentPeriodOut(granted_at=g.granted_at, revoked_at=g.revoked_at)
                    for g in periods
                ],
                records=mine,
                visible=sum(1 for r in mine if r.enters_context),
            )
        )
    return ConsentsOut(granted=sorted(c.category for c in out if c.granted), categories=out)


def _change_consent(
    lore: Userlore, scope: str, category: str, *, grant: bool
) -> ConsentCategoryOut:
    """Grant or revoke a category (any letter case); answers with its card as it now stands."""
    name = consent_category(category)
    (lore.consent.grant if grant else lore.consent.revoke)(scope, name)
    return next(c for c in _consents(lore, scope).categories if c.category == name)


# -- routes --------------------------------------------------------------------------------------

router = APIRouter(responses=ERROR_RESPONSES, tags=["about-you"])


@router.get(
    "/api/user-context/whoami",
    response_model=WhoAmIOut,
    summary="The scope and identity of the bearer token (what the page shows as 'you').",
)
def whoami(g: Grant) -> WhoAmIOut:
    return WhoAmIOut(
        scope=g.scope,
        agent_id=g.agent_id,
        client=g.client,
        csrf_header=CSRF_HEADER,
        csrf_cookie=CSRF_COOKIE,
    )


@router.get(
    "/api/user-context/consents",
    response_model=ConsentsOut,
    summary="Special categories: granted or revoked, when, and what each grant makes visible.",
)
def list_consents(g: Grant, state: State) -> ConsentsOut:
    return _consents(state.lore, g.scope)


@router.post(
    "/api/user-context/consents/{category}/grant",
    response_model=ConsentCategoryOut,
    summary="Grant consent for a special category (its records may enter context).",
)
def grant_consent(g: Grant, state: State, category: Category) -> ConsentCategoryOut:
    return _change_consent(state.lore, g.scope, category, grant=True)


@router.post(
    "/api/user-context/consents/{category}/revoke",
    response_model=ConsentCategoryOut,
    summary="Revoke consent; the category's records leave context at the next plan.",
)
def revoke_consent(g: Grant, state: State, category: Category) -> ConsentCategoryOut:
    return _change_consent(state.lore, g.scope, category, grant=False)


@router.post(
    "/api/user-context/memories/{record_id}/pin",
    response_model=MemoryOut,
    summary="Pin a record (seed 002 user override: it stays active).",
)
def pin(g: Grant, state: State, record_id: RecordId) -> Any:
    return state.lore.records.pin(g.scope, record_id)


@router.post(
    "/api/user-context/memories/{record_id}/unpin",
    response_model=MemoryOut,
    summary="Unpin a record (back to automatic).",
)
def unpin(g: Grant, state: State, record_id: RecordId) -> Any:
    return state.lore.records.unpin(g.scope, record_id)


@router.get(
    "/api/knowledge/sources",
    response_model=SourcesOut,
    summary="One card per connected source: indexed items, pending work, latest sync run.",
)
def sources(g: Grant, state: State) -> SourcesOut:
    return SourcesOut(sources=_cards(state, g.scope))


@router.post(
    "/api/knowledge/sources/sync",
    response_model=SyncNowOut,
    summary="Sync now: pull a source connected to this server and synthesize its changes.",
)
def sync_now(g: Grant, state: State, body: SyncNowIn) -> SyncNowOut:
    connected = state.sources.get(g.scope, body.source_instance_id)
    if connected is None:
        raise RecordNotFoundError(
            f"no source {body.source_instance_id!r} connected for scope {g.scope!r}"
        )
    if not connected.lock.acquire(blocking=False):
        raise InvalidTransitionError("a sync of this source is already running")
    try:
        try:
            report = state.lore.sources.ingest(g.scope, connected.adapter)
        except SourceSyncError as exc:
            card = next(
                c for c in _cards(state, g.scope) if c.source_instance_id == body.source_instance_id
            )
            run = card.latest_run
            return SyncNowOut(
                status="failed",
                run_id=exc.run_id,
                counts=dict(run.counts) if run else {},
                warnings=list(run.warnings) if run else [],
                error=run.error if run else str(exc),
                synthesis=None,
                source=card,
            )
    finally:
        connected.lock.release()
    card = next(
        c for c in _cards(state, g.scope) if c.source_instance_id == report.source_instance_id
    )
    return SyncNowOut(
        status=report.status,
        run_id=report.run_id,
        counts=report.counts.as_dict(),
        warnings=list(report.warnings),
        error=report.error,
        synthesis=report.synthesis.as_dict() if report.synthesis else None,
        source=card,
    )


@router.get(
    "/api/knowledge/source-items/{item_id}",
    response_model=SourceItemOut,
    summary="One redacted source item of the scope (where an evidence link points).",
)
def source_item(g: Grant, state: State, item_id: str) -> dict[str, Any]:
    return dataclasses.asdict(state.lore.sources.item(g.scope, item_id))
