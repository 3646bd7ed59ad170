"""``Userlore``: the composition root — it wires the governed store, the planner and the namespaces.

The root keeps the turn's two paths (``observe``/``write``, ``plan_context``); everything else is a
namespace in :mod:`userlore.api` (``lore.records``, ``lore.consent``...). Every async method is its
sync twin run in a worker thread (:func:`userlore.api.twins.twin`): one body of logic.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from userlore.api.consent import Consent
from userlore.api.facets import Facets
from userlore.api.feedback import Feedback
from userlore.api.legacy import LegacyRoot
from userlore.api.memory import Memory
from userlore.api.records import Records
from userlore.api.scopes import Scopes
from userlore.api.traces import Traces
from userlore.api.twins import deprecated, twin
from userlore.config import UserContextConfig
from userlore.embeddings import EmbeddingsSpec, resolve_embeddings
from userlore.errors import ConfigError, InvalidInputError, StorageError
from userlore.models import (
    CandidateInput,
    ContextPlan,
    ObserveResult,
    WriteOutcome,
)
from userlore.planner.planner import ContextPlanner
from userlore.policy.quote_gate import turn_safety
from userlore.store.engine import (
    create_store_engine,
    default_database_url,
    prepare_engine,
    setup,
)
from userlore.store.governed import Clock, GovernedStore, IdFactory
from userlore.store.vectors import VectorIndex
from userlore.understanding import MAX_TURN_CHARS as MAX_TURN_CHARS  # re-exported
from userlore.understanding import TurnAuthor, govern, observe_turn, refusal_reasons
from userlore.validation import (
    MAX_KEY_CHARS,
    int_field,
    optional_identifier,
    optional_instant,
    text_field,
    validate_scope,
)

if TYPE_CHECKING:  # connected sources load on first use (they pull in langchain_core models)
    from userlore.api.sources import Sources

__all__ = ["Userlore"]


def _config(
    config: UserContextConfig | Mapping[str, Any] | str | Path | None,
) -> UserContextConfig:
    if config is None:
        return UserContextConfig()
    if isinstance(config, UserContextConfig):
        return config
    if isinstance(config, Mapping):
        return UserContextConfig.from_dict(config)
    if isinstance(config, (str, Path)):
        return UserContextConfig.from_json(config)
    raise ConfigError(
        "config must be a UserContextConfig, a mapping or a JSON file path, "
        f"not {type(config).__name__}"
    )


def _database_name(url: str) -> str:
    """The database a URL names, for messages: the file path, or the URL without password."""
    try:
        parsed = make_url(url)
    except Exception:  # the URL parsed once already; never fail while describing a failure
        return "the database"
    if parsed.get_backend_name() == "sqlite":
        return f"database file {parsed.database!r}" if parsed.database else "in-memory database"
    return f"database {parsed.render_as_string(hide_password=True)!r}"


class Userlore(LegacyRoot):
    """Governed user understanding over one database.

    Example:
        >>> lore = Userlore.open("sqlite://", config={"memory": {"mode": "auto"}})
        >>> _ = lore.observe(scope="u1", role="user", content="Always answer in bullet points.")
        >>> "bullet" in lore.plan_context(scope="u1", query="how do I deploy?").text
        True
    """

    def __init__(self, store: GovernedStore) -> None:
        self._store = store
        self._planner = ContextPlanner(store)
        term_stats = self._planner.term_stats  # one document-frequency cache for every read
        self.records = Records(store)
        self.consent = Consent(store)
        self.memory = Memory(store, term_stats)
        self.facets = Facets(store)
        self.feedback = Feedback(store)
        self.traces = Traces(store)
        self.scopes = Scopes(store, term_stats)

    @classmethod
    def open(
        cls,
        url: str | None = None,
        *,
        config: UserContextConfig | Mapping[str, Any] | str | Path | None = None,
        clock: Clock | None = None,
        ids: IdFactory | None = None,
        engine: Engine | None = None,
        engine_options: Mapping[str, Any] | None = None,
        embeddings: EmbeddingsSpec = None,
    ) -> Userlore:
        """Open (and migrate) a database; no URL means the embedded SQLite file.

        Args:
            url: SQLAlchemy URL; ``sqlite://`` is an in-memory database.
            engine: An existing (sync) SQLAlchemy engine to use instead of ``url``, e.g. the
                application's own pool; :meth:`close` leaves it open for its owner.
            engine_options: Keyword arguments for ``create_engine`` (``pool_size``,
                ``max_overflow``, ``pool_pre_ping``...) when userlore creates the engine.
            config: A ``UserContextConfig``, a ``userContext`` dict, or a JSON file path.
            clock: Returns the current UTC time (tests pass a fixed clock).
            ids: Makes new ids from a prefix (tests pass a deterministic factory).
            embeddings: A LangChain ``Embeddings``, ``"provider:model"`` or ``"local"``; turns
                on stored vectors and hybrid ranking (default: ``planner.embeddings``).

        Raises:
            ConfigError: ``config`` is not a config, mapping or path, or does not validate; the
                URL is not a string or names an unknown dialect; unusable ``embeddings``.
            EmbeddingMismatchError: the database's vectors were made by another model.
            StorageError: the database (named in the message) is unreachable, not a database
                (a corrupt file), or written by a newer userlore.
        """
        cfg = _config(config)
        model = resolve_embeddings(embeddings if embeddings is not None else cfg.planner.embeddings)
        if url is not None and not isinstance(url, str):
            raise ConfigError(f"url must be a str, not {type(url).__name__}")
        if url is not None and "\x00" in url:
            raise ConfigError("url must not contain NUL characters")
        if engine is not None and (url is not None or engine_options is not None):
            raise ConfigError("pass either engine or url/engine_options, not both")
        borrowed = engine is not None
        if engine is None:
            target = url or default_database_url()
            engine = create_store_engine(target, engine_options)
        elif isinstance(engine, Engine):
            target = engine.url.render_as_string(hide_password=True)
            prepare_engine(engine)
        else:
            raise ConfigError(f"engine must be a sqlalchemy Engine, not {type(engine).__name__}")
        try:
            setup(engine)
        except (StorageError, SQLAlchemyError, OSError, ValueError) as exc:
            if not borrowed:
                engine.dispose()
            reason = exc.orig if isinstance(exc, DBAPIError) else exc
            raise StorageError(f"cannot open {_database_name(target)}: {reason}") from None
        store = GovernedStore(engine, cfg, clock=clock, ids=ids)
        if model is not None:
            index = VectorIndex(model)
            try:
                index.attach(engine)
            except BaseException:
                if not borrowed:
                    engine.dispose()
                raise
            store.vectors = index
            store.on_close(index.warm(engine))  # large scopes' matrices load in the background
        lore = cls(store)
        lore._engine_borrowed = borrowed
        return lore

    @property
    def config(self) -> UserContextConfig:
        """The validated ``userContext`` options this instance runs with."""
        return self._store.config

    @functools.cached_property
    def sources(self) -> Sources:
        """Connected sources: ``ingest``, ``sync_pending``, ``coordinator`` and read-only views."""
        from userlore.api.sources import Sources

        return Sources(self._store, self._planner.term_stats)

    @property
    @deprecated("store", "records / consent / traces / memory (the namespaces)")
    def store(self) -> GovernedStore:
        return self._store

    @property
    @deprecated("planner", "plan_context")
    def planner(self) -> ContextPlanner:
        return self._planner

    _engine_borrowed = False
    """Whether the engine was passed to :meth:`open` (its owner disposes of it)."""

    def close(self) -> None:
        """Stop background work (runners, queued plan traces), then release connections.

        An engine passed to :meth:`open` stays open: its owner disposes it.
        """
        if self.facets.started:
            self.facets.cache.stop()  # the periodic facet rebuild, if it was started
        self._store.close_background()
        if not self._engine_borrowed:
            self._store.engine.dispose()

    def __enter__(self) -> Userlore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- write path ---------------------------------------------------------------------------

    def observe(
        self,
        scope: str,
        role: str,
        content: str,
        session_key: str | None = None,
        *,
        turn_id: str | None = None,
        agent_id: str | None = None,
        client: str | None = None,
        device: str | None = None,
        at: datetime | None = None,
    ) -> ObserveResult:
        """Record one conversation turn and govern the explicit statements it makes.

        The turn is stored redacted as evidence; each explicit statement of a user turn becomes a
        typed candidate through the governed write. ``turn_id`` makes replays idempotent. ``at``
        is when the turn was said (a timezone-aware time; default: now): a replayed or queued
        turn is dated by it, not by when it was written.

        Raises:
            InvalidInputError: unknown role; content that is not ``str``, empty, oversized or
                holds NUL characters or unpaired surrogates; a malformed id or author field.
            ScopeError: malformed scope.
        """
        turn = observe_turn(
            self._store,
            scope,
            role,
            content,
            session_key=session_key,
            turn_id=turn_id,
            author=TurnAuthor(agent_id, client, device),
            at=at,
        )
        if turn.facet_evidence and self.facets.started:
            self.facets.cache.notify(scope)  # event-driven rebuild, once the cache is in use
        safety = turn_safety(
            content,
            refused=refusal_reasons(turn.outcomes),
            quote_uncovered=self._store.config.planner.quote_uncovered_languages,
            report=turn.report,
        )
        return ObserveResult(turn.source_item_id, turn.outcomes, safety)

    def write(self, scope: str, candidate: CandidateInput) -> WriteOutcome:
        """Govern a typed candidate from any producer (reviewer, source, tool).

        Raises:
            RecordNotFoundError: ``supersedes_record_id`` or ``source_item_id`` names no row of
                ``scope`` (the same error whether it exists in another scope or nowhere).
        """
        validate_scope(scope)
        if not isinstance(candidate, CandidateInput):
            raise InvalidInputError(
                f"candidate must be a CandidateInput, not {type(candidate).__name__}"
            )
        return govern(self._store, scope, candidate)

    # -- read path ----------------------------------------------------------------------------

    def plan_context(
        self,
        scope: str,
        query: str,
        session_key: str | None = None,
        *,
        budget: int | None = None,
        valid_at: datetime | None = None,
    ) -> ContextPlan:
        """Build the fenced ``<user-context>`` block for one turn and write its trace.

        ``valid_at`` plans as of that (timezone-aware) instant: records valid then, snippets
        stored by then, and "last week" in the question counted back from it.

        Raises:
            InvalidInputError: a query over ``MAX_TURN_CHARS`` (32,000), NUL, or a bad argument.
        """
        validate_scope(scope)
        # Read only, never stored, but bounded: the longest query is one turn (docs/errors.md).
        text_field(query, "query", max_chars=MAX_TURN_CHARS, allow_empty=True)
        optional_identifier(session_key, "session_key", max_chars=MAX_KEY_CHARS)
        if budget is not None:
            int_field(budget, "budget", lo=200, hi=200_000)
        optional_instant(valid_at, "valid_at")
        return self._planner.plan(
            scope, query, session_key=session_key, budget=budget, valid_at=valid_at
        )

    # -- async twins --------------------------------------------------------------------------

    aobserve = twin(observe)
    awrite = twin(write)
    aplan_context = twin(plan_context)
