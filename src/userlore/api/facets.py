"""``lore.facets``: the seed 002 facet controls over the self-learning facet cache."""

from __future__ import annotations

import builtins
import functools
from typing import TYPE_CHECKING, Any

from userlore.api.twins import twin
from userlore.store.governed import GovernedStore
from userlore.validation import text_field

if TYPE_CHECKING:  # the cache loads on first use
    from userlore.learning import CacheRebuilt, Facet, FacetCache, FacetClass


class Facets:
    """List, inspect and override learned facets; ``cache`` is the engine behind them."""

    def __init__(self, store: GovernedStore) -> None:
        self._store = store

    @functools.cached_property
    def cache(self) -> FacetCache:
        """The facet cache (created on first use).

        Configure it with ``lore.facets.cache.set_workspace(dir)`` (``PROFILE.md``) and
        ``lore.facets.cache.start()`` (periodic rebuilds); see ``docs/learning.md``.
        """
        from userlore.learning import FacetCache

        return FacetCache(self._store)

    @property
    def started(self) -> bool:
        """Whether the cache exists yet (closing stops its rebuilds only then)."""
        return "cache" in self.__dict__

    def list(self, scope: str, facet_class: FacetClass | str | None = None) -> builtins.list[Facet]:
        """Active and provisional facets of a scope, optionally of one class."""
        return self.cache.list_facets(scope, facet_class)

    def get(self, scope: str, facet_class: FacetClass | str, key: str) -> Facet:
        return self.cache.get_facet(scope, facet_class, key)

    def update(self, scope: str, facet_class: FacetClass | str, key: str, value: str) -> Facet:
        """Overwrite a facet's value as the user; it is activated and pinned."""
        text_field(value, "value", max_chars=self._store.config.max_content_chars)
        return self.cache.update_facet(scope, facet_class, key, value)

    def pin(self, scope: str, facet_class: FacetClass | str, key: str) -> Facet:
        return self.cache.pin_facet(scope, facet_class, key)

    def unpin(self, scope: str, facet_class: FacetClass | str, key: str) -> Facet:
        return self.cache.unpin_facet(scope, facet_class, key)

    def forget(self, scope: str, facet_class: FacetClass | str, key: str) -> Facet:
        """Drop a facet from context and ``PROFILE.md`` and block its re-promotion."""
        return self.cache.forget_facet(scope, facet_class, key)

    def reset(self, scope: str) -> int:
        """Clear the automatically learned facets (pinned stay); returns how many."""
        return self.cache.reset_cache(scope)

    def rebuild(self, scope: str) -> CacheRebuilt:
        return self.cache.rebuild_cache(scope)

    def stats(self, scope: str) -> dict[str, Any]:
        return self.cache.cache_stats(scope)

    def about(self, scope: str) -> builtins.list[dict[str, Any]]:
        """ "What do you know about me?": each active facet with its evidence receipts."""
        return self.cache.about(scope)

    alist = twin(list)
    aget = twin(get)
    aupdate = twin(update)
    apin = twin(pin)
    aunpin = twin(unpin)
    aforget = twin(forget)
    areset = twin(reset)
    arebuild = twin(rebuild)
    astats = twin(stats)
    aabout = twin(about)
